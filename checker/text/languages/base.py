"""What the project knows about reading one language, as one frozen record.

Each language module (:mod:`~checker.text.languages.en`, ``ja``, ``ko``) fills every field of
:class:`Language`; the algorithms that read statements (:mod:`checker.text.reading`, the
scanner's :mod:`~checker.scan.statements`, :mod:`~checker.scan.order`,
:mod:`~checker.scan.table`) take these facts from it and hold none of their own. A field a
language has nothing for is filled with what says so: :data:`NEVER` for a pattern, ``""`` for
letters or marks, an empty tuple, set or mapping.

Character fields (``letters``, ``spaced_stops``, ...) hold the inside of a regular
expression's character class (``"\\u3040-\\u30ff"``, ``".!?"``): the algorithms join them
across languages where a rule does not know the language of the text it reads (a sentence
is split the same way in every article, whatever language it quotes).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from checker.typing import Lang

#: A pattern that matches nothing: the value of a field whose construction the language
#: does not have (English has no adnominal negation).
NEVER = re.compile(r"(?!)")


@dataclass(frozen=True, eq=False)
class Language:
    """Everything the project knows about reading one language (see the module docstring).

    Each language is one object, compared by identity; the registry
    (:mod:`checker.text.languages`) looks it up by :attr:`code`.
    """

    # -- who it is, and how its script tells it apart ---------------------------------------

    #: Its code, as the docs' folders and catalogs name it: ``"ja"``.
    code: Lang
    #: Its name in itself, as the language switcher and the glossary's table show it:
    #: ``"日本語"``.
    name: str
    #: The locale whose conventions format its numbers (Babel's): ``"ja_JP"``.
    locale: str
    #: Letters only this language writes, the evidence :func:`~checker.text.languages.detect`
    #: counts: Japanese kana ``"\u3040-\u30ff"``, Korean Hangul. ``""`` for English, whose
    #: Latin letters every language quotes (names of APIs), and for a language all of whose
    #: letters another writes too (Chinese).
    letters: str
    #: Letters it writes that another language writes too: Japanese Han ``"\u4e00-\u9fff"``
    #: (Chinese writes it). Text whose only letters are these is in the language that writes
    #: nothing else (no :attr:`letters`), or in none we read.
    shared_letters: str
    #: Letters of one word, where words are written apart (Korean Hangul ``"\uac00-\ud7a3"``):
    #: a glossary variant after one of them is inside a longer word (행 in 실행). ``""`` where
    #: words run together (Japanese): a variant counts wherever it stands.
    spaced_word_letters: str

    # -- sentences ----------------------------------------------------------------------------

    #: Full stops written before a space: ``".!?"``. A sentence ends at one followed by a
    #: space and one of :attr:`sentence_openers`, or by a line break.
    spaced_stops: str
    #: What a sentence begins with after a spaced stop: English ``"A-Z`*\"'(\\["`` (a capital,
    #: code, emphasis, a quote or a bracket), Korean Hangul syllables.
    sentence_openers: str
    #: Full stops that end a sentence with no space after them: Japanese ``"。！？"``.
    closed_stops: str

    # -- negation -----------------------------------------------------------------------------

    #: A negated predicate: ``not``/``never``/``n't`` (English), ``ない``/``ません``/``ず``
    #: after a verb (Japanese), ``않``/``없다``/``못``/``아니다`` (Korean). It must not match a
    #: word that merely holds the same letters (``少ない`` "few", ``notably``).
    negation: re.Pattern[str]
    #: Phrases that hold a negation marker without denying anything, taken out before
    #: negations are counted: "not only", "whether or not", "no problem", must
    #: (``しなければならない``, ``하지 않으면 안 된다``), only (``しか…ない``, ``밖에 없다``).
    affirmative_idioms: re.Pattern[str]
    #: "Without", where :attr:`negation` does not count it already: ``without``, ``なしで``,
    #: ``없이``. Counted as a negation, so that a statement's polarity compares across
    #: languages (Japanese says "without copying" with a negated verb, ``コピーせずに``).
    without: re.Pattern[str]
    #: How close (characters) after a "without" a predicate must begin for the "without" to
    #: negate it ("without allocating": English ``without`` bears on what follows it).
    #: ``None``: every "without" in the predicate's clause counts (Japanese, Korean).
    without_reach: int | None
    #: A negation in a conditional form (``呼ばないと``, ``호출하지 않으면``): it states a
    #: condition of the predicate after it, it does not deny it. Matched where a negation
    #: begins.
    condition: re.Pattern[str]
    #: A negation in an adnominal form followed by a noun (``必要としない計算``,
    #: ``필요하지 않은 계산``): it qualifies the noun. Matched where a negation begins.
    adnominal: re.Pattern[str]
    #: A connective that opens a clause of consequence after the predicate's clause
    #: (``ので、``, ``므로``): a negation there says what follows from the statement.
    consequence: re.Pattern[str]

    # -- clauses and word order ---------------------------------------------------------------

    #: Whether the predicate ends its clause (Japanese, Korean): the negations that bear on
    #: it stand after its last stem, up to :attr:`clause_bound`, and a sentence with a
    #: negation before its predicate's clause (other than an adnominal or conditional one)
    #: is left unjudged. ``False`` (English): the predicate's clause is bounded on both sides
    #: by :attr:`clause_bound`, and negations outside it do not bear on it.
    verb_final: bool
    #: Where a clause begins or ends: punctuation and conjunctions in English (``,``,
    #: ``but``, ``which``), the end of the predicate's clause in a verb-final language
    #: (``、``, Korean ``-고 ``).
    clause_bound: re.Pattern[str]
    #: Words opening a relative clause (``that``, ``which``): a negated verb right after one
    #: belongs to that clause when another verb follows it ("an operation that does not
    #: raise always gives ..."). Read where :attr:`verb_final` is ``False``.
    relative_pronouns: tuple[str, ...]
    #: The negated verb that opens such a relative clause: `` does not raise``, `` never
    #: frees``.
    relative_negation: re.Pattern[str]
    #: Words that are not a verb of their own between that negated verb and the predicate:
    #: ``a``, ``the``, ``always``.
    function_words: frozenset[str]
    #: Whether the words that relate a term to the sentence follow it (``X と違って``,
    #: ``X の前に``, ``X 와 달리``) rather than precede it (``unlike X``, ``before X``): then
    #: :attr:`contrast`, :attr:`order_before` and :attr:`order_after` are matched at the
    #: term's end (anchored with ``^``), else searched in the text up to it (anchored with
    #: ``$``).
    postpositions: bool
    #: A term set against the sentence's own subject: "unlike X, ...", ``Xと違って``,
    #: ``X와 달리``. What the sentence says holds for the other subject, not for this one.
    contrast: re.Pattern[str]
    #: A marker beside a term that puts the *other* term first: "before T", "then T",
    #: ``T の前に``, ``T 전에``.
    order_before: re.Pattern[str]
    #: A marker beside a term that puts that term first: "after T", ``T してから``,
    #: ``T 후에``.
    order_after: re.Pattern[str]
    #: A term given as an example of the noun phrase after it, in a verb-final language:
    #: ``X のような``, ``X 같은`` (matched at the term's end). With :attr:`topic_particle` it
    #: tells a predicate that only describes the term ("``add_`` 같은 인플레이스 연산은 …
    #: 않습니다": in place is what ``add_`` is, not what the negation denies).
    #: :data:`NEVER` where word order says it (English: "in-place methods like ``add_``").
    exemplified_by: re.Pattern[str]
    #: The particle that ends such a noun phrase as the clause's topic or subject: ``は``,
    #: ``が``, ``은``, ``는``.
    topic_particle: re.Pattern[str]

    # -- numbers ------------------------------------------------------------------------------

    #: Numbers written as words, with their values, that a translation may write in digits
    #: ("four times" is ``4倍``): ``{"four": 4.0, "twice": 2.0, "half": 0.5}``. Empty where
    #: the docs write numbers in digits (Japanese, Korean).
    number_words: Mapping[str, float]

    # -- what a sentence is doing -------------------------------------------------------------

    #: A subject that points back to what the article was talking about: "this function",
    #: ``この関数``, ``이 함수``.
    demonstrative: re.Pattern[str]
    #: How a sentence that lists examples of the sentence before it begins: "For example",
    #: ``例えば``, ``예를 들어`` (matched at the sentence's start).
    example_marker: re.Pattern[str]
    #: How a sentence that gives the reason for the sentence before it begins, pointing back
    #: at it: "This is because", ``これは…ためです``, ``이는 … 때문이다`` (matched at the
    #: sentence's start). The scanner reads the reason as said of that sentence's subjects.
    reason_opener: re.Pattern[str]
    #: The hedges among :attr:`indirect` ("may", ``ことがある``, ``경우가 있``): they say
    #: how often a statement holds. A hedge on a sentence does not hedge the reason the next
    #: sentence gives for it ("`a` can be faster than `b`. This is because `b` copies.").
    hedge: re.Pattern[str]
    #: What a heading that makes a statement has: a finite verb in English ("`view()` shares
    #: memory"), a final predicate in Japanese and Korean (``共有する``, ``복사한다``).
    heading_predicate: re.Pattern[str]
    #: Words that make a sentence speak *about* a statement rather than make it: reported
    #: speech ("the article says", ``と述べ``, ``라고``), judgements of other texts ("myth",
    #: ``誤解``), hedges ("may", ``場合がある``, ``않을 수 있다``), conditionals and questions.
    indirect: re.Pattern[str]
    #: A negation that bears on a quantifier rather than on the predicate: "does not convert
    #: everything", "not always", ``とは限らない``, ``항상 …지는 않다``. Not true of all is not
    #: false: such a sentence neither asserts nor denies a claim.
    partial_negation: re.Pattern[str]
    #: A modal after a case the sentence has just named ("in this case, there would be no
    #: error"): it says what happens in that case, so it is no hedge; it is left out before
    #: :attr:`indirect` is searched. :data:`NEVER` where the language's modals are not
    #: markers of :attr:`indirect`.
    stated_case: re.Pattern[str]
    #: How far apart (characters of prose) a subject and its predicate may stand for a
    #: sentence to state a claim: ``60`` in English, ``50`` in Japanese and Korean.
    reach: int
    #: A sentence saying that what it names is deprecated: "deprecated", ``非推奨``,
    #: ``더 이상 사용``.
    says_deprecated: re.Pattern[str]

    # -- what a comment on a line of code says of running it ----------------------------------

    #: A comment saying its line raises: "raises", "throws", "gives an error", ``エラーになる``,
    #: ``エラーが出る``, ``에러 발생``, ``오류가 난다`` (an exception's name, ``RuntimeError``,
    #: says so in every language). Read after :attr:`says_runs` and :attr:`says_maybe`.
    says_raises: re.Pattern[str]
    #: A comment saying its line runs without error: "no error", "doesn't raise",
    #: ``エラーにならない``, ``エラーなし``, ``에러가 나지 않``, ``오류 없이``.
    says_runs: re.Pattern[str]
    #: A comment that says so only as a possibility or under a condition: "may", "if",
    #: ``かもしれない``, ``可能性がある``, ``場合``, ``수 있다``, ``경우``. A likelihood ("likely",
    #: ``可能性が高い``) is no hedge: it predicts what the line does.
    says_maybe: re.Pattern[str]

    # -- tables of marks ----------------------------------------------------------------------

    #: Table cells that say yes, lowercased: ``"✓"``, ``"yes"``; ``"○"``, ``"可"``;
    #: ``"o"``, ``"있음"``.
    yes_marks: frozenset[str]
    #: Table cells that say no, lowercased: ``"✗"``, ``"no"``; ``"×"``, ``"不可"``;
    #: ``"x"``, ``"없음"``.
    no_marks: frozenset[str]
    #: The sentence a yes mark makes of its row's subject and its column's header:
    #: ``"{subject} は {predicate}。"``.
    marked_statement: str
    #: The sentence a no mark makes: ``"{subject} は {predicate} ではない。"``.
    marked_denial: str
