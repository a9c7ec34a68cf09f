"""A translation check's preview (checker.service.preview): the page built in the catalog's
language with the submitted translations, by a real worker, in a throw-away folder; served
under the result with a strict script policy; never for a refused catalog; removed with the
result."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from checker.service.app import create_app
from checker.service.pages import PREVIEW_POLICY
from checker.service.preview import merged_catalog, preview_file, previews_dir
from checker.service.queue import Queue
from tests.helpers import ROOT, sample
from tests.service_helpers import config, start_worker, stop, wait_finished

CATALOG = ROOT / "locales" / "ja" / "LC_MESSAGES" / "topics" / "views-and-inplace.po"
HEADING = 'msgstr "ビュー、コピー、インプレース演算"'
EDITED = "ビュー、コピー、インプレース演算（試訳）"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    cfg = config(tmp_path_factory.mktemp("preview-service"), preview=True)
    worker = start_worker(cfg)
    try:
        with TestClient(create_app(cfg, Queue(cfg))) as test_client:
            yield test_client
    finally:
        stop(worker)


def _check(client: TestClient, name: str, content: bytes) -> dict[str, Any]:
    response = client.post("/api/translation", files={"file": (name, content)}, data={"lang": "ja"})
    assert response.status_code == 202, response.text
    job = response.json()
    finished = wait_finished(lambda path: client.get(path).json(), job["id"])
    assert finished["status"] == "done", finished
    return {"id": job["id"], **client.get(job["result_url"]).json()}


def test_an_accepted_catalog_is_previewed_as_its_page_and_the_site_is_untouched(
    client: TestClient,
) -> None:
    original = CATALOG.read_bytes()
    text = original.decode("utf-8")
    assert text.count(HEADING) == 1
    result = _check(client, "views.po", text.replace(HEADING, f'msgstr "{EDITED}"').encode())
    assert result["summary"] == {"errors": 0, "warnings": 0}
    job_id = result["id"]
    assert result["preview"] == f"/results/{job_id}/preview/topics/views-and-inplace.html"
    page = client.get(result["preview"])
    assert page.status_code == 200
    assert EDITED in page.text and '<html lang="ja"' in page.text
    assert page.headers["content-security-policy"] == PREVIEW_POLICY
    assert f'<a href="{result["preview"]}">' in client.get(f"/results/{job_id}").text
    # built elsewhere: the project's catalog and the served site stay as they were
    assert CATALOG.read_bytes() == original
    served = ROOT / "_build" / "html" / "ja" / "topics" / "views-and-inplace.html"
    assert not served.is_file() or EDITED not in served.read_text(encoding="utf-8")
    # nothing outside the served site of the language is reachable through the preview
    for escape in ("..%2F..%2F..%2Fpyproject.toml", "%2Fetc%2Fpasswd", "../../conf.py"):
        assert client.get(f"/results/{job_id}/preview/{escape}").status_code == 404, escape


def test_a_refused_catalog_gets_no_preview(client: TestClient) -> None:
    result = _check(client, "index.po", sample("i18n", "injected", "index.po").read_bytes())
    assert result["summary"]["errors"] > 0
    assert result["preview"] is None
    page = client.get(f"/results/{result['id']}")
    assert page.status_code == 200 and 'id="preview"' not in page.text
    response = client.get(f"/results/{result['id']}/preview/index.html")
    assert response.status_code == 404


def test_a_preview_goes_with_its_result(client: TestClient) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    kept = sorted(p.name for p in previews_dir(service.config).iterdir())
    assert len(kept) == 1  # the accepted catalog's
    stray = previews_dir(service.config) / "no-such-job"
    stray.mkdir()
    (stray / "page.html").write_text("old", encoding="utf-8")
    service.purge()
    assert sorted(p.name for p in previews_dir(service.config).iterdir()) == kept
    assert all(preview_file(service.config, job_id).is_file() for job_id in kept)


def test_a_pasted_message_changes_that_message_only(tmp_path: Path) -> None:
    pasted = f'msgid "Views, copies and in-place operations"\nmsgstr "{EDITED}"\n'
    merged = merged_catalog(CATALOG, pasted, "ja")
    assert EDITED in merged
    assert merged.count("msgid ") == CATALOG.read_text(encoding="utf-8").count("msgid ")
    # a submission is text, never a path to read
    assert merged_catalog(CATALOG, "/etc/passwd", "ja").count(EDITED) == 0
