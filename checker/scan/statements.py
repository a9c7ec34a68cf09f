"""Verdicts on prose: which sentences state a known claim, and what the evidence says of it.

A sentence *mentions* a claim when it uses the claim's vocabulary (a subject and a predicate
in the article's language, :func:`checker.text.reading.mentions`); it *asserts* the claim's
statement unless it is negated. The claim's statement is true where its probe found that it
holds (a myth's probe finds that it fails). So the article is

* ``contradicted`` when it asserts a statement the evidence found false, or denies one found
  true, on any device with evidence;
* ``supported`` when it agrees with the evidence on every device that has some;
* ``outdated`` when it is contradicted now but agrees with what the probe found on an older
  torch release (``docs/_evidence/versions.json``, :mod:`checker.scan.history`);
* ``needs-cuda`` when the claim is only meaningful on CUDA and no CUDA evidence exists (live or
  recorded);
* ``unverified`` when a sentence names an API (``torch.…`` or a claim's API subject) but
  matches no claim, or the probe could not decide.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from checker.claim import Claim
from checker.scan import order, table
from checker.scan.decide import decide
from checker.scan.document import Block, BlockKind
from checker.scan.findings import FindingVerdict, ScanFinding
from checker.scan.history import History
from checker.scan.raising import run_judges
from checker.scan.subjects import case_of_paragraph, joined, names_code, pointed_back
from checker.text import languages, reading
from checker.text.said import Said, said
from checker.typing import Lang
from checker.verdict import Verdict

_TORCH_NAME = re.compile(r"\btorch\.[A-Za-z_][\w.]*")


@dataclass(frozen=True)
class SentenceMention:
    block: Block
    line: int
    #: The sentence as it is read: a demonstrative subject ("this context manager")
    #: replaced by what it refers to.
    sentence: str
    lang: str
    mention: reading.ClaimMention | None
    #: The sentence as the article has it ("" when it is :attr:`sentence`).
    original: str = ""
    #: The language the sentence is written in, when it is not the article's (an English
    #: sentence quoted in a Japanese post): its words are read in that language, and the
    #: finding still links to the page in the article's.
    read_in: str = ""
    #: For a reason read after the sentence it explains (see :func:`_reasons`): where in
    #: :attr:`sentence` the reason begins; ``-1`` for any other sentence.
    reason_at: int = -1

    @property
    def quote(self) -> str:
        return " ".join((self.original or self.sentence).split())


@dataclass
class Topic:
    """What an article is talking about: the API its title or last sentence named, which a
    demonstrative subject ("this context manager", この関数, 이 함수) refers to."""

    subject: str = ""


def mentions_in(
    block: Block, lang: str, claims: Sequence[Claim], topic: Topic | None = None
) -> list[SentenceMention]:
    """The sentences of a prose block that mention a claim or name an API. ``topic``: what the
    article talked about before this block, updated as the block names APIs."""
    found: list[SentenceMention] = []
    api_subjects = _api_subjects(claims)
    topic = topic if topic is not None else Topic()
    if _VERDICT_ROLE.search(block.text + " " + block.context):
        return []  # a review's row or paragraph: it states what a claim's verdict is
    about = referenced_claims(block.text + " " + block.context, claims)
    subjects = _all_subjects(claims)
    marks = table.statements(block.header, block.cells, lang)
    if marks:  # a table row of marks: the statements it makes, quoted as the row
        return _marked(block, lang, marks, claims, about)
    paragraph = ""  # the code name an earlier sentence of this block named
    for offset, written in _with_examples(reading.sentences(block.text), lang):
        if _MEASURED_ROLE.search(written):
            continue  # it reports a measured value: the docs build checks it
        line = block.line_at(offset)
        sentence = _ADDRESS.sub(reading.blank, written)  # a link's words state nothing
        named = _named_subject(sentence, subjects)
        read = sentence if named is not None else pointed_back(sentence, lang, topic.subject)
        written_in = _written_in(sentence, lang)
        # read without its asides where that still states the claim, else as it is
        plain = without_asides(read)
        matched = reading.mentions(plain, written_in, list(claims))  # type: ignore[arg-type]
        plain_ids = {m.claim.id for m in matched}
        if plain != read:
            matched += [
                m
                for m in reading.mentions(read, written_in, list(claims))  # type: ignore[arg-type]
                if m.claim.id not in plain_ids
            ]
        matched += _ordered(read, written_in, claims, {m.claim.id for m in matched})
        if not matched and read == sentence and paragraph:  # "On the CPU, only bfloat16 works"
            read, matched = case_of_paragraph(sentence, written_in, paragraph, claims)
        if named is not None and names_code(named, sentence):
            topic.subject = paragraph = named
        if block.heading and not _heading_states(sentence, written_in):
            matched = []  # "deepcopy와 계산 그래프": a topic, not a statement
        read_in = written_in if written_in != lang else ""
        for mention in _once(matched, about):
            said = plain if mention.claim.id in plain_ids else read
            kept = written if said != written else ""
            found.append(SentenceMention(block, line, said, lang, mention, kept, read_in))
        if (
            not matched
            and _is_sentence(sentence)
            and (_TORCH_NAME.search(sentence) or any(s in sentence for s in api_subjects))
        ):
            found.append(SentenceMention(block, line, written, lang, None))
    for offset, reading_of, at in _reasons(reading.sentences(block.text), lang):
        written_in = _written_in(reading_of, lang)
        read_in = written_in if written_in != lang else ""
        for mention in _once(_in_reason(reading_of, at, written_in, claims), about):
            found.append(
                SentenceMention(
                    block, block.line_at(offset), reading_of, lang, mention, "", read_in, at
                )
            )
    return found


def _reasons(sentences: list[tuple[int, str]], lang: str) -> list[tuple[int, str, int]]:
    """The sentences that give the reason for the sentence before them ("This is because
    …", ``これは…ためです``, ``이는 … 때문이다``: :attr:`~checker.text.languages.base.Language.
    reason_opener`), each read after that sentence, whose subjects it speaks of: ``(offset
    of the reason, the two sentences, where the reason begins in their normalised text)``."""
    opener = languages.language(lang).reason_opener
    found = []
    for (_, before), (offset, sentence) in itertools.pairwise(sentences):
        if opener.match(reading.normalise(sentence)):
            joined = f"{before} {sentence}"
            found.append((offset, joined, len(reading.normalise(f"{before} "))))
    return found


def _in_reason(
    sentence: str, at: int, lang: str, claims: Sequence[Claim]
) -> list[reading.ClaimMention]:
    """The claims a reason states (``sentence``: the sentence it explains, then the reason
    from ``at``): those whose predicate is the reason's; what the sentence it explains
    states is read from that sentence alone."""
    reason = reading.normalise(sentence)[at:].lower()
    return [
        mention
        for mention in reading.mentions(sentence, lang, list(claims))  # type: ignore[arg-type]
        if reading.stem_pattern(mention.predicate).search(reason)
    ]


#: A web address, or a slug standing alone (``how-to-copy-a-tensor-with-clone-and-detach``):
#: the words of a link, which name a page and state nothing.
_ADDRESS = re.compile(
    r"(?:\bhttps?://|\bwww\.)[^\s<>\"'`]+|(?<![\w-])[A-Za-z0-9]+(?:-[A-Za-z0-9]+){4,}(?![\w-])"
)


