"""What one build of the docs keeps: a typed object on the build environment.

Sphinx keeps what an extension learns while reading pages on the build environment: it
pickles the environment between builds, and when it reads pages in parallel it forks readers
that each fill their own copy, then merges each copy back (``env-merge-info``) after removing
what a page being read again had left (``env-purge-doc``). Everything this extension keeps
across the phases of a build lives in one :class:`BuildState`, the environment's attribute
``checker_state``, reached through :func:`build_state`; :func:`setup_state` purges and merges
its per-page fields. Its fields are of three kinds:

- per page, kept between builds, purged when the page is read again and merged from parallel
  readers: where claims are shown, where verdicts are referenced, which pages show measured
  results;
- per build input, kept between builds and compared by ``env-get-outdated`` handlers, which
  run before any page is read: the fingerprints of the results and of the recorded CUDA run,
  and each page's catalog digest;
- this build only, never pickled (a reader forked for parallel reading has them from its
  parent): the verdicts and values the pages show (:class:`~checker.sphinx.results.Results`)
  and the Markdown parsers :mod:`checker.sphinx.fast_i18n` reuses.

An environment whose state has no results fingerprint (a new one, or one pickled by code
that kept its state elsewhere) has every page read again
(:func:`checker.sphinx.claim_checks.outdate_pages_with_verdicts`). The extension declares no
``env_version`` for this: Sphinx writes the versions into the search index, which must stay
byte for byte what it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from checker.sphinx.fast_i18n import MarkdownParsers
    from checker.sphinx.results import Results

#: The build environment's attribute holding the :class:`BuildState`.
ATTRIBUTE = "checker_state"


def setup_state(app: Sphinx) -> None:
    app.connect("env-purge-doc", purge_page)
    app.connect("env-merge-info", merge_pages)


class ClaimPlace(NamedTuple):
    """Where a page shows a claim (``claim`` directive) or its verdict (``verdict`` role)."""

    docname: str
    line: int
    #: The statement as the page shows it, translated; empty for a ``verdict`` reference.
    statement: str


@dataclass
class BuildState:
    """Everything the extension keeps during a build and between builds (see the module)."""

    # -- per page, kept between builds ---------------------------------------------------

    #: Where each claim is shown by a ``claim`` directive, by claim id, collected once the
    #: page is translated (:mod:`checker.sphinx.claim_checks`).
    claim_sites: dict[str, list[ClaimPlace]] = field(default_factory=dict)
    #: Where each claim's verdict is referenced with the ``verdict`` role, by claim id.
    verdict_sites: dict[str, list[ClaimPlace]] = field(default_factory=dict)
    #: Pages showing measured values, charts or the claims index: read again whenever the
    #: results change (:func:`checker.sphinx.results.mark_dynamic`).
    dynamic_pages: set[str] = field(default_factory=set)

    # -- per build input, kept between builds ----------------------------------------------

    #: SHA-256 of each page's ``.po`` catalog when the page was last read (``None``: it had
    #: none), so that an edited catalog is noticed by content (:mod:`checker.sphinx.catalogs`).
    #: Recorded before pages are read, so neither purged nor merged per page.
    catalog_digests: dict[str, str | None] = field(default_factory=dict)
    #: :meth:`~checker.sphinx.results.Results.fingerprint` of the last build's results.
    results_fingerprint: str | None = None
    #: SHA-256 of the last build's recorded CUDA run of the examples (``""``: none)
    #: (:mod:`checker.sphinx.cuda_runs`).
    cuda_record_fingerprint: str | None = None

    # -- this build only, never pickled --------------------------------------------------

    #: The verdicts and values of this build, set when the builder is ready
    #: (:func:`checker.sphinx.results.compute_results`), dropped when the build ends.
    results: Results | None = None
    #: The Markdown parsers reused across the build's translated messages.
    markdown_parsers: MarkdownParsers | None = None

    def purge(self, docname: str) -> None:
        """Forget what ``docname`` left: it is read again, or it was removed."""
        for sites in (self.claim_sites, self.verdict_sites):
            for claim_id, places in list(sites.items()):
                kept = [p for p in places if p.docname != docname]
                if kept:
                    sites[claim_id] = kept
                else:
                    del sites[claim_id]
        self.dynamic_pages.discard(docname)

    def merge(self, other: BuildState, docnames: set[str]) -> None:
        """Add what a parallel reader learned from ``docnames``."""
        for sites, found in (
            (self.claim_sites, other.claim_sites),
            (self.verdict_sites, other.verdict_sites),
        ):
            for claim_id, places in found.items():
                read = [p for p in places if p.docname in docnames]
                if read:
                    sites.setdefault(claim_id, []).extend(read)
        self.dynamic_pages.update(other.dynamic_pages & docnames)

    def __getstate__(self) -> dict[str, Any]:
        """What is pickled with the environment: everything but this build's objects."""
        return {**self.__dict__, "results": None, "markdown_parsers": None}


def build_state(env: BuildEnvironment) -> BuildState:
    """The state kept on ``env``, created empty for a new environment."""
    state = getattr(env, ATTRIBUTE, None)
    if state is None:
        state = BuildState()
        setattr(env, ATTRIBUTE, state)
    assert isinstance(state, BuildState)
    return state


def purge_page(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    build_state(env).purge(docname)


def merge_pages(
    app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment
) -> None:
    build_state(env).merge(build_state(other), docnames)
