"""``scan``: read each file, run its snippets in the sandbox, judge its statements. No printing."""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checker import devices as devices_mod
from checker import record as record_mod
from checker.cache import Cache
from checker.registry import Registry
from checker.runner import Runner
from checker.scan import announced, api, latent, sessions, snippets, statements
from checker.scan import history as history_mod
from checker.scan.document import BlockKind, Document, ReadError
from checker.scan.findings import FileError, FindingVerdict, ScanFinding, ScanResult
from checker.scan.readers import FORMATS, read
from checker.scan.sandbox import Sandbox, SnippetLimits
from checker.text import languages
from checker.text.links import anchor, language_url
from checker.text.po_header import names_language
from checker.text.sites import claim_sites
from checker.typing import DEVICES, Device
from checker.verdict import Verdict

#: Suffixes read when a folder is given.
SCANNED = (*FORMATS, ".txt")


@dataclass(frozen=True)
class ScanOptions:
    lang: str = "auto"
    devices: tuple[Device, ...] = DEVICES
    limits: SnippetLimits = field(default_factory=SnippetLimits)
    #: Run the snippets (off: judge the prose only).
    run_code: bool = True
    use_cache: bool = True
    project_root: Path = Path()
    #: Where the built docs live; links are ``BASE/<lang>/<page>.html#claim-...``.
    base_url: str = field(default_factory=lambda: os.environ.get("DOCS_BASE_URL", "_build/html"))
    #: A sandbox to use (and leave open) instead of starting one for this scan: a process
    #: that scans many articles (the service's workers) pays for the fork server once.
    sandbox: Sandbox | None = field(default=None, compare=False)
    #: Called with ``(path, snippets run, snippets to run)`` as an article's snippets run.
    progress: Callable[[str, int, int], None] | None = field(default=None, compare=False)