def _ordered(
    sentence: str, lang: str, claims: Sequence[Claim], seen: set[str]
) -> list[reading.ClaimMention]:
    """Claims about order that a sentence states by the order alone ("call `update()` before
    `step()`"): it names the claim's subject and both of its terms as code, with an order
    marker ("before the first step, `update()` ..." speaks of a step, not of `step()`)."""
    found = []
    prose = reading.normalise(sentence)
    code = " ".join(re.findall(r"`([^`]*)`", prose)).lower()
    for claim in claims:
        vocabulary = claim.vocabulary
        if vocabulary is None or vocabulary.order is None or claim.id in seen:
            continue
        if not all(any(t.lower() in code for t in terms) for terms in vocabulary.order):
            continue
        subject = next((s for s in vocabulary.subjects if reading.names(s, prose)), None)
        said = order.stated_order(sentence, lang, order.Order(*vocabulary.order))  # type: ignore[arg-type]
        if subject is not None and said is not None:
            found.append(reading.ClaimMention(claim, True, subject, "order", False))
    return found


def _marked(
    block: Block,
    lang: str,
    marks: list[tuple[str, str]],
    claims: Sequence[Claim],
    about: set[str],
) -> list[SentenceMention]:
    """The claims a table row of marks states (see :mod:`checker.scan.table`), quoted as the
    row and the column it was read under."""
    found = []
    row_subject = reading.normalise(block.cells[0])
    for column, sentence in marks:
        quote = f"{block.text} (under '{column}')"
        # a claim whose subject is only in the header is not what the row is about
        about_row = [
            mention
            for mention in reading.mentions(sentence, lang, list(claims))  # type: ignore[arg-type]
            if mention.claim.vocabulary
            and any(reading.names(s, row_subject) for s in mention.claim.vocabulary.subjects)
        ]
        for mention in _once(about_row, about):
            found.append(SentenceMention(block, block.line, sentence, lang, mention, quote))
    return found


