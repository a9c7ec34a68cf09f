"""Tasks for the project. ``python3 noxfile.py`` runs the main job; ``-s NAME`` one task.

Plain ``nox`` (or ``python3 noxfile.py``) builds the site in English, Japanese and Korean,
runs every documentation snippet on every device present, and prints a summary. ``nox -l``
lists the other sessions.

All sessions share one virtual environment, ``.nox/shared``, created on first use and
re-installed only when ``pyproject.toml`` or ``constraints.txt`` change: torch is installed
once, not once per session.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent
BOOTSTRAP = ROOT / ".nox" / "_bootstrap"


def _bootstrap_nox() -> None:
    """Run as a script without nox installed: install it into .nox/_bootstrap, re-run there."""
    python = BOOTSTRAP / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(BOOTSTRAP)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "-c", str(ROOT / "constraints.txt"), "nox"],
            check=True,
        )
    os.execv(str(python), [str(python), __file__, *sys.argv[1:]])


if __name__ == "__main__":
    if sys.version_info < (3, 11):  # noqa: UP036 (this runs before the project's Python check)
        sys.exit("this project needs Python 3.11 or newer")
    try:
        import nox
    except ImportError:
        _bootstrap_nox()

import nox  # noqa: E402

nox.needs_version = ">=2024.4.15"
nox.options.sessions = ["docs", "doctest", "summary"]
nox.options.error_on_missing_interpreters = True

SHARED = ROOT / ".nox" / "shared"
BUILD = ROOT / "_build"
SUMMARY = BUILD / "summary"
LANGS = ("en", "ja", "ko")
TRANSLATED = ("ja", "ko")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


# -- the shared environment ------------------------------------------------------------------


def _requirements() -> list[str]:
    project = PYPROJECT["project"]
    extras = project["optional-dependencies"]
    return [
        *project["dependencies"],
        *extras["docs"],
        *extras["test"],
        *extras["lint"],
        *extras["service"],
    ]


def shared_python(session: nox.Session) -> str:
    """The shared environment's interpreter, installing or updating it when needed."""
    python = SHARED / "bin" / "python"
    stamp = SHARED / ".installed"
    wanted = hashlib.sha256(
        (ROOT / "pyproject.toml").read_bytes() + (ROOT / "constraints.txt").read_bytes()
    ).hexdigest()
    if not python.exists():
        session.log(f"creating the shared environment {SHARED}")
        session.run(sys.executable, "-m", "venv", str(SHARED), external=True)
    if not stamp.exists() or stamp.read_text() != wanted:
        session.log("installing dependencies (torch among them) into the shared environment")
        session.run(
            str(python),
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            "-c",
            str(ROOT / "constraints.txt"),
            *_requirements(),
            external=True,
        )
        stamp.write_text(wanted)
    return str(python)


