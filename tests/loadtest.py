"""A bounded load test of a running service on loopback: ``clients`` threads submit
``submissions`` prose-only checks between them through the HTTP API, then poll each until it
is finished. Reports throughput, latencies (p50/p95) and whether any submission was lost
(refused, never finished, or finished without its result). With ``kill_worker``, a worker
process is killed (SIGKILL) in the middle of a job once a quarter of the checks are done,
and the workers' ``runs.log`` says whether any job ran to the end twice. Used by
``benchmarks/service.py`` and by ``tests/test_service_load.py`` (a smaller run)."""

from __future__ import annotations

import json
import math
import os
import signal
import threading
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Sentences the articles are made of: statements the scanner judges, and plain prose.
SENTENCES = (
    "A view shares storage with the tensor it was made from.",
    "index_select returns a view of the input, just like slicing.",
    "Calling detach() gives a tensor that shares storage with the original.",
    "Under autocast, matmul runs in float16 on CUDA.",
    "This article was written for readers new to PyTorch.",
    "Gradients accumulate across backward calls until they are zeroed.",
)


def article(n: int) -> str:
    """The ``n``-th article: a heading and a few sentences, different for each ``n``."""
    picked = [SENTENCES[(n + k) % len(SENTENCES)] for k in range(3)]
    return f"# Notes {n}\n\n" + "\n\n".join(picked) + f"\n\nWritten as note number {n}.\n"


@dataclass
class LoadResult:
    submissions: int
    clients: int
    seconds: float = 0.0
    #: Seconds from sending a submission to its 202.
    submit_latencies: list[float] = field(default_factory=list)
    #: Seconds from sending a submission to seeing it finished.
    finish_latencies: list[float] = field(default_factory=list)
    done: int = 0
    #: ``(index, what happened)`` for every submission that was lost.
    lost: list[tuple[int, str]] = field(default_factory=list)
    #: Jobs whose worker was killed in the middle of them.
    killed: list[str] = field(default_factory=list)
    #: Jobs a worker ran to the end more than once (must be none).
    ran_twice: list[str] = field(default_factory=list)

    @property
    def throughput(self) -> float:
        return self.done / self.seconds if self.seconds else 0.0

    def summary(self) -> dict[str, Any]:
        return {
            "submissions": self.submissions,
            "clients": self.clients,
            "done": self.done,
            "lost": len(self.lost),
            "killed_mid_job": len(self.killed),
            "ran_twice": len(self.ran_twice),
            "seconds": round(self.seconds, 2),
            "throughput_per_s": round(self.throughput, 2),
            "submit_p50_ms": round(percentile(self.submit_latencies, 50) * 1000, 1),
            "submit_p95_ms": round(percentile(self.submit_latencies, 95) * 1000, 1),
            "finish_p50_s": round(percentile(self.finish_latencies, 50), 2),
            "finish_p95_s": round(percentile(self.finish_latencies, 95), 2),
        }


def percentile(values: list[float], p: float) -> float:
    """The nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(math.ceil(p / 100 * len(ordered)) - 1, 0)]


def _request(
    url: str, body: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    request = urllib.request.Request(url, data=body, headers=headers or {})
    with urllib.request.urlopen(request, timeout=60) as response:
        status: int = response.status
        return status, json.loads(response.read())


def submit(base: str, text: str) -> tuple[int, Any]:
    """POST one prose-only article to ``/api/scan``; the status and the JSON answer."""
    boundary = uuid.uuid4().hex
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\n{text}\r\n'
        f"--{boundary}--\r\n"
    ).encode()
    try:
        return _request(
            base + "/api/scan", body, {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        )
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def _runs(runs_log: Path) -> list[dict[str, Any]]:
    if not runs_log.exists():
        return []
    lines = runs_log.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.endswith("}")]


def _killer(result: LoadResult, runs_log: Path, after: int, stop: threading.Event) -> None:
    """Once ``after`` checks are done, SIGKILL a worker process in the middle of a job (one
    that wrote ``started`` and not yet ``done``); again while the job it held finished
    anyway (the kill came too late), three tries at most."""
    tries = 0
    while not stop.wait(0.01) and tries < 3:
        if result.done < after:
            continue
        runs = _runs(runs_log)
        ended = {(r["job"], r["attempt"]) for r in runs if r["event"] != "started"}
        running = [
            r for r in runs if r["event"] == "started" and (r["job"], r["attempt"]) not in ended
        ]
        if not running:
            continue
        victim = running[-1]
        tries += 1
        try:
            os.kill(int(victim["worker"].rpartition(":")[2]), signal.SIGKILL)
        except ProcessLookupError:
            continue
        time.sleep(0.5)
        ended = {(r["job"], r["attempt"]) for r in _runs(runs_log) if r["event"] != "started"}
        if (victim["job"], victim["attempt"]) not in ended:
            result.killed.append(victim["job"])
            return


def run(
    base: str,
    submissions: int,
    clients: int,
    timeout_s: float = 300.0,
    kill_worker: Path | None = None,
) -> LoadResult:
    """The load; ``kill_worker``: the workers' ``runs.log``, to kill one in the middle of a
    job (see :func:`_killer`) and count the jobs run twice."""
    result = LoadResult(submissions, clients)
    lock = threading.Lock()
    deadline = time.monotonic() + timeout_s

    def client(index: int) -> None:
        mine = range(index, submissions, clients)
        pending: dict[int, tuple[str, float]] = {}
        for n in mine:
            started = time.perf_counter()
            status, answer = submit(base, article(n))
            elapsed = time.perf_counter() - started
            with lock:
                if status != 202:
                    result.lost.append((n, f"refused: {status} {answer.get('error')}"))
                    continue
                result.submit_latencies.append(elapsed)
            pending[n] = (answer["id"], started)
        while pending and time.monotonic() < deadline:
            for n, (job_id, started) in list(pending.items()):
                _, job = _request(f"{base}/api/jobs/{job_id}")
                if job["status"] == "queued" or job["status"] == "running":
                    continue
                finished = time.perf_counter() - started
                del pending[n]
                status, scanned = _request(f"{base}/api/scan/{job_id}")
                with lock:
                    if job["status"] != "done" or scanned.get("schema") != "checker.scan/2":
                        result.lost.append((n, f"{job['status']}: {job.get('error')}"))
                    else:
                        result.done += 1
                        result.finish_latencies.append(finished)
            time.sleep(0.25)  # a client polls its checks a few times a second
        with lock:
            result.lost += [(n, "not finished in time") for n in pending]

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    stop = threading.Event()
    if kill_worker is not None:
        killer = (kill_worker, max(submissions // 4, 1), stop)
        threads.append(threading.Thread(target=_killer, args=(result, *killer)))
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads[:clients]:
        thread.join()
    stop.set()
    for thread in threads[clients:]:
        thread.join()
    result.seconds = time.perf_counter() - started
    if kill_worker is not None:
        finished = [r["job"] for r in _runs(kill_worker) if r["event"] in ("done", "failed")]
        result.ran_twice = sorted({job for job in finished if finished.count(job) > 1})
    return result
