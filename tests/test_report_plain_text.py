"""Every report format keeps text from outside (an exception a snippet or a probe raised, a
catalog's message) from driving the terminal or the CI: no escape sequence, no control
character but tab and newline, no line that starts a GitHub workflow command.

The hostile text is tests/samples/hostile/terminal-escapes.txt, decoded from its Python
escapes; it goes into a verify verdict's reason, a scan finding's evidence and quote, a file
error, and a translation finding.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from xml.etree import ElementTree as ET

import pytest

from checker import registry as registry_mod
from checker.evidence import Outcome
from checker.i18n.findings import Check, Severity, TranslationFinding
from checker.i18n.report import RENDERERS as I18N_RENDERERS
from checker.i18n.run import I18nResult
from checker.report import Report, renderers
from checker.report.github import annotation
from checker.report.plain_text import plain
from checker.scan.findings import FileError, FindingVerdict, ScanFinding, ScanResult
from checker.scan.report import RENDERERS as SCAN_RENDERERS
from checker.verdict import Verdict
from tests.helpers import sample

HOSTILE = (
    sample("hostile", "terminal-escapes.txt")
    .read_text(encoding="utf-8")
    .encode("ascii")
    .decode("unicode_escape")
)
_FORBIDDEN = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_COMMAND_LINE = re.compile(r"^[ \t]*(?:::|##\[)", re.MULTILINE)
_ANNOTATION = re.compile(r"::(?:error|warning|notice) (?:(?:file|line|title)=[^,:]*,?)*::")


def _verify_report() -> Report:
    claim = registry_mod.load().claims[0]
    return Report(
        verdicts=[Verdict(claim, "cpu", Outcome.ERROR, reason=HOSTILE)], torch_version="2.x"
    )


def _scan_result() -> ScanResult:
    finding = ScanFinding(
        "article.md", 3, "en", "snippet", FindingVerdict.BROKEN, HOSTILE, f"ValueError: {HOSTILE}"
    )
    return ScanResult((finding,), (FileError("other.md", 1, HOSTILE),), sandbox={"x": HOSTILE})


def _i18n_result() -> I18nResult:
    finding = TranslationFinding(
        "locales/ja/x.po", 7, "ja", "x", Check.HTML, Severity.ERROR, HOSTILE, HOSTILE, HOSTILE
    )
    return I18nResult((finding,), (), ("ja",))


def _outputs() -> list[tuple[str, str]]:
    found = [(f"verify {n}", r(_verify_report())) for n, r in renderers().items()]
    found += [(f"scan {n}", r(_scan_result())) for n, r in SCAN_RENDERERS.items()]
    found += [(f"i18n {n}", r(_i18n_result())) for n, r in I18N_RENDERERS.items()]
    return found


def test_the_sample_is_hostile() -> None:
    assert "\x1b[2J" in HOSTILE and "\x1b]0;owned\x07" in HOSTILE and "\u202e" in HOSTILE
    assert len(_COMMAND_LINE.findall(HOSTILE)) == 4


@pytest.mark.parametrize(("name", "output"), _outputs(), ids=[n for n, _ in _outputs()])
def test_no_format_lets_escapes_or_commands_through(name: str, output: str) -> None:
    assert _FORBIDDEN.findall(output) == []
    commands = [ln for ln in output.splitlines() if _COMMAND_LINE.match(ln)]
    if "github" in name:  # the format's own annotations, one per finding, and nothing else
        commands = [ln for ln in commands if not _ANNOTATION.match(ln)]
    assert commands == []


@pytest.mark.parametrize(
    ("parse", "name"),
    [(json.loads, "verify json"), (json.loads, "scan json"), (json.loads, "i18n json")],
)
def test_json_still_parses(parse: Callable[[str], object], name: str) -> None:
    (output,) = [o for n, o in _outputs() if n == name]
    parse(output)


def test_junit_is_well_formed_xml() -> None:
    (output,) = [o for n, o in _outputs() if n == "verify junit"]
    ET.fromstring(output.split("?>", 1)[1])


def test_the_words_survive() -> None:
    cleaned = plain(HOSTILE)
    assert cleaned.splitlines() == [
        "clear title linkhere red bell backspace bidi",
        ": :error file=.github/workflows/ci.yml,line=1::injected",
        "  : :add-mask::hidden",
        ": :stop-commands::token",
        "# #[error]old style",
        "a :: in the middle stays",
    ]


def test_an_annotation_carries_no_escape() -> None:
    line = annotation("error", HOSTILE, path="a.md", line=1, title="t\x1b[31m")
    assert line.startswith("::error file=a.md,line=1,title=t::clear title")
    assert "\n" not in line and _FORBIDDEN.findall(line) == []
