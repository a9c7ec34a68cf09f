"""A table row of marks read as the statements it makes (``checker.scan.table``)."""

from __future__ import annotations

import pytest

from checker.scan.table import mark, statements


@pytest.mark.parametrize(
    ("cell", "said"),
    [("O", True), ("○", True), ("✓", True), ("**Yes**", True), ("예", True), ("あり", True),
     ("X", False), ("×", False), ("✗", False), ("no", False), ("아니오", False), ("なし", False),
     ("`x`", False), ("maybe", None), ("", None), ("shares memory", None)],
)  # fmt: skip
def test_marks(cell: str, said: bool | None) -> None:
    assert mark(cell) is said


def test_each_mark_under_a_named_column_is_a_sentence_in_the_articles_language() -> None:
    header = ("op", "shares memory", "", "note")
    row = ("`index_select()`", "O", "X", "✓")
    assert statements(header, row, "en") == [
        ("shares memory", "`index_select()` shares memory."),
        ("note", "`index_select()` note."),
    ]
    assert statements(("関数", "メモリ共有"), ("`clone()`", "×"), "ja") == [
        ("メモリ共有", "`clone()` は メモリ共有 ではない。")
    ]
    assert statements(("함수", "메모리 공유"), ("`detach()`", "X"), "ko") == [
        ("메모리 공유", "`detach()` 는 메모리 공유 이 아니다.")
    ]


def test_a_row_without_a_subject_or_marks_states_nothing() -> None:
    assert statements(("op", "shares"), ("", "O"), "en") == []
    assert statements(("op", "shares"), ("`view()`", "a view"), "en") == []
    assert statements(("op",), ("`view()`",), "en") == []