def _env() -> dict[str, str]:
    return {"PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}


# -- the main job ------------------------------------------------------------------------------


@nox.session(venv_backend="none")
def docs(session: nox.Session) -> None:
    """Build the HTML site in every language (-W --keep-going). Args: [LANG ...] [SPHINX ARGS].

    The languages build side by side, from one process that imports Sphinx and the extension
    once and forks a build per language (checker.sphinx.side_by_side); the first to start
    runs the probes and the others wait for it and read the results from the probe cache
    (see checker.sphinx.results). Each language keeps its own log, warnings file and summary.
    """
    python = shared_python(session)
    langs = [a for a in session.posargs if a in LANGS] or list(LANGS)
    extra = [a for a in session.posargs if a not in LANGS]
    SUMMARY.mkdir(parents=True, exist_ok=True)
    for stale in SUMMARY.glob("docs-*.json"):
        stale.unlink()
    for lang in langs:
        session.log(f"building {lang} into {(BUILD / 'html' / lang).relative_to(ROOT)}")
    launched = subprocess.run(
        [
            python,
            "-m",
            "checker.sphinx.side_by_side",
            "--log",
            str(SUMMARY / "build-{lang}.log"),
            *langs,
            "--",
            *sphinx_arguments("{lang}", extra),
        ],
        env={**os.environ, **_env()},
        stdout=subprocess.PIPE,
        check=False,
    )
    try:
        codes: dict[str, int] = json.loads(launched.stdout.decode().strip().splitlines()[-1])
    except (ValueError, IndexError):
        session.error(f"the side-by-side build printed no statuses (exit {launched.returncode})")
    failed = [lang for lang in langs if not finish_language(session, lang, codes.get(lang, 1))]
    if failed:
        session.error(f"the build failed for: {', '.join(failed)} (other languages built)")


def build_language(session: nox.Session, python: str, lang: str, extra: list[str]) -> bool:
    """Build one language into _build/html/LANG; record pages and warnings for the summary."""
    session.log(f"building {lang} into {(BUILD / 'html' / lang).relative_to(ROOT)}")
    with (SUMMARY / f"build-{lang}.log").open("wb") as log:
        code = subprocess.run(
            [python, "-m", "sphinx", *sphinx_arguments(lang, extra)],
            env={**os.environ, **_env()},
            stdout=log,
            stderr=subprocess.STDOUT,
            check=False,
        ).returncode
    return finish_language(session, lang, code)


def sphinx_arguments(lang: str, extra: list[str]) -> list[str]:
    """sphinx-build's arguments for one language (``lang`` may be the ``{lang}`` field)."""
    return [
        "-b",
        "html",
        "-c",
        str(ROOT),
        "-D",
        f"language={lang}",
        "-d",
        str(BUILD / "doctrees" / lang),
        "-W",
        "--keep-going",
        "-q",
        "-w",
        str(SUMMARY / f"warnings-{lang}.txt"),
        *extra,
        str(ROOT / "docs"),
        str(BUILD / "html" / lang),
    ]


def finish_language(session: nox.Session, lang: str, code: int) -> bool:
    """Report one finished build: print its output; write _build/summary/docs-LANG.json."""
    out = BUILD / "html" / lang
    output = (SUMMARY / f"build-{lang}.log").read_text(encoding="utf-8", errors="replace")
    if output.strip():
        session.log(f"{lang} build output:\n{output.rstrip()}")
    warnings_file = SUMMARY / f"warnings-{lang}.txt"
    pages = sorted(
        p.relative_to(ROOT / "docs").with_suffix(".html").as_posix()
        for p in (ROOT / "docs").rglob("*.md")
        if not any(part.startswith("_") for part in p.relative_to(ROOT).parts[1:])
    )
    built = [p for p in pages if (out / p).exists()]
    text = warnings_file.read_text(encoding="utf-8") if warnings_file.exists() else ""
    warnings = [ln for ln in text.splitlines() if ln]
    ok = code == 0 and not warnings and len(built) == len(pages)
    (SUMMARY / f"docs-{lang}.json").write_text(
        json.dumps(
            {
                "lang": lang,
                "ok": ok,
                "pages": len(built),
                "expected_pages": len(pages),
                "warnings": len(warnings),
                "index": str(out / "index.html"),
            }
        )
    )
    if code not in (0, 1, 2):
        session.log(f"the {lang} build stopped with exit status {code}")
    return ok


@nox.session(venv_backend="none")
def doctest(session: nox.Session) -> None:
    """Run every snippet of docs/. Args: --device cpu|cuda|all (default all present).

    Snippets run once, from the English pages: 'python -m checker i18n' proves that every
    translation carries the same code, so running them per language would prove nothing more.
    A page unchanged since its last passing run (same bytes, torch, NumPy, Python, CUDA, and
    checker/doctest code) is not run again: its outcome is reused and counted as such
    (_build/summary/doctest-pages.json; delete it, or a clean clone, runs every snippet).
    """
    python = shared_python(session)
    args = list(session.posargs)
    if "--device" in args:
        i = args.index("--device")
        args[i] = "--doc-device"
    SUMMARY.mkdir(parents=True, exist_ok=True)
    session.run(
        python,
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
        "--continue-on-collection-errors",
        "--doc-summary",
        str(SUMMARY / "doctest.json"),
        "--doc-unchanged",
        str(SUMMARY / "doctest-pages.json"),
        *args,
        str(ROOT / "docs"),
        env=_env(),
        external=True,
    )


@nox.session(venv_backend="none")
def summary(session: nox.Session) -> None:
    """Print pages built per language, snippets per device, translation coverage."""
    python = shared_python(session)
    session.run(
        python,
        "-m",
        "checker.summary",
        str(SUMMARY),
        str(ROOT / "locales"),
        str(ROOT / "docs" / "_evidence" / "doctest-cuda.json"),
        env=_env(),
        external=True,
    )


# -- other tasks -------------------------------------------------------------------------------


@nox.session(venv_backend="none", default=False)
def tests(session: nox.Session) -> None:
    """Run the test suite under tests/ (args go to pytest)."""
    python = shared_python(session)
    session.run(python, "-m", "pytest", *session.posargs, env=_env(), external=True)


@nox.session(venv_backend="none", default=False)
def lint(session: nox.Session) -> None:
    """Ruff (lint and format check) and mypy over the Python code."""
    python = shared_python(session)
    session.run(python, "-m", "ruff", "check", ".", external=True)
    session.run(python, "-m", "ruff", "format", "--check", ".", external=True)
    session.run(python, "-m", "mypy", env=_env(), external=True)


@nox.session(venv_backend="none", default=False)
def i18n(session: nox.Session) -> None:
    """Regenerate the .pot templates and update locales/ja and locales/ko."""
    python = shared_python(session)
    update_catalogs(session, python, TRANSLATED)


#: The extension's gettext domain: the text it generates (labels, decision rules, reasons).
EXTENSION_LOCALE = ROOT / "checker" / "sphinx" / "locale"
#: The service's gettext domain: the text of its pages (checker/service/templates/).
SERVICE_LOCALE = ROOT / "checker" / "service" / "locale"


def update_catalogs(session: nox.Session, python: str, langs: tuple[str, ...]) -> Path:
    """Extract the English templates into _build/gettext and update LANGS' catalogs, the
    pages' under locales/, the service's pages' under checker/service/locale/ and the
    extension's generated text under checker/sphinx/locale/
    (its template is extracted from the claim modules, so new or changed decision rules
    arrive as untranslated or fuzzy messages)."""
    pot = BUILD / "gettext"
    session.run(
        python,
        "-m",
        "sphinx",
        "-b",
        "gettext",
        "-c",
        str(ROOT),
        "-q",
        "-W",
        "-d",
        str(BUILD / "doctrees" / "gettext"),
        str(ROOT / "docs"),
        str(pot),
        env=_env(),
        external=True,
    )
    session.run(
        python,
        "-m",
        "sphinx_intl",
        "update",
        "-p",
        str(pot),
        "-d",
        str(ROOT / "locales"),
        "--no-obsolete",  # the catalogs hold the English of today, nothing else
        *[f"-l{lang}" for lang in langs],
        external=True,
    )
    generated = BUILD / "gettext-checker"
    session.run(
        python,
        "-m",
        "checker",
        "i18n",
        "--write-template",
        str(generated / "checker.pot"),
        env=_env(),
        external=True,
    )
    session.run(
        python,
        "-m",
        "sphinx_intl",
        "update",
        "-p",
        str(generated),
        "-d",
        str(EXTENSION_LOCALE),
        "--no-obsolete",
        *[f"-l{lang}" for lang in langs],
        external=True,
    )
    # the service's pages (`python -m checker serve`): their own domain, from the templates
    service = BUILD / "gettext-service"
    session.run(
        python, "-m", "checker.service.ui", str(service / "service.pot"), env=_env(), external=True
    )
    session.run(
        python,
        "-m",
        "sphinx_intl",
        "update",
        "-p",
        str(service),
        "-d",
        str(SERVICE_LOCALE),
        "--no-obsolete",
        *[f"-l{lang}" for lang in langs],
        external=True,
    )
    return pot


@nox.session(venv_backend="none", default=False)
def translation(session: nox.Session) -> None:
    """A translator's loop: update, check and build one language. Args: ja|ko."""
    if len(session.posargs) != 1 or session.posargs[0] not in TRANSLATED:
        session.error(f"usage: nox -s translation -- {'|'.join(TRANSLATED)}")
    lang = session.posargs[0]
    python = shared_python(session)
    pot = update_catalogs(session, python, (lang,))
    report = SUMMARY / f"i18n-{lang}.json"
    SUMMARY.mkdir(parents=True, exist_ok=True)
    session.run(
        python,
        "-m",
        "checker",
        "i18n",
        "--lang",
        lang,
        "--templates",
        str(pot),
        "--json-file",
        str(report),
        env=_env(),
        external=True,
        success_codes=[0, 1],
    )
    built = build_language(session, python, lang, [])
    errors = json.loads(report.read_text(encoding="utf-8"))["summary"]["errors"]
    session.log(f"preview: {BUILD / 'html' / lang / 'index.html'}")
    problems = [f"{errors} translation errors"] if errors else []
    problems += [] if built else [f"the {lang} build failed"]
    if problems:
        session.error(f"{lang}: {'; '.join(problems)} (see above)")


@nox.session(name="i18n-check", venv_backend="none", default=False)
def i18n_check(session: nox.Session) -> None:
    """Check the catalogs without building (args go to 'python -m checker i18n')."""
    python = shared_python(session)
    session.run(python, "-m", "checker", "i18n", *session.posargs, env=_env(), external=True)


@nox.session(venv_backend="none", default=False)
def serve(session: nox.Session) -> None:
    """The checking service on http://127.0.0.1:8000/ (args go to 'python -m checker serve')."""
    python = shared_python(session)
    session.run(python, "-m", "checker", "serve", *session.posargs, env=_env(), external=True)


@nox.session(venv_backend="none", default=False)
def verify(session: nox.Session) -> None:
    """Run every claim's probe (args go to 'python -m checker verify')."""
    python = shared_python(session)
    session.run(python, "-m", "checker", "verify", *session.posargs, env=_env(), external=True)


#: torch releases ``versions`` measures every claim with, oldest first: the oldest the project
#: supports (pyproject.toml says torch>=2.4), releases in between, and the newest.
TORCH_RELEASES = ("2.4.1", "2.5.1", "2.8.0", "2.11.0", "2.13.0")
#: What each release's environment needs besides torch (the checker's runtime dependencies).
RELEASE_EXTRAS = ("numpy", *PYPROJECT["project"]["dependencies"][1:])


def release_python(session: nox.Session, release: str) -> str:
    """The interpreter of ``.nox/torch-RELEASE``, installed once and then reused."""
    env = ROOT / ".nox" / f"torch-{release}"
    python = env / "bin" / "python"
    stamp = env / ".installed"
    wanted = " ".join((f"torch=={release}", *RELEASE_EXTRAS))
    if not python.exists():
        session.run(sys.executable, "-m", "venv", str(env), external=True)
    if not stamp.exists() or stamp.read_text() != wanted:
        session.log(f"installing torch {release} into {env.relative_to(ROOT)} (several GB)")
        session.run(
            str(python),
            "-m",
            "pip",
            "install",
            "-q",
            "--no-cache-dir",
            "--disable-pip-version-check",
            *wanted.split(" "),
            external=True,
        )
        stamp.write_text(wanted)
    return str(python)


@nox.session(venv_backend="none", default=False)
def versions(session: nox.Session) -> None:
    """Every claim on the CPU under each torch release, into docs/_evidence/versions.json.

    Args: [RELEASE ...] (default: all of TORCH_RELEASES). Each release gets its own
    environment under .nox/ (installed once); results are cached like verify's.
    """
    releases = session.posargs or list(TORCH_RELEASES)
    runs = BUILD / "versions"
    runs.mkdir(parents=True, exist_ok=True)
    outputs = []
    python = ""
    for release in releases:
        python = release_python(session, release)
        output = runs / f"{release}.json"
        session.run(
            python,
            "-m",
            "checker.versions",
            "measure",
            "--output",
            str(output),
            "--root",
            str(ROOT),
            env=_env(),
            external=True,
        )
        outputs.append(str(output))
    known = [str(runs / f"{r}.json") for r in TORCH_RELEASES if (runs / f"{r}.json").exists()]
    session.run(
        python,  # the last release's: the merge needs nothing beyond the checker
        "-m",
        "checker.versions",
        "merge",
        *sorted(set(outputs) | set(known)),
        "--output",
        str(ROOT / "docs" / "_evidence" / "versions.json"),
        env=_env(),
        external=True,
    )


@nox.session(venv_backend="none", default=False)
def bench(session: nox.Session) -> None:
    """Benchmarks, each printing ratios measured side by side in one run. Args: [NAME ...]
    among harness (cold vs warm verify, per-probe overhead), i18n (translation checks vs
    English only, doctests once vs per language), build (three languages / English,
    translated / English, one .po edit rebuild), corpus (scan overhead per article, scan /
    the articles' own code), scan (needs the seed articles); default: all. The build and
    corpus figures go to _build/bench/*.json (CI keeps them as an artifact)."""
    python = shared_python(session)
    names = session.posargs or sorted(p.stem for p in (ROOT / "benchmarks").glob("*.py"))
    for name in names:
        session.run(python, str(ROOT / "benchmarks" / f"{name}.py"), env=_env(), external=True)


if __name__ == "__main__":
    sys.argv = ["nox", "-f", __file__, *sys.argv[1:]]
    nox.main()
