"""The code checker.sphinx.fast_i18n patches is the code it was written for.

The patch swaps names inside myst-parser's and Sphinx's modules while a page's translations
are parsed, and relies on what the functions around them do (PATCHED_CODE). These tests fail
the day an upgrade renames one of them, changes its signature or changes its source, so that
someone reads the new code before the faster builds trust it; that the patch changes no byte
of the site is tests/test_build_speed_identity.py's business.
"""

from __future__ import annotations

import dataclasses

import pytest
from sphinx.transforms import i18n

from checker.sphinx import fast_i18n

_RECHECK = (
    "checker.sphinx.fast_i18n patches code that changed since it was written for {written}. "
    "Read the new code of each function named below against what the patch relies on (said "
    "in brackets, and in the module's description); then run "
    "tests/test_build_speed_identity.py, and pin the new signature and source digest in "
    "PATCHED_CODE and the releases in WRITTEN_FOR:\n  {found}"
)


def _message(found: list[str]) -> str:
    written = ", ".join(f"{name} {release}" for name, release in fast_i18n.WRITTEN_FOR.items())
    return _RECHECK.format(written=written, found="\n  ".join(found))


def test_every_patched_name_signature_and_source_is_the_one_the_patch_was_written_for() -> None:
    found = fast_i18n.differences()
    assert found == [], _message(found)


def test_the_patch_names_eight_functions_of_myst_parser_and_sphinx() -> None:
    modules = [code.name.partition(":")[0].split(".")[0] for code in fast_i18n.PATCHED_CODE]
    assert (modules.count("myst_parser"), modules.count("sphinx")) == (4, 4)


def test_a_changed_signature_turns_the_patch_off_at_build_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where a name is gone or its signature differs, ReusingLocale is Sphinx's Locale."""

    def _publish_msgstr(source: str) -> None:  # another signature
        raise AssertionError("not called")

    fast_i18n._patchable.cache_clear()
    try:
        monkeypatch.setattr(i18n, "_publish_msgstr", _publish_msgstr)
        assert not fast_i18n._patchable()
        [difference] = fast_i18n.differences(sources=False)
        assert difference.startswith(
            "sphinx.transforms.i18n:_publish_msgstr: signature (source: 'str') -> 'None', not ("
        )
    finally:
        monkeypatch.undo()
        fast_i18n._patchable.cache_clear()
    assert fast_i18n._patchable()


def test_a_changed_source_is_named_with_what_to_check_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = fast_i18n.PATCHED_CODE[0]
    pinned_elsewhere = dataclasses.replace(first, source="0" * 16)
    monkeypatch.setattr(fast_i18n, "PATCHED_CODE", (pinned_elsewhere,))
    assert fast_i18n.differences() == [
        f"myst_parser.parsers.sphinx_:create_md_parser: the source changed ({first.recheck})"
    ]
    assert fast_i18n.differences(sources=False) == []  # the build keeps the patch
