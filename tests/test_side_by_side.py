"""Languages built side by side from one process (checker.sphinx.side_by_side, used by
``nox -s docs`` and the build benchmark): each language's own status, log and pages, the same
pages as a build of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.helpers import ROOT
from tests.sphinx_site import Site, copy_site


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "CHECKER_REPO_ROOT": str(ROOT)}


def _side_by_side(site: Site, *langs: str) -> subprocess.CompletedProcess[str]:
    root = site.root
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "checker.sphinx.side_by_side",
            "--log",
            str(root / "logs" / "build-{lang}.log"),
            *langs,
            "--",
            "-b",
            "html",
            "-c",
            str(root),
            "-D",
            "language={lang}",
            "-d",
            str(root / "_build" / "doctrees" / "{lang}"),
            "-W",
            "-q",
            str(site.docs),
            str(root / "_build" / "html" / "{lang}"),
        ],
        env=_env(),
        capture_output=True,
        text=True,
        check=False,
    )


def test_each_language_gets_its_status_log_and_the_pages_of_a_build_of_its_own(
    tmp_path: Path,
) -> None:
    site = copy_site(tmp_path)  # with no ja catalogs: under -W, the ja build fails
    done = _side_by_side(site, "en", "ja")
    assert json.loads(done.stdout) == {"en": 0, "ja": 1}
    assert done.returncode == 1
    ja_log = (site.root / "logs" / "build-ja.log").read_text(encoding="utf-8")
    assert "no ja catalog for page" in ja_log and "[checker.catalog]" in ja_log
    assert (site.root / "logs" / "build-en.log").read_text(encoding="utf-8") == ""
    alone = site.root / "alone"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-b",
            "html",
            "-c",
            str(site.root),
            "-D",
            "language=en",
            "-d",
            str(alone / "doctrees"),
            "-q",
            str(site.docs),
            str(alone / "html"),
        ],
        env=_env(),
        check=True,
    )
    for page in ("index.html", "claims.html"):
        side = (site.root / "_build" / "html" / "en" / page).read_bytes()
        assert side == (alone / "html" / page).read_bytes(), page


def test_the_command_says_how_to_use_it() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "checker.sphinx.side_by_side", "en"],
        env=_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert "usage: python -m checker.sphinx.side_by_side --log LOG LANG... -- SPHINX_ARGS" in (
        done.stderr
    )
