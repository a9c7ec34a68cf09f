"""How readers split an article into prose, code and shown output
(``checker.scan.readers``): output announced by a paragraph of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.scan.document import BlockKind
from checker.scan.readers import markdown, rst

MARKDOWN = """\
```python
print(1 + 1)
```

{label}

```
2
```
"""


@pytest.mark.parametrize(
    "label",
    ["実行結果:", "実行結果は以下の通りです。", "출력:", "실행 결과", "Output:", "**Output**"],
)
def test_an_unlabelled_fence_after_an_output_label_is_the_codes_output(label: str) -> None:
    document = markdown.read(Path("a.md"), MARKDOWN.format(label=label))
    assert [(b.kind, b.text) for b in document.blocks] == [
        (BlockKind.CODE, "print(1 + 1)"),
        (BlockKind.OUTPUT, "2"),
    ]


def test_a_label_that_follows_prose_is_prose_and_the_fence_code() -> None:
    text = "Some words.\n\nOutput:\n\n```\nprint(2)\n```\n"
    kinds = [b.kind for b in markdown.read(Path("a.md"), text).blocks]
    assert kinds == [BlockKind.PROSE, BlockKind.PROSE, BlockKind.CODE]


def test_a_literal_block_after_output_colons_is_the_codes_output() -> None:
    text = ".. code-block:: python\n\n   print(1 + 1)\n\nOutput::\n\n   2\n\nAfter.\n"
    document = rst.read(Path("a.rst"), text)
    assert [(b.kind, b.text, b.line) for b in document.blocks] == [
        (BlockKind.CODE, "print(1 + 1)", 3),
        (BlockKind.OUTPUT, "2", 7),
        (BlockKind.PROSE, "After.", 9),
    ]
