"""English, the language the docs are written in: how the project reads it.

English puts the predicate after its subject and its negation right before it ("does not
reduce") or right after it ("allocates nothing"), within clauses that punctuation and
conjunctions bound; words that relate a term stand before it ("before T", "unlike X").
"""

from __future__ import annotations

import re

from checker.text.languages.base import NEVER, Language

#: English number words a translation may write in digits ("four times" is ``4倍``).
_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
NUMBER_WORDS: dict[str, float] = {
    **{word: float(i) for i, word in enumerate(_WORDS)},
    "eleven": 11.0,
    "twelve": 12.0,
    "single": 1.0,
    "once": 1.0,
    "twice": 2.0,
    "double": 2.0,
    "both": 2.0,
    "half": 0.5,
}

#: Up to three words between an order marker and its term, within one clause.
_ORDER_GAP = r"\s+(?:[^\s,;:]+\s+){0,3}[^\s,;:]*$"

ENGLISH = Language(
    code="en",
    name="English",
    locale="en_US",
    letters="",
    shared_letters="",
    spaced_word_letters="A-Za-z",
    spaced_stops=".!?",
    sentence_openers=r"A-Z`*\"'(\[",
    closed_stops="",
    negation=re.compile(
        r"\b(?:not|never|no longer|cannot|neither|nor|nothing|none|no)\b|n't\b"
        r"|\bwithout\s+(?:reduc|sav|chang|copy|allocat)"
        r"|(?<!to )\bavoid(?:s|ed|ing)?\b",  # "avoids a copy"; not "to avoid underflow"
        re.IGNORECASE,
    ),
    # "not only", "whether or not", "no problem" (it is fine); Python's None after a word
    # ("its .grad is None", "set to None") is a value, not "none of them"
    affirmative_idioms=re.compile(
        r"\bnot\s+only\b|\bwhether\s+or\s+not\b"
        r"|\b(?:no\s+|without\s+(?:any\s+)?)(?:problem|issue|trouble)s?\b|\bnot\s+a\s+problem\b"
        r"|(?-i:(?<=[a-z] )None\b(?! of\b))",
        re.IGNORECASE,
    ),
    # "without reducing/saving/..." is a negation already
    without=re.compile(r"\bwithout\b(?!\s+(?:reduc|sav|chang|copy|allocat))", re.IGNORECASE),
    without_reach=12,
    condition=NEVER,
    adnominal=NEVER,
    consequence=NEVER,
    verb_final=False,
    clause_bound=re.compile(
        r"[;:,()]|\s[-–—]\s|\b(?:and|but|while|whereas|which|that|so|because|although|where|"
        r"when|unless)\b",
        re.IGNORECASE,
    ),
    relative_pronouns=("that", "which", "who"),
    relative_negation=re.compile(
        r"\s*(?:(?:does|do|did|is|are|was|were|can|could|will|would|has|have|had)\s+not|"
        r"\w+n't|never)\s+\w+",
        re.IGNORECASE,
    ),
    function_words=frozenset(
        [
            "a",
            "an",
            "the",
            "any",
            "its",
            "their",
            "this",
            "that",
            "these",
            "those",
            "always",
            "ever",
            "really",
            "quite",
            "fully",
        ]
    ),
    postpositions=False,
    # "unlike X", and the term of a comparison: "faster than X"
    contrast=re.compile(r"\b(?:unlike|in contrast to|as opposed to|than)\s+[`(]*[\w.]*$", re.I),
    order_before=re.compile(r"\b(?:before|prior to|then|followed by)" + _ORDER_GAP, re.I),
    order_after=re.compile(r"\b(?:after|once)" + _ORDER_GAP, re.I),
    exemplified_by=NEVER,
    topic_particle=NEVER,
    number_words=NUMBER_WORDS,
    demonstrative=re.compile(
        r"\b(?:this|that)\s+(?:context\s+manager|function|method|api|class|decorator|call)\b|"
        r"\b(?:inside|within)\s+(?:it|this\s+block)\b",
        re.IGNORECASE,
    ),
    example_marker=re.compile(
        r"(?:for\s+(?:example|instance)|e\.\s?g\.|such\s+as)\b", re.IGNORECASE
    ),
    reason_opener=re.compile(
        r"(?:this|that|it)(?:'s|\s+is)\s+(?:because|since|due\s+to)\b|the\s+reason\s+is\b",
        re.IGNORECASE,
    ),
    hedge=re.compile(r"\b(?:may|might|can|could|sometimes)\b", re.IGNORECASE),
    # a finite verb after its subject, or an auxiliary ("Why reshape is not a view")
    heading_predicate=re.compile(
        r"\b(?:is|are|was|were|isn't|aren't|does|doesn't|do|don't|did|can|can't|cannot|"
        r"will|won't|must|should|has|have|never|always)\b|(?:`|\)|\b[a-z_]+)\s+[a-z]+(?<!ss)s\b",
        re.IGNORECASE,
    ),
    indirect=re.compile(
        r"\b(?:articles?|claims?|says?|said|states?|presents?|describes?|suggests?|myths?|"
        r"wrong|false|true|if|whether|would|might|could|believe[sd]?|promise[sd]?|review|"
        r"so that|only when|only if|unless|otherwise|proof|proves?|guarantee[sd]?|may|"
        r"depending on)\b|\?"
        # an embedded question announces a topic, it asserts nothing: "this page shows what
        # `del` frees", "we explain which ops save their inputs" ("shows how X …" is left
        # out: it takes X … for granted)
        r"|\b(?:shows?|showing|explains?|explaining|covers?|tells?|learn|see|find\s+out|asks?|"
        r"wonder)\s+(?:you\s+|us\s+)?(?:what|which)\b",
        re.IGNORECASE,
    ),
    # "does not convert everything", "not always", "not necessarily" ("not ... at all" is a
    # negation made stronger, not a quantifier)
    partial_negation=re.compile(
        r"(?:\bnot|n't)\s+(?:\w+\s+){0,2}?(?<!\bat\s)(?:all|every\w*|always|necessarily)\b",
        re.IGNORECASE,
    ),
    stated_case=re.compile(
        r"\bin\s+(?:this|that|such\s+a|either|each|both|these|those)\s+cases?\b"
        r"[^.;:!?]{0,30}?\bwould\b",
        re.IGNORECASE,
    ),
    reach=60,
    says_deprecated=re.compile(r"deprecat|no longer recommended|legacy", re.IGNORECASE),
    says_raises=re.compile(
        r"\b(?:raises|throws|errors?\s+out|will\s+(?:raise|throw|fail|error))\b"
        r"|\b(?:raise|throw)\s+(?:an?\s+|the\s+)?(?:\w+\s+)?(?:error|exception)\b"
        r"|\b(?:gives?|get|causes?|produces?|triggers?|results?\s+in|leads?\s+to)\s+"
        r"(?:an?\s+|the\s+)?(?:\w+\s+)?(?:error|exception)\b"
        r"|(?:->|→|=>)\s*(?:an?\s+)?(?:error|exception)\b|\berror(?:\s+here)?\s*!",
        re.IGNORECASE,
    ),
    says_runs=re.compile(
        r"\bno\s+(?:[A-Z]\w*)?(?:errors?|exceptions?)\b"
        r"|\b(?:does\s+not|doesn't|won't|will\s+not|did\s+not|didn't|never)\s+"
        r"(?:raise|throw|fail|error)"
        r"|\bwithout\s+(?:an?\s+)?(?:errors?|exceptions?)\b|\bruns?\s+(?:fine|without)\b",
        re.IGNORECASE,
    ),
    says_maybe=re.compile(
        r"\b(?:may|might|could|can|possibly|sometimes|if|when|unless|whether|depending)\b|\?",
        re.IGNORECASE,
    ),
    yes_marks=frozenset(["✓", "✔", "✅", "yes", "true"]),
    no_marks=frozenset(["✗", "✘", "❌", "no", "false"]),
    marked_statement="{subject} {predicate}.",
    marked_denial="{subject} does not {predicate}.",
)
