"""Values an article states in comments, and whether a printed value is the same value.

Articles show what a line prints as a comment: ``print(x)  # [2, 3, 4]``, ``x.is_leaf  # True``,
``# > torch.float32``, ``# tensor([5., 5.])`` on the line after, ``# 出力: True``,
``# Falseになる``, ``# False가 출력됩니다``, ``# True (y was computed from x)``.
:func:`stated_value` takes the value out of such a comment (or says there is none: a comment in
words, a condition such as ``# True if ...``); :func:`same_value` compares it with what the
line printed or evaluated to.

Tolerant of form, strict on values: ``[2, 3, 4]`` equals ``tensor([2, 3, 4])``; ``5.``,
``5.0`` and ``5.0000`` are equal, and a number may differ by one unit in the last digit the
article prints; brackets and the ``tensor(``, ``torch.Size(``, ``array(`` wrappers are form;
``device=``, ``requires_grad=``, ``grad_fn=`` suffixes are form. A ``dtype=`` the article
states is a value: ``tensor([1.], dtype=torch.float16)`` differs from a float32 ``tensor([1.])``
(whose repr names no dtype), and ``dtype=torch.float32`` differs from ``tensor([1, 2])``, whose
repr says int64 by its numbers. So is a number's kind, where the article states it: a number
written as a float (``1.``, ``2.0``, ``1e-3``) differs from an integer the run printed, and an
integer inside a ``tensor(...)`` the article writes out differs from a float the run printed;
a bare list of integers (``# [2, 3, 4]``) is how articles write a float tensor's values too.
:func:`same_value` with ``kinds=False`` compares values only: for a run whose dtypes a repair
changed (see ``checker.scan.repairs``).
"""

from __future__ import annotations

import re

from checker.scan.compare import close

#: Words and signs before a value: ``# > x``, ``# -> x``, ``# Output: x``, ``# 出力: x``.
_PREFIX = re.compile(
    r"^(?:>+|->|=>|→|⇒|==?|:|"
    r"(?:out(?:put)?|result|prints?|returns?|gives?|evaluates\s+to|"
    r"出力|結果|実行結果|출력|결과|실행\s*결과)\s*(?:is\s*)?[:：]?)\s*",
    re.IGNORECASE,
)
_WORD_VALUE = re.compile(
    r"(?:True|False|None|torch\.(?:float|int|uint|bfloat|half|bool|complex|double|long)\w*"
    r"|[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|(?:-)?(?:inf|nan))"
)
_OPENERS = {"(": ")", "[": "]"}
_WRAPPED = re.compile(r"(?:tensor|torch\.Size|array|Parameter|torch\.tensor)?(?=[(\[])")
#: After the value: nothing, or a note that is not code (``(because ...)``, ``になる``,
#: ``가 출력됩니다``, ``, since ...``). A condition (``True if ...``) is not a statement.
_CONDITION = re.compile(r"^\s*(?:if|when|unless|or|and|otherwise|else|/)\b", re.IGNORECASE)
_NUMBER_ONLY = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
#: A step's number before its words: ``2. 転置する``, ``3) then``, ``1.「作成」``.
_STEP = re.compile(r"^\d+(?:\.\s*|\)\s*)(?:[^\W\d_]|[「『【])")
_CODE_AFTER = re.compile(r"^\s*(?:[-+*/%=<>&|^.]|\w+\s*\()")

_SUFFIX = re.compile(
    r",\s*(?:device=(?:'[^']*'|\"[^\"]*\"|\S+?)|requires_grad=True|"
    r"grad_fn=<[^>]*>|dtype=torch\.\w+|size=\([^)]*\))"
)
_DTYPE = re.compile(r"dtype=torch\.(\w+)")
_TOKEN = re.compile(
    r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|-?inf|nan|True|False|None|'[^']*'|\"[^\"]*\""
    r"|torch\.\w+|[A-Za-z_]\w*"
)
_FORM_WORDS = {"tensor", "Size", "torch.Size", "array", "Parameter", "containing", "torch.tensor"}
_DEFAULT_DTYPES = {"float32", "float", "int64", "long", "bool"}


def stated_value(comment: str, names: tuple[str, ...] = ()) -> str | None:
    """The value a comment states, or ``None`` when it states none (or only conditionally).
    ``names``: what the commented statement prints or assigns (``y``, ``x.grad``); a comment
    may name it before the value (``# y = [2, 4]``, ``# x.grad: tensor([1.])``)."""
    text = comment.strip().lstrip("#").strip()
    for name in sorted(names, key=len, reverse=True):
        named = re.match(re.escape(name) + r"\s*(?:==?|:|is|は|는|은)\s*", text)
        if named:
            text = text[named.end() :]
            break
    for _ in range(2):  # "# Output: > x"
        text = _PREFIX.sub("", text, count=1).strip()
    if not text:
        return None
    value = _leading_value(text)
    if value is None:
        return None
    while True:  # several values: "# True True", "# 3, 12"
        more = re.match(r"[ \t]*,?[ \t]+|,", text[len(value) :])
        following = _leading_value(text[len(value) + more.end() :]) if more else None
        if more is None or following is None or _is_note(following):
            break
        value = text[: len(value) + more.end() + len(following)]
    rest = text[len(value) :]
    if _NUMBER_ONLY.fullmatch(value) and re.match(r"\s+[A-Za-z]", rest):
        return None  # "3 elements", "2 tensors share": a count in a sentence
    if _STEP.match(value + rest):
        return None  # "2. 転置する", "3) then": the number of a step
    if rest and (
        (rest[0].isalnum() and rest[0].isascii())
        or _CONDITION.match(rest)
        or _CODE_AFTER.match(rest)
    ):
        return None
    return value.strip()