def _once(matched: list[reading.ClaimMention], about: set[str]) -> list[reading.ClaimMention]:
    """The claims a sentence states, each once, leaving out those its block names by id."""
    seen: set[str] = set()
    kept = []
    for mention in matched:
        if mention.claim.id not in seen and mention.claim.id not in about:
            seen.add(mention.claim.id)
            kept.append(mention)
    return kept


def _written_in(sentence: str, lang: str) -> str:
    """The language of one sentence of a ``lang`` article: its own when its script says so
    plainly (six English words and no Japanese or Korean in a Japanese or Korean article;
    Hangul or kana in an English one), else the article's."""
    if lang != languages.SOURCE.code:
        prose = re.sub(r"`[^`]*`", " ", sentence)
        if not languages.cjk_letters(prose) and languages.latin_words(prose) >= 6:
            return "en"
        return lang
    detected = languages.detect(sentence)
    if detected is None:  # Han without kana: no language we read, so the article's
        return lang
    return detected if detected != "en" and languages.cjk_letters(sentence) >= 8 else lang


def _with_examples(sentences: list[tuple[int, str]], lang: str) -> list[tuple[int, str]]:
    """``sentences`` with each one that lists examples joined to the sentence it illustrates
    (read once, as one): in "Many selection functions share memory. For example index_select()", the
    examples are the subjects of the sentence before."""
    examples = languages.language(lang).example_marker
    read: list[tuple[int, str]] = []
    for offset, sentence in sentences:
        if read and examples.match(sentence):
            start, before = read[-1]
            read[-1] = (start, f"{before} {sentence}")
        else:
            read.append((offset, sentence))
    return read


#: What ends a sentence, as opposed to a heading, a caption or a lone word on its own line.
_SENTENCE_CLOSE = re.compile(r"(?:[.!?。！？][)）」』]?|[:;：])\s*$")


def _is_sentence(text: str) -> bool:
    """Whether ``text`` reads as a sentence that could state something: it ends as one does,
    or runs long (ten words, or fifteen Japanese or Korean characters). A heading
    such as "Automatic Mixed Precision package - torch.cuda.amp" or a lone ``inference_mode``
    names an API and states nothing."""
    if _SENTENCE_CLOSE.search(text):
        return True
    words = re.sub(r"`[^`]*`", "x", text).split()
    return len(words) >= 10 or languages.cjk_letters(text) >= 15


def _heading_states(heading: str, lang: str) -> bool:
    """Whether a heading makes a statement rather than naming a topic: it has a verb (see
    :attr:`~checker.text.languages.base.Language.heading_predicate`)."""
    return bool(languages.language(lang).heading_predicate.search(heading.strip()))


def _all_subjects(claims: Sequence[Claim]) -> tuple[str, ...]:
    """Every claim subject, longest first (``torch.cuda.amp`` before ``autocast``)."""
    subjects = {s for c in claims if c.vocabulary for s in c.vocabulary.subjects}
    return tuple(sorted(subjects, key=len, reverse=True))


def _named_subject(sentence: str, subjects: tuple[str, ...]) -> str | None:
    """The most specific claim subject a sentence names (the longest), if any."""
    prose = reading.normalise(sentence)
    found = [(-len(s), prose.find(s), s) for s in subjects if reading.names(s, prose)]
    return min(found)[2] if found else None


