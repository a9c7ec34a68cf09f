"""Check every catalog of the requested languages against the English; never raise.

:func:`check` reads the English pages and templates once, then each catalog: a malformed
catalog is reported with its lines and the others are still checked; a step that cannot run
(the templates do not build, the claim modules do not load) becomes an ``internal`` finding.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from checker import registry as registry_mod
from checker.claim import Claim
from checker.i18n import approvals as approvals_mod
from checker.i18n import generated
from checker.i18n.checks import TRANSLATION_CHECKS, UNUSED_TRANSLATION_CHECKS, consistency
from checker.i18n.checks.code import check_code_entry
from checker.i18n.checks.completeness import PageCoverage, missing_catalog, missing_messages
from checker.i18n.findings import Check, Severity, TranslationFinding, said
from checker.i18n.generated import GeneratedCatalog
from checker.i18n.glossary import Glossary, GlossaryError, load_glossary
from checker.i18n.message import EntryCheck, Message
from checker.i18n.sources import (
    Key,
    Sources,
    Templates,
    load_templates,
    read_sources,
    read_templates,
)
from checker.text.languages import TRANSLATED
from checker.text.po import Entry, read_catalog
from checker.typing import Lang


@dataclass(frozen=True)
class I18nOptions:
    """What to check. :meth:`project` fills in the repository's layout."""

    docs: Path
    locales: Path
    #: The folder of ``conf.py``, to build the templates with.
    conf_dir: Path
    #: ``glossary.toml``; ``None`` skips the glossary.
    glossary: Path | None
    langs: tuple[Lang, ...] = TRANSLATED
    #: A folder of ``.pot`` templates to use as they are.
    templates: Path | None = None
    #: A folder of templates to use if newer than every source (``_build/gettext``).
    reuse_templates: Path | None = None
    #: Build the templates when none are given or fresh; if False, skip the out-of-date check.
    build_templates: bool = True
    claim_modules: tuple[str, ...] = ()
    claim_package: str | None = registry_mod.DEFAULT_PACKAGE
    #: Paths in findings are relative to this folder.
    root: Path | None = None
    #: Catalogs of generated text to check beside the pages' (the edges that generate text
    #: describe them; :mod:`checker.project` gathers the project's).
    generated: tuple[GeneratedCatalog, ...] = ()
    #: Recorded evidence files, whose rules are shown on pages too.
    recorded: tuple[Path, ...] = ()
    #: The reviewed claim statement translations (:mod:`checker.i18n.approvals`); ``None``
    #: skips the check. A path that does not exist approves nothing.
    approvals: Path | None = None

    @classmethod
    def project(cls, root: Path, **changes: object) -> I18nOptions:
        """The repository's own layout under ``root``, with ``changes`` applied."""
        options = cls(
            docs=root / "docs",
            locales=root / "locales",
            conf_dir=root,
            glossary=root / "locales" / "glossary.toml",
            reuse_templates=root / "_build" / "gettext",
            root=root,
            recorded=tuple(sorted((root / "docs" / "_evidence").glob("*.json"))),
            approvals=root / "locales" / approvals_mod.FILE_NAME,
        )
        return dataclasses.replace(options, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True)
class I18nResult:
    """Every finding, and the coverage of every page in every language checked."""

    findings: tuple[TranslationFinding, ...]
    coverage: tuple[PageCoverage, ...]
    langs: tuple[str, ...]
    #: Where the English templates came from, or why there were none.
    templates: str = ""
    catalogs: int = 0
    #: Every translated claim statement checked, as :mod:`checker.i18n.approvals` records it.
    statements: tuple[approvals_mod.Statement, ...] = ()

    @property
    def errors(self) -> tuple[TranslationFinding, ...]:
        return tuple(f for f in self.findings if f.is_error)

    @property
    def warnings(self) -> tuple[TranslationFinding, ...]:
        return tuple(f for f in self.findings if not f.is_error)

    @property
    def exit_code(self) -> int:
        """0 without errors (warnings allowed), 1 with errors."""
        return 1 if self.errors else 0

    def language(self, lang: str) -> PageCoverage:
        """The coverage of all pages of ``lang`` summed up (``page`` is ``"*"``)."""
        pages = [c for c in self.coverage if c.lang == lang]
        return PageCoverage(
            lang,
            "*",
            sum(c.total for c in pages),
            sum(c.translated for c in pages),
            sum(c.fuzzy for c in pages),
            all(c.has_catalog for c in pages),
        )

    def complete_pages(self, lang: str) -> tuple[str, ...]:
        return tuple(c.page for c in self.coverage if c.lang == lang and c.complete)


