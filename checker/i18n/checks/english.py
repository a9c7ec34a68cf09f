"""English left in generated text: a Japanese or Korean label, rule or reason holds no English
word outside code.

Generated text (decision rules, labels, reasons, the theme's labels) has no code markup: code
is recognised as :mod:`checker.i18n.generated` recognises it (``add_``, ``x.grad``, ``mm(c)``,
``dtype=torch.float16``), and so are words with a digit (``float16``, ``2**-126``), names with a
capital letter (``CUDA``, ``NumPy``, ``RuntimeError``, ``GradScaler``) and the lower-case API
names of :data:`API_NAMES` (``exp``, ``backward``, ``autocast``), which rules write without
parentheses, and the words the English message itself writes, except words of English prose
(:data:`ENGLISH_PROSE`: "and", "the", "default", "error"...). Any other run of Latin
letters is English left on the page: a list joined with "and", a variant written as a slug
(``no-grad``), a value such as "no error", a label ("Search the docs"). A quoted error
message of Python (``'expected an indented block'``) is code as well, as are
``{placeholders}`` and the ``%(name)s`` fields of the theme.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checker.i18n.findings import Check, TranslationFinding
from checker.i18n.message import Message

#: Lower-case names of functions, methods, modules, arguments and variables that rules and
#: labels name as code without parentheses.
API_NAMES = frozenset(
    {
        "a",
        "add",
        "addmm",
        "args",
        "autocast",
        "autograd",
        "b",
        "backward",
        "baddbmm",
        "bmm",
        "c",
        "checkpoint",
        "clone",
        "ctx",
        "data",
        "detach",
        "dropout",
        "dtype",
        "exp",
        "exponent",
        "flatten",
        "forward",
        "gelu",
        "grad",
        "id",
        "inf",
        "inputs",
        "is",
        "lerp",
        "linear",
        "loss",
        "math",
        "matmul",
        "mm",
        "nbytes",
        "pack",
        "pow",
        "prod",
        "relu",
        "reshape",
        "resize",
        "rows",
        "scatter",
        "set",
        "sigmoid",
        "sin",
        "softmax",
        "step",
        "stride",
        "sum",
        "t",
        "tanh",
        "torch",
        "transpose",
        "unpack",
        "unscale",
        "v",
        "view",
        "vjp",
        "w",
        "x",
        "y",
        "z",
        "if",
        "with",
        "int",
        "float",
        "bool",
        "functions",
        "gather",
        "python",
        "m",
        "checker",
        "serve",
        "create-token",
        "gettext",
        "po",
        "md",
        "rst",
        "txt",
        "ipynb",
        "html",
    }
)

_FIELD = re.compile(r"\{[^{}]*\}|%\([A-Za-z_]\w*\)[sd]")
#: Code as generated text writes it: names with ``_`` or ``.``, calls, indexing, keywords.
_CODE = re.compile(r"[\w.\[\]():=*'\"<>-]*(?:\w_\w|\b_\w|\w\.\w|\(|\[|\*\*|=)[\w.\[\]():=*'\"<>-]*")
#: A call with its arguments, which rules may write as words: ``torch.asarray(a list)``.
_CALL = re.compile(r"[\w.]+\([^()]*\)")
#: A message of Python quoted in a rule (``IndentationError（'unexpected indent'）``), and code
#: in backquotes.
_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`")
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]*")


def check(message: Message) -> Iterator[TranslationFinding]:
    """A finding when the Japanese or Korean text of ``message`` holds English words."""
    if message.lang not in ("ja", "ko"):
        return
    words = english_words(message.translation, names_in(message.english))
    if words:
        shown = ", ".join(dict.fromkeys(words))
        yield message.finding(
            Check.ENGLISH_LEFT,
            f"English outside code: {shown}; translate it (an API name is written as code)",
        )


#: Words of English prose: never a name of code, even where the English message has them.
ENGLISH_PROSE = frozenset(
    {"a", "an", "and", "are", "as", "at", "be", "by", "default", "disable", "error", "for"}
    | {"from", "in", "into", "is", "it", "no", "not", "of", "on", "or", "the", "this", "that"}
    | {"to", "under", "with", "without"}
)


def names_in(english: str) -> frozenset[str]:
    """The lower-case names the English message writes, which a translation keeps as they
    are (an API name the allowlist does not know yet, ``cat`` in "cat of two tensors"),
    prose words aside."""
    return frozenset(_LATIN_WORD.findall(english)) - ENGLISH_PROSE


def english_words(text: str, names: frozenset[str] = frozenset()) -> list[str]:
    """The English words of ``text`` outside code, fields and quoted messages; ``names``
    (:func:`names_in` the English) are code too."""
    text = _QUOTED.sub(" ", _FIELD.sub(" ", text))
    text = _CODE.sub(" ", _CALL.sub(" ", text))
    return [
        word
        for word in _LATIN_WORD.findall(text)
        if word.lower() == word
        and not any(c.isdigit() for c in word)
        and word.strip("-") not in API_NAMES
        and word not in names
    ]