def comment_statements(code: Block) -> list[Block]:
    """The comments of a code block that are sentences, as prose: each is read with the names
    its line calls (``d = a.detach()  # shares memory with a`` is "`detach()` shares memory
    with a"). Comments stating a value or that the line raises or runs (``# no error``) are
    the snippet's business (``program``): running the line judges them."""
    found = []
    for row, line in enumerate(code.text.split("\n")):
        code_part, hash_, comment = line.partition("#")
        comment = comment.strip()
        if not hash_ or not comment or _quoted(code_part) or run_judges(comment):
            continue
        if len(comment.split()) < 3 and languages.detect(comment) == "en":
            continue  # "# forward", "# 4 MB": a label, not a sentence
        names = dict.fromkeys(re.findall(r"([A-Za-z_]\w*)\s*\(", code_part))
        called = " ".join(f"`{name}()`" for name in names if name != "print")
        text = f"{called} {comment}".strip()
        found.append(Block(BlockKind.PROSE, text, (code.lines[row],)))
    return found


def _quoted(code: str) -> bool:
    """Whether ``code`` leaves a string open (the ``#`` is inside a string)."""
    return code.count("'") % 2 == 1 or code.count('"') % 2 == 1


_VERDICT_ROLE = re.compile(r"\{verdict\}`([^`]+)`")
_MEASURED_ROLE = re.compile(r"\{measured\}`([^`@]+)")


def referenced_claims(text: str, claims: Sequence[Claim]) -> set[str]:
    """Claims a MyST text refers to with ``{verdict}`` or ``{measured}`` roles. Such a text
    is a statement *about* the claim (a review paraphrasing an article, a measured value),
    which the docs build checks itself; the scanner does not read it as asserting the claim."""
    ids = set(_VERDICT_ROLE.findall(text))
    keys = set(_MEASURED_ROLE.findall(text))
    ids |= {c.id for c in claims if keys & set(c.measures)}
    return ids


def _api_subjects(claims: Sequence[Claim]) -> tuple[str, ...]:
    """Subjects that are API names (they hold ``_``, ``.`` or ``(``), not ordinary words."""
    subjects = {s for c in claims if c.vocabulary for s in c.vocabulary.subjects}
    return tuple(sorted(s for s in subjects if re.search(r"[_.(]", s) and len(s) > 3))


def judge(
    mention: SentenceMention,
    path: str,
    verdicts: Mapping[str, Sequence[Verdict]],
    link: Callable[[str, str], str | None],
    history: History | None = None,
) -> ScanFinding:
    quote = mention.quote
    if mention.mention is None:
        unmatched = said("names a PyTorch API but states none of the known claims")
        return ScanFinding(
            path,
            mention.line,
            mention.lang,
            "claim",
            FindingVerdict.UNVERIFIED,
            quote,
            unmatched.english,
            said=unmatched,
        )
    claim = mention.mention.claim

    def finding(verdict: FindingVerdict, evidence: str | Said) -> ScanFinding:
        return ScanFinding(
            path,
            mention.line,
            mention.lang,
            "claim",
            verdict,
            quote,
            evidence if isinstance(evidence, str) else evidence.english,
            claim.id,
            link(claim.id, mention.lang),
            said=None if isinstance(evidence, str) else evidence,
        )

    lang: Lang = mention.read_in or mention.lang  # type: ignore[assignment]
    opposite = mention.mention.opposite
    words = (
        (claim.vocabulary.opposites if opposite else claim.vocabulary.predicates)
        if (claim.vocabulary)
        else {}
    )
    stems = words.get(lang, ())
    doubt = indirect(mention.sentence, lang, claim, opposite, mention.reason_at)
    if doubt:
        return finding(
            FindingVerdict.UNVERIFIED,
            said(
                "mentions '{statement}', but {doubt}: not judged",
                statement=claim.statement,
                doubt=doubt,
            ),
        )
    prose = reading.normalise(mention.sentence)
    near = prose.find(mention.mention.subject)
    near_or_none = near if near >= 0 else None
    subject_at = (near, near + len(mention.mention.subject)) if near >= 0 else None
    inside, outside = reading.negation_scope(mention.sentence, lang, stems, near_or_none)
    if (outside and languages.language(lang).verb_final) or inside > 1:
        return finding(
            FindingVerdict.UNVERIFIED,
            said(
                "mentions '{statement}', but with {count} negations its polarity is unclear",
                statement=claim.statement,
                count=inside + outside,
            ),
        )
    if inside and reading.describes_subject(mention.sentence, lang, stems, subject_at):
        return finding(
            FindingVerdict.UNVERIFIED,
            said(
                "mentions '{statement}', but only to describe its subject; the negation "
                "denies what the sentence says of it next: not judged",
                statement=claim.statement,
            ),
        )
    # the predicate nearest the subject, in its own clause; an opposite predicate denies it
    asserts = (inside % 2 == 0) != opposite
    if near >= 0 and _contrasted(prose, near, mention.mention.subject, lang):
        asserts = not asserts  # "unlike `index_select()`, slicing shares memory"
    agrees = asserts != statement_denies(claim)
    sequence = claim.vocabulary.order if claim.vocabulary else None
    stated = (
        order.stated_order(mention.sentence, lang, order.Order(*sequence)) if sequence else None
    )
    if stated is not None:  # a claim about order: the order the sentence states decides
        stated = stated if inside % 2 == 0 else not stated  # "do not clip before unscale_"
        agrees = stated and (agrees or not opposite)  # an opposite predicate still denies
    verdict, evidence, measured = decide(
        claim, agrees, verdicts.get(claim.id, ()), history or History()
    )
    stance = "agrees with" if agrees else "denies"
    evidence = f"{stance} '{claim.statement}' — {evidence}"
    return dataclasses.replace(finding(verdict, evidence), measured=measured)


