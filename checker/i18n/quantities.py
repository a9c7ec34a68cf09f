"""Quantities in a translation that digits alone do not show: numbers written in Han or
Hangul numerals, and the units attached to numbers.

- :func:`cjk_numbers`: ``八十``, ``二十四``, ``十倍``, ``百万``; ``사십``, ``이십사``. Read only
  where a numeral cannot be a word: a run with a multiplier (十 百 千 万 億, 십 백 천 만 억)
  that parses as a number, standing alone (not inside ``十分`` "enough", ``数十`` "dozens",
  ``万一``, ``百科``; a Hangul run starting a word and not ``만일`` "if" or ``이만`` "this
  much"). A single digit (一, 二; 일, 이) is never read: it is a word too often (一つ, 同一).
- :func:`units`: ``4 GiB``, ``20 秒``, ``5 ms``, ``2 バイト``, ``3 분``, ``50 %``, each as the
  number's value and the unit's canonical name (``バイト``, ``바이트`` and ``bytes`` are all
  ``B``; ``KB`` and ``KiB`` stay apart). Only units no translation can write another way for
  the same quantity are read; a number with none is left alone.
"""

from __future__ import annotations

import re

from checker.i18n.polarity import normalised

_HAN_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
               "八": 8, "九": 9}  # fmt: skip
_HAN_UNITS = {"十": 10, "百": 100, "千": 1000}
_HAN_BIG = {"万": 10_000, "億": 100_000_000}
_HANGUL_DIGITS = {"영": 0, "공": 0, "일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6,
                  "칠": 7, "팔": 8, "구": 9}  # fmt: skip
_HANGUL_UNITS = {"십": 10, "백": 100, "천": 1000}
_HANGUL_BIG = {"만": 10_000, "억": 100_000_000}

_HAN_RUN = re.compile(r"[〇零一二三四五六七八九十百千万億]+")
_HANGUL_RUN = re.compile(r"(?<![\uac00-\ud7a3])[일이삼사오육칠팔구십백천만억]{2,}")
#: Han words made of numerals that are no number: 十分 (enough; ten minutes reads the same),
#: 万一, 万全, 万能, 千差万別, 百科, 八百長, 十字, 百分率.
_HAN_WORDS = re.compile(r"十分|万一|万全|万能|万別|千差|百科|八百長|十字|百分率|万が一")
#: Hangul runs that begin a word and are no number: 만일 (if), 이만 (this much), 천천히, and
#: every run starting with 만 or 억, the particle 만 (only) after code: ``x``만이.
_HANGUL_WORDS = ("만", "억", "이만", "천천", "일일", "이일", "일이")


def cjk_numbers(text: str) -> list[str]:
    """The values of the Han and Hangul numerals of ``text`` (see the module docstring), as
    :func:`checker.text.reading.numbers` writes them (``80``, ``24``, ``1e+06``)."""
    text = normalised(re.sub(r"`[^`]*`", " ", text))
    found: list[str] = []
    words_out = _HAN_WORDS.sub(lambda m: " " * len(m.group(0)), text)
    for match in _HAN_RUN.finditer(words_out):
        before = text[match.start() - 1] if match.start() else " "
        after = text[match.end()] if match.end() < len(text) else " "
        if before in "数何幾" or after == "数":
            continue  # 数十 (dozens), 何百 (hundreds), 十数 (ten-odd)
        value = _parse(match.group(0), _HAN_DIGITS, _HAN_UNITS, _HAN_BIG)
        if value is not None:
            found.append(f"{float(value):g}")
    for match in _HANGUL_RUN.finditer(text):
        run = match.group(0)
        if run.startswith(_HANGUL_WORDS):
            continue
        value = _parse(run, _HANGUL_DIGITS, _HANGUL_UNITS, _HANGUL_BIG)
        if value is not None:
            found.append(f"{float(value):g}")
    return found


