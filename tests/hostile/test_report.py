"""Attacks on the reports (issue 28, item 12): text that forges report lines, starts a GitHub
workflow command after whitespace the runner trims, or hides and reorders what a reader sees
(``tests/hostile/report/``)."""

from __future__ import annotations

import re
from pathlib import Path

from checker import registry as registry_mod
from checker.report.plain_text import LINE_BREAK, plain, plain_line
from checker.scan.report import render_github, render_text
from checker.scan.run import ScanOptions, scan
from checker.scan.sandbox import SnippetLimits
from tests.helpers import ROOT

ATTACKS = Path(__file__).resolve().parent / "report"
INVISIBLE = (
    (ATTACKS / "invisible.txt").read_text(encoding="utf-8").encode("ascii").decode("unicode_escape")
)
#: What GitHub's runner would take for a workflow command: one at a line start, after any
#: whitespace it trims (JavaScript's trim: Unicode spaces, the BOM, line terminators).
_RUNNER_COMMAND = re.compile(r"^[\s\ufeff]*(?:::|##\[)", re.MULTILINE)
_HIDDEN = re.compile("[\u061c\u200b-\u200f\u2028\u2029\u2060-\u2064\ufeff\U000e0000-\U000e007f]")


def test_the_sample_hides_five_commands_and_ten_invisible_characters() -> None:
    lines = INVISIBLE.replace("\u2028", "\n").replace("\u2029", "\n").splitlines()
    assert sum(bool(_RUNNER_COMMAND.match(line)) for line in lines) == 5
    assert len(_HIDDEN.findall(INVISIBLE)) == 10


def test_no_command_survives_whitespace_the_runner_trims() -> None:
    cleaned = plain(INVISIBLE)
    assert _RUNNER_COMMAND.findall(cleaned) == []
    assert cleaned.splitlines() == [
        "\u00a0: :error file=a.md,line=1::from no-break space",
        "\u3000: :warning::from ideographic space",
        "\u2003# #[error]from em space",
        "arabicmark zerowidthjoin wordjoiner bommark",
        "tagcharacters",
        "line",
        ": :error::after a line separator",
        "para",
        "# #[error]after a paragraph separator",
    ]


def test_nothing_hidden_is_left() -> None:
    assert _HIDDEN.findall(plain(INVISIBLE)) == []
    assert _HIDDEN.findall(plain_line(INVISIBLE)) == []


def test_a_multi_line_message_stays_on_its_finding_line() -> None:
    result = scan(
        [ATTACKS / "fake_lines.md"],
        registry_mod.load(),
        ScanOptions(limits=SnippetLimits(timeout_s=10.0), project_root=ROOT),
    )
    text = render_text(result)
    assert sum(line.startswith("scan: ") for line in text.splitlines()) == 1
    assert [line for line in text.splitlines() if line.lstrip().startswith("✓")] == []
    (evidence,) = [line for line in text.splitlines() if line.startswith("      evidence: ")]
    assert evidence.count(LINE_BREAK) == 3
    annotations = render_github(result).splitlines()
    assert [line.split(" ", 1)[0] for line in annotations if line.startswith("::")] == ["::error"]
    assert sum(not line.startswith("::") for line in annotations) == 1  # the summary


def test_a_file_name_cannot_reorder_what_the_service_shows() -> None:
    from checker.service.submissions import shown_name

    assert shown_name("notes\u202egpj.md", "article.md") == "notesgpj.md"
    assert shown_name("a\u2066b\u200bc\U000e0041.md", "article.md") == "abc.md"