@dataclass
class _Context:
    options: I18nOptions
    sources: Sources
    templates: Templates
    glossary: Glossary | None
    findings: list[TranslationFinding] = field(default_factory=list)
    coverage: list[PageCoverage] = field(default_factory=list)
    catalogs: int = 0
    #: Every entry of every readable page catalog, for the consistency check.
    translated: list[consistency.Translated] = field(default_factory=list)
    approvals: approvals_mod.Approvals | None = None
    statements: list[approvals_mod.Statement] = field(default_factory=list)

    def relative(self, path: Path) -> str:
        return relative(path, self.options.root)


def relative(path: Path, root: Path | None) -> str:
    """``path`` relative to ``root`` when it lies under it, as in annotations."""
    if root is not None:
        try:
            return path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return str(path)


def check(options: I18nOptions) -> I18nResult:
    """Check the catalogs of ``options.langs``."""
    findings: list[TranslationFinding] = []
    claims = _claims(options, findings)
    sources = read_sources(options.docs, claims)
    templates = _templates(options, findings)
    glossary = _glossary(options, findings)
    ctx = _Context(options, sources, templates, glossary, findings)
    ctx.approvals = _approvals(options, findings)
    extractions = [(c, _extracted(c, options, claims, findings)) for c in options.generated]
    for lang in options.langs:
        catalog_dir = options.locales / lang / "LC_MESSAGES"
        found = {
            p.relative_to(catalog_dir).with_suffix("").as_posix(): p
            for p in sorted(catalog_dir.rglob("*.po"))
        }
        for page in sorted(set(sources.pages) | set(found)):
            path = found.get(page, catalog_dir / f"{page}.po")
            try:
                _check_page(ctx, lang, page, path if page in found else None)
            except Exception as exc:  # a bug must not hide the other catalogs' findings
                ctx.findings.append(
                    _internal(ctx.relative(path), lang, page, f"{type(exc).__name__}: {exc}")
                )
        for catalog, extraction in extractions:
            if extraction is not None and extraction.messages:
                _check_generated(ctx, lang, catalog, extraction)
    ctx.findings += consistency.check(ctx.translated)
    origin = templates.origin or templates.problem or "none (out-of-date check skipped)"
    return I18nResult(
        tuple(sorted(ctx.findings, key=_order)),
        tuple(ctx.coverage),
        tuple(options.langs),
        origin,
        ctx.catalogs,
        tuple(sorted(set(ctx.statements))),
    )


def _order(finding: TranslationFinding) -> tuple[str, str, str, int, str]:
    return (finding.lang, finding.page, finding.path, finding.line, finding.check.value)


def _internal(path: str, lang: str, page: str, message: str) -> TranslationFinding:
    return TranslationFinding(path, 1, lang, page, Check.INTERNAL, Severity.ERROR, message)


def _claims(options: I18nOptions, findings: list[TranslationFinding]) -> dict[str, Claim]:
    try:
        loaded = registry_mod.load(options.claim_modules, package=options.claim_package)
    except (registry_mod.RegistryError, ImportError) as exc:
        findings.append(
            _internal("checker/claims", "", "", f"claim vocabularies not loaded: {exc}")
        )
        return {}
    return {claim.id: claim for claim in loaded}


def _templates(options: I18nOptions, findings: list[TranslationFinding]) -> Templates:
    if options.templates is not None:
        return read_templates(options.templates)
    templates = load_templates(
        options.docs,
        options.conf_dir,
        reuse=options.reuse_templates,
        build=options.build_templates,
    )
    if templates.problem is not None:
        findings.append(
            _internal(str(options.docs), "", "", f"out-of-date check skipped: {templates.problem}")
        )
    return templates


def _extracted(
    catalog: generated.GeneratedCatalog,
    options: I18nOptions,
    claims: dict[str, Claim],
    findings: list[TranslationFinding],
) -> generated.Extraction | None:
    root = options.root or Path.cwd()
    try:
        extraction = catalog.extract(tuple(claims.values()), root, options.recorded)
    except Exception as exc:  # a claim module that cannot be read must not stop the gate
        path = relative(catalog.locale_dir, options.root)
        findings.append(_internal(path, "", catalog.page, f"{type(exc).__name__}: {exc}"))
        return None
    findings += generated.problem_findings(extraction, catalog.page)
    return extraction


