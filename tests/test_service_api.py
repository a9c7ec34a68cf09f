"""The service's HTTP API (``python -m checker serve``): submit, poll, result, with a real
worker process (a huey consumer, started as ``serve`` starts it) taking the jobs off the
SQLite queue; bad input refused with a clear 4xx before anything is queued."""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from checker import registry
from checker.scan.report import SCHEMA, render_json
from checker.scan.run import ScanOptions, scan
from checker.service.app import create_app
from checker.service.queue import Queue
from tests.helpers import ROOT, sample
from tests.service_helpers import config, start_worker, stop, wait_finished

ARTICLE = ROOT / "tests" / "corpus" / "en" / "01-views-basics.md"
INJECTED = sample("i18n", "injected", "index.po")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    cfg = config(tmp_path_factory.mktemp("service"))
    queue = Queue(cfg)
    worker = start_worker(cfg)
    try:
        with TestClient(create_app(cfg, queue)) as test_client:
            yield test_client
    finally:
        stop(worker)


def _get(client: TestClient) -> Any:
    return lambda path: client.get(path).json()


def _submit_file(client: TestClient, path: Path, **form: str) -> Any:
    with path.open("rb") as handle:
        return client.post("/api/scan", files={"file": (path.name, handle)}, data=form)


def test_an_article_is_checked_by_a_worker_with_the_scanners_findings(
    client: TestClient,
) -> None:
    response = _submit_file(client, ARTICLE)
    assert response.status_code == 202, response.text
    job = response.json()
    assert job["status"] == "queued" and job["run_code"] is False
    assert job["status_url"] == f"/api/jobs/{job['id']}"
    finished = wait_finished(_get(client), job["id"])
    assert finished["status"] == "done", finished
    result = client.get(job["result_url"]).json()
    expected = json.loads(
        render_json(
            scan(
                [ARTICLE],
                registry.load(),
                ScanOptions(run_code=False, project_root=ROOT, base_url="/docs"),
            )
        )
    )
    assert result["schema"] == SCHEMA
    # 9: the heading "view() and reshape()" names an API and states nothing
    assert len(result["findings"]) == len(expected["findings"]) == 9
    for got, want in zip(result["findings"], expected["findings"], strict=True):
        assert got == {**want, "path": "01-views-basics.md"}
    assert result["summary"]["contradicted"] == expected["summary"]["contradicted"] == 1
    # the result can be revisited: as JSON and as a page
    assert client.get(job["result_url"]).json() == result
    page = client.get(f"/results/{job['id']}")
    assert page.status_code == 200
    assert page.text.count('class="finding"') == 9


def test_a_worker_process_reports_its_torch_and_devices(client: TestClient) -> None:
    wait_finished(_get(client), _submit_text(client, "Views share storage.")["id"])
    workers = client.get("/api/workers").json()["workers"]
    assert workers, "no worker reported"
    assert all(int(w["id"].rsplit(":", 1)[1]) != os.getpid() for w in workers)
    assert {"cpu", "cuda"} <= set(workers[0]["devices"])
    assert workers[0]["devices"]["cpu"] == "present"
    assert workers[0]["torch"]


def _submit_text(client: TestClient, text: str) -> Any:
    response = client.post("/api/scan", data={"text": text})
    assert response.status_code == 202, response.text
    return response.json()


@pytest.mark.parametrize(
    ("name", "content", "form", "status", "words"),
    [
        ("big.md", b"x" * (1024 * 1024 + 1), {}, 413, "limit is 1048576"),
        ("binary.md", b"# title\n\0\1\2", {}, 415, "binary content"),
        ("latin1.md", b"ok\ncaf\xe9\n", {}, 400, "not UTF-8: byte 0xe9 at line 2"),
        ("notes.md", b"Views share storage.", {"lang": "fr"}, 400, "unknown language 'fr'"),
        ("tool.exe", b"MZ", {}, 415, "unsupported file type '.exe'"),
        ("empty.md", b"  \n", {}, 422, "the article is empty"),
        ("nb.ipynb", b'{"cells": [', {}, 422, "not a notebook: invalid JSON at line 1"),
    ],
)
def test_bad_articles_are_refused_with_a_clear_4xx(  # noqa: PLR0917
    client: TestClient, name: str, content: bytes, form: dict[str, str], status: int, words: str
) -> None:
    before = client.get("/healthz").json()
    response = client.post("/api/scan", files={"file": (name, content)}, data=form)
    assert response.status_code == status, response.text
    assert words in response.json()["error"]
    assert client.get("/healthz").json()["queued"] == before["queued"]


def test_a_request_over_the_upload_limit_is_refused_before_it_is_read(client: TestClient) -> None:
    response = client.post("/api/scan", files={"file": ("big.md", b"y" * (2 * 1024 * 1024))})
    assert response.status_code == 413
    assert response.json()["error"].endswith("bytes; the limit is 1048576")


@pytest.mark.parametrize(
    ("content", "lang", "status", "words"),
    [
        (b'msgid "a"\nmsgstr "unterminated\n', "ja", 422, "malformed catalog: line 2"),
        (b'msgid "a"\nmsgstr "b"\n', "fr", 400, "unknown language 'fr'"),
        (b'\xff\xfe msgid ""', "ko", 400, "not UTF-8"),
        (
            b'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n',
            "ja",
            422,
            "no messages",
        ),
    ],
)
def test_bad_catalogs_are_refused_with_a_clear_4xx(
    client: TestClient, content: bytes, lang: str, status: int, words: str
) -> None:
    response = client.post(
        "/api/translation", files={"file": ("index.po", content)}, data={"lang": lang}
    )
    assert response.status_code == status, response.text
    assert words in response.json()["error"]


