#!/usr/bin/env python3
# /// script
# requires-python = ">=3.11"
# dependencies = ["nox>=2025.02.09"]
# ///
"""Tasks for the project: ``python3 noxfile.py`` (or ``nox``) runs the main job, the site in
en/ja/ko, every snippet on every device present and a summary; ``-s NAME`` runs one task.

Every task requires ``shared``, which installs the project with torch, Sphinx and the tools
into the environment nox keeps for it, ``.nox/shared``: torch is installed once, not per task.
The project is installed editable: tests, Sphinx and the probe server import ``checker`` in
subprocesses started from anywhere, and must see the working tree, not a copy of it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
BOOTSTRAP = ROOT / ".nox" / "_bootstrap"


def _bootstrap_nox() -> None:
    """Run as a script without nox: install nox into .nox/_bootstrap and run this file there."""
    python = BOOTSTRAP / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", BOOTSTRAP], check=True)
    if not any(BOOTSTRAP.glob("lib/python*/site-packages/nox/__init__.py")):
        constraints = ROOT / "constraints.txt"
        subprocess.run([python, "-m", "pip", "install", "-q", "-c", constraints, "nox"], check=True)
    os.execv(python, [str(python), __file__, *sys.argv[1:]])


if __name__ == "__main__":
    if sys.version_info < (3, 11):  # noqa: UP036 (this runs before the project's Python check)
        sys.exit("this project needs Python 3.11 or newer")
    try:
        import nox
    except ImportError:
        _bootstrap_nox()

import nox  # noqa: E402

nox.needs_version = ">=2025.02.09"

PROJECT = nox.project.load_toml(ROOT / "pyproject.toml")["project"]
BUILD = ROOT / "_build"
SUMMARY = BUILD / "summary"
#: The languages translated from English: those with catalogs under locales/ (the list the
#: checker keeps in checker.text.languages; a test keeps the two equal).
TRANSLATED = tuple(sorted(p.parent.name for p in (ROOT / "locales").glob("*/LC_MESSAGES")))
LANGS = ("en", *TRANSLATED)
#: The releases ``versions`` measures with: the oldest supported (torch>=2.4), to the newest.
TORCH_RELEASES = ("2.4.1", "2.5.1", "2.6.0", "2.7.1", "2.8.0", "2.11.0", "2.13.0")
#: Gettext domains besides the pages': the extension's generated text (labels, decision rules),
#: the theme's labels and the service's pages; each with its catalogs and the module that
#: writes its template.
DOMAINS = {
    "checker": (ROOT / "checker/sphinx/locale", ("checker", "i18n", "--write-template")),
    "sphinx": (
        ROOT / "checker/sphinx/locale",
        ("checker", "i18n", "--domain", "sphinx", "--write-template"),
    ),
    "service": (ROOT / "checker/service/locale", ("checker.service.ui",)),
}


@nox.session(reuse_venv=True, default=False)
def shared(session: nox.Session) -> None:
    """Install the project (editable) with torch, Sphinx and the tools: the tasks' environment.

    Only when pip has not installed this checkout here since pyproject.toml or constraints.txt
    last changed: a warm run spends no time on it (``--reuse-venv=never`` starts afresh)."""
    if not installed(session.env_dir):
        extras = ",".join(PROJECT["optional-dependencies"])
        session.log("installing the project with torch and its tools: minutes the first time")
        # pip's own progress shown: a first install is long, and silence looks like a hang
        session.install("-c", "constraints.txt", "-e", f".[{extras}]", silent=False)


def installed(env: Path) -> bool:
    """Whether pip installed this checkout into ENV after pyproject.toml and constraints.txt
    last changed, by pip's own record of the install (PEP 610's direct_url.json)."""
    name = PROJECT["name"].replace("-", "_")
    changed = max((ROOT / f).stat().st_mtime for f in ("pyproject.toml", "constraints.txt"))
    return any(
        json.loads(record.read_text(encoding="utf-8")).get("url") == ROOT.as_uri()
        and record.stat().st_mtime > changed
        for record in env.glob(f"lib/python*/site-packages/{name}-*.dist-info/direct_url.json")
    )


def python(session: nox.Session, *args: str | Path, **kwargs: Any) -> Any:
    """Run ``python ARGS`` in the shared environment, writing no bytecode."""
    interpreter = session.env_dir.parent / "shared" / "bin" / "python"
    return session.run(interpreter, *args, env={"PYTHONDONTWRITEBYTECODE": "1"}, **kwargs)


@nox.session(venv_backend="none", requires=["shared"])
def docs(session: nox.Session) -> None:
    """Build the HTML site in every language (-W --keep-going). Args: [LANG ...] [SPHINX ARGS].

    One process imports Sphinx once and forks a build per language (checker.sphinx.side_by_side);
    the first runs the probes, the others read their results from the probe cache."""
    SUMMARY.mkdir(parents=True, exist_ok=True)
    for stale in SUMMARY.glob("docs-*.json"):
        stale.unlink()
    langs = [a for a in session.posargs if a in LANGS] or list(LANGS)
    failed = build(session, langs, [a for a in session.posargs if a not in LANGS])
    if failed:
        session.error(f"the build failed for: {', '.join(failed)} (other languages built)")


def build(session: nox.Session, langs: list[str], extra: list[str]) -> list[str]:
    """Build LANGS side by side into _build/html/LANG; return those whose build failed."""
    SUMMARY.mkdir(parents=True, exist_ok=True)
    for lang in langs:
        session.log(f"building {lang} into {(BUILD / 'html' / lang).relative_to(ROOT)}")
    argv: list[str | Path] = ["-m", "checker.sphinx.side_by_side", "--log"]
    argv += [SUMMARY / "build-{lang}.log", *langs, "--", "-b", "html", "-c", ROOT]
    argv += ["-D", "language={lang}", "-d", BUILD / "doctrees/{lang}", "-W", "--keep-going"]
    argv += ["-q", "-w", SUMMARY / "warnings-{lang}.txt", *extra]
    argv += [ROOT / "docs", BUILD / "html/{lang}"]
    # its stdout is one JSON line, each build's exit status; the builds write to their logs
    statuses = python(session, *argv, silent=True, stderr=None, success_codes=range(256))
    try:
        codes: dict[str, int] = json.loads(statuses.strip().splitlines()[-1])
    except (ValueError, IndexError):
        session.error(f"the side-by-side build printed no statuses: {statuses!r}")
    return [lang for lang in langs if not finish_language(session, lang, codes.get(lang, 1))]


def finish_language(session: nox.Session, lang: str, code: int) -> bool:
    """Report one finished build: print its output; write _build/summary/docs-LANG.json."""
    out = BUILD / "html" / lang
    output = (SUMMARY / f"build-{lang}.log").read_text(encoding="utf-8", errors="replace")
    if output.strip():
        session.log(f"{lang} build output:\n{output.rstrip()}")
    pages = sorted(
        p.relative_to(ROOT / "docs").with_suffix(".html").as_posix()
        for p in (ROOT / "docs").rglob("*.md")
        if not any(part.startswith("_") for part in p.relative_to(ROOT).parts[1:])
    )
    built = [p for p in pages if (out / p).exists()]
    warnings_file = SUMMARY / f"warnings-{lang}.txt"
    text = warnings_file.read_text(encoding="utf-8") if warnings_file.exists() else ""
    warnings = [ln for ln in text.splitlines() if ln]
    ok = code == 0 and not warnings and len(built) == len(pages)
    summary = {"lang": lang, "ok": ok, "pages": len(built), "expected_pages": len(pages)}
    summary |= {"warnings": len(warnings), "index": str(out / "index.html")}
    (SUMMARY / f"docs-{lang}.json").write_text(json.dumps(summary))
    if code not in (0, 1, 2):
        session.log(f"the {lang} build stopped with exit status {code}")
    return ok


@nox.session(venv_backend="none", requires=["shared"])
def doctest(session: nox.Session) -> None:
    """Run every snippet of docs/. Args: --device cpu|cuda|all (default all present).

    From the English pages only ('checker i18n' proves the translations carry the same code). A
    page unchanged since its last passing run (same bytes, torch, NumPy, Python, CUDA, doctest
    code) is reused, not run (_build/summary/doctest-pages.json; delete it to run every one)."""
    SUMMARY.mkdir(parents=True, exist_ok=True)
    args = ["--doc-device" if a == "--device" else a for a in session.posargs]
    pytest = ("-m", "pytest", "-p", "checker.doctest.plugin", "-p", "no:cacheprovider", "-q")
    options = ("--rootdir", ROOT, "-c", os.devnull, "--continue-on-collection-errors")
    records = ("--doc-summary", SUMMARY / "doctest.json", "--doc-unchanged")
    python(
        session, *pytest, *options, *records, SUMMARY / "doctest-pages.json", *args, ROOT / "docs"
    )


@nox.session(venv_backend="none", requires=["shared"])
def summary(session: nox.Session) -> None:
    """Print pages built per language, snippets per device, translation coverage."""
    cuda_record = ROOT / "docs/_evidence/doctest-cuda.json"
    python(session, "-m", "checker.summary", SUMMARY, ROOT / "locales", cuda_record)


@nox.session(venv_backend="none", requires=["shared"], default=False)
def tests(session: nox.Session) -> None:
    """Run the test suite under tests/ (args go to pytest)."""
    python(session, "-m", "pytest", *session.posargs)


@nox.session(venv_backend="none", requires=["shared"], default=False)
def lint(session: nox.Session) -> None:
    """Ruff (lint and format check) and mypy over the Python code."""
    python(session, "-m", "ruff", "check", ".")
    python(session, "-m", "ruff", "format", "--check", ".")
    python(session, "-m", "mypy")


@nox.session(venv_backend="none", requires=["shared"], default=False)
def i18n(session: nox.Session) -> None:
    """Regenerate the .pot templates and update locales/ja and locales/ko."""
    update_catalogs(session, TRANSLATED)


def update_catalogs(session: nox.Session, langs: tuple[str, ...]) -> Path:
    """Extract the English templates into _build/gettext and update LANGS' catalogs, the
    pages' under locales/ and those of DOMAINS, keeping no obsolete entries (the catalogs
    hold the English of today; new or changed messages arrive untranslated or fuzzy)."""
    pot = BUILD / "gettext"
    gettext = ("-b", "gettext", "-c", ROOT, "-q", "-W", "--keep-going")
    python(session, "-m", "sphinx", *gettext, "-d", BUILD / "doctrees/gettext", ROOT / "docs", pot)
    update = ("-m", "sphinx_intl", "update", "--no-obsolete", *[f"-l{lang}" for lang in langs])
    python(session, *update, "-p", pot, "-d", ROOT / "locales")
    for name, (catalogs, write_template) in DOMAINS.items():
        templates = BUILD / f"gettext-{name}"
        python(session, "-m", *write_template, templates / f"{name}.pot")
        python(session, *update, "-p", templates, "-d", catalogs)
    return pot


@nox.session(venv_backend="none", requires=["shared"], default=False)
def translation(session: nox.Session) -> None:
    """A translator's loop: update, check and build one language. Args: ja|ko."""
    if len(session.posargs) != 1 or session.posargs[0] not in TRANSLATED:
        session.error(f"usage: nox -s translation -- {'|'.join(TRANSLATED)}")
    lang = session.posargs[0]
    pot = update_catalogs(session, (lang,))
    report = SUMMARY / f"i18n-{lang}.json"
    SUMMARY.mkdir(parents=True, exist_ok=True)
    check = ("--lang", lang, "--templates", pot, "--json-file", report)
    python(session, "-m", "checker", "i18n", *check, success_codes=[0, 1])
    built = not build(session, [lang], [])
    errors = json.loads(report.read_text(encoding="utf-8"))["summary"]["errors"]
    session.log(f"preview: {BUILD / 'html' / lang / 'index.html'}")
    problems = [f"{errors} translation errors"] if errors else []
    problems += [] if built else [f"the {lang} build failed"]
    if problems:
        session.error(f"{lang}: {'; '.join(problems)} (see above)")


