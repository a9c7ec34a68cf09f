"""Japanese: how the project reads it.

Japanese ends a clause with its predicate and negates the predicate with an ending after its
stem (``削減しない``, ``削減されません``, ``コピーせず、``); particles that relate a term follow
it (``unscale_ の前に``, ``X と違って``). Words run together, and sentences end with ``。``.
"""

from __future__ import annotations

import re

from checker.text.languages.base import NEVER, Language

JAPANESE = Language(
    code="ja",
    name="日本語",
    locale="ja_JP",
    letters="\u3040-\u30ff",  # hiragana and katakana
    shared_letters="\u4e00-\u9fff",  # Han, which Chinese writes too
    spaced_word_letters="",
    spaced_stops="",
    sentence_openers="",
    closed_stops="。！？",
    # ない/ません/ず after a verb or adjective stem; 少ない・危ない・違いない are not negations.
    negation=re.compile(
        r"(?<![少危違幼拙汚])(?:ない|なく|なかっ|ません|ませんでし)|(?<=[しせれさかけてでこ])ず(?:に|、|。)"
        r"|ことはない|わけではない|効果はない|変わらない|減らない"
    ),
    # not only, must, maybe, surely, merely (in kanji or kana), only; "it is fine":
    # 問題ない/問題ありません, 構わない, 差し支えない
    affirmative_idioms=re.compile(
        r"だけでなく|のみならず|な(?:ければ|くては|いと)(?:なら|なり|いけ)(?:ない|ません)"
        r"|かもしれ(?:ない|ません)|に(?:違い|ちがい|過ぎ|すぎ)(?:ない|ません)"
        r"|しか[^。、！？]{0,30}?(?:ない|ありません|ません)"
        r"|問題(?:は|も)?(?:ない|なく|ありません)|構わ(?:ない|ず|なく|ません)"
        r"|差し支え(?:ない|なく|ありません)"
    ),
    without=re.compile(r"なしで|なしに"),
    without_reach=None,
    condition=re.compile(r"(?:ない(?:と|ければ|なら|場合)|なければ)"),
    adnominal=re.compile(r"ない(?=[\u4e00-\u9fff\u30a0-\u30ff])"),
    consequence=re.compile(r"(?:ので|から|ため)、"),
    verb_final=True,
    clause_bound=re.compile(r"[、。,]"),
    relative_pronouns=(),
    relative_negation=NEVER,
    function_words=frozenset(),
    postpositions=True,
    # "X と違って", and the term of a comparison, "X よりも速い" (not "X より前に", an order)
    contrast=re.compile(
        r"^[A-Za-z0-9_.()`]*\s*(?:(?:とは|と)(?:違って|違い|異なり)|より(?:も)?(?![前後先]))"
    ),
    order_before=re.compile(r"^[^。、,]{0,12}?(?:の前|前に|より前)"),
    order_after=re.compile(r"^[^。、,]{0,12}?(?:の後|後に|後で|てから|でから|した後)"),
    exemplified_by=re.compile(r"^[`)\]\s]*(?:のような|のように|などの|といった|みたいな)"),
    topic_particle=re.compile(r"[はがも](?![\u3040-\u309f])"),
    number_words={},
    demonstrative=re.compile(
        r"(?:この|その|本)(?:コンテキストマネージャー?|関数|メソッド|API|クラス|デコレータ|機能)"
        r"|(?:この|その)(?:中|ブロック内|内部)"
    ),
    example_marker=re.compile(r"(?:例えば|たとえば|例として)"),
    # "これは、…ためです" / "なぜなら…からです": a reason, ending as one does
    reason_opener=re.compile(
        r"(?:(?:これ|それ)は[、,]?|なぜなら[、,]?|その理由は[、,]?)"
        r"(?=.*(?:ため|から|せい)(?:です|だ|である)?[。.]?$)"
    ),
    hedge=re.compile(r"場合があ|ことがあ|かもしれ|可能性があ"),
    # a final predicate: "メモリを共有する"
    heading_predicate=re.compile(r"(?:る|た|い|だ|す|ず|ない|ます|です|ません)[^\w`]*$"),
    indirect=re.compile(
        r"記事|と述べ|とされ|と主張|と説明|と紹介|と書|誤解|誤り|間違|正しく|もし|かどうか|"
        r"でしょうか|(?<!同じ)ように(?!な)|場合だけ|ときだけ|場合のみ|ときのみ|保証|証明|[?？]|たら、|ならば|べきか|か迷"
        r"|場合があ|ことがあ|かもしれ|によって(?:は|異な|変わ)"
    ),
    # "not necessarily" (とは限らない); "it is not that" (わけではない) after a word of all or
    # always ("すべてを…わけではない"): without one, わけではない denies what it follows
    partial_negation=re.compile(
        r"とは限ら|(?:すべて|全て|全部|いつも|常に|必ず)[^。、]{0,30}?わけ(?:では(?:な|あり)|じゃな)"
    ),
    stated_case=NEVER,  # its modals (だろう, でしょう) are no markers of indirect speech
    reach=50,
    says_deprecated=re.compile(r"非推奨|廃止|推奨されな"),
    says_raises=re.compile(
        r"エラー(?:が|に|を)?(?:出|発生|な|起|吐)|エラー[!！]|例外(?:が|を)?(?:発生|出|投げ|送出|にな)"
        r"|(?:Error|Exception)\s*(?:が|を)?\s*(?:発生|出|起)"
    ),
    says_runs=re.compile(
        r"(?:エラー|例外)(?:には|では|に|は|が|も)?(?:なら[なず]|なりませ|出な|出ず|出ませ|起きな|"
        r"起きませ|発生しな|発生せ|発生しませ)|(?:エラー|例外)(?:は|も)?(?:なし|無し|なく)"
        r"|(?:エラー|例外)は(?:ない|ありません)"
        r"|問題なく(?:動|実行|通)|正常に(?:動|実行|終)"
    ),
    says_maybe=re.compile(
        r"かもしれ|可能性が(?:あ|ある)|ことがあ|場合|たら|れば|なら(?![なず])|[?？]"
    ),
    yes_marks=frozenset(["○", "◯", "はい", "可", "あり"]),
    no_marks=frozenset(["×", "いいえ", "不可", "なし"]),
    marked_statement="{subject} は {predicate}。",
    marked_denial="{subject} は {predicate} ではない。",
)
