"""The text store a translated build keeps between builds (checker.sphinx.text_store), and the
rules for what checker.sphinx.kept_messages keeps in it. The pages it helps build are compared byte
for byte in tests/test_build_speed_identity.py."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from docutils import nodes

from checker.sphinx import fast_i18n, kept_messages
from checker.sphinx.text_store import TextStore


def test_a_saved_store_is_read_back_under_its_version_only(tmp_path: Path) -> None:
    path = tmp_path / "sphinx" / "kind-ja.pickle"
    store = TextStore(path, "v1")
    store.put(("text", "page", 3), [1, 2])
    store.save()
    assert TextStore(path, "v1").get(("text", "page", 3)) == [1, 2]
    assert TextStore(path, "v2").get(("text", "page", 3)) is None
    assert sorted(p.name for p in path.parent.iterdir()) == ["kind-ja.pickle"]  # no temp file


def test_a_damaged_store_counts_as_empty_and_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "kind-ja.pickle"
    path.write_bytes(b"\x80\x05not a pickle")
    store = TextStore(path, "v1")
    assert store.get("x") is None
    store.put("x", 1)
    store.save()
    assert TextStore(path, "v1").get("x") == 1


def test_a_store_that_learned_nothing_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "kind-ja.pickle"
    TextStore(path, "v1").save()
    assert not path.exists()


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("テンソルは `x.view()` でビューになります。", True),
        ("{measured}`relu-bytes` バイトを確保します。", True),
        ("{ref}`ビュー <views-and-inplace>` を参照。", True),
        ("{verdict}`views/view-shares-storage` の判定", False),  # notes ids in the environment
        ("{eval-rst}`.. raw:: html`", False),
        ("{{ substitution }}", False),
        ("![図](chart.png)", False),
        ("a <b>bold</b> move", False),
    ],
)
def test_only_messages_whose_nodes_depend_on_their_text_alone_are_kept(
    message: str, kept: bool
) -> None:
    assert kept_messages._keepable(message) is kept


class _Store(TextStore):
    def __init__(self) -> None:
        super().__init__(None, "")


def _publisher(warns: bool) -> tuple[list[str], Any]:
    calls: list[str] = []

    def publish(source: str, source_path: str, source_line: int, **kw: Any) -> nodes.Element:
        calls.append(source)
        if warns:
            logging.getLogger("sphinx.myst_parser").warning("a warning while parsing")
        doc = nodes.document(None, None)
        doc += nodes.paragraph(text=source)
        return doc[0]

    return calls, publish


def _publish_twice(warns: bool) -> tuple[list[str], _Store, nodes.Element, nodes.Element]:
    calls, publish = _publisher(warns)
    store = _Store()
    targets = fast_i18n._RefnameTargets(nodes.document(None, None))
    kept = kept_messages.keeping(publish, store, targets.note)
    first = kept("訳文", "docs/page.md", 4)
    second = kept("訳文", "docs/page.md", 4)
    return calls, store, first, second


def test_a_clean_parse_is_kept_and_served_as_a_fresh_copy() -> None:
    calls, store, first, second = _publish_twice(warns=False)
    assert calls == ["訳文"]  # parsed once
    assert store.get(("訳文", "docs/page.md", 4)) is not None
    assert first is not second and first.astext() == second.astext() == "訳文"
    assert first.parent is None and first.document is None  # no throwaway document kept


def test_a_parse_that_warned_is_parsed_again_so_the_warning_shows_every_build() -> None:
    calls, store, _, _ = _publish_twice(warns=True)
    assert calls == ["訳文", "訳文"]
    assert store.get(("訳文", "docs/page.md", 4)) is None


def test_the_named_target_search_is_skipped_only_where_no_such_target_exists() -> None:
    page = nodes.document(None, None)
    targets = fast_i18n._RefnameTargets(page)
    assert not targets.present
    patch = nodes.paragraph()
    patch += nodes.target(refname="old")
    targets.note(patch)  # a translated message brought one: search as Sphinx does
    assert targets.present
    page += nodes.target(refname="x")
    assert fast_i18n._RefnameTargets(page).present
