"""How a code block becomes what the sandbox runs (``checker.scan.program``): an IPython or
Jupyter console transcript reads like a doctest session."""

from __future__ import annotations

from checker.scan.program import from_block

TRANSCRIPT = """\
In [1]: import torch

In [2]: x = torch.arange(6.).reshape(2, 3)

In [3]: for row in x:
   ...:     print(row.sum())
   ...:
tensor(3.)
tensor(12.)

In [4]: x.t().is_contiguous()
Out[4]: False

In [5]: %timeit x.clone()
1.2 µs ± 10 ns per loop (mean ± std. dev. of 7 runs, 1,000,000 loops each)

In [6]: x.shape
Out[6]: torch.Size([2, 3])"""


def test_an_ipython_transcript_runs_as_a_session_and_its_outputs_are_compared() -> None:
    lines = tuple(range(10, 10 + TRANSCRIPT.count("\n") + 1))
    program, outputs = from_block(TRANSCRIPT, lines)
    assert program.mode == "single" and program.doctest
    assert program.source.split("\n") == [
        "import torch",
        "x = torch.arange(6.).reshape(2, 3)",
        "for row in x:",
        "    print(row.sum())",
        "",
        "x.t().is_contiguous()",
        "pass",  # the magic runs nothing, and its timing is not compared
        "x.shape",
    ]
    # (statements before the output, the output, the article line it is shown on)
    assert outputs == [
        (5, "tensor(3.)\ntensor(12.)", 17),
        (6, "False", 21),
        (8, "torch.Size([2, 3])", 27),
    ]
    assert program.lines[:3] == (10, 12, 14)


def test_a_block_without_prompts_is_a_script() -> None:
    program, outputs = from_block("x = 1\nprint(x)  # In [1]: is only text here", (1, 2))
    assert (program.mode, program.doctest, outputs) == ("exec", False, [])


def test_an_ellipsis_inside_shown_output_is_output_not_a_continuation() -> None:
    text = (
        ">>> w.add_(1)\n"
        "Traceback (most recent call last):\n"
        "  ...\n"
        "RuntimeError: a leaf Variable ...\n"
        ">>> for i in range(2):\n"
        "...     print(i)\n"
        "0\n"
        "1"
    )
    program, outputs = from_block(text, tuple(range(1, 9)))
    assert program.source.split("\n") == ["w.add_(1)", "for i in range(2):", "    print(i)"]
    assert outputs == [
        (1, "Traceback (most recent call last):\n...\nRuntimeError: a leaf Variable ...", 2),
        (3, "0\n1", 7),
    ]
