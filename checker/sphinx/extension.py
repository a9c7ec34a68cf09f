"""Registers every part of the extension, one ``setup_*`` per module.

The order matters where Sphinx keeps it: handlers of one event run, and post-transforms of
one priority apply, in the order they were registered.
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

from checker.sphinx.catalogs import setup_catalogs
from checker.sphinx.charts import setup_charts
from checker.sphinx.claim_checks import setup_claim_checks
from checker.sphinx.claims import setup_claims
from checker.sphinx.claims_index import setup_claims_index
from checker.sphinx.config import setup_config
from checker.sphinx.cuda_runs import setup_cuda_runs
from checker.sphinx.evidence_panel import setup_evidence_panel
from checker.sphinx.fast_i18n import setup_fast_i18n
from checker.sphinx.glossary import setup_glossary
from checker.sphinx.languages import setup_languages
from checker.sphinx.measured import setup_measured
from checker.sphinx.results import setup_results
from checker.sphinx.safety import setup_safety
from checker.sphinx.search_ja import setup_search_ja
from checker.sphinx.site_text import setup_site_text
from checker.sphinx.state import setup_state
from checker.sphinx.text_store import setup_text_store
from checker.sphinx.translatable import setup_translatable

VERSION = "0.1.0"


def setup_extension(app: Sphinx) -> dict[str, Any]:
    setup_config(app)
    setup_state(app)
    setup_results(app)
    setup_claims(app)
    setup_evidence_panel(app)
    setup_claim_checks(app)
    setup_measured(app)
    setup_claims_index(app)
    setup_charts(app)
    setup_cuda_runs(app)
    setup_languages(app)
    setup_catalogs(app)
    setup_translatable(app)
    setup_safety(app)
    setup_glossary(app)
    setup_site_text(app)
    setup_fast_i18n(app)
    setup_search_ja(app)
    setup_text_store(app)
    return {
        "version": VERSION,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