#: What a value's repr holds besides numbers: names of constants, dtypes, devices, keywords.
_VALUE_WORDS = re.compile(
    r"True|False|None|inf|nan|tensor|torch\.\w+|Size|array|Parameter|dtype|device|cpu|cuda"
    r"|requires_grad|grad_fn=<[^>]*>|'[^']*'|\"[^\"]*\""
)


def _is_note(group: str) -> bool:
    """Whether a bracketed group after a value is a note in words, not a second value:
    ``(y was computed from x)``, ``(공유됨)``, ``(a copy)``."""
    if not group.startswith("("):
        return False
    words = _VALUE_WORDS.sub(" ", group)
    return re.search(r"[^\W\d_]{2,}", words) is not None


def _leading_value(text: str) -> str | None:
    wrapped = _WRAPPED.match(text)
    if wrapped is not None and wrapped.end() < len(text) and text[wrapped.end()] in _OPENERS:
        end = _balanced(text, wrapped.end())
        return text[:end] if end else None
    word = _WORD_VALUE.match(text)
    if word is None:
        return None
    following = text[word.end() : word.end() + 1]
    if following and (following.isascii() and (following.isalnum() or following in "_.(")):
        return None  # part of a longer name or an expression (``True_``, ``3.x``, ``f(``)
    return word.group(0)


def _balanced(text: str, start: int) -> int:
    """End (exclusive) of the bracketed group opening at ``start``, or 0 if it never closes."""
    depth = 0
    quote = ""
    for i in range(start, len(text)):
        char = text[i]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return i + 1
    return 0


def same_value(expected: str, got: str, *, kinds: bool = True) -> bool:
    """Whether ``got`` (what ran) shows the value ``expected`` (what the article states);
    ``kinds=False``: the values only, whatever their dtype or number kind."""
    want_dtype = _dtype(expected)
    if want_dtype is not None and kinds:
        got_dtype = _dtype(got) or _implied_dtype(got)
        if got_dtype is None and want_dtype not in _DEFAULT_DTYPES:
            return False
        if got_dtype is not None and got_dtype != want_dtype:
            return False
    want, have = _tokens(expected), _tokens(got)
    if len(want) != len(have):
        return False
    if not all(_same_token(w, h) for w, h in zip(want, have, strict=True)):
        return False
    written = _WRAPPED_TENSOR.match(expected.strip()) is not None
    return not kinds or all(_same_kind(w, h, written) for w, h in zip(want, have, strict=True))


#: A value the article writes as a tensor's repr: its numbers' kind is the dtype's.
_WRAPPED_TENSOR = re.compile(r"(?:torch\.)?tensor\(")
_INTEGER = re.compile(r"[-+]?\d+")


def _same_kind(want: str, got: str, written: bool) -> bool:
    """A float the article writes is no integer the run printed; an integer it writes inside
    ``tensor(...)`` is no float the run printed (``written``)."""
    if not (_is_number(want) and _is_number(got)):
        return True
    want_int, got_int = _INTEGER.fullmatch(want), _INTEGER.fullmatch(got)
    if got_int and not want_int:
        return False
    return not (written and want_int and not got_int)


def _implied_dtype(text: str) -> str | None:
    """The dtype a tensor repr without ``dtype=`` has by its numbers: ``int64`` when every
    number is an integer, ``float32`` when one is written as a float; else ``None``."""
    if _WRAPPED_TENSOR.match(text.strip()) is None:
        return None
    numbers = [t for t in _tokens(text) if _is_number(t)]
    if not numbers:
        return None
    return "int64" if all(_INTEGER.fullmatch(n) for n in numbers) else "float32"


def _dtype(text: str) -> str | None:
    match = _DTYPE.search(text)
    if match is None:
        return None  # a bare ``torch.float16`` is a value token, compared as one
    name = match.group(1)
    return {"float": "float32", "long": "int64", "half": "float16", "double": "float64"}.get(
        name, name
    )


def _tokens(text: str) -> list[str]:
    body = _SUFFIX.sub("", text.replace("\n", " "))
    return [t for t in _TOKEN.findall(body) if t not in _FORM_WORDS]


def _same_token(want: str, got: str) -> bool:
    if _is_number(want) and _is_number(got):
        return close(want, got)
    return want.strip("'\"") == got.strip("'\"")


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True
