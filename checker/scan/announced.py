"""Errors an article announces: a snippet that raises the error its article quotes.

Posts about an error show the code that raises it ("Running the code above gives the
following error:" and the message on a line of its own). Such a snippet is not broken: it
does what the article says. The article quotes the error when its prose or a shown output
holds the message's start (its first :data:`PREFIX` characters, or the whole message with
the exception's type where the message is shorter than :data:`SHORTEST`), whitespace and
case aside:

* quoted right after the snippet (the blocks before the next code, at most :data:`AFTER`),
  the snippet raises what the article says it raises: ``supported``;
* quoted elsewhere, the article knows the error and shows it happening; whether this snippet
  was meant to raise it (an example of it, a fix to apply to another snippet, a line meant
  to replace one) is not decided: ``unverified``.

Code that catches the error itself (``except RuntimeError``) but lets it escape was not
written to raise it: that stays ``broken``, whatever the article quotes.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass

from checker.scan.document import Block, BlockKind

#: How many characters of a message's start the article must quote (messages change their
#: tails across torch releases).
PREFIX = 40
#: A message shorter than this must be quoted whole, with its exception's type.
SHORTEST = 20
#: How many prose or output blocks after a snippet can announce what it raises.
AFTER = 3

_SPACE = re.compile(r"\s+")
_QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "`": ""})


@dataclass(frozen=True)
class Announcements:
    """The article's words around one snippet: the prose and output blocks right after it
    (before the next code), and those of the whole article."""

    after: tuple[Block, ...] = ()
    article: tuple[Block, ...] = ()


def around(blocks: Sequence[Block], index: int, article: tuple[Block, ...]) -> Announcements:
    """The announcements for the code block ``blocks[index]``."""
    after: list[Block] = []
    for block in blocks[index + 1 :]:
        if block.kind is BlockKind.CODE or len(after) == AFTER:
            break
        after.append(block)
    return Announcements(tuple(after), article)


def words_of(blocks: Sequence[Block]) -> tuple[Block, ...]:
    """The blocks of an article that can quote an error: prose and shown output."""
    return tuple(b for b in blocks if b.kind is not BlockKind.CODE)


def quoted_at(blocks: Sequence[Block], error_type: str, message: str) -> int | None:
    """The article line of the first of ``blocks`` that quotes the error, or ``None``."""
    head = _flat(message.split("\n", 1)[0])[:PREFIX]
    if not head:
        return None
    wanted = head if len(head) >= SHORTEST else _flat(f"{error_type}: {message}")
    for block in blocks:
        text = _flat(block.text)
        at = text.find(wanted)
        if at >= 0:
            return _line_of(block, at)
    return None


def catches(source: str, error_type: str) -> bool:
    """Whether ``source`` has an ``except`` that would catch ``error_type`` (by its name, a
    bare ``except``, ``Exception`` or ``BaseException``)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    wanted = {error_type, "Exception", "BaseException"}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ExceptHandler):
            continue
        if node.type is None:
            return True
        caught = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
        for item in caught:
            name = item.attr if isinstance(item, ast.Attribute) else getattr(item, "id", "")
            if name in wanted:
                return True
    return False


def _flat(text: str) -> str:
    return _SPACE.sub(" ", text.translate(_QUOTES)).strip().lower()


def _line_of(block: Block, flat_offset: int) -> int:
    """The article line of a block where its flattened text reaches ``flat_offset`` (lines
    are counted by the words before it, which flattening keeps)."""
    words_before = len(_flat(block.text)[:flat_offset].split())
    seen = 0
    for row, text in enumerate(block.text.split("\n")):
        seen += len(text.split())
        if seen > words_before:
            return block.lines[row]
    return block.lines[-1]
