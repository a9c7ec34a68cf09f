"""What code comments and pasted outputs say, read and compared as they deserve (issue 23):
comments saying a line raises or runs (``checker.scan.raising``), a number's kind and dtype
in stated and shown values (``values``, ``compare``), the repair of integer data with
``requires_grad=True`` and of ``torch.Variable`` (``repairs``), output pasted under code in
plain text (``pasted``).

The end-to-end cases are in ``tests/samples/scan/{en,ja,ko}`` (``raising.md``, ``pasted.txt``)
and ``tests/test_scan_articles.py``; these pin each rule on our own small examples.
"""

from __future__ import annotations

import ast

import pytest

from checker.scan import compare, repairs
from checker.scan.codelines import split_blocks
from checker.scan.document import Block, BlockKind
from checker.scan.program import expectations, from_block
from checker.scan.raising import RAISES, RUNS, stated_outcome
from checker.scan.statements import comment_statements
from checker.scan.values import same_value, stated_value

# -- comments saying a line raises, or runs ----------------------------------------------------


@pytest.mark.parametrize(
    ("comment", "kind", "exception"),
    [
        ("RuntimeError: a leaf Variable that requires grad is being used", RAISES, "RuntimeError"),
        ("raises TypeError", RAISES, "TypeError"),
        ("-> error", RAISES, ""),
        ("this gives an error", RAISES, ""),
        ("no error", RUNS, ""),
        ("doesn't raise: y is not a leaf", RUNS, ""),
        ("no RuntimeError here", RUNS, ""),
        ("ここでエラーになる", RAISES, ""),
        ("エラーが出る可能性が高い", RAISES, ""),  # a likelihood predicts this run
        ("例外が発生します", RAISES, ""),
        ("エラーにならない", RUNS, ""),
        ("エラーにはならない", RUNS, ""),
        ("エラーなく動く", RUNS, ""),
        ("エラーなし", RUNS, ""),
        ("에러 발생!", RAISES, ""),
        ("오류가 난다", RAISES, ""),
        ("에러가 나지 않음", RUNS, ""),
        ("오류 없이 실행됨", RUNS, ""),
    ],
)
def test_a_comment_says_its_line_raises_or_runs(comment: str, kind: str, exception: str) -> None:
    stated = stated_outcome(comment)
    assert stated is not None
    assert (stated.kind, stated.exception, stated.words) == (kind, exception, comment)


@pytest.mark.parametrize(
    "comment",
    [
        "may raise on some devices",  # a hedge
        "raises if x is a leaf",  # a condition
        "エラーになる場合がある",
        "エラーが出るかもしれない",
        "에러가 발생할 수 있다",
        "no error here, but backward() raises",  # two lines' outcomes
        "<class 'RuntimeError'>",  # a printed value that names an exception
        "catches the RuntimeError",
        "error",  # a word: the loss's error, a label
        "raise the learning rate",  # a verb that is not about exceptions
        "loss error term",
        "tensor([1., 2.])",
        "",
    ],
)
def test_a_comment_that_says_nothing_outright_is_not_read(comment: str) -> None:
    assert stated_outcome(comment) is None


def test_a_comment_line_under_a_statement_is_read_only_as_the_exception_it_prints() -> None:
    under = stated_outcome("ValueError: too many values", own_line=True)
    assert under is not None and (under.kind, under.exception) == (RAISES, "ValueError")
    assert stated_outcome("the next line raises", own_line=True) is None  # which line?


def test_comments_on_running_become_expectations_of_their_statements() -> None:
    source = "\n".join(
        [
            "a = f()",
            "a.add_(1)  # raises",
            "# RuntimeError: it printed this",
            "b = g()",
            "for i in range(2):",
            "    b.add_(i)  # no error",
            "    b.mul_(i)  # raises",  # in a loop: it may raise on any turn, or never
            "c = h(",
            "    1)  # no error",  # a line of a longer statement: not where it raises
        ]
    )
    program, outputs = from_block(source, tuple(range(10, 19)))
    found = expectations(program, ast.parse(program.source), outputs, None, 0)
    assert [(e.source, e.first, e.line, e.text, e.said) for e in found] == [
        (RAISES, 1, 11, "", "raises"),
        (RUNS, 3, 15, "", "no error"),
    ]


