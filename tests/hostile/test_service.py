"""Attacks on the checking service (issue 28, item 10 and 11): each is a file under
``tests/hostile/service/`` sent to a real ``serve`` (or the application in process), and the
refusal it must get.

- ``chunked-upload.http``: a chunked upload of 300 MiB; refused (413) as soon as the limit is
  passed, not read to the end.
- ``anonymous-flood.toml``: sixteen anonymous translation checks, then a token holder's; the
  token holder's starts at once.
- ``secret.txt``: a catalog that is a symbolic link to it; refused unread, nothing of it
  quoted.
- ``cross-site-form.html``: another site's form posting ``run=true`` with the sign-in cookie;
  refused (403) without the CSRF token, and from another ``Origin``.
- ``forwarded-for.http``: ``X-Forwarded-For`` from loopback; not believed unless the proxy is
  named (``--trusted-proxy``).
- ``nested.rst``: a list nested 300 levels deep; run with a token, it is accepted (no 500)
  and its scan says the file is nested too deeply to read, with the line.
- ``deep-notebook.json``: uploaded as ``deep.ipynb``, a notebook nested 5000 levels deep;
  a 422 with the line, not a 500 (the scanner reads it as a clear error with file and line).
"""

from __future__ import annotations

import dataclasses
import json
import re
import socket
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from checker.scan.document import ReadError
from checker.scan.readers import read_bytes
from checker.service.app import create_app
from checker.service.auth import create_token
from checker.service.config import ServiceConfig
from checker.service.queue import Queue
from checker.service.store import Store
from checker.service.worker import read_runs
from tests.helpers import ROOT
from tests.service_helpers import RunningService, config, wait_finished
from tests.test_service_crashes import post

ATTACKS = Path(__file__).with_name("service")
MIB = 1024 * 1024


def _client(cfg: ServiceConfig) -> TestClient:
    return TestClient(create_app(cfg, Queue(cfg)))


def _response(sock: socket.socket) -> bytes:
    sock.settimeout(30)
    answer = b""
    try:
        while chunk := sock.recv(65536):
            answer += chunk
    except ConnectionResetError:  # the server closed with our bytes unread: answer kept
        pass
    return answer


def test_a_chunked_upload_is_refused_as_soon_as_it_passes_the_limit(tmp_path: Path) -> None:
    head = (ATTACKS / "chunked-upload.http").read_bytes()
    part = (
        b'--hostile\r\nContent-Disposition: form-data; name="file"; filename="big.md"\r\n'
        b"Content-Type: text/markdown\r\n\r\n"
    )
    block = b"x" * (64 * 1024)
    chunk = f"{len(block):x}\r\n".encode() + block + b"\r\n"
    with RunningService(dataclasses.replace(config(tmp_path), workers=0)) as service:
        sent = 0
        with socket.create_connection(("127.0.0.1", service.port)) as sock:
            sock.sendall(head + f"{len(part):x}\r\n".encode() + part + b"\r\n")
            sock.setblocking(False)
            refused = b""
            while sent < 300 * MIB:
                try:
                    refused += sock.recv(65536)
                except BlockingIOError:
                    pass
                except ConnectionResetError:
                    break
                if refused:
                    break
                try:
                    sent += sock.send(chunk)
                except BlockingIOError:
                    time.sleep(0.01)  # the server reads no more: the buffers are full
                except (BrokenPipeError, ConnectionResetError):
                    break
            sock.setblocking(True)
            refused += _response(sock)
        assert service.get("/healthz")["status"] == "ok"
    status_line, _, rest = refused.partition(b"\r\n")
    assert status_line == b"HTTP/1.1 413 Request Entity Too Large"
    body = json.loads(rest.partition(b"\r\n\r\n")[2])
    assert body["status"] == 413
    assert body["error"].startswith("the request has at least ")
    assert body["error"].endswith(" bytes; the limit is 1048576")
    # what was sent before the refusal came back: the limit and the sockets' buffers
    assert sent < 32 * MIB, sent


def test_a_flood_of_anonymous_checks_does_not_delay_a_token_holders(tmp_path: Path) -> None:
    flood = tomllib.loads((ATTACKS / "anonymous-flood.toml").read_text(encoding="utf-8"))
    catalog = (ROOT / flood["catalog"]).read_bytes()
    cfg = dataclasses.replace(config(tmp_path), workers=2)
    token = create_token(Store(cfg.database), "hana")
    with RunningService(cfg) as service:
        deadline = time.monotonic() + 60
        while len(service.get("/api/workers")["workers"]) < 2:
            assert time.monotonic() < deadline
            time.sleep(0.2)
        anonymous = [
            _post_catalog(service.url, catalog, flood["lang"])["id"]
            for _ in range(flood["anonymous"])
        ]
        queued = service.get(f"/api/jobs/{anonymous[-1]}")
        assert queued["status"] == "queued" and queued["position"] > 1
        status, mine = post(service.url, {"text": "A view shares storage."}, token)
        assert status == 202 and mine["position"] == 1
        assert wait_finished(service.get, mine["id"])["status"] == "done"
        still = [service.get(f"/api/jobs/{job_id}")["status"] for job_id in anonymous]
    started = [r["job"] for r in read_runs(cfg) if r["event"] == "started"]
    # one worker kept for token holders: at most one anonymous check ran beside the
    # token holder's, and the ones before it had finished when it came
    before = started.index(mine["id"])
    assert before <= 1 + sum(1 for r in read_runs(cfg)[:before] if r["event"] == "done")
    assert still.count("queued") >= flood["anonymous"] - 4, still


