"""Build several languages side by side from one process that has loaded Sphinx once.

``nox -s docs`` builds every language at once, one build per language. Started as separate
interpreters, each build imports Sphinx, docutils, MyST, Pygments, Jinja and this extension
on its own, before any work. Here one process imports them and then forks a child per
language; each child runs ``sphinx-build`` with the arguments given, its ``{lang}`` fields
filled in, writes its output to its own log file and exits with Sphinx's status. Each child
is an ordinary Sphinx build (its own application, environment and output folder); only the
already imported modules are shared, copy-on-write. Where ``fork`` does not exist, each
language is built in a new interpreter instead.

Usage::

    python -m checker.sphinx.side_by_side --log LOG_TEMPLATE LANG... -- SPHINX_ARGS...

``LOG_TEMPLATE`` and every Sphinx argument may contain ``{lang}``. The command prints one
line of JSON, ``{"en": 0, "ja": 0, ...}``, each language's exit status, and exits with the
highest of them.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from checker import registry
from checker.registry import RegistryError

#: Imported before forking: what every build imports first (the rest is small).
PRELOADED = (
    "sphinx.cmd.build",
    "sphinx.application",
    "sphinx.builders.html",
    "sphinx.search.en",
    "sphinx.search.ja",
    "docutils.writers.html5_polyglot",
    "myst_parser.parsers.sphinx_",
    "pygments.lexers.python",
    "pydata_sphinx_theme",
    "checker.sphinx.extension",
)


def arguments(template: Sequence[str], lang: str) -> list[str]:
    return [arg.replace("{lang}", lang) for arg in template]


def build_side_by_side(
    langs: Sequence[str], sphinx_args: Sequence[str], log_template: str
) -> dict[str, int]:
    """Each language's Sphinx exit status, the builds run at once."""
    if not hasattr(os, "fork"):
        return _in_new_interpreters(langs, sphinx_args, log_template)
    for module in PRELOADED:
        try:
            importlib.import_module(module)
        except ImportError:  # an optional part (a search language, the theme) is missing
            continue
    with contextlib.suppress(RegistryError):  # each build reports it
        registry.load()  # the claim modules: each build loads the same registry
    sys.stdout.flush()
    sys.stderr.flush()
    children = {}
    for lang in langs:
        pid = os.fork()
        if pid == 0:  # the child: never returns
            _child(arguments(sphinx_args, lang), Path(log_template.replace("{lang}", lang)))
        children[pid] = lang
    statuses: dict[str, int] = {}
    while children:
        pid, status = os.wait()
        if pid in children:
            statuses[children.pop(pid)] = os.waitstatus_to_exitcode(status)
    return {lang: statuses[lang] for lang in langs}


def _child(args: list[str], log: Path) -> None:
    code = 1
    try:
        log.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.close(fd)
        from sphinx.cmd.build import main

        code = main(args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException as exc:  # reported in the log, never raised past the fork
        print(f"side_by_side: the build stopped: {exc!r}", file=sys.stderr)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code if isinstance(code, int) else 1)


def _in_new_interpreters(
    langs: Sequence[str], sphinx_args: Sequence[str], log_template: str
) -> dict[str, int]:
    procs = {}
    for lang in langs:
        log = Path(log_template.replace("{lang}", lang))
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("wb") as out:
            procs[lang] = subprocess.Popen(
                [sys.executable, "-m", "sphinx", *arguments(sphinx_args, lang)],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
    return {lang: proc.wait() for lang, proc in procs.items()}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" not in argv:
        sys.exit("usage: python -m checker.sphinx.side_by_side --log LOG LANG... -- SPHINX_ARGS")
    split = argv.index("--")
    parser = argparse.ArgumentParser(prog="python -m checker.sphinx.side_by_side")
    parser.add_argument("--log", required=True, help="log file per language, with {lang}")
    parser.add_argument("langs", nargs="+")
    options = parser.parse_args(argv[:split])
    statuses = build_side_by_side(options.langs, argv[split + 1 :], options.log)
    print(json.dumps(statuses))
    return max(statuses.values(), default=0)


if __name__ == "__main__":
    sys.exit(main())
