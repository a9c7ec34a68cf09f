"""The translation-check samples: two pages, fixture claims, code blocks in the catalogs."""

import os
import sys
from pathlib import Path

# The repository root: this file's grandparent's parent, or where the tests copied it from.
ROOT = Path(__file__).resolve().parents[3]
if not (ROOT / "checker").is_dir():
    ROOT = Path(os.environ["CHECKER_REPO_ROOT"])
sys.path.insert(0, str(ROOT))

project = "translation samples"
extensions = ["myst_parser", "checker.sphinx"]
root_doc = "index"
source_suffix = {".md": "markdown"}
myst_enable_extensions = ["colon_fence", "deflist"]
locale_dirs = ["../locales"]
gettext_compact = False
gettext_location = True
gettext_uuid = False
# Code blocks go into the catalogs too, so that the code-block check has entries to guard.
gettext_additional_targets = ["literal-block"]
checker_claim_package = ""
checker_claim_modules = ["tests.fixtures.claims_i18n"]
checker_evidence_dir = "evidence"