def _contrasted(text: str, at: int, subject: str, lang: str) -> bool:
    """Whether the ``subject`` found at ``at`` of the normalised sentence ``text`` is set
    against the sentence's own ("unlike X, ...", "Xと違って"): what the sentence says holds
    for the other subject, and not for this one (see
    :attr:`~checker.text.languages.base.Language.contrast`)."""
    language = languages.language(lang)
    if language.postpositions:
        return bool(language.contrast.match(text[at + len(subject) :]))
    return bool(language.contrast.search(text[:at]))


def indirect(
    sentence: str, lang: Lang, claim: Claim, opposite: bool = False, reason_at: int = -1
) -> Said | None:
    """Why a sentence that uses a claim's words may not be stating it, or ``None``: it speaks
    *about* a statement (reported speech, a judgement of another text, a condition, a
    question: :attr:`~checker.text.languages.base.Language.indirect`), which the scanner
    does not judge, or its subject and predicate stand too far apart
    (:attr:`~checker.text.languages.base.Language.reach`) or in different clauses.
    ``opposite``: the sentence uses the vocabulary's opposite predicate. ``reason_at``: where
    a reason begins that ``sentence`` gives for its first part (a hedge of that part does not
    hedge the reason: :attr:`~checker.text.languages.base.Language.hedge`)."""
    language = languages.language(lang)
    prose = reading.normalise(sentence)
    if reason_at >= 0:
        explained = language.hedge.sub(reading.blank, prose[:reason_at])
        prose = explained + prose[reason_at:]
    vocabulary = claim.vocabulary
    wording = (
        {} if vocabulary is None else (vocabulary.opposites if opposite else vocabulary.predicates)
    )
    lowered = prose.lower()
    subjects: list[tuple[int, int]] = []
    predicates: list[tuple[int, int]] = []
    if vocabulary is not None:
        subjects = [m.span() for s in vocabulary.subjects for m in re.finditer(re.escape(s), prose)]
        stems = wording.get(lang, ())
        predicates = [m.span() for p in stems for m in reading.stem_pattern(p).finditer(lowered)]
    # a quote that holds neither the subject nor the predicate is an utterance the sentence
    # cites ("setting it allows 「may I change this?」"): its marks are not the sentence's
    cited = prose
    for q0, q1 in _quotes(prose, [*subjects, *predicates]):
        cited = cited[:q0] + " " * (q1 - q0) + cited[q1:]
    words = re.sub(r"`[^`]*`", " ", cited)
    own = (*wording.get(lang, ()), *(vocabulary.conditions.get(lang, ()) if vocabulary else ()))
    for stem in own:  # a marker inside the claim's own wording is the claim
        words = reading.stem_pattern(stem).sub(" ", words)
    words = language.stated_case.sub(" ", words)  # "in this case, ... would": no hedge
    marker = language.indirect.search(words)
    if marker:
        return said("it speaks about a statement ({marker})", marker=f"'{marker.group(0)}'")
    partial = language.partial_negation.search(words)
    if partial:
        return said(
            "its negation bears on a quantifier ({partial}), not on the claim",
            partial=f"'{partial.group(0)}'",
        )
    if vocabulary is None:
        return None
    if subjects and predicates:
        gap, start, end = min(
            (max(0, p0 - s1, s0 - p1), min(s1, p1), max(s0, p0))
            for s0, s1 in subjects
            for p0, p1 in predicates
        )
        if gap > language.reach:
            return said("its subject and predicate are {gap} characters apart", gap=gap)
        breaks = list(_CLAUSE_BREAK.finditer(prose, start, end))
        if breaks and not joined(prose, breaks, vocabulary.subjects):
            return said("its subject and predicate are in different clauses")
    return None


