"""Benchmarks of the translation checks, measured side by side in one run.

1. Checking the catalogs of all three languages against the English-only work (reading the
   English pages and the ``.pot`` templates, which any translation check must do), for the
   catalogs as they are and for fully translated catalogs (every ``msgstr`` set, so that
   every check runs on every message: the worst case).
2. The doctests run once, from the English pages, because translations are proven to carry
   the same code. The doctest run is measured once; what running it once per language would
   cost is computed from that measurement (3 x), not run.

Usage: ``python benchmarks/i18n.py [--repeat N] [--skip-doctest]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from checker.i18n import check
from checker.i18n.markup import inventory
from checker.i18n.sources import build_templates, read_sources, read_templates
from checker.project import i18n_options
from checker.text.languages import TRANSLATED
from checker.text.po import read_catalog

ROOT = Path(__file__).resolve().parent.parent


def median_seconds(work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        inventory.cache_clear()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def translated_copy(templates: Path, out: Path) -> Path:
    """Catalogs for every translated language in which every message is 'translated'
    (msgstr = msgid)."""
    header = (
        'msgid ""\nmsgstr ""\n"Language: {lang}\\n"\n"Plural-Forms: nplurals=1; plural=0;\\n"\n'
        '"Content-Type: text/plain; charset=UTF-8\\n"\n'
    )
    for lang in TRANSLATED:
        for pot in templates.rglob("*.pot"):
            text = pot.read_text(encoding="utf-8")
            body = text[text.index("\n\n") + 2 :] if "\n\n" in text else ""
            entries = []
            for block in body.split("\n\n"):
                lines = block.strip().splitlines()
                if not lines:
                    continue
                keyword = next(i for i, ln in enumerate(lines) if ln.startswith("msgstr"))
                msgid = [
                    ln.replace("msgid ", "msgstr ", 1)
                    for ln in lines[:keyword]
                    if not ln.startswith("#")
                ]
                entries.append("\n".join(lines[:keyword] + msgid))
            dest = out / lang / "LC_MESSAGES" / pot.relative_to(templates).with_suffix(".po")
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(header.format(lang=lang) + "\n" + "\n\n".join(entries) + "\n")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--skip-doctest", action="store_true")
    args = parser.parse_args()
    docs, locales = ROOT / "docs", ROOT / "locales"
    with tempfile.TemporaryDirectory() as tmp:
        pot = Path(tmp) / "pot"
        start = time.perf_counter()
        problem = build_templates(docs, ROOT, pot, Path(tmp) / "doctrees")
        built = time.perf_counter() - start
        if problem:
            sys.exit(problem)
        messages = sum(len(read_catalog(p).active) for p in pot.rglob("*.pot"))

        def english() -> None:
            read_sources(docs)
            read_templates(pot)

        def languages(where: Path) -> Callable[[], object]:
            options = i18n_options(
                ROOT, locales=where, templates=pot, glossary=locales / "glossary.toml"
            )
            return lambda: check(options)

        full = translated_copy(pot, Path(tmp) / "translated")
        t_en = median_seconds(english, args.repeat)
        t_now = median_seconds(languages(locales), args.repeat)
        t_full = median_seconds(languages(full), args.repeat)

    rows = [
        ("English only (read pages and .pot)", t_en),
        ("en + ja + ko, the catalogs as they are", t_now),
        ("en + ja + ko, every message translated", t_full),
    ]
    print(f"translation checks ({messages} English messages, median of {args.repeat} runs)")
    print(f"  {'building the .pot templates (once)':<44} {built:6.2f} s")
    for label, seconds in rows:
        print(f"  {label:<44} {seconds:6.3f} s  {seconds / t_en:4.1f}x English only")
    if args.skip_doctest:
        return
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "checker.doctest.plugin",
        "-p",
        "no:cacheprovider",
        "--rootdir",
        str(ROOT),
        "-c",
        os.devnull,
        "-q",
        "--doc-device",
        "cpu",
        str(docs),
    ]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    once = time.perf_counter() - start
    outcome = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else "?"
    print("doctests (CPU), run once from the English pages")
    print(f"  {'once (measured)':<44} {once:6.2f} s  ({outcome})")
    print(f"  {'once per language (computed: 3 x once)':<44} {3 * once:6.2f} s")
    print(f"  {'avoided (computed: 2 x once, not run)':<44} {2 * once:6.2f} s")


if __name__ == "__main__":
    main()
