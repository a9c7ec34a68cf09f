"""Claims of "How the code fails" (docs/reviews/amp-custom-bwd-article.md,
``(amp-review-failures)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect
from checker.claims.amp._precision import dtype_name
from checker.evidence import Measurement, Observation
from checker.measure import caught_warnings, error_text
from checker.typing import Device


def _compile_error(source: str) -> tuple[str, int]:
    try:
        compile(source, "<block>", "exec")
    except SyntaxError as exc:
        return f"{type(exc).__name__}: {exc.msg}", exc.lineno or 0
    return "no error", 0


def probe_unindented_function(device: Device) -> Observation:
    return _function_block_rule(UNINDENTED_FUNCTION)


def control_indented_function(device: Device) -> Observation:
    return _function_block_rule(INDENTED_FUNCTION)


#: Our own code with the shape of the article's function blocks, indentation lost: two
#: imports, a def, a comment, a with statement.
UNINDENTED_FUNCTION = (
    "import math\n"
    "import warnings\n"
    "def halve(values):\n"
    "# a comment line\n"
    "with warnings.catch_warnings():\n"
    "result = [v / 2 for v in values]\n"
    "return result\n"
)

#: The same two blocks with their indentation restored.
INDENTED_FUNCTION = (
    "import math\n"
    "import warnings\n"
    "def halve(values):\n"
    "    # a comment line\n"
    "    with warnings.catch_warnings():\n"
    "        result = [v / 2 for v in values]\n"
    "    return result\n"
)


def _function_block_rule(source: str) -> Observation:
    error, line = _compile_error(source)
    return Observation(
        holds=error.startswith("IndentationError")
        and "after function definition on line 3" in error
        and line == 5,
        rule="holds if compiling the block raises IndentationError at its line 5, "
        "expecting an indented block after the function definition on line 3",
        measurements=(
            Measurement("amp-unindented-function-error", error, "exception"),
            Measurement("amp-unindented-function-line", line, "count"),
        ),
    )


ARTICLE_UNINDENTED_FUNCTION_BLOCK = Claim(
    id="amp/article-unindented-function-block",
    statement="A function block whose indentation was lost does not compile: Python raises an "
    "IndentationError at the first statement after the def.",
    expect=Expect.HOLDS,
    probe=probe_unindented_function,
    control=Control(
        "the same block with its indentation restored",
        control_indented_function,
    ),
    devices=("cpu",),
    measures=("amp-unindented-function-error", "amp-unindented-function-line"),
)


def probe_unindented_class(device: Device) -> Observation:
    return _class_block_rule(UNINDENTED_CLASS)


def control_indented_class(device: Device) -> Observation:
    return _class_block_rule(INDENTED_CLASS)


#: Our own code with the shape of the article's class blocks, indentation lost: three imports,
#: a comment, a class whose first statement is a def.
UNINDENTED_CLASS = (
    "import math\n"
    "import torch\n"
    "import torch.nn as nn\n"
    "# a comment line\n"
    "class Halver(nn.Module):\n"
    "def forward(self, x):\n"
    "return x / 2\n"
)

INDENTED_CLASS = (
    "import math\n"
    "import torch\n"
    "import torch.nn as nn\n"
    "# a comment line\n"
    "class Halver(nn.Module):\n"
    "    def forward(self, x):\n"
    "        return x / 2\n"
)


def _class_block_rule(source: str) -> Observation:
    error, line = _compile_error(source)
    return Observation(
        holds=error.startswith("IndentationError")
        and "after class definition on line 5" in error
        and line == 6,
        rule="holds if compiling the block raises IndentationError at its line 6, "
        "expecting an indented block after the class definition on line 5",
        measurements=(
            Measurement("amp-unindented-class-error", error, "exception"),
            Measurement("amp-unindented-class-line", line, "count"),
        ),
    )


ARTICLE_UNINDENTED_CLASS_BLOCK = Claim(
    id="amp/article-unindented-class-block",
    statement="A class block whose indentation was lost does not compile: Python raises an "
    "IndentationError at the first statement after the class line.",
    expect=Expect.HOLDS,
    probe=probe_unindented_class,
    control=Control(
        "the same block with its indentation restored",
        control_indented_class,
    ),
    devices=("cpu",),
    measures=("amp-unindented-class-error", "amp-unindented-class-line"),
)


def probe_block_a_restored(device: Device) -> Observation:
    return _block_a_rule(as_article=True)


def control_block_a_with_decorator_call(device: Device) -> Observation:
    return _block_a_rule(as_article=False)


def _block_a_rule(as_article: bool) -> Observation:
    import torch

    cuda_amp: Any = torch.cuda.amp  # the article's spelling, and its wrong call

    def lower_precision_relu(values: Any) -> Any:
        with cuda_amp.autocast(dtype=torch.float16):
            return torch.relu(values)

    def run() -> tuple[str, str]:
        values = torch.randn(10, 20)
        result = lower_precision_relu(values)
        if as_article:
            error = error_text(lambda: cuda_amp.custom_bwd(values, result, args=(values,)))
        else:
            error = error_text(lambda: cuda_amp.custom_bwd(lower_precision_relu))
        return dtype_name(result.dtype), error

    (relu_dtype, error), caught = caught_warnings(run)
    categories = sorted({c for c, _ in caught})
    return Observation(
        holds=relu_dtype == "float32" and error.startswith("TypeError") and "'args'" in error,
        rule="holds if, in our restored version of the block, relu of a CPU tensor inside "
        "torch.cuda.amp.autocast(dtype=torch.float16) returns float32 and the custom_bwd call"
        + (" " if as_article else " (used as a decorator) ")
        + "then raises TypeError about the keyword args",
        measurements=(
            Measurement("amp-block-a-relu-dtype", relu_dtype, "dtype"),
            Measurement("amp-block-a-error", error, "exception"),
            Measurement("amp-block-a-warnings", ", ".join(categories), "text"),
        ),
    )


ARTICLE_BLOCK_A_RESTORED = Claim(
    id="amp/article-block-a-restored",
    statement="With its indentation restored, the article's first example computes relu in "
    "float32, not float16, and then fails with a TypeError at its custom_bwd call.",
    expect=Expect.HOLDS,
    probe=probe_block_a_restored,
    control=Control(
        "custom_bwd used as a decorator",
        control_block_a_with_decorator_call,
    ),
    devices=("cpu",),
    measures=("amp-block-a-relu-dtype", "amp-block-a-error", "amp-block-a-warnings"),
)


def probe_default_argument_nameerror(device: Device) -> Observation:
    return _default_argument_rule("def pick(first, rest=(later,)):\n    return first\nlater = 1\n")


def control_default_argument_assigned_first(device: Device) -> Observation:
    return _default_argument_rule("later = 1\ndef pick(first, rest=(later,)):\n    return first\n")


def _default_argument_rule(source: str) -> Observation:
    error = error_text(lambda: exec(source, {}))
    return Observation(
        holds=error.startswith("NameError") and "later" in error,
        rule="holds if running the definition of a function whose default argument names "
        + (
            "`later` raises NameError (after `later` is assigned)"
            if source.startswith("def")
            else "`later` raises NameError (before `later` is assigned)"
        ),
        measurements=(Measurement("amp-default-argument-error", error, "exception"),),
    )


ARTICLE_DEFAULT_ARGUMENT_NAMEERROR = Claim(
    id="amp/article-default-argument-nameerror",
    statement="A default argument that names a variable assigned after the def raises "
    "NameError when the def runs.",
    expect=Expect.HOLDS,
    probe=probe_default_argument_nameerror,
    control=Control(
        "the variable assigned before the definition",
        control_default_argument_assigned_first,
    ),
    devices=("cpu",),
    measures=("amp-default-argument-error",),
)


def probe_relu_model_empty_optimizer(device: Device) -> Observation:
    return _empty_optimizer_rule(with_linear=False)


def control_model_with_linear(device: Device) -> Observation:
    return _empty_optimizer_rule(with_linear=True)


def _empty_optimizer_rule(with_linear: bool) -> Observation:
    import torch

    layers = [torch.nn.Linear(2, 2)] if with_linear else []
    model = torch.nn.Sequential(*layers, torch.nn.ReLU())
    count = len(list(model.parameters()))
    error = error_text(lambda: torch.optim.Adam(model.parameters()))
    return Observation(
        holds=count == 0 and error.startswith("ValueError") and "empty parameter list" in error,
        rule="holds if a model made of "
        + ("Linear and ReLU" if with_linear else "only ReLU")
        + " has no parameters and Adam refuses it with ValueError",
        measurements=(
            Measurement("amp-relu-model-parameters", count, "count"),
            Measurement("amp-relu-model-optimizer-error", error, "exception"),
        ),
    )


ARTICLE_RELU_MODEL_EMPTY_OPTIMIZER = Claim(
    id="amp/article-relu-model-empty-optimizer",
    statement="A model made only of ReLU has no parameters, and an optimizer built from it "
    "raises ValueError.",
    expect=Expect.HOLDS,
    probe=probe_relu_model_empty_optimizer,
    control=Control(
        "a model with a Linear layer",
        control_model_with_linear,
    ),
    devices=("cpu",),
    measures=("amp-relu-model-parameters", "amp-relu-model-optimizer-error"),
)


def probe_ellipsis_unpack(device: Device) -> Observation:
    return _unpack_rule("first, second = ...")


def control_unpack_a_pair(device: Device) -> Observation:
    return _unpack_rule("first, second = 1, 2")


def _unpack_rule(source: str) -> Observation:
    error = error_text(lambda: exec(source, {}))
    return Observation(
        holds=error.startswith("TypeError") and "ellipsis" in error,
        rule=f"holds if `{source}` raises a TypeError about the ellipsis",
        measurements=(Measurement("amp-ellipsis-unpack-error", error, "exception"),),
    )


ARTICLE_ELLIPSIS_UNPACK = Claim(
    id="amp/article-ellipsis-unpack",
    statement="Assigning the Ellipsis literal to two names raises TypeError.",
    expect=Expect.HOLDS,
    probe=probe_ellipsis_unpack,
    control=Control(
        "unpacking a pair",
        control_unpack_a_pair,
    ),
    devices=("cpu",),
    measures=("amp-ellipsis-unpack-error",),
)


def probe_missing_module(device: Device) -> Observation:
    return _import_rule("my_custom_grad_module")


def control_existing_module(device: Device) -> Observation:
    return _import_rule("math")


def _import_rule(name: str) -> Observation:
    import importlib

    error = error_text(lambda: importlib.import_module(name))
    return Observation(
        holds=error.startswith("ModuleNotFoundError"),
        rule=f"holds if importing {name} raises ModuleNotFoundError",
        measurements=(Measurement("amp-missing-module-error", error, "exception"),),
    )


ARTICLE_MISSING_MODULE = Claim(
    id="amp/article-missing-module",
    statement="The module my_custom_grad_module does not exist: importing it raises "
    "ModuleNotFoundError.",
    expect=Expect.HOLDS,
    probe=probe_missing_module,
    control=Control(
        "importing math",
        control_existing_module,
    ),
    devices=("cpu",),
    measures=("amp-missing-module-error",),
)


CLAIMS = (
    ARTICLE_UNINDENTED_FUNCTION_BLOCK,
    ARTICLE_UNINDENTED_CLASS_BLOCK,
    ARTICLE_BLOCK_A_RESTORED,
    ARTICLE_DEFAULT_ARGUMENT_NAMEERROR,
    ARTICLE_RELU_MODEL_EMPTY_OPTIMIZER,
    ARTICLE_ELLIPSIS_UNPACK,
    ARTICLE_MISSING_MODULE,
)