def _parse(
    run: str, digits: dict[str, int], units: dict[str, int], big: dict[str, int]
) -> int | None:
    """The value of a numeral written with multipliers (二十四, 百万, 사십), or ``None`` when
    the run is no well-formed numeral or has no multiplier (一二, 천천)."""
    if not any(c in units or c in big for c in run):
        return None
    total = group = 0
    digit: int | None = None
    last_unit = 10**9
    last_big = 10**12
    for char in run:
        if char in digits:
            if digit is not None:
                return None  # two digits in a row: 一二 is no numeral
            digit = digits[char]
        elif char in units:
            unit = units[char]
            if unit >= last_unit:
                return None  # 百百, 十百: units must fall
            group += (1 if digit is None else digit) * unit
            digit, last_unit = None, unit
        else:
            scale = big[char]
            if scale >= last_big:
                return None
            group += digit or 0
            total += (group or 1) * scale
            group, digit, last_unit, last_big = 0, None, 10**9, scale
    return total + group + (digit or 0)


#: Unit names as written after a number, by canonical name. Longer names first within a
#: group (the pattern prefers them).
_UNITS: dict[str, tuple[str, ...]] = {
    "B": ("bytes", "byte", "バイト", "바이트", "B"),
    "bit": ("bits", "bit", "ビット", "비트"),
    "kB": ("kilobytes", "kilobyte", "KB", "kB", "キロバイト", "킬로바이트"),
    "KiB": ("kibibytes", "KiB", "キビバイト", "키비바이트"),
    "MB": ("megabytes", "megabyte", "MB", "メガバイト", "메가바이트"),
    "MiB": ("mebibytes", "MiB", "メビバイト", "메비바이트"),
    "GB": ("gigabytes", "gigabyte", "GB", "ギガバイト", "기가바이트"),
    "GiB": ("gibibytes", "GiB", "ギビバイト", "기비바이트"),
    "TB": ("terabytes", "TB", "テラバイト", "테라바이트"),
    "TiB": ("TiB",),
    "ns": ("nanoseconds", "nanosecond", "ns", "ナノ秒", "나노초"),
    "µs": ("microseconds", "microsecond", "µs", "μs", "us", "マイクロ秒", "마이크로초"),
    "ms": ("milliseconds", "millisecond", "ms", "ミリ秒", "밀리초"),
    "s": ("seconds", "second", "secs", "sec", "s", "秒", "초"),
    "min": ("minutes", "minute", "mins", "min", "分", "분"),
    "h": ("hours", "hour", "時間", "시간"),
    "%": ("percent", "%", "パーセント", "퍼센트", "프로"),
}
_CANONICAL = {name: unit for unit, names in _UNITS.items() for name in names}
_NAMES = sorted({n for names in _UNITS.values() for n in names}, key=len, reverse=True)
_NUMBER = r"(?<![A-Za-z0-9_.])\d[\d,]*(?:\.\d+)?"
_WITH_UNIT = re.compile(
    rf"({_NUMBER})(?:\s|-)?({'|'.join(re.escape(n) for n in _NAMES)})"
    # a unit in letters ends its word (5 s, not 5 steps); 分の and 분의 are fractions (2分の1),
    # 分割 and 분할 a split into parts, 초과 "more than"
    r"(?![A-Za-z]|(?<=分)[の割岐散類析配]|(?<=분)(?:의|할|산|기|석|류|배)|(?<=초)(?:과|기))"
)


def units(text: str) -> list[tuple[str, str]]:
    """``(value, unit)`` for every number of ``text`` followed by a unit (see the module
    docstring), in order; values written as :func:`checker.text.reading.numbers` does."""
    text = normalised(re.sub(r"`[^`]*`", " ", text))
    found = []
    for number, name in _WITH_UNIT.findall(text):
        unit = _CANONICAL[name]
        found.append((f"{float(number.replace(',', '')):g}", unit))
    return found
