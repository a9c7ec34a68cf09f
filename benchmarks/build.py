"""Benchmark of the site build, each figure a ratio against its baseline measured in the same
run (rounds interleaved, best of N, so that load from other work on the machine falls on
both sides):

1. the three languages built side by side, as ``nox -s docs`` does it (one process imports
   Sphinx and forks a build per language: ``checker.sphinx.side_by_side``) / the English
   build;
2. a translated (ja) build / the English build;
3. the rebuild after one page's ``.po`` catalog changes (its mtime moved on: Sphinx sees an
   edit) / the English build, and in seconds.

Every build is fresh (new output and doctree folders) except the rebuild, and the caches are
warm: a first untimed build of the three languages fills the probe cache and the translated
builds' text store (``checker.sphinx.text_store``), as any earlier build of the site does.
Targets (issue 15): 1 <= 1.6, 2 <= 1.2, 3 <= 3 s. The numbers go to
``_build/bench/build.json`` (a CI artifact).

Usage: ``python benchmarks/build.py [--repeat N] [--page DOCNAME]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "_build" / "bench" / "build.json"
TARGETS = {"three_languages_over_english": 1.6, "translated_over_english": 1.2}
REBUILD_TARGET_S = 3.0


def sphinx_args(lang: str, work: Path) -> list[str]:
    out = work / lang
    return ["-b", "html", "-c", str(ROOT), "-D", f"language={lang}", "-d", str(out / "doctrees")]


def timed(*langs: str, work: Path, fresh: bool = True) -> float:
    """Seconds to build ``langs`` into ``work/LANG``: one language by ``sphinx-build``, several
    side by side by ``checker.sphinx.side_by_side`` (the ``{lang}`` fields are its)."""
    if fresh:
        for lang in langs:
            shutil.rmtree(work / lang, ignore_errors=True)
    lang = langs[0] if len(langs) == 1 else "{lang}"
    args = [*sphinx_args(lang, work), "-q", str(ROOT / "docs"), str(work / lang / "html")]
    if len(langs) == 1:
        command = [sys.executable, "-m", "sphinx", *args]
    else:
        log = str(work / "build-{lang}.log")
        command = [sys.executable, "-m", "checker.sphinx.side_by_side", "--log", log, *langs]
        command += ["--", *args]
    start = time.perf_counter()
    done = subprocess.run(
        command,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"build failed:\n{(done.stderr + done.stdout).decode(errors='replace')}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--page", default="topics/views-and-inplace", help="page to edit")
    args = parser.parse_args()
    catalog = ROOT / "locales" / "ja" / "LC_MESSAGES" / f"{args.page}.po"
    if not catalog.is_file():
        sys.exit(f"{catalog}: no such catalog")
    with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:
        work = Path(tmp)
        timed("en", "ja", "ko", work=work / "warm")  # probe cache, text store, OS file cache
        english, three, translated, rebuild = [], [], [], []
        for _ in range(args.repeat):
            english.append(timed("en", work=work))
            three.append(timed("en", "ja", "ko", work=work / "three"))
            translated.append(timed("ja", work=work))
            stat = catalog.stat()
            os.utime(catalog, (stat.st_atime, time.time()))
            rebuild.append(timed("ja", work=work, fresh=False))
        en = min(english)
        figures = {
            "english_s": round(en, 2),
            "three_languages_s": round(min(three), 2),
            "translated_s": round(min(translated), 2),
            "po_edit_rebuild_s": round(min(rebuild), 2),
            "three_languages_over_english": round(min(three) / en, 2),
            "translated_over_english": round(min(translated) / en, 2),
            "po_edit_rebuild_over_english": round(min(rebuild) / en, 2),
            "repeat": args.repeat,
            "cpus": os.cpu_count(),
        }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(f"build benchmark, best of {args.repeat}, interleaved (English build {en:.1f} s):")
    for name, target in TARGETS.items():
        verdict = "met" if figures[name] <= target else "NOT met"
        print(f"  {name.replace('_', ' ')}: {figures[name]:.2f}x (target <= {target}: {verdict})")
    rebuild_s = figures["po_edit_rebuild_s"]
    verdict = "met" if rebuild_s <= REBUILD_TARGET_S else "NOT met"
    print(
        f"  one .po edit rebuild ({args.page}, ja): {rebuild_s:.1f} s = "
        f"{figures['po_edit_rebuild_over_english']:.2f}x English "
        f"(target <= {REBUILD_TARGET_S} s: {verdict})"
    )
    print(f"  written to {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