def test_an_unknown_or_expired_check_is_404(client: TestClient) -> None:
    for path in ("/api/jobs/nope", "/api/scan/nope", "/api/translation/nope"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.json()["error"] == "no check 'nope' (unknown or expired)"
    assert client.get("/results/nope").status_code == 404


def test_a_catalog_with_injected_markup_gets_the_gates_errors(client: TestClient) -> None:
    response = client.post(
        "/api/translation",
        files={"file": ("index.po", INJECTED.read_bytes())},
        data={"lang": "ja"},
    )
    assert response.status_code == 202, response.text
    job = response.json()
    assert wait_finished(_get(client), job["id"])["status"] == "done"
    result = client.get(job["result_url"]).json()
    assert result["schema"] == "checker.i18n/1"
    assert result["page"] == "index"
    assert result["summary"] == {"errors": 10, "warnings": 1}
    html_at = [(f["line"], f["check"]) for f in result["findings"] if f["family"] == "security"]
    assert (14, "html") in html_at and (45, "html") in html_at
    assert {f["path"] for f in result["findings"]} == {"index.po"}


def test_a_catalog_of_the_project_passes(client: TestClient) -> None:
    catalog = ROOT / "locales" / "ko" / "LC_MESSAGES" / "topics" / "amp.po"
    response = client.post(
        "/api/translation", files={"file": ("amp.po", catalog.read_bytes())}, data={"lang": "ko"}
    )
    job = response.json()
    assert wait_finished(_get(client), job["id"])["status"] == "done"
    result = client.get(job["result_url"]).json()
    assert result["page"] == "topics/amp"
    assert result["summary"] == {"errors": 0, "warnings": 0}


def test_the_api_is_described_and_the_service_is_healthy(client: TestClient) -> None:
    spec = client.get("/api/openapi.json").json()
    assert {"/api/scan", "/api/jobs/{job_id}", "/api/scan/{job_id}", "/api/translation"} <= set(
        spec["paths"]
    )
    assert client.get("/healthz").json()["status"] == "ok"
    claims = client.get("/api/claims").json()["claims"]
    assert len(claims) == len(registry.load().claims)
    assert all(v["device"] in ("cpu", "cuda") for c in claims for v in c["verdicts"])


def test_the_claims_index_says_not_run_and_myth_refuted_never_error_for_a_claim_not_run(
    client: TestClient,
) -> None:
    """A claim about CUDA only is not run on the CPU, saying why, never a red "error"; a myth
    the probe found false reads "myth refuted", not "confirmed"."""
    claims = {c["id"]: c for c in client.get("/api/claims").json()["claims"]}
    cuda_only = claims["amp/reductions-float32-on-cuda"]["verdicts"][0]
    assert (cuda_only["device"], cuda_only["status"], cuda_only["cuda_only"]) == (
        "cpu",
        "not-run",
        True,
    )
    myth = claims["amp/myth-relu-runs-in-lower-precision"]["verdicts"][0]
    assert (myth["device"], myth["status"]) == ("cpu", "myth-refuted")
    cpu = [c["verdicts"][0]["status"] for c in claims.values() if c["verdicts"]]
    assert "error" not in cpu
    page = client.get("/claims").text
    assert "only meaningful on CUDA" in page
    assert '<span class="badge badge-myth-refuted">myth refuted</span>' in page


@pytest.mark.parametrize(
    ("msgstr", "errors"),
    [("뷰, 복사본, 인플레이스 연산", []), ("뷰, 복사본, <b>인플레이스</b> 연산", ["html"])],
)
def test_one_pasted_message_is_checked_as_part_of_its_page(
    client: TestClient, msgstr: str, errors: list[str]
) -> None:
    response = client.post(
        "/api/translation",
        data={"lang": "ko", "msgid": "Views, copies and in-place operations", "msgstr": msgstr},
    )
    assert response.status_code == 202, response.text
    job = response.json()
    assert wait_finished(_get(client), job["id"])["status"] == "done"
    result = client.get(job["result_url"]).json()
    assert result["page"] == "topics/views-and-inplace"
    assert [f["check"] for f in result["findings"] if f["severity"] == "error"] == errors


def test_a_pasted_message_needs_both_sides(client: TestClient) -> None:
    response = client.post("/api/translation", data={"lang": "ja", "msgid": "Views"})
    assert response.status_code == 422
    assert response.json()["error"] == "give the English message and its translation"


def test_the_built_site_is_served_per_language(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "_build" / "html" / "ja").mkdir(parents=True)
    (root / "_build" / "html" / "ja" / "index.html").write_text("<p>ja site</p>")
    cfg = dataclasses.replace(config(tmp_path / "data"), root=root)
    with TestClient(create_app(cfg, Queue(cfg))) as local:
        assert local.get("/docs/ja/").text == "<p>ja site</p>"
        assert local.get("/docs/ja/index.html").text == "<p>ja site</p>"
        missing = local.get("/docs/ko/index.html")
        assert missing.status_code == 404
        assert "not built on this server" in missing.text
        assert local.get("/docs/ja/../../../etc/passwd").status_code == 404
        # built after the service started: served at once, no restart
        (root / "_build" / "html" / "ko").mkdir(parents=True)
        (root / "_build" / "html" / "ko" / "index.html").write_text("<p>ko site</p>")
        assert local.get("/docs/ko/index.html").text == "<p>ko site</p>"
        assert local.get("/docs/ko/nothing.html").status_code == 404