def _post_catalog(url: str, catalog: bytes, lang: str) -> Any:
    import urllib.request

    boundary = "hostile-flood"
    part = f"--{boundary}\r\nContent-Disposition: form-data; "
    head = f'{part}name="lang"\r\n\r\n{lang}\r\n{part}name="file"; filename="amp.po"\r\n\r\n'
    body = head.encode() + catalog + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(
        url + "/api/translation",
        data=body,
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status == 202
        return json.loads(response.read())


def test_a_catalog_that_is_a_symbolic_link_is_refused_unread(tmp_path: Path) -> None:
    from checker.i18n.report import render_json
    from checker.i18n.run import I18nOptions, check

    secret = tmp_path / "home" / "secret.txt"
    secret.parent.mkdir()
    secret.write_bytes((ATTACKS / "secret.txt").read_bytes())
    catalogs = tmp_path / "locales" / "ja" / "LC_MESSAGES"
    catalogs.mkdir(parents=True)
    (catalogs / "index.po").symlink_to(secret)
    options = I18nOptions.project(
        ROOT,
        locales=tmp_path / "locales",
        langs=("ja",),
        templates=None,
        reuse_templates=None,
        build_templates=False,
    )
    document = render_json(check(options))
    findings = json.loads(document)["findings"]
    found = [f for f in findings if f["path"].endswith("LC_MESSAGES/index.po")]
    assert [f["message"] for f in found] == [
        "a symbolic link, not followed: a catalog must be a regular file"
    ]
    assert "AWS" not in document and "hostile-test-secret" not in document


def test_a_cross_site_form_cannot_run_code_with_the_sign_in_cookie(tmp_path: Path) -> None:
    page = (ATTACKS / "cross-site-form.html").read_text(encoding="utf-8")
    text = re.search(r"<textarea name=\"text\" hidden>\n(.*)</textarea>", page, re.S)
    assert text is not None
    fields = {"text": text.group(1), "run": "true"}
    cfg = config(tmp_path)
    token = create_token(Store(cfg.database), "ivan")
    client = _client(cfg)
    client.cookies.set("checker_token", token)
    client.cookies.set("checker_csrf", "the-csrf-token")
    attacker = {"Origin": "http://attacker.example"}
    # as the page sends it: the cookie, another origin, no CSRF token
    refused = client.post("/api/scan", data=fields, headers=attacker)
    assert refused.status_code == 403
    assert refused.json()["error"].startswith("a request from 'http://attacker.example'")
    # a browser that names no origin: still no CSRF token
    refused = client.post("/api/scan", data=fields)
    assert refused.status_code == 403
    assert "must repeat the form's CSRF token" in refused.json()["error"]
    # the service's own page (same origin, the token repeated), or a script with the header
    own = client.post(
        "/api/scan",
        data={**fields, "csrf": "the-csrf-token"},
        headers={"Origin": "http://testserver"},
    )
    assert own.status_code == 202, own.text
    client.cookies.clear()
    bearer = client.post(
        "/api/scan", data=fields, headers={**attacker, "Authorization": f"Bearer {token}"}
    )
    assert bearer.status_code == 202, bearer.text


def _forwarded(port: int, n: int) -> int:
    body = (
        b'--hostile\r\nContent-Disposition: form-data; name="text"\r\n\r\n'
        b"A view shares storage.\r\n--hostile--\r\n"
    )
    head = (ATTACKS / "forwarded-for.http").read_text(encoding="utf-8")
    request = head.format(n=n, length=len(body)).encode() + body
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(request)
        answer = _response(sock)
    return int(answer.split(b" ", 2)[1])


def test_x_forwarded_for_is_believed_only_from_a_named_proxy(tmp_path: Path) -> None:
    cfg = dataclasses.replace(
        config(tmp_path / "plain", rate=2), workers=0, data_dir=tmp_path / "plain"
    )
    with RunningService(cfg) as service:
        assert [_forwarded(service.port, n) for n in range(3)] == [202, 202, 429]
    behind = dataclasses.replace(cfg, data_dir=tmp_path / "proxied", trusted_proxies="127.0.0.1")
    with RunningService(behind) as service:
        assert [_forwarded(service.port, n) for n in range(3)] == [202, 202, 202]


def test_a_deeply_nested_notebook_is_a_clear_422(tmp_path: Path) -> None:
    notebook = (ATTACKS / "deep-notebook.json").read_bytes()
    response = _client(config(tmp_path)).post("/api/scan", files={"file": ("deep.ipynb", notebook)})
    assert response.status_code == 422
    assert response.json() == {
        "error": "not a notebook: JSON nested more than 64 levels deep at line 6",
        "status": 422,
        "line": 6,
    }
    # the scanner's reader: a clear error with the file and the line
    with pytest.raises(ReadError) as raised:
        read_bytes(Path("deep.ipynb"), notebook)
    assert str(raised.value) == "deep.ipynb:6: not a notebook: JSON nested more than 64 levels deep"


def test_a_deeply_nested_rst_is_a_read_error_not_a_500(tmp_path: Path) -> None:
    from checker import registry
    from checker.scan.run import ScanOptions, scan

    nested = ATTACKS / "nested.rst"
    cfg = config(tmp_path)
    token = create_token(Store(cfg.database), "kai")
    accepted = _client(cfg).post(
        "/api/scan",
        files={"file": ("nested.rst", nested.read_bytes())},
        data={"run": "true"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert accepted.status_code == 202, accepted.text
    result = scan([nested], registry.load(), ScanOptions(run_code=False, project_root=ROOT))
    assert [(e.line, e.message) for e in result.errors] == [(599, "nested too deeply to read")]
