"""The API keeps what its OpenAPI document promises: every answer of every route, the
errors included, validated against the published schema (``/api/openapi.json``); one error
shape everywhere (unknown routes, 405, 413, validation); the bearer scheme; a token's job
list; ``HEAD /healthz``; a translation's counts that add up; the reference page at
``/api/docs`` under the pages' content security policy; a scan as SARIF."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from checker.service.app import create_app
from checker.service.auth import create_token
from checker.service.queue import Queue
from tests.helpers import ROOT
from tests.openapi_check import answer_problems
from tests.service_helpers import config, start_worker, stop, wait_finished

ARTICLE = (ROOT / "tests" / "corpus" / "en" / "01-views-basics.md").read_bytes()
CATALOG = (ROOT / "locales" / "ko" / "LC_MESSAGES" / "topics" / "amp.po").read_bytes()
INJECTED = (ROOT / "tests" / "samples" / "i18n" / "injected" / "index.po").read_bytes()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    cfg = config(tmp_path_factory.mktemp("openapi"), jobs_per_token=3)
    queue = Queue(cfg)
    worker = start_worker(cfg)
    try:
        with TestClient(create_app(cfg, queue)) as client:
            yield client, create_token(queue.store, "judy")
    finally:
        stop(worker)


def _checked(client: TestClient, method: str, url: str, route: str, **kwargs: Any) -> Any:
    response = client.request(method, url, **kwargs)
    spec = client.get("/api/openapi.json").json()
    body = response.json()
    assert answer_problems(spec, route, method, response.status_code, body) == [], body
    return response.status_code, body


def _finished(client: TestClient, job_id: str) -> None:
    assert wait_finished(lambda p: client.get(p).json(), job_id)["status"] == "done"


def test_every_answer_matches_the_published_schema(served: tuple[TestClient, str]) -> None:
    client, token = served
    bearer = {"Authorization": f"Bearer {token}"}
    _, scan = _checked(client, "POST", "/api/scan", "/api/scan", files={"file": ("a.md", ARTICLE)})
    _checked(client, "GET", f"/api/jobs/{scan['id']}", "/api/jobs/{job_id}")
    _finished(client, scan["id"])
    status, _ = _checked(client, "GET", scan["result_url"], "/api/scan/{job_id}")
    assert status == 200
    status, sarif = _checked(
        client, "GET", f"{scan['result_url']}/sarif", "/api/scan/{job_id}/sarif"
    )
    assert (status, sarif["version"], len(sarif["runs"][0]["results"])) == (200, "2.1.0", 1)
    _, translation = _checked(
        client,
        "POST",
        "/api/translation",
        "/api/translation",
        files={"file": ("index.po", INJECTED)},
        data={"lang": "ja"},
        headers=bearer,
    )
    _finished(client, translation["id"])
    _, result = _checked(client, "GET", translation["result_url"], "/api/translation/{job_id}")
    # the counts add up: the summary is the sum over the languages, one catalog was checked
    languages = result["languages"].values()
    assert result["summary"]["errors"] == sum(lang["errors"] for lang in languages) == 10
    assert result["summary"]["warnings"] == sum(lang["warnings"] for lang in languages) == 1
    assert result["catalogs"] == 1
    _, listed = _checked(client, "GET", "/api/jobs", "/api/jobs", headers=bearer)
    assert [job["id"] for job in listed["jobs"]] == [translation["id"]]
    _checked(client, "GET", "/api/workers", "/api/workers")
    _checked(client, "GET", "/api/claims", "/api/claims")
    _checked(client, "GET", "/healthz", "/healthz")
    head = client.head("/healthz")
    assert (head.status_code, head.content) == (200, b"")


@pytest.mark.parametrize(
    ("method", "url", "route", "kwargs", "status", "error"),
    [
        ("GET", "/api/jobs/nope", "/api/jobs/{job_id}", {}, 404, "no check 'nope'"),
        ("GET", "/api/jobs", "/api/jobs", {}, 401, "listing checks needs a token"),
        ("POST", "/api/scan", "/api/scan", {"data": {"text": "x", "lang": "xx"}}, 400, "unknown"),
        ("POST", "/api/scan", "/api/scan", {"data": {"run": "maybe"}}, 422, "invalid request: run"),
        ("POST", "/healthz", "/healthz", {}, 405, "POST is not allowed at /healthz"),
        (
            "POST",
            "/api/scan",
            "/api/scan",
            {"files": {"file": ("big.md", b"x" * (1024 * 1024 + 70 * 1024))}},
            413,
            "the limit is 1048576",
        ),
    ],
)
def test_errors_have_one_shape_and_are_documented(  # noqa: PLR0917
    served: tuple[TestClient, str],
    method: str,
    url: str,
    route: str,
    kwargs: dict[str, Any],
    status: int,
    error: str,
) -> None:
    client, _ = served
    response = client.request(method, url, **kwargs)
    body = response.json()
    assert (response.status_code, set(body)) == (status, {"error", "status"}), body
    assert body["status"] == status and error in body["error"]
    if route != "/healthz":  # a method the route does not take has no operation to document
        spec = client.get("/api/openapi.json").json()
        assert answer_problems(spec, route, method, status, body) == []


def test_an_unknown_address_has_the_same_shape_and_a_page_for_browsers(
    served: tuple[TestClient, str],
) -> None:
    client, _ = served
    api = client.get("/api/nothing-here")
    assert api.status_code == 404
    assert api.json() == {"error": "no such address: /api/nothing-here", "status": 404}
    page = client.get("/nothing-here", headers={"Accept-Language": "ja"})
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert "このアドレスはありません: /nothing-here" in page.text


def test_the_document_names_the_bearer_scheme_and_the_errors(
    served: tuple[TestClient, str],
) -> None:
    client, _ = served
    spec = client.get("/api/openapi.json").json()
    assert spec["components"]["securitySchemes"]["bearer"] == {
        "type": "http",
        "scheme": "bearer",
        "description": "a token from `python -m checker serve --create-token NAME`",
    }
    scan = spec["paths"]["/api/scan"]["post"]
    assert scan["security"] == [{"bearer": []}]
    assert {"202", "400", "401", "403", "413", "415", "422", "429"} <= set(scan["responses"])
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            for status, answer in operation["responses"].items():
                assert "application/json" in answer.get("content", {}) or status == "202", (
                    method,
                    path,
                    status,
                )


def test_the_reference_page_needs_no_script(served: tuple[TestClient, str]) -> None:
    client, _ = served
    page = client.get("/api/docs")
    assert page.status_code == 200
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert "<script" not in page.text
    assert page.text.count('class="operation"') == 11
    assert "<code>POST /api/scan</code>" in page.text
