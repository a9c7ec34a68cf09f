"""What a comment on a line of code says of running that line: that it raises, or that it runs.

Articles mark the line that fails and the line that does not: ``x.add_(1)  # RuntimeError: a
leaf Variable ...``, ``y.mul_(2)  # ここでエラーになる``, ``z += 1  # 에러 발생!``,
``c[:] += 1  # no error``. :func:`stated_outcome` reads such a comment (each language's
wording is its own: :attr:`~checker.text.languages.base.Language.says_raises`,
:attr:`~checker.text.languages.base.Language.says_runs`); the snippet's run then shows whether
the line raised (see ``checker.scan.program`` and ``checker.scan.snippets``).

Only what a comment states outright is read:

* a hedge or a condition ("may raise", "raises if ...", ``エラーになる場合がある``,
  ``에러가 날 수 있다``) states nothing about this run;
* a comment saying both ("no error here, but backward() raises") is about two lines;
* a comment on a line of its own under the statement is read only when it is the line an
  exception prints (``# RuntimeError: ...``): in words, such a comment may as well be about
  the statement below it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from checker.scan.values import stated_value
from checker.text.languages import LANGUAGES

RAISES = "raises"
RUNS = "runs"

#: An exception's name, as a comment writes it: ``RuntimeError``, ``torch.OutOfMemoryError``.
_EXCEPTION_NAME = re.compile(r"(?<![\w.'\"])(?:[a-z_]\w*\.)*([A-Z]\w*(?:Error|Exception))\b")
#: A comment that opens with an exception's name: ``RuntimeError: message``, ``-> TypeError``.
_LEADING_EXCEPTION = re.compile(
    r"^(?:(?:->|→|=>|>+)\s*)?(?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)\b(?![\w'\"])"
)
#: A comment that is the line an exception prints: ``RuntimeError: message``.
_EXCEPTION_LINE = re.compile(r"^(?:[a-z_]\w*\.)*([A-Z]\w*(?:Error|Exception))(?::\s*\S|\s*$)")


@dataclass(frozen=True)
class StatedOutcome:
    #: :data:`RAISES` or :data:`RUNS`.
    kind: str
    #: The exception it names (``RuntimeError``), or ``""``.
    exception: str = ""
    #: The comment's words, for the evidence.
    words: str = ""


def stated_outcome(comment: str, *, own_line: bool = False) -> StatedOutcome | None:
    """What ``comment`` (its text, with or without ``#``) says its line does when it runs, or
    ``None`` when it says nothing outright about it. ``own_line``: the comment stands on a
    line of its own, under the statement."""
    text = comment.strip().lstrip("#").strip()
    if not text:
        return None
    if own_line:
        shown = _EXCEPTION_LINE.match(text)
        return StatedOutcome(RAISES, shown.group(1), text) if shown else None
    if any(language.says_maybe.search(text) for language in LANGUAGES):
        return None
    rest = text
    for language in LANGUAGES:  # what is left once the words saying it runs are out
        rest = language.says_runs.sub(" ", rest)
    named = _EXCEPTION_NAME.search(rest)
    raises = _LEADING_EXCEPTION.match(rest.strip()) is not None or any(
        language.says_raises.search(rest) for language in LANGUAGES
    )
    if rest != text:  # it runs; and if it also raises, that is another line's: nothing
        return None if raises else StatedOutcome(RUNS, "", text)
    return StatedOutcome(RAISES, named.group(1) if named else "", text) if raises else None


def run_judges(comment: str) -> bool:
    """Whether running its line judges a comment: it states a value (``# True``) or that
    the line raises or runs (``# no error``); such a comment is no claim to read."""
    return stated_value(comment) is not None or stated_outcome(comment) is not None
