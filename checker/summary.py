"""The end-of-run summary of ``nox``: pages per language, snippets per device, translations.

``python -m checker.summary SUMMARY_DIR LOCALES_DIR [CUDA_DOCTEST_RECORD]`` reads what the
``docs`` and ``doctest`` sessions wrote and counts translated catalog entries; it prints and
returns 1 if anything reported failed.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from checker.doctest import cuda_record
from checker.text.languages import TRANSLATED
from checker.text.po import read_catalog
from checker.typing import DEVICES


@dataclass(frozen=True)
class Coverage:
    """Translated entries of one language's catalogs."""

    lang: str
    translated: int
    total: int
    fuzzy: int
    catalogs: int

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.total if self.total else 0.0


def coverage(locales: Path, lang: str) -> Coverage:
    translated = total = fuzzy = catalogs = 0
    for path in sorted((locales / lang / "LC_MESSAGES").glob("**/*.po")):
        catalog = read_catalog(path)
        if catalog.fatal:
            continue  # reported by the build and by 'python -m checker i18n'
        catalogs += 1
        entries = catalog.active
        total += len(entries)
        fuzzy += sum(1 for e in entries if e.fuzzy)
        # every form written, and not fuzzy (a blank translation counts, as gettext shows it)
        translated += sum(1 for e in entries if not e.fuzzy and all(e.translations))
    return Coverage(lang, translated, total, fuzzy, catalogs)


def recorded_run(evidence: Path | None) -> str | None:
    """One line on the last CUDA doctest run recorded on a GPU machine, if there is one."""
    record = cuda_record.load(evidence) if evidence is not None else None
    if evidence is None or record is None:
        return None
    return (
        f"    last recorded CUDA run ({evidence.name}): {record.passed} passed, "
        f"{record.failed} failed, {record.skipped} skipped on {record.device_name}, "
        f"torch {record.torch}, {record.date}"
    )


def recorded_total(evidence: Path | None) -> int:
    """How many snippets the recorded CUDA run counted (passed, failed or skipped)."""
    record = cuda_record.load(evidence) if evidence is not None else None
    return record.passed + record.failed + record.skipped if record is not None else 0


def render(
    summary_dir: Path,
    locales: Path,
    cuda_record: Path | None = None,
    generated: Path | None = None,
) -> tuple[str, bool]:
    """The summary text, and whether every reported step succeeded. ``cuda_record`` is the
    tally of a CUDA doctest run committed from a GPU machine, shown when CUDA ran nowhere;
    ``generated`` holds the catalogs of the text the extension generates and the theme's."""
    ok = True
    lines = ["", "Summary", "======="]
    builds = sorted(summary_dir.glob("docs-*.json"))
    for path in builds:
        data = json.loads(path.read_text(encoding="utf-8"))
        ok &= bool(data["ok"])
        state = "ok" if data["ok"] else "FAILED"
        lines.append(
            f"pages  {data['lang']}: {data['pages']}/{data['expected_pages']} built, "
            f"{data['warnings']} warnings, {state} -> {data['index']}"
        )
    if not builds:
        lines.append("pages: no build ran")
    doctest_file = summary_dir / "doctest.json"
    if doctest_file.exists():
        counts = json.loads(doctest_file.read_text(encoding="utf-8"))
        for device in DEVICES:
            c = counts.get(device)
            if c is None:
                lines.append(f"snippets {device}: not requested")
                continue
            ok &= c["failed"] == 0
            reused = int(c.get("reused", 0))
            lines.append(
                f"snippets {device}: {c['passed']} passed, {c['failed']} failed, "
                f"{c['skipped']} skipped"
                + (f" ({reused} reused from the last run: unchanged pages)" if reused else "")
            )
            lines += [f"    {n} skipped: {reason}" for reason, n in c["skip_reasons"].items()]
            record = recorded_run(cuda_record)
            if device == "cuda" and c["passed"] == c["failed"] == 0 and record:
                lines.append(record)
                # every device-aware snippet is skipped here; the record counts those it ran
                newer = c["skipped"] - recorded_total(cuda_record)
                if newer > 0:
                    lines.append(
                        f"    {newer} device-aware snippets written since that run have not "
                        "run on CUDA"
                    )
    else:
        lines.append("snippets: the doctest session did not run")
    counts = translation_findings(locales)
    for lang in TRANSLATED:
        cov = coverage(locales, lang)
        errors, warnings = counts.get(lang, (0, 0))
        lines.append(
            f"translation {lang}: {cov.percent:.0f}% ({cov.translated}/{cov.total} "
            f"entries in {cov.catalogs} catalogs, {cov.fuzzy} fuzzy); "
            f"{errors} errors, {warnings} warnings (python -m checker i18n --lang {lang})"
        )
        if generated is not None:
            gen = coverage(generated, lang)
            lines.append(
                f"    generated text and theme labels: {gen.percent:.0f}% "
                f"({gen.translated}/{gen.total} entries, {gen.fuzzy} fuzzy)"
            )
    return "\n".join(lines) + "\n", ok


def translation_findings(locales: Path) -> dict[str, tuple[int, int]]:
    """Errors and warnings of ``python -m checker i18n`` per language, without building the
    templates (the out-of-date check runs only if ``_build/gettext`` is fresh)."""
    from checker.i18n import check
    from checker.project import i18n_options

    root = locales.resolve().parent
    result = check(i18n_options(root, locales=locales, build_templates=False))
    counts = {}
    for lang in result.langs:
        found = [f for f in result.findings if f.lang == lang]
        counts[lang] = (sum(f.is_error for f in found), sum(not f.is_error for f in found))
    return counts


def main(argv: list[str]) -> int:
    locales = Path(argv[1])
    generated = locales.resolve().parent / "checker" / "sphinx" / "locale"
    text, ok = render(
        Path(argv[0]),
        locales,
        Path(argv[2]) if len(argv) > 2 else None,
        generated if generated.is_dir() else None,
    )
    sys.stdout.write(text)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