def _check_generated(
    ctx: _Context,
    lang: Lang,
    catalog: generated.GeneratedCatalog,
    extraction: generated.Extraction,
) -> None:
    path = catalog.path(lang)
    found, coverage = generated.check_catalog(
        path, ctx.relative(path), lang, extraction.messages, ctx.glossary, page=catalog.page
    )
    ctx.findings += found
    ctx.coverage.append(coverage)
    ctx.catalogs += coverage.has_catalog
    if coverage.has_catalog:
        ctx.findings += _approved_rules(ctx, path, lang, catalog, extraction)


#: How the reviewed list names a decision rule (a rule belongs to a probe module, not to one
#: claim; the digest names the rule).
RULE = "decision-rule"


def _approved_rules(
    ctx: _Context,
    path: Path,
    lang: Lang,
    catalog: generated.GeneratedCatalog,
    extraction: generated.Extraction,
) -> Iterator[TranslationFinding]:
    """A translated decision rule, which says what a probe proves, must be approved like a
    claim's statement."""
    rules = {m.key for m in extraction.messages if m.comment == "decision rule"}
    read = read_catalog(path, lang)
    if read.fatal or not rules:
        return
    for entry in read.active:
        if (entry.msgctxt, entry.msgid) not in rules or entry.fuzzy or not entry.translated:
            continue
        where = f"generated:{catalog.domain}"  # the list's fields hold no spaces
        item = approvals_mod.statement(lang, where, RULE, entry.msgid, entry.msgstr)
        ctx.statements.append(item)
        if ctx.approvals is None or ctx.approvals.approves(item):
            continue
        yield TranslationFinding(
            ctx.relative(path),
            entry.msgstr_line,
            lang,
            catalog.page,
            Check.CLAIM_APPROVAL,
            Severity.ERROR,
            "this translation of a decision rule has not been reviewed (it is new, or it or "
            "its English changed since): review it against the English, then run "
            f"'python -m checker i18n --approve-claims' and commit {approvals_mod.FILE_NAME}",
            msgid=entry.msgid,
            msgstr=entry.msgstr,
        )


def _glossary(options: I18nOptions, findings: list[TranslationFinding]) -> Glossary | None:
    if options.glossary is None:
        return None
    try:
        return load_glossary(options.glossary)
    except GlossaryError as exc:
        path = relative(exc.path, options.root)
        findings.append(
            TranslationFinding(
                path, exc.line, "", "", Check.GLOSSARY_FILE, Severity.ERROR, exc.message
            )
        )
        return None


@dataclass(frozen=True)
class _CatalogUnderCheck:
    """One catalog under check: its file as reported, language, page and template."""

    path: str
    lang: Lang
    page: str
    #: The English messages of the page, ``None`` when the templates are unknown.
    template: dict[Key, Entry] | None

    def finding(
        self, line: int, check: Check, message: str, severity: Severity | None = None
    ) -> TranslationFinding:
        level = severity or check.severity
        return TranslationFinding(self.path, line, self.lang, self.page, check, level, message)


