"""Who may do what: tokens (``serve --create-token NAME``, stored hashed) are needed to run
code, which then runs in the scanner's sandbox; anonymous users get prose-only checks. Every
limit refuses with a clear 4xx; forms need their CSRF token; a submission's markup and names
are shown as text, never as HTML or a path."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from checker.service.app import create_app
from checker.service.auth import create_token, digest
from checker.service.queue import Queue
from tests.helpers import ROOT
from tests.service_helpers import config, start_worker, stop, wait_finished

SNIPPET = "Two ones:\n\n```pycon\n>>> import torch\n>>> torch.ones(2).sum()\ntensor(2.)\n```\n"
TWO_SNIPPETS = SNIPPET + "\n```pycon\n>>> torch.zeros(1)\ntensor([0.])\n```\n"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    """An application with a worker, and a token."""
    cfg = config(tmp_path_factory.mktemp("auth"))
    queue = Queue(cfg)
    token = create_token(queue.store, "alice")
    worker = start_worker(cfg)
    try:
        with TestClient(create_app(cfg, queue)) as client:
            yield client, token
    finally:
        stop(worker)


@pytest.fixture
def strict(tmp_path: Path) -> tuple[TestClient, str]:
    """An application with small limits and no worker (jobs stay queued)."""
    cfg = config(tmp_path, jobs_per_token=1, rate=3, snippets=1, article_chars=200)
    queue = Queue(cfg)
    return TestClient(create_app(cfg, queue)), create_token(queue.store, "bob")


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_create_token_prints_a_secret_that_is_stored_only_as_its_hash(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CHECKER_SERVICE_DATA": str(tmp_path)}
    command = [sys.executable, "-m", "checker", "serve", "--create-token", "carol"]
    created = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert created.returncode == 0, created.stderr
    token = created.stdout.strip()
    assert re.fullmatch(r"chk_[A-Za-z0-9_-]{43}", token)
    with sqlite3.connect(tmp_path / "service.sqlite3") as db:
        rows = db.execute("SELECT name, digest FROM tokens").fetchall()
    assert rows == [("carol", digest(token))]
    assert token not in (tmp_path / "service.sqlite3").read_bytes().decode("latin-1")
    again = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert again.returncode == 2
    assert "a token named 'carol' exists already" in again.stderr
    bad = subprocess.run(
        [*command[:-1], "../x"], env=env, capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2 and "token name '../x'" in bad.stderr


def test_tokens_are_listed_and_a_revoked_one_is_refused(tmp_path: Path) -> None:
    from checker.service.app import create_app
    from checker.service.queue import Queue
    from tests.service_helpers import config

    env = {**os.environ, "PYTHONPATH": str(ROOT), "CHECKER_SERVICE_DATA": str(tmp_path)}
    serve = [sys.executable, "-m", "checker", "serve"]
    tokens = {}
    for name in ("kim", "lee"):
        made = subprocess.run(
            [*serve, "--create-token", name], env=env, capture_output=True, text=True, check=True
        )
        tokens[name] = made.stdout.strip()
    listed = subprocess.run(
        [*serve, "--list-tokens"], env=env, capture_output=True, text=True, check=True
    )
    assert [line.split("\t")[0] for line in listed.stdout.splitlines()] == ["kim", "lee"]
    assert all(token not in listed.stdout for token in tokens.values())
    revoked = subprocess.run(
        [*serve, "--revoke-token", "kim"], env=env, capture_output=True, text=True, check=False
    )
    assert (revoked.returncode, revoked.stderr) == (0, "token 'kim' revoked\n")
    again = subprocess.run(
        [*serve, "--revoke-token", "kim"], env=env, capture_output=True, text=True, check=False
    )
    assert (again.returncode, again.stderr) == (2, "error: no token named 'kim'\n")
    cfg = config(tmp_path)
    client = TestClient(create_app(cfg, Queue(cfg)))
    refused = client.get("/api/jobs", headers={"Authorization": f"Bearer {tokens['kim']}"})
    assert refused.json() == {"error": "unknown or revoked token", "status": 401}
    kept = client.get("/api/jobs", headers={"Authorization": f"Bearer {tokens['lee']}"})
    assert kept.json() == {"jobs": []}


def test_running_code_needs_a_token(served: tuple[TestClient, str]) -> None:
    client, _ = served
    response = client.post("/api/scan", data={"text": SNIPPET, "run": "true"})
    assert response.status_code == 401
    assert "running code needs a token" in response.json()["error"]
    wrong = client.post(
        "/api/scan", data={"text": SNIPPET, "run": "true"}, headers=_bearer("chk_" + "x" * 43)
    )
    assert wrong.status_code == 401
    assert wrong.json()["error"] == "unknown or revoked token"


def test_anonymous_checks_are_prose_only(served: tuple[TestClient, str]) -> None:
    client, _ = served
    job = client.post("/api/scan", data={"text": SNIPPET}).json()
    assert job["run_code"] is False
    assert wait_finished(lambda p: client.get(p).json(), job["id"])["status"] == "done"
    result = client.get(job["result_url"]).json()
    assert [f for f in result["findings"] if f["kind"] == "snippet"] == []


def test_a_token_runs_the_snippets_in_the_sandbox(served: tuple[TestClient, str]) -> None:
    client, token = served
    response = client.post(
        "/api/scan", data={"text": SNIPPET, "run": "true"}, headers=_bearer(token)
    )
    assert response.status_code == 202, response.text
    job = response.json()
    assert job["run_code"] is True
    finished = wait_finished(lambda p: client.get(p).json(), job["id"])
    assert finished["progress"] == {"done": 1, "total": 1, "stage": "done"}
    result = client.get(job["result_url"]).json()
    snippets = [f for f in result["findings"] if f["kind"] == "snippet"]
    assert [(f["line"], f["verdict"]) for f in snippets] == [(4, "supported")]
    assert result["summary"]["sandbox"], "the sandbox reported no measures: did the code run?"


def test_each_limit_is_a_clear_4xx(strict: tuple[TestClient, str]) -> None:
    client, token = strict
    long = client.post("/api/scan", data={"text": "word " * 50}, headers=_bearer(token))
    assert long.status_code == 413
    assert long.json()["error"] == "the article has 250 characters; the limit is 200"
    many = client.post(
        "/api/scan", data={"text": TWO_SNIPPETS, "run": "true"}, headers=_bearer(token)
    )
    assert many.status_code == 413
    assert many.json()["error"].startswith("the article has 2 code snippets to run; the limit is 1")
    first = client.post("/api/scan", data={"text": SNIPPET, "run": "true"}, headers=_bearer(token))
    assert first.status_code == 202
    second = client.post("/api/scan", data={"text": "Views."}, headers=_bearer(token))
    assert second.status_code == 429
    assert "the limit is 1 at once" in second.json()["error"]


def test_the_rate_limit_is_a_429(strict: tuple[TestClient, str]) -> None:
    client, _ = strict
    codes = [client.post("/api/scan", data={"text": f"Views {n}."}).status_code for n in range(4)]
    assert codes == [202, 202, 202, 429]
    refused = client.post("/api/scan", data={"text": "Views."}).json()["error"]
    assert refused.startswith("more than 3 submissions in 60 s: try again in")


def _csrf(client: TestClient, page: str) -> str:
    html = client.get(page).text
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None
    return found[1]


def test_forms_need_their_csrf_token(strict: tuple[TestClient, str]) -> None:
    client, _ = strict
    refused = client.post("/check", data={"text": "Views share storage."})
    assert refused.status_code == 403
    assert "the form expired or came from another site" in refused.text
    forged = client.post("/check", data={"text": "Views.", "csrf": "guess"})
    assert forged.status_code == 403
    token = _csrf(client, "/")
    accepted = client.post(
        "/check", data={"text": "Views share storage.", "csrf": token}, follow_redirects=False
    )
    assert accepted.status_code == 303
    assert accepted.headers["location"].startswith("/results/")


def _submit_and_show(client: TestClient, **kwargs: Any) -> tuple[dict[str, Any], str]:
    job = client.post("/api/scan", **kwargs).json()
    assert wait_finished(lambda p: client.get(p).json(), job["id"])["status"] == "done"
    return client.get(job["result_url"]).json(), client.get(f"/results/{job['id']}").text


def test_a_submissions_markup_and_name_are_shown_as_text(served: tuple[TestClient, str]) -> None:
    client, _ = served
    text = 'Views share storage. <script>alert("x")</script> <img src=x onerror=alert(2)>\n'
    result, page = _submit_and_show(
        client, files={"file": ("../../etc/pass<b>wd.md", text.encode())}
    )
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in page
    assert "pass<b>wd" not in page and "<h1>pass&lt;b&gt;wd.md</h1>" in page
    assert {f["path"] for f in result["findings"]} <= {"pass<b>wd.md"}
    headers = client.get("/").headers
    assert "script-src 'self'" in headers["content-security-policy"]


def test_progress_shows_snippets_run_while_they_run(served: tuple[TestClient, str]) -> None:
    client, token = served
    slow = "".join(
        f"Step {n}:\n\n```pycon\n>>> import time\n>>> time.sleep(0.7)\n```\n\n" for n in range(3)
    )
    job = client.post(
        "/api/scan", data={"text": slow, "run": "true"}, headers=_bearer(token)
    ).json()
    seen = set()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = client.get(f"/api/jobs/{job['id']}").json()
        seen.add((state["progress"]["done"], state["progress"]["total"]))
        if state["status"] == "done":
            break
        time.sleep(0.1)
    assert state["status"] == "done"
    assert (3, 3) in seen
    assert {(1, 3), (2, 3)} & seen, seen  # counted while running, not only at the end


def test_signing_in_with_a_token_lets_the_form_run_code(strict: tuple[TestClient, str]) -> None:
    client, token = strict
    assert 'name="run" value="true" disabled' in client.get("/").text
    refused = client.post("/login", data={"token": "chk_wrong", "csrf": _csrf(client, "/login")})
    assert refused.status_code == 401
    signed = client.post(
        "/login", data={"token": token, "csrf": _csrf(client, "/login")}, follow_redirects=False
    )
    assert signed.status_code == 303
    page = client.get("/").text
    assert (
        "Signed in as bob" in page and 'name="run" value="true" checked>' in page
    )  # on by default
    submitted = client.post(
        "/check",
        data={"text": SNIPPET, "run": "true", "csrf": _csrf(client, "/")},
        follow_redirects=False,
    )
    assert submitted.status_code == 303
    job_id = submitted.headers["location"].rsplit("/", 1)[1]
    assert client.get(f"/api/jobs/{job_id}").json()["run_code"] is True
    client.post("/logout", data={"csrf": _csrf(client, "/")})
    assert "Sign in with a token" in client.get("/").text