def files_of(paths: Iterable[Path]) -> list[Path]:
    """The files to scan: each file given, and the known formats inside each folder given."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(
                p for p in sorted(path.rglob("*")) if p.is_file() and p.suffix.lower() in SCANNED
            )
        else:
            found.append(path)
    return found


def scan(paths: Sequence[Path], registry: Registry, options: ScanOptions) -> ScanResult:
    documents: list[tuple[Document, str]] = []
    errors: list[FileError] = []
    for path in files_of(paths):
        try:
            document = read(path)
        except ReadError as exc:
            errors.append(FileError(str(path), exc.line, exc.message))
            continue
        errors.extend(FileError(str(path), line, message) for line, message in document.errors)
        documents.append((document, _language(document, options.lang)))
    claims = list(registry.claims)
    mentioned = [
        (document, mention)
        for document, lang in documents
        for mention in _mentions(document, lang, claims)
    ]
    verdicts = _claim_verdicts(registry, options, mentioned)
    history = history_mod.load(options.project_root)
    link = _linker(options)
    findings: list[ScanFinding] = [
        statements.confirmed_in_source(
            statements.judge(mention, str(document.path), verdicts, link, history),
            mention,
            verdicts,
            link,
        )
        for document, mention in mentioned
    ]
    sandbox_measures: dict[str, Any] = {}
    code_seconds: dict[str, float] = {}
    findings += _code_findings(documents, options, sandbox_measures, code_seconds)
    findings.sort(key=lambda f: (f.path, f.line, f.kind))
    absent: dict[str, str] = {
        d: p.reason for d in options.devices if not (p := devices_mod.presence(d)).present
    }
    return ScanResult(
        tuple(findings),
        tuple(errors),
        sandbox_measures,
        devices_mod.torch_version(),
        absent,
        code_seconds,
    )


def _mentions(document: Document, lang: str, claims: list[Any]) -> list[statements.SentenceMention]:
    """Statements of the article's prose and of its code comments, in article order, each
    read with the topic the article was on."""
    topic = statements.Topic()
    found = []
    for block in document.blocks:
        if block.kind is BlockKind.PROSE:
            found += statements.mentions_in(block, lang, claims, topic)
        elif block.kind is BlockKind.CODE:
            for comment in statements.comment_statements(block):
                found += statements.mentions_in(comment, lang, claims, topic)
    return found


def _language(document: Document, requested: str) -> str:
    if requested != "auto":
        return requested
    if document.format.startswith("po:"):  # the catalog's header names its language
        written = document.format[3:]
        named = [lang for lang in languages.LANGS if names_language(written, lang)]
        if named:
            return named[0]
    prose = "\n".join(b.text for b in document.blocks if b.kind is BlockKind.PROSE)
    detected = languages.detect(prose)
    if detected is None:
        # A language we do not read (Chinese: Han without kana) is read with the source's
        # rules: its code, the APIs it names and any English sentence are still checked, and
        # its own sentences, in none of our vocabularies, state no known claim.
        return languages.SOURCE.code
    return detected


def _claim_verdicts(
    registry: Registry, options: ScanOptions, mentioned: list[tuple[Document, Any]]
) -> dict[str, list[Verdict]]:
    needed = {m.mention.claim.id: m.mention.claim for _, m in mentioned if m.mention is not None}
    if not needed:
        return {}
    recorded: dict[str, record_mod.DeviceRecord] = {}
    for device in DEVICES:
        loaded = record_mod.load(record_mod.path_for(options.project_root, device))
        if loaded is not None:
            recorded[device] = loaded
    runner = Runner(
        registry,
        cache=Cache.default(options.project_root) if options.use_cache else None,
        recorded=recorded,
    )
    try:
        results = runner.run(needed.values(), options.devices)
    finally:
        runner.close()
    grouped: dict[str, list[Verdict]] = {}
    for verdict in results:
        grouped.setdefault(verdict.claim.id, []).append(verdict)
    return grouped


def _linker(options: ScanOptions) -> Any:
    sites = claim_sites(options.project_root / "docs")

    def link(claim_id: str, lang: str) -> str | None:
        found = sites.get(claim_id)
        if not found:
            return None
        return f"{language_url(options.base_url, lang, found[0].docname)}#{anchor(claim_id)}"

    return link


def _code_findings(
    documents: list[tuple[Document, str]],
    options: ScanOptions,
    measures: dict[str, Any],
    code_seconds: dict[str, float],
) -> list[ScanFinding]:
    """Snippet findings (when code runs) and API findings, with one sandbox for the scan."""
    prepared = {id(d): _prepare(d) for d, _ in documents}
    references = {id(d): _references(d, prepared[id(d)]) for d, _ in documents}
    if not any(references.values()) and not (options.run_code and any(prepared.values())):
        return []
    sandbox = options.sandbox or Sandbox(options.limits)
    cuda = devices_mod.presence("cuda").present and "cuda" in options.devices
    found: list[ScanFinding] = []
    try:
        resolved = _resolve(sandbox, [r for refs in references.values() for r in refs])
        for document, lang in documents:
            snippet_findings: list[ScanFinding] = []
            if options.run_code:
                snippet_findings, seconds = _run_article(
                    document, lang, prepared[id(document)], options, sandbox, cuda, measures
                )
                code_seconds[str(document.path)] = seconds
            found += snippet_findings
            broken = {f.line for f in snippet_findings if f.verdict is FindingVerdict.BROKEN}
            found += [
                f
                for f in api.findings(references[id(document)], *resolved, str(document.path), lang)
                if not (f.verdict is FindingVerdict.BROKEN and f.line in broken)
            ]
    finally:
        if sandbox is not options.sandbox:
            sandbox.close()
    return found


def _prepare(document: Document) -> list[snippets.Prepared]:
    blocks = document.blocks
    prepared = []
    for index, block in enumerate(blocks):
        if block.kind is not BlockKind.CODE:
            continue
        following = blocks[index + 1] if index + 1 < len(blocks) else None
        shown = following if following and following.kind is BlockKind.OUTPUT else None
        prepared.append(snippets.prepare(block, shown))
    return prepared


def _references(document: Document, prepared: list[snippets.Prepared]) -> list[api.Reference]:
    trees = [(p, ast.parse(p.program.source)) for p in prepared if p.program is not None]
    aliases = api.aliases_of(tree for _, tree in trees)
    found = []
    for block in document.blocks:
        if block.kind is not BlockKind.PROSE or block.source:
            continue
        code_lines = set()
        for row, text in enumerate(block.text.split("\n")):
            call = _code_line(text)
            if call is not None:  # a line of code in prose: a method in a list
                line = block.lines[row]
                code_lines.add(line)
                found += api.code_references(call, aliases, _constant(line), text.strip())
        found += [r for r in api.prose_references(block) if r.line not in code_lines]
    for item, tree in trees:
        assert item.program is not None
        body = tree.body
        raising = {
            item.program.article_line(line)
            for e in item.expected
            if e.source == "doctest" and _EXCEPTION.search(e.text)
            for line in range(body[e.first].lineno, (body[e.last].end_lineno or 0) + 1)
        }
        found += [
            ref
            for ref in api.code_references(tree, aliases, item.program.article_line, item.quote)
            if ref.line not in raising
        ]
    return found


def _constant(line: int) -> Callable[[int], int]:
    """A line map for code that stands on one article line."""
    return lambda _: line


#: A line of prose longer than this is not a line of code quoted in it.
CODE_LINE_CHARS = 300


def _code_line(text: str) -> ast.Module | None:
    """A line of prose that is a line of Python with a call in it, parsed."""
    if not text.isascii() or len(text) > CODE_LINE_CHARS:
        return None
    try:
        tree = ast.parse(text.strip())
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return tree if any(isinstance(n, ast.Call) for n in ast.walk(tree)) else None


#: A doctest output that shows an exception: the example raises on purpose.
_EXCEPTION = re.compile(r"^(?:Traceback \(most recent call last\)|\w+(?:Error|Exception):)", re.M)


def _resolve(
    sandbox: Sandbox, references: list[api.Reference]
) -> tuple[dict[str, dict[str, Any]], dict[tuple[str, int], str | None], str]:
    """Resolve every referenced name, and check every counted call, in one job."""
    if not references:
        return {}, {}, ""
    names = sorted({r.name for r in references})
    calls = [r for r in references if r.call is not None]
    report = sandbox.call(
        "checker.scan.api_probe:resolve",
        {
            "names": names,
            "calls": [[r.name, r.call[0], list(r.call[1])] for r in calls if r.call],
        },
    )
    problems = {(r.name, r.line): p for r, p in zip(calls, report["calls"], strict=True)}
    return report["names"], problems, report["torch"]


def _run_article(  # noqa: PLR0917
    document: Document,
    lang: str,
    prepared: list[snippets.Prepared],
    options: ScanOptions,
    sandbox: Sandbox,
    cuda: bool,
    measures: dict[str, Any],
) -> tuple[list[ScanFinding], float]:
    """Run one article's snippets in order in one session and judge each; also the seconds
    the article's own code ran."""
    runnable = [p for p in prepared if p.program is not None]
    report = options.progress
    outcomes = dict(
        zip(
            (id(p) for p in runnable),
            sandbox.run_session(
                [p.to_run(cuda) for p in runnable],
                None if report is None else lambda n: report(str(document.path), n, len(runnable)),
            ),
            strict=True,
        )
    )
    for outcome in outcomes.values():
        if "jail" in outcome.measures or not measures:
            measures.clear()
            measures.update(outcome.measures)
        if outcome.refused and not measures:
            measures["refused"] = outcome.refused
    context = snippets.Context(
        str(document.path),
        lang,
        cuda,
        options.limits.timeout_s,
        options.limits.memory_bytes,
    )
    anywhere = frozenset(name for p in prepared for name in p.binds)
    blocks = document.blocks
    article = announced.words_of(blocks)
    where = {id(block): index for index, block in enumerate(blocks)}
    earlier: dict[str, int] = {}
    calls: dict[str, tuple[int, str]] = {}
    firsts: list[ScanFinding] = []  # one per snippet, as ``latent`` reads them
    more: list[ScanFinding] = []
    for item in prepared:
        ran = outcomes.get(id(item))
        words = announced.around(blocks, where[id(item.block)], article)
        session = snippets.Session(
            dict(earlier),
            anywhere,
            words,
            tuple(runnable),
            dict(calls),
        )
        first, *rest = snippets.judge(item, ran, context, session)
        firsts.append(first)
        more += rest
        for name in item.binds:
            earlier.setdefault(name, item.block.line)
        sessions.record(calls, item.program)
    if document.program is not None:  # one program: what its run does not reach is read
        firsts = latent.with_latent(firsts, prepared)
        more += latent.whole_program(document, lang, firsts)
    found = firsts + more
    return found, sum(o.seconds for o in outcomes.values())
