"""A small site for the extension's tests: fixture claims only."""

import sys
from pathlib import Path

# The repository root: this file's grandparent's parent, or where the tests copied it from.
ROOT = Path(__file__).resolve().parents[3]
if not (ROOT / "checker").is_dir():
    import os

    ROOT = Path(os.environ["CHECKER_REPO_ROOT"])
sys.path.insert(0, str(ROOT))

project = "fixture site"
extensions = ["myst_parser", "checker.sphinx"]
root_doc = "index"
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
html_theme = "pydata_sphinx_theme"
templates_path = [str(ROOT / "docs" / "_templates")]
html_theme_options = {"navbar_end": ["language-switcher"]}
locale_dirs = ["../locales"]
gettext_compact = False
checker_claim_package = ""
checker_claim_modules = ["tests.fixtures.claims_ok"]
checker_evidence_dir = "evidence"
