"""What a reader makes of a file: blocks of prose and of code, each line with its line number."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from pathlib import Path


class BlockKind(enum.Enum):
    PROSE = "prose"
    #: Code the article marks as code (a fence, a literal block, a notebook cell).
    CODE = "code"
    #: Output the article shows for the code block before it (a notebook output, a fence
    #: marked ``text``/``output`` right after a code fence).
    OUTPUT = "output"


#: A paragraph that only announces the output of the code above it ("実行結果:", "Output:",
#: "실행 결과는 다음과 같습니다."): the unlabelled fence after it is that output, not code.
OUTPUT_LABEL = re.compile(
    r"^[*_]*(?:"
    r"(?:the\s+)?(?:output|result)s?(?:\s+is)?|(?:this|it|which)\s+(?:prints|outputs|gives)"
    r"|(?:実行)?結果|出力(?:結果|例)?|(?:実行|出力)結果は(?:以下|次)の(?:通り|とおり)です"
    r"|(?:실행\s*)?결과|출력(?:\s*결과)?|(?:실행\s*)?결과는\s*다음과\s*같습니다"
    r")[*_]*\s*[:：.。]?\s*$",
    re.IGNORECASE,
)


#: The ``info`` of a code block that runs as a notebook cell: the value of its last statement is
#: shown, as Jupyter does (a ``.ipynb`` cell, or a fence that nbconvert's Markdown follows
#: with the cell's output).
NOTEBOOK = "notebook"


@dataclass(frozen=True)
class Block:
    """Consecutive lines of one kind. ``lines[i]`` is the 1-based article line of text line i."""

    kind: BlockKind
    text: str
    lines: tuple[int, ...]
    #: For code: the fence's language as written (``python``, ``pycon``, ``""``).
    info: str = ""
    #: Extra text the block is read with for references to claims (for a catalog message:
    #: the English source line, which holds the ``{verdict}`` roles of its table row).
    context: str = ""
    #: For a table row: the table's header cells and the row's own, so that a row of marks
    #: ("| `index_select()` | O |" under "| op | shares memory |") can be read as the
    #: statement it makes (:mod:`checker.scan.table`).
    header: tuple[str, ...] = ()
    cells: tuple[str, ...] = ()
    #: For a catalog message: the English it translates (``msgid``). A translation is judged
    #: contradicted only where its English is: whether a translation says the same as its
    #: English is the translation gate's question (``python -m checker i18n``), not this one.
    source: str = ""
    #: For prose: whether it is a heading (a section title), which names a topic more often
    #: than it states anything.
    heading: bool = False

    def __post_init__(self) -> None:
        count = len(self.text.split("\n"))
        if count != len(self.lines):
            raise ValueError(f"block has {count} text lines but {len(self.lines)} line numbers")

    @property
    def line(self) -> int:
        return self.lines[0] if self.lines else 1

    def line_at(self, offset: int) -> int:
        """The article line of character ``offset`` of :attr:`text`."""
        index = self.text.count("\n", 0, max(0, offset))
        return self.lines[min(index, len(self.lines) - 1)] if self.lines else 1


@dataclass(frozen=True)
class Document:
    path: Path
    format: str
    blocks: tuple[Block, ...]
    #: Problems that kept part of the file from being read, each ``(line, message)``.
    errors: tuple[tuple[int, str], ...] = field(default=())
    #: For a file that is one program (a Python source file): all of it, as it is run. Its
    #: code blocks are its cells.
    program: Block | None = None


class ReadError(Exception):
    """The file cannot be read at all; ``line`` is where reading stopped (1 if unknown)."""

    def __init__(self, path: Path, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.message = path, line, message


def block(kind: BlockKind, text_lines: list[str], first_line: int, info: str = "") -> Block:
    """A block of consecutive article lines starting at ``first_line``."""
    return Block(
        kind, "\n".join(text_lines), tuple(range(first_line, first_line + len(text_lines))), info
    )