@nox.session(name="i18n-check", venv_backend="none", requires=["shared"], default=False)
def i18n_check(session: nox.Session) -> None:
    """Check the catalogs without building (args go to 'python -m checker i18n')."""
    python(session, "-m", "checker", "i18n", *session.posargs)


@nox.session(venv_backend="none", requires=["shared"], default=False)
def serve(session: nox.Session) -> None:
    """The checking service on http://127.0.0.1:8000/ (args go to 'python -m checker serve')."""
    python(session, "-m", "checker", "serve", *session.posargs)


@nox.session(venv_backend="none", requires=["shared"], default=False)
def verify(session: nox.Session) -> None:
    """Run every claim's probe (args go to 'python -m checker verify')."""
    python(session, "-m", "checker", "verify", *session.posargs)


@nox.session(venv_backend="none", default=False)
def versions(session: nox.Session) -> None:
    """Every claim on the CPU under each torch release, into docs/_evidence/versions.json.

    Args: [RELEASE ...] (default: TORCH_RELEASES). A nox session has one environment, so this
    one makes one per release, .nox/torch-RELEASE, installed as ``shared`` is but without
    constraints.txt (it pins the newest torch); results are cached like verify's."""
    runs = BUILD / "versions"
    runs.mkdir(parents=True, exist_ok=True)
    outputs: list[Path] = []
    for release in session.posargs or TORCH_RELEASES:
        env = session.env_dir.parent / f"torch-{release}"
        interpreter = env / "bin" / "python"
        if not interpreter.exists():
            session.run(sys.executable, "-m", "venv", env)
        if not installed(env):
            session.log(f"installing torch {release} into {env} (several GB)")
            pip = ("-m", "pip", "install", "-q", "--no-cache-dir", f"torch=={release}", "numpy")
            session.run(interpreter, *pip, "-e", ".")
        outputs.append(runs / f"{release}.json")
        measure = ("measure", "--output", outputs[-1], "--root", ROOT)
        session.run(interpreter, "-m", "checker.versions", *measure)
    known = {runs / f"{r}.json" for r in TORCH_RELEASES if (runs / f"{r}.json").exists()}
    merged = ("--output", ROOT / "docs/_evidence/versions.json")
    session.run(
        interpreter, "-m", "checker.versions", "merge", *sorted(known | {*outputs}), *merged
    )


@nox.session(venv_backend="none", requires=["shared"], default=False)
def bench(session: nox.Session) -> None:
    """Benchmarks, each printing ratios measured side by side in one run. Args: [NAME ...].

    Default: every benchmarks/*.py (build, corpus, harness, i18n, real_articles, scan, service;
    figures in _build/bench/*.json) but identity.py, a proof between two commits run on its own,
    and busy.py, which holds every core of the machine while it runs (`-- busy`)."""
    own = ("identity", "busy")
    every = sorted(p.stem for p in (ROOT / "benchmarks").glob("*.py") if p.stem not in own)
    for name in session.posargs or every:
        python(session, ROOT / "benchmarks" / f"{name}.py")


if __name__ == "__main__":
    sys.argv = ["nox", "-f", __file__, *sys.argv[1:]]
    nox.main()
