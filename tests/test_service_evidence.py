"""A findings page shows evidence as the docs show it, in the page's language: a claim
finding's measured values formatted by the docs' own formatter with their units ("4,587,524
バイト"), each measurement's key as code, the decision rule, the control and the outcomes
translated, the claim's statement as the docs page of that language states it; and a
translation check's findings page gives the gate's messages in the page's language. The
article is scanned and the catalog checked by the worker's own functions
(:mod:`checker.service.checks`); nothing here is written by hand but the submissions."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from checker.scan.claim_evidence import ClaimEvidence
from checker.service import checks
from checker.service.app import create_app
from checker.service.evidence_view import statement_in
from checker.service.queue import Queue
from checker.service.submissions import one_message
from checker.sphinx.formatting import value
from checker.sphinx.messages import translate_text
from checker.text.languages import TRANSLATED
from tests.helpers import ROOT
from tests.service_helpers import config

CLAIM = "saved-tensors/myth-disable-reduces-memory"
#: A Japanese sentence stating the myth (the docs' own translation of its statement), and
#: one that names an API but states no claim.
ARTICLE = (
    "# メモ\n\n`torch.autograd.graph.disable_saved_tensors_hooks` の中でモデルを実行すると、"
    "autograd のメモリ使用量が削減されます。\n\n`torch.nn.Linear` は全結合層を作ります。\n"
)
#: A message of ``topics/views-and-inplace`` whose translation turns one 1024 into 2048.
ENGLISH = (
    "Bytes allocated on the CPU by each statement, for 1024 × 1024 `float32` tensors, "
    "measured with the profiler."
)
CHANGED = (
    "各文が CPU で割り当てたバイト数（2048 × 1024 の `float32` テンソル、プロファイラで計測）。"
)
#: A byte count as the docs write it in Japanese and Korean.
BYTES = {
    "ja": re.compile(r"\d{1,3}(?:,\d{3})+ バイト"),
    "ko": re.compile(r"\d{1,3}(?:,\d{3})+바이트"),
}


def _finished(tmp_path: Path, kind: str, lang: str, content: str) -> tuple[TestClient, str]:
    """A client of a service holding one job of ``kind``, run as a worker runs it."""
    cfg = config(tmp_path / "service")
    app = create_app(cfg, Queue(cfg))
    store = app.state.service.store
    job = store.add_job(kind, lang, "article.md", ".md", content, False, None, 3600)
    folder = tmp_path / "work"
    folder.mkdir()
    run = checks.scan_article if kind == "scan" else checks.check_translation
    result = run(job, cfg, lambda *_: None, folder)
    assert store.finish(job.id, result)
    return TestClient(app), job.id


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> tuple[TestClient, str]:
    return _finished(tmp_path_factory.mktemp("evidence"), "scan", "auto", ARTICLE)


def _claim_finding(client: TestClient, job_id: str) -> dict[str, Any]:
    findings = client.get(f"/api/scan/{job_id}").json()["findings"]
    [finding] = [f for f in findings if f["claim"] == CLAIM]
    return dict(finding)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_findings_page_shows_measured_bytes_as_the_docs_do(
    scanned: tuple[TestClient, str], lang: str
) -> None:
    client, job_id = scanned
    finding = _claim_finding(client, job_id)
    evidence = ClaimEvidence.from_dict(finding["measured"])
    assert ClaimEvidence.from_dict(evidence.to_dict()) == evidence
    page = html.unescape(client.get(f"/results/{job_id}?ui={lang}").text)
    held = evidence.devices[0].measurements[0]
    assert (held.key, held.unit) == ("st-held-disable", "bytes")
    shown, is_code = value(held.value, held.unit, lang)
    assert not is_code and BYTES[lang].fullmatch(shown)
    assert f'<code>st-held-disable</code> <span class="value">{shown}</span>' in page
    assert "st-held-disable=" in finding["evidence"]  # the command line's English keeps it
    assert "st-held-disable=" not in page and "agrees with" not in page
    assert len(BYTES[lang].findall(page)) == 8  # two held and two peak values per device
    assert translate_text(lang, evidence.devices[0].rule) in page
    statement = statement_in(ROOT, CLAIM, lang)
    assert statement is not None and statement.split("`")[-1] in page
    assert "· ja\n" in page  # the meta line names the language detected, not "auto"


@pytest.mark.parametrize(
    ("lang", "shown"),
    [
        ("en", "names a PyTorch API but states none of the known claims"),
        ("ja", "PyTorch の API に触れていますが、既知の主張のどれも述べていません"),
        ("ko", "PyTorch API를 언급하지만 알려진 주장 중 어느 것도 진술하지 않습니다"),
    ],
)
def test_a_finding_without_measurements_is_worded_in_the_pages_language(
    scanned: tuple[TestClient, str], lang: str, shown: str
) -> None:
    client, job_id = scanned
    findings = client.get(f"/api/scan/{job_id}").json()["findings"]
    [unmatched] = [f for f in findings if f["claim"] is None]
    assert (unmatched["line"], unmatched["verdict"]) == (5, "unverified")
    page = html.unescape(client.get(f"/results/{job_id}?ui={lang}").text)
    assert f'<p class="evidence">{shown}</p>' in page


def test_the_english_page_shows_the_same_evidence_in_english(
    scanned: tuple[TestClient, str],
) -> None:
    client, job_id = scanned
    page = html.unescape(client.get(f"/results/{job_id}?ui=en").text)
    assert "The sentence states the claim:" in page
    assert re.search(
        r"<code>st-held-disable</code> <span class=\"value\">[\d,]+ bytes</span>", page
    )


@pytest.fixture(scope="module")
def translated(tmp_path_factory: pytest.TempPathFactory) -> tuple[TestClient, str]:
    content = one_message(ENGLISH, CHANGED, "ja", config(Path()).limits).decode("utf-8")
    return _finished(tmp_path_factory.mktemp("gate"), "translation", "ja", content)


@pytest.mark.parametrize(
    ("lang", "shown"),
    [
        ("en", "numbers differ: the English's 1024 missing; 2048 not in the English"),
        ("ja", "数値が異なります：英語の 1024 がありません。2048 は英語にありません"),
        ("ko", "숫자가 다릅니다: 영어의 1024이(가) 없습니다. 2048은(는) 영어에 없습니다"),
    ],
)
def test_the_gates_messages_are_in_the_pages_language(
    translated: tuple[TestClient, str], lang: str, shown: str
) -> None:
    client, job_id = translated
    [finding] = client.get(f"/api/translation/{job_id}").json()["findings"]
    assert finding["check"] == "number"
    assert finding["message"] == (
        "numbers differ: the English's 1024 missing; 2048 not in the English"
    )
    page = html.unescape(client.get(f"/results/{job_id}?ui={lang}").text)
    assert shown in page
    if lang != "en":
        assert "numbers differ" not in page