def _check_page(ctx: _Context, lang: Lang, page: str, path: Path | None) -> None:
    template = ctx.templates.messages.get(page)
    is_code = {key: ctx.sources.is_code(page, key[1]) for key in template or {}}
    expected = sum(1 for code in is_code.values() if not code)
    if path is None:
        missing = ctx.options.locales / lang / "LC_MESSAGES" / f"{page}.po"
        finding, coverage = missing_catalog(ctx.relative(missing), lang, page, expected)
        ctx.findings.append(finding)
        ctx.coverage.append(coverage)
        return
    ctx.catalogs += 1
    where = _CatalogUnderCheck(ctx.relative(path), lang, page, template)
    if page not in ctx.sources.pages:
        message = f"docs/{page}.md does not exist (any more): delete this catalog"
        ctx.findings.append(where.finding(1, Check.OUT_OF_DATE, message, severity=Severity.WARNING))
        return
    catalog = read_catalog(path, lang)
    ctx.findings += [
        where.finding(p.line, Check(p.kind.value), p.message) for p in catalog.problems
    ]
    if catalog.fatal:
        ctx.coverage.append(PageCoverage(lang, page, expected, 0))
        return
    translated = fuzzy = 0
    for entry in catalog.entries:
        ctx.findings += _check_entry(ctx, where, entry)
        if not ctx.sources.is_code(page, entry.msgid):
            ctx.translated.append(consistency.Translated(where.path, lang, page, entry))
        counted = not entry.obsolete and not ctx.sources.is_code(page, entry.msgid)
        counted = counted and (template is None or (entry.msgctxt, entry.msgid) in template)
        fuzzy += counted and entry.fuzzy
        translated += counted and entry.translated and not entry.fuzzy
    if template is not None:
        gap = missing_messages(catalog, template, is_code, (where.path, lang, page))
        ctx.findings += [gap] if gap is not None else []
    else:
        expected = sum(1 for e in catalog.active if not ctx.sources.is_code(page, e.msgid))
    ctx.coverage.append(PageCoverage(lang, page, expected, translated, fuzzy))


def _check_entry(
    ctx: _Context, where: _CatalogUnderCheck, entry: Entry
) -> Iterator[TranslationFinding]:
    claim_id = ctx.sources.claim_at(where.page, entry.occurrences)
    message = Message(
        where.path,
        where.lang,
        where.page,
        entry,
        entry.msgstr,
        claim_id,
        ctx.sources.claims.get(claim_id or ""),
        ctx.glossary,
    )
    if entry.obsolete:
        yield message.finding(
            Check.OBSOLETE, said("an obsolete (#~) entry: delete it"), line=entry.line
        )
    elif where.template is not None and (entry.msgctxt, entry.msgid) not in where.template:
        text = said(
            "the English no longer has this message: run 'nox -s translation -- {lang}'",
            lang=where.lang,
        )
        yield message.finding(Check.OUT_OF_DATE, text, line=entry.msgid_line)
    elif ctx.sources.is_code(where.page, entry.msgid):
        yield from check_code_entry(message)
    elif entry.fuzzy:
        text = said(
            "marked fuzzy: check the translation against the changed English, then remove the flag"
        )
        yield message.finding(Check.FUZZY, text, line=entry.flags_line or entry.line)
        yield from _run(UNUSED_TRANSLATION_CHECKS, _forms(message))
    elif not entry.translated:
        yield message.finding(Check.UNTRANSLATED, said("not translated yet"))
    else:
        yield from _run(TRANSLATION_CHECKS, _forms(message))
        if claim_id is not None:
            yield from _approval(ctx, message, claim_id)


def _approval(ctx: _Context, message: Message, claim_id: str) -> Iterator[TranslationFinding]:
    """A translated claim statement must be one a reviewer approved."""
    item = approvals_mod.statement(
        message.lang, message.page, claim_id, message.english, message.translation
    )
    ctx.statements.append(item)
    if ctx.approvals is None or ctx.approvals.approves(item):
        return
    yield message.finding(
        Check.CLAIM_APPROVAL,
        said(
            "claim {claim}: this translation of the statement has not been reviewed (it is "
            "new, or it or its English changed since): review it against the English, then "
            "run 'python -m checker i18n --approve-claims' and commit {file}",
            claim=claim_id,
            file=approvals_mod.FILE_NAME,
        ),
    )


def _approvals(
    options: I18nOptions, findings: list[TranslationFinding]
) -> approvals_mod.Approvals | None:
    if options.approvals is None:
        return None
    read = approvals_mod.read(options.approvals)
    path = relative(options.approvals, options.root)
    for line, text in read.malformed:
        message = f"not 'LANG PAGE CLAIM DIGEST': {text!r}"
        findings.append(
            TranslationFinding(path, line, "", "", Check.CLAIM_APPROVAL, Severity.ERROR, message)
        )
    return read


def _forms(message: Message) -> list[Message]:
    """The message once per translated form (``msgstr[N]`` of plural entries)."""
    forms = message.entry.translations
    return [dataclasses.replace(message, translation=form) for form in forms if form]


def _run(checks: Iterable[EntryCheck], messages: list[Message]) -> Iterator[TranslationFinding]:
    for check_ in checks:
        for message in messages:
            yield from check_(message)
