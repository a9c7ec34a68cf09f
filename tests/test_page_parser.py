"""Pages are split into snippets; broken conventions are errors with file and line."""

from __future__ import annotations

import pytest

from checker.text.pages import PageError, parse_page
from tests.helpers import parse, sample


def test_device_aware_page_counts_every_snippet_including_nested_ones() -> None:
    page = parse("device_aware.md", snippets=5, examples=7)
    assert page.device_aware
    assert [s.lineno for s in page.snippets] == [3, 12, 18, 26, 33]


def test_cuda_only_marker_carries_its_reason() -> None:
    page = parse("device_aware.md", snippets=5, examples=7)
    assert [s.cuda_only for s in page.snippets] == [
        None,
        None,
        "only a GPU has a caching allocator",
        None,
        None,
    ]


def test_reading_device_is_detected_but_keyword_and_attribute_are_not() -> None:
    aware = parse("device_aware.md", snippets=5, examples=7)
    plain = parse("plain.md", snippets=1, examples=4)
    assert [s.uses_device for s in aware.snippets] == [True, False, False, False, False]
    assert not plain.device_aware  # `t.device.type` is an attribute, not the name


def test_examples_know_their_page_line() -> None:
    page = parse("plain.md", snippets=1, examples=4)
    # doctest reports example.lineno + 1: the line of the '>>>' in the page
    assert [e.lineno + 1 for e in page.snippets[0].examples] == [6, 7, 8, 10]


@pytest.mark.parametrize(
    ("name", "line", "message"),
    [
        ("python_fence.md", 3, "never executed"),
        ("bad_marker.md", 3, "must be followed directly"),
        ("unknown_marker.md", 3, "unknown snippet marker 'gpu-only'"),
        ("empty_pycon.md", 3, "holds no '>>>' examples"),
    ],
)
def test_broken_conventions_name_file_and_line(name: str, line: int, message: str) -> None:
    with pytest.raises(PageError) as excinfo:
        parse_page(sample("pages", name))
    text = str(excinfo.value)
    assert text.startswith(f"{sample('pages', name)}:{line}:")
    assert message in text


def test_invalid_utf8_is_an_error_at_line_1(tmp_path) -> None:  # type: ignore[no-untyped-def]
    page = tmp_path / "latin1.md"
    page.write_bytes("# caf\xe9\n".encode("latin-1"))
    with pytest.raises(PageError, match=r"latin1.md:1: not UTF-8"):
        parse_page(page)
