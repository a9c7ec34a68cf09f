"""Korean: how the project reads it.

Korean ends a clause with its predicate and negates it with ``않다``, ``없다``, ``못`` or
``아니다`` after the stem (``공유하지 않는다``); particles that relate a term follow it
(``unscale_ 전에``, ``X와 달리``). Words are written apart, and sentences end with ``.``
followed by a space, as in English.
"""

from __future__ import annotations

import re

from checker.text.languages.base import NEVER, Language

KOREAN = Language(
    code="ko",
    name="한국어",
    locale="ko_KR",
    letters="\uac00-\ud7af\u1100-\u11ff\u3130-\u318f",  # syllables and jamo
    shared_letters="",
    spaced_word_letters="\uac00-\ud7a3",
    spaced_stops=".!?",
    sentence_openers="\uac00-\ud7a3",  # a Korean sentence begins with Hangul as often as a name
    closed_stops="",
    # 않다/않는/않습니다, 없다/없습니다, 못 하다, 아니다
    negation=re.compile(
        r"않|없(?:다|습니다|는|으며|으면|고|어)|못\s*\S|아니(?:다|며|고|라|ㅂ|어|요|)|아닙|아닌"
    ),
    # not only, must, only, regardless, otherwise; "it is fine": 문제없다, 상관없다
    affirmative_idioms=re.compile(
        r"뿐(?:만)?\s*아니라|지\s*않(?:으면|고는)\s*안\s*[되됩돼된]"
        r"|(?:수)?밖에\s*(?:\S+\s*)?(?:없|않)|(?:관계|상관)\s*없이|그렇지\s*않(?:으면|다면)"
        r"|(?:문제|상관|지장)\s*(?:가|는|도)?\s*없|틀림\s*없|빠짐\s*없|끊임\s*없|어김\s*없"
    ),
    without=re.compile(r"없이"),
    without_reach=None,
    condition=re.compile(r"않(?:으면|는다면|을\s*(?:경우|때))|없(?:으면|다면|을\s*때)"),
    adnominal=re.compile(r"(?:않[는은]|없[는은])\s*(?=[\uac00-\ud7a3])"),
    consequence=re.compile(r"(?:므로|니까|때문에|어서|아서)[\s,]"),
    verb_final=True,
    # a connective ending ("공유하고 … 연루되지 않습니다": the negation is the next clause's)
    clause_bound=re.compile(r"(?:고|며|면서|지만|으나)\s|[,.。]"),
    relative_pronouns=(),
    relative_negation=NEVER,
    function_words=frozenset(),
    postpositions=True,
    # "X와 달리", and the term of a comparison, "X보다 빠르다" (not "X보다 먼저", an order)
    contrast=re.compile(
        r"^[A-Za-z0-9_.()`]*\s*(?:(?:와|과)(?:는)?\s*달리|보다(?:는|도)?(?!\s*(?:먼저|앞|뒤|나중)))"
    ),
    order_before=re.compile(r"^[^.,]{0,12}?(?:전에|이전에|보다 먼저)"),
    order_after=re.compile(r"^[^.,]{0,12}?(?:후에|다음에|뒤에|하고 나서|한 뒤)"),
    exemplified_by=re.compile(r"^[`)\]\s]*(?:(?:와|과)?\s*같은|등의|처럼)\s"),
    topic_particle=re.compile(r"(?<=[\uac00-\ud7a3])(?:은|는|이|가|도)(?=[\s,])"),
    number_words={},
    demonstrative=re.compile(
        r"(?:이|그|해당)\s*(?:컨텍스트\s*매니저|함수|메서드|메소드|API|클래스|데코레이터|기능)"
        r"|(?:이|그)\s*안"
    ),
    example_marker=re.compile(r"(?:예를\s*들어|예를\s*들면|예컨대|예로)"),
    # "이는 … 때문이다" / "왜냐하면 … 때문이다": a reason, ending as one does
    reason_opener=re.compile(
        r"(?:이는|이것은|그것은|그\s*이유는|왜냐하면)\s*(?=.*(?:때문|이유)\S*[.]?$)"
    ),
    hedge=re.compile(r"경우가 있|수도 있|때가 있|가능성이 있"),
    # a final predicate: "복사한다"
    heading_predicate=re.compile(r"(?:다|요|음|함|됨|까)[^\w`]*$"),
    indirect=re.compile(
        r"글에서|글은|글의|글이|기사|주장|오해|잘못|틀린|틀렸|만약|인지|라고|다고|"
        r"도록|경우에만|때만|보장|증명|[?？]|경우가 있|에 따라"
        # a negation hedged ("may not": 않을 수 있다, 않을 수도 있다), no denial
        r"|(?:않|없)을\s*수(?:도)?\s*있"
    ),
    # after a word of all or always: "it is not that all" (모든 …것은 아니다), "not always"
    # (항상 …지는 않다); without one, 것은 아니다 denies what it follows
    partial_negation=re.compile(
        r"(?:모든|모두|전부|항상|늘|반드시|꼭)[^.,]{0,30}?(?:(?:것은|건)\s*아니|(?:지는|지만은)\s*않)"
    ),
    stated_case=NEVER,  # its modals (것이다, 겠다) are no markers of indirect speech
    reach=50,
    says_deprecated=re.compile(r"권장되지 않|더 이상 (?:사용|권장)|지원 중단|폐기"),
    says_raises=re.compile(
        r"(?:에러|오류|예외)(?:가|이)?\s*(?:발생|난다|납니다|남\b|나요|뜸|뜬다|뜹니다|던)"
        r"|(?:에러|오류)\s*[!！]"
        r"|(?:Error|Exception)\s*(?:가|이)?\s*(?:발생|난다|납니다|남\b|뜸|뜬다)"
    ),
    says_runs=re.compile(
        r"(?:에러|오류|예외)(?:가|는|도|이)?\s*(?:(?:발생하|나)지\s*않|안\s*(?:남|나|난다|납니다|뜸|뜬다|발생)"
        r"|없)|문제\s*없이|정상\s*(?:동작|실행|작동)"
    ),
    says_maybe=re.compile(r"수\s*(?:도\s*)?있|경우|가능성이\s*있|지도\s*모|[?？]"),
    yes_marks=frozenset(["o", "예", "네", "있음"]),
    no_marks=frozenset(["x", "아니오", "아니요", "없음"]),
    marked_statement="{subject} 는 {predicate} 이다.",
    marked_denial="{subject} 는 {predicate} 이 아니다.",
)