def _quotes(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The quotes of ``text`` (「…」, 『…』, “…”) that overlap none of ``spans``."""
    return [
        m.span()
        for m in _QUOTE.finditer(text)
        if not any(s0 < m.end() and m.start() < s1 for s0, s1 in spans)
    ]


def without_asides(sentence: str) -> str:
    """``sentence`` without its parenthetical asides, " (one you made yourself, not the result
    of an operation)", "テンソル（自分で作ったもの）": a phrase in brackets (three words, or six
    Japanese or Korean letters) that is not the arguments of a call (``add_(1)``). An aside
    interrupts a clause: its words stand between a subject and its predicate, and its
    negations ("not the result") bear on neither."""
    return _ASIDE.sub(_drop_aside, sentence)


def _drop_aside(match: re.Match[str]) -> str:
    inside = match.group(0)[1:-1]
    prose = len(inside.split()) >= 3 or languages.cjk_letters(inside) >= 6
    return "" if prose else match.group(0)


_QUOTE = re.compile(r"「[^「」]*」|『[^『』]*』|“[^“”]*”")
_ASIDE = re.compile(r"\s?(?<![A-Za-z0-9_)\]])[(（][^()（）`]*[)）]")

#: Punctuation that separates what comes before it from what follows, for the scanner; and
#: "and" opening a clause whose subject is a pronoun, which may point back at any noun
#: before it ("X is recognised by autograd and it creates a copy": X does, not autograd).
_CLAUSE_BREAK = re.compile(
    r"[:;：；]|\s[-–—]\s|\bbut\b|\bwhere\b|\bwhereas\b|\band\s+(?:it|they|this|these|those)\b",
    re.IGNORECASE,
)


def confirmed_in_source(
    finding: ScanFinding,
    mention: SentenceMention,
    verdicts: Mapping[str, Sequence[Verdict]],
    link: Callable[[str, str], str | None],
) -> ScanFinding:
    """A contradicted translation (a catalog message) stays contradicted only if its English
    source, read the same way, is contradicted on the same claim; else it is unverified."""
    block, claim = mention.block, mention.mention.claim if mention.mention else None
    if not block.source or claim is None or finding.verdict is not FindingVerdict.CONTRADICTED:
        return finding
    english = Block(
        BlockKind.PROSE,
        block.source,
        (block.line,) * len(block.source.split("\n")),
        context=block.context,
    )
    for source_mention in mentions_in(english, "en", [claim]):
        judged = judge(source_mention, finding.path, verdicts, link)
        if judged.verdict is FindingVerdict.CONTRADICTED:
            return finding
    return dataclasses.replace(
        finding,
        verdict=FindingVerdict.UNVERIFIED,
        evidence=f"{finding.evidence} — but its English source is not contradicted; whether "
        "the translation says the same is checked by 'python -m checker i18n'",
        measured=dataclasses.replace(finding.measured, source_not_contradicted=True)
        if finding.measured is not None
        else None,
    )


def statement_denies(claim: Claim) -> bool:
    """Whether the claim's statement denies its own predicate ("allocates nothing")."""
    vocabulary = claim.vocabulary
    if vocabulary is None:
        return False
    if vocabulary.denies is not None:
        return vocabulary.denies
    stems = vocabulary.predicates.get("en", ())
    if not reading.stem_spans(claim.statement, "en", stems):
        return False  # the statement words it otherwise; say 'denies=True' where it denies
    return reading.predicate_negated(claim.statement, "en", stems)