# -- a number's kind and dtype ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stated", "printed", "same"),
    [
        ("[2, 3, 4]", "tensor([2., 3., 4.])", True),  # a bare list: the values only
        ("2", "2.0", True),
        ("[999.0, 4.0]", "tensor([999.,   4.])", True),
        ("tensor([2, 4])", "tensor([2, 4])", True),
        ("tensor([1., 2.], dtype=torch.float32)", "tensor([1., 2.])", True),
        ("tensor([1., 2.], dtype=torch.float32)", "tensor([1, 2])", False),  # int64 by its digits
        ("tensor([1, 2], dtype=torch.float32)", "tensor([1, 2])", False),
        ("tensor([2, 4])", "tensor([2., 4.])", False),  # the repr of another dtype
        ("2.0", "2", False),  # a float stated, an integer printed
        ("tensor(3.)", "tensor(3)", False),
        ("[1, 2, 3]", "tensor([2., 3., 4.])", False),  # other values
    ],
)
def test_a_stated_value_differs_in_kind_where_the_article_states_its_kind(
    stated: str, printed: str, same: bool
) -> None:
    assert same_value(stated, printed) is same


def test_a_run_whose_dtype_a_repair_changed_is_compared_on_values() -> None:
    assert same_value("tensor([2, 4])", "tensor([2., 4.])", kinds=False)
    assert not same_value("tensor([2, 4])", "tensor([2., 5.])", kinds=False)
    assert compare.matches("tensor([1, 2])", "tensor([1., 2.])", kinds=False)


@pytest.mark.parametrize(
    ("shown", "printed", "same"),
    [
        ("tensor([1., 2.])", "tensor([1., 2.])", True),
        ("tensor([1., 2.])", "tensor([1, 2])", False),
        ("tensor([1, 2])", "tensor([1., 2.])", False),
        ("2.0", "2", False),
        ("2", "2.0", True),  # outside a tensor's repr, an integer shown may round a float
        ("<SumBackward0 object at 0x118f1c710>", "<SumBackward0 object at 0x7f01d2c3b4a0>", True),
        ("<SumBackward0 object at 0x118f1c710>", "<MulBackward0 object at 0x7f01d2c3b4a0>", False),
    ],
)
def test_a_shown_output_differs_in_kind_and_not_in_an_address(
    shown: str, printed: str, same: bool
) -> None:
    assert compare.matches(shown, printed) is same


@pytest.mark.parametrize(
    ("comment", "value"),
    [
        ("2. 転置してから形を合わせる", None),  # a step's number
        ("3) then backward", None),
        ("1.「作成」", None),
        ("2.", "2."),
        ("2.0 になる", "2.0"),
    ],
)
def test_a_steps_number_is_no_stated_value(comment: str, value: str | None) -> None:
    assert stated_value(comment) == value


@pytest.mark.parametrize(
    ("comment", "value"),
    [
        ("True (y was computed from x)", "True"),  # a note in words after the value
        ("tensor([1.]) (a copy)", "tensor([1.])"),
        ("True (공유됨)", "True"),
        ("(2, 3)", "(2, 3)"),
        ("torch.Size([2]) (torch.float32)", "torch.Size([2]) (torch.float32)"),  # two values
    ],
)
def test_a_note_in_brackets_after_a_value_is_no_second_value(comment: str, value: str) -> None:
    assert stated_value(comment) == value


def test_a_comment_about_running_its_line_is_not_read_as_a_claim() -> None:
    code = Block(
        BlockKind.CODE,
        "d = c.detach()  # shares memory with c\nd += 1  # no error, d is not tracked",
        (3, 4),
    )
    assert [(b.line, b.text) for b in comment_statements(code)] == [
        (3, "`detach()` shares memory with c")
    ]


# -- repairs of a known, trivial fault ------------------------------------------------------------


def test_integer_data_that_requires_grad_is_written_as_floats() -> None:
    source = "import torch\nx = torch.tensor([1, -2], requires_grad=True)\ny = x * 2\n"
    repair = repairs.plan(source, ast.parse(source))
    assert repair is not None
    assert (
        repair.source
        == "import torch\nx = torch.tensor([1., -2.], requires_grad=True)\ny = x * 2\n"
    )
    assert repair.statement == 1
    assert "Only Tensors of floating point" in repair.error.replace("\\", "")
    assert "`[1, -2]` as `[1.0, -2.0]`" in repair.how


def test_torch_variable_is_read_as_torch_autograd_variable() -> None:
    source = "import torch as t\nv = t.Variable(t.ones(1))\nw = t.Variable(v)\n"
    repair = repairs.plan(source, ast.parse(source))
    assert repair is not None and not repair.values_only
    assert repair.source == (
        "import torch as t\nv = t.autograd.Variable(t.ones(1))\nw = t.autograd.Variable(v)\n"
    )
    assert (repair.statement, repair.how) == (1, "`t.Variable` read as `t.autograd.Variable`")


