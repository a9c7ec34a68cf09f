"""Helpers of the translation-check tests: the sample catalogs, with one replaced by a case."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

from checker.i18n import I18nOptions, I18nResult, TranslationFinding, check
from checker.typing import Lang
from tests.helpers import SAMPLES

I18N = SAMPLES / "i18n"


#: The languages the samples are written in: a language the project adds needs no samples.
SAMPLE_LANGS: tuple[Lang, ...] = ("ja", "ko")


def i18n_options(locales: Path, **changes: object) -> I18nOptions:
    """Options that check ``locales`` against the sample pages and their committed templates."""
    options = I18nOptions(
        docs=I18N / "docs",
        locales=locales,
        langs=SAMPLE_LANGS,
        conf_dir=I18N,
        glossary=locales / "glossary.toml",
        templates=I18N / "templates",
        claim_modules=("tests.fixtures.claims_i18n",),
        claim_package=None,
        root=locales.parent,
    )
    return dataclasses.replace(options, **changes)  # type: ignore[arg-type]


def sample_locales(tmp_path: Path, replace: dict[str, str | None] | None = None) -> Path:
    """A copy of the clean sample catalogs; ``replace`` maps ``"ja/guide"`` to a file of
    ``samples/i18n/cases`` that takes its place (``None`` deletes it)."""
    locales = tmp_path / "locales"
    shutil.copytree(I18N / "locales", locales)
    for target, case in (replace or {}).items():
        lang, page = target.split("/", 1)
        path = locales / lang / "LC_MESSAGES" / f"{page}.po"
        if case is None:
            path.unlink()
        else:
            shutil.copyfile(I18N / "cases" / case, path)
    return locales


def check_samples(tmp_path: Path, replace: dict[str, str | None] | None = None) -> I18nResult:
    return check(i18n_options(sample_locales(tmp_path, replace)))


def check_case(
    tmp_path: Path, case: str, page: str, expected: list[tuple[str, int]]
) -> list[TranslationFinding]:
    """Check the clean catalogs with ``case`` (``name.lang.po``) in place of ``lang/page``;
    assert that the findings are exactly the ``expected`` ``(check, line)`` pairs, all in
    that catalog: every other catalog is still checked and still clean."""
    lang = case.removesuffix(".po").rsplit(".", 1)[1]
    result = check_samples(tmp_path, {f"{lang}/{page}": case})
    path = f"locales/{lang}/LC_MESSAGES/{page}.po"
    found = [(f.path, f.check.value, f.line) for f in result.findings]
    assert found == [(path, name, line) for name, line in expected], [
        f"{f.line}: {f.message}" for f in result.findings
    ]
    assert result.catalogs == 4
    return list(result.findings)
