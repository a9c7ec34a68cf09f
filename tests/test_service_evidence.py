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

from checker.i18n.checks.english import english_words
from checker.scan.claim_evidence import ClaimEvidence
from checker.service import checks
from checker.service.app import create_app
from checker.service.evidence_view import statement_in
from checker.service.queue import Queue
from checker.service.submissions import one_message
from checker.sphinx.formatting import value
from checker.sphinx.messages import translate_text
from checker.text.languages import TRANSLATED
from checker.text.said import Said
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


#: An article with two snippets, one that prints other than the output it shows and one
#: that raises, and a sentence naming an API that does not exist.
SNIPPETS = (
    "# メモ\n\n合計を表示します。\n\n```python\nimport torch\n"
    "print(torch.ones(2).sum().item())\n```\n\n```text\n3.0\n```\n\n"
    "形を変えます。\n\n```python\nimport torch\ntorch.zeros(2).view(3)\n```\n\n"
    "`torch.zeros_like_all` で同じ形のテンソルを作ります。\n"
)
#: How each page says that the API does not exist (the torch version filled in).
MISSING = {
    "en": "`torch.zeros_like_all` does not exist in torch {version}: `torch` has no attribute "
    "`zeros_like_all`",
    "ja": "`torch.zeros_like_all` は torch {version} に存在しません：`torch` には属性 "
    "`zeros_like_all` がありません",
    "ko": "`torch.zeros_like_all`은(는) torch {version}에 존재하지 않습니다: `torch`에는 "
    "`zeros_like_all` 속성이 없습니다",
}
#: The values the run gave, quoted in every language as the English quotes them.
QUOTED = ("'3.0'", "'2.0'", "RuntimeError: shape '[3]' is invalid for input of size 2")
#: Where the page gives a finding's evidence.
_EVIDENCE = re.compile(r'<p class="evidence">(.*?)</p>', re.DOTALL)


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> tuple[TestClient, str]:
    folder = tmp_path_factory.mktemp("snippets")
    cfg = config(folder / "service")
    app = create_app(cfg, Queue(cfg))
    store = app.state.service.store
    job = store.add_job("scan", "auto", "article.md", ".md", SNIPPETS, True, None, 3600)
    (folder / "work").mkdir()
    assert store.finish(job.id, checks.scan_article(job, cfg, lambda *_: None, folder / "work"))
    return TestClient(app), job.id


def test_snippet_findings_carry_their_evidence_as_a_template(
    ran: tuple[TestClient, str],
) -> None:
    client, job_id = ran
    findings = client.get(f"/api/scan/{job_id}").json()["findings"]
    snippets = [
        (f["line"], f["verdict"], f["evidence"]) for f in findings if f["kind"] == "snippet"
    ]
    assert snippets == [
        (11, "contradicted", "line 11: the article shows '3.0', the run printed '2.0'"),
        (18, "broken", f"raises {QUOTED[2]} (line 18)"),
    ]
    for finding in findings:
        if finding["kind"] == "snippet":
            assert Said.from_dict(finding["said"]).english == finding["evidence"]


@pytest.mark.parametrize(
    ("lang", "shown"),
    [
        (
            "ja",
            (
                "11 行目：記事には '3.0' と示されていますが、実行では '2.0' が出力されました",
                f"例外を送出します（18 行目）：{QUOTED[2]}",
            ),
        ),
        (
            "ko",
            (
                "11번째 줄: 글에는 '3.0'(으)로 나와 있지만, 실행에서는 '2.0'이(가) 출력되었습니다",
                f"예외가 발생합니다(18번째 줄): {QUOTED[2]}",
            ),
        ),
    ],
)
def test_a_snippets_evidence_is_in_the_pages_language_its_quotes_as_they_ran(
    ran: tuple[TestClient, str], lang: str, shown: tuple[str, str]
) -> None:
    client, job_id = ran
    page = html.unescape(client.get(f"/results/{job_id}?ui={lang}").text)
    evidence = [e for e in _EVIDENCE.findall(page) if any(q in e for q in QUOTED)]
    assert tuple(evidence) == shown
    assert [english_words(_unquoted(e)) for e in evidence] == [[], []]
    assert "the article shows" not in page and "raises RuntimeError" not in page


def test_the_english_page_shows_a_snippets_evidence_as_the_command_line_does(
    ran: tuple[TestClient, str],
) -> None:
    client, job_id = ran
    page = html.unescape(client.get(f"/results/{job_id}?ui=en").text)
    assert "line 11: the article shows '3.0', the run printed '2.0'" in page
    assert f"raises {QUOTED[2]} (line 18)" in page
    evidence = [_unquoted(e) for e in _EVIDENCE.findall(page) if any(q in e for q in QUOTED)]
    assert [english_words(e) for e in evidence] == [  # what the other pages must not have
        ["line", "the", "article", "shows", "the", "run", "printed"],
        ["raises"],
    ]


def _unquoted(evidence: str) -> str:
    """``evidence`` without the values the run gave."""
    for quoted in QUOTED:
        evidence = evidence.replace(quoted, " ")
    return evidence


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
def test_an_api_findings_evidence_is_in_the_pages_language(
    ran: tuple[TestClient, str], lang: str
) -> None:
    client, job_id = ran
    result = client.get(f"/api/scan/{job_id}").json()
    [api] = [f for f in result["findings"] if f["kind"] == "api"]
    version = result["summary"]["torch_version"]
    assert (api["line"], api["verdict"]) == (21, "contradicted")
    assert api["evidence"] == MISSING["en"].format(version=version)
    assert Said.from_dict(api["said"]).english == api["evidence"]
    page = html.unescape(client.get(f"/results/{job_id}?ui={lang}").text)
    shown = MISSING[lang].format(version=version)
    assert f'<p class="evidence">{shown}</p>' in page
    english = ["does", "not", "exist", "in", "has", "no", "attribute"] if lang == "en" else []
    assert english_words(shown.replace(version, " ")) == english