def test_a_statement_with_two_faults_resumes_on_either_error() -> None:
    source = "x = torch.Variable(torch.tensor([1], requires_grad=True))"
    repair = repairs.plan(source, ast.parse(source))
    assert repair is not None and repair.values_only
    assert repair.source == "x = torch.autograd.Variable(torch.tensor([1.], requires_grad=True))"
    assert "Only Tensors" in repair.error and "has no attribute 'Variable'" in repair.error


@pytest.mark.parametrize(
    "source",
    [
        "x = torch.tensor([1.0, 2], requires_grad=True)",  # float data already
        "from torch.autograd import Variable\nx = Variable(torch.ones(1))",
        "x = torch.autograd.Variable(torch.ones(1))",
        "x = torch.tensor([1, 2], dtype=torch.float32, requires_grad=True)",
        "x = torch.tensor([1, 2])",  # no gradient asked for
        "x = torch.tensor([0x1, 2], requires_grad=True)",  # not a plain decimal literal
        "x = torch.tensor(values, requires_grad=True)",  # data the code computes
        "for i in range(2):\n    x = torch.tensor([i, 1], requires_grad=True)",
        "for i in range(2):\n    x = torch.tensor([1, 1], requires_grad=True)",  # in a loop
    ],
)
def test_code_without_that_fault_is_not_repaired(source: str) -> None:
    assert repairs.plan(source, ast.parse(source)) is None


# -- output pasted under code in plain text -----------------------------------------------------


def _blocks(text: str) -> list[tuple[str, int, str]]:
    return [(b.kind.value, b.line, b.text) for b in split_blocks(text.split("\n"), 1)]


def test_values_after_a_blank_line_are_the_codes_output() -> None:
    text = "\n".join(
        [
            "Printing two tensors:",
            "import torch",
            "a = torch.ones(2)",
            "print(a)",
            "",
            "print(a * 2)",
            "",
            "tensor([1., 1.])",
            "tensor([2., 2.])",
            "<MulBackward0 object at 0x7f0000000000>",
        ]
    )
    found = _blocks(text)
    assert (
        BlockKind.CODE.value,
        2,
        "import torch\na = torch.ones(2)\nprint(a)\n\nprint(a * 2)",
    ) in found
    assert (
        BlockKind.OUTPUT.value,
        8,
        "tensor([1., 1.])\ntensor([2., 2.])\n<MulBackward0 object at 0x7f0000000000>",
    ) in found


def test_code_after_a_blank_line_stays_code() -> None:
    text = "\n".join(["import torch", "a = torch.ones(2)", "print(a)", "", "a[0]", "b = a * 2"])
    assert [kind for kind, _, _ in _blocks(text)] == [BlockKind.CODE.value]


def test_what_the_code_prints_then_an_exception_is_its_output() -> None:
    text = "\n".join(
        [
            "import torch",
            'print("going backward")',
            "torch.ones(2).sum().backward()",
            "",
            "going backward",
            "",
            "RuntimeError: element 0 of tensors does not require grad",
            "",
            "A sentence after it.",
        ]
    )
    kinds = [(kind, line) for kind, line, _ in _blocks(text)]
    assert kinds == [("code", 1), ("output", 5), ("prose", 9)]
    output = next(t for k, _, t in _blocks(text) if k == "output")
    assert output == "going backward\nRuntimeError: element 0 of tensors does not require grad"


def test_an_exception_announced_by_a_sentence_is_the_codes_output() -> None:
    text = "\n".join(
        [
            "import torch",
            "x = torch.ones(1)",
            "x.sum().backward()",
            "Running it fails with the following error:",
            "RuntimeError: element 0 of tensors does not require grad",
        ]
    )
    assert [(k, line) for k, line, _ in _blocks(text)] == [
        ("code", 1),
        ("output", 5),
        ("prose", 4),  # the sentence stays prose, after the output it announces
    ]


def test_a_sentence_after_code_is_not_its_output() -> None:
    text = "\n".join(
        [
            "import torch",
            'print("done")',
            "x = torch.ones(1)",
            "",
            "done",  # what it prints, but no exception follows: partial output is not compared
            "This explains the code.",
        ]
    )
    assert "output" not in [k for k, _, _ in _blocks(text)]


def test_a_bare_exception_line_counts_as_shown_only_for_code_that_raised() -> None:
    shown = "going backward\nRuntimeError: element 0 of tensors does not require grad"
    assert compare.shown_exception(shown) is None
    assert compare.shown_exception(shown, bare=True) == (
        "RuntimeError",
        "element 0 of tensors does not require grad",
    )
    raised = (
        "Traceback (most recent call last):\n"
        "RuntimeError: element 0 of tensors does not require grad"
    )
    assert compare.matches(shown, raised, bare=True)
    assert not compare.matches(shown, "going backward\ntensor([1.])")
