"""Words the extension adds to pages, in every language the docs are published in.

The pages' own text is translated through the catalogs under ``locales/``; these few labels
are generated, so they live here, reviewed like any other translation.
"""

from __future__ import annotations

UI: dict[str, dict[str, str]] = {
    "en": {
        "claim": "Claim",
        "myth": "Myth",
        "holds": "holds",
        "fails": "refuted",
        "error": "probe error",
        "not-run": "not run",
        "recorded": "recorded {date}",
        "stale": "stale: the probe changed since",
        "evidence": "Evidence",
        "rule": "Decision rule",
        "probe": "Probe",
        "measured-on": "measured on {device}, torch {torch}",
        "value": "Value",
        "measurement": "Measurement",
        "expected": "The docs say",
        "expect-holds": "holds",
        "expect-fails": "is false",
        "page": "Page",
        "statement": "Statement",
        "context": "Values on this page were measured by its probes: {parts}.",
        "context-live": "{device} with torch {torch} on the machine that built this page ({date})",
        "context-recorded": "{device} with torch {torch}, recorded {date}",
        "bytes": "{n} bytes",
        "seconds": "{n} ms",
        "duration": "took {n} ms",
        "absent": "not run here: {reason}",
        "languages": "Languages",
        "control": "Control",
        "no-control": "No control",
    },
    "ja": {
        "claim": "主張",
        "myth": "誤解",
        "holds": "成立",
        "fails": "反証",
        "error": "検証エラー",
        "not-run": "未実行",
        "recorded": "{date} 記録",
        "stale": "古い記録: 記録後に検証コードが変更されています",
        "evidence": "根拠",
        "rule": "判定基準",
        "probe": "検証コード",
        "measured-on": "{device}、torch {torch} で測定",
        "value": "値",
        "measurement": "測定項目",
        "expected": "本書の記述",
        "expect-holds": "成り立つ",
        "expect-fails": "誤り",
        "page": "ページ",
        "statement": "主張の内容",
        "context": "このページの値は検証コードによる実測値です: {parts}。",
        "context-live": "{device}、torch {torch}(このページをビルドしたマシンで {date} に測定)",
        "context-recorded": "{device}、torch {torch}({date} 記録)",
        "bytes": "{n} バイト",
        "seconds": "{n} ミリ秒",
        "duration": "所要 {n} ミリ秒",
        "absent": "この環境では未実行: {reason}",
        "languages": "言語",
        "control": "対照実験",
        "no-control": "対照実験なし",
    },
    "ko": {
        "claim": "주장",
        "myth": "오해",
        "holds": "성립",
        "fails": "반증",
        "error": "검증 오류",
        "not-run": "실행 안 됨",
        "recorded": "{date} 기록",
        "stale": "오래된 기록: 기록 이후 검증 코드가 바뀌었습니다",
        "evidence": "근거",
        "rule": "판정 기준",
        "probe": "검증 코드",
        "measured-on": "{device}, torch {torch}에서 측정",
        "value": "값",
        "measurement": "측정 항목",
        "expected": "문서의 입장",
        "expect-holds": "성립함",
        "expect-fails": "틀림",
        "page": "페이지",
        "statement": "주장 내용",
        "context": "이 페이지의 값은 검증 코드로 실측한 값입니다: {parts}.",
        "context-live": "{device}, torch {torch}(이 페이지를 빌드한 머신에서 {date} 측정)",
        "context-recorded": "{device}, torch {torch}({date} 기록)",
        "bytes": "{n}바이트",
        "seconds": "{n}밀리초",
        "duration": "소요 {n}밀리초",
        "absent": "이 환경에서는 실행 안 됨: {reason}",
        "languages": "언어",
        "control": "대조 실험",
        "no-control": "대조 실험 없음",
    },
}

#: How each language names itself in the language switcher.
LANGUAGE_NAMES = {"en": "English", "ja": "日本語", "ko": "한국어"}


def text(lang: str, key: str, **values: object) -> str:
    """The label ``key`` in ``lang`` (English when the language is unknown)."""
    table = UI.get(lang, UI["en"])
    return table[key].format(**values)
