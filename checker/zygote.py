"""The fork server: a process that imports torch once and forks a fresh child per job.

Started by :class:`checker.pool.Pool` as ``python -m checker.zygote``; it speaks JSON lines on
stdin/stdout. It never runs a torch operation itself, so forking it is safe (no threads yet)
and its children may still initialise CUDA. For each job it:

1. forks; the child applies the job's limits, runs ``handler(args)`` and writes
   ``{"result": ...}`` or ``{"error": ...}`` to a private result file, then exits;
2. reports ``{"pid": N}`` at once, so the parent can kill a child that runs too long;
3. waits for the child and reports ``{"exit": status, "signal": name-or-null, "message":
   the child's message or null, "stderr": its last lines}``.

Only the server writes to the protocol pipe. A child's stdout goes to ``/dev/null`` and its
stderr to a file, so nothing a job prints can corrupt the protocol.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import resource
import signal
import sys
import tempfile
import traceback
from collections.abc import Callable
from typing import Any, TextIO

#: Lines of a failed job's stderr reported with its error.
STDERR_TAIL = 12


def serve(stdin: TextIO, stdout: TextIO) -> None:
    """Handle jobs until stdin closes. The first line names the modules to preload."""
    hello = json.loads(stdin.readline())
    sys.path[:0] = [p for p in hello.get("sys_path", []) if p not in sys.path]
    for name in hello.get("preload", []):
        importlib.import_module(name)
    _send(stdout, {"ready": True})
    for line in stdin:
        if line.strip():
            _serve_one(json.loads(line), stdout)


def _serve_one(job: dict[str, Any], stdout: TextIO) -> None:
    fd, scratch = tempfile.mkstemp(prefix="checker-job-")
    os.close(fd)
    stdout.flush()
    pid = os.fork()
    if pid == 0:  # child
        code = 0
        try:
            _child(job, scratch)
        except BaseException:
            code = 70
        finally:
            os._exit(code)
    _send(stdout, {"pid": pid})
    _, status = os.waitpid(pid, 0)
    report: dict[str, Any] = {"exit": os.waitstatus_to_exitcode(status), "signal": None}
    if os.WIFSIGNALED(status):
        report["signal"] = signal.Signals(os.WTERMSIG(status)).name
    report["message"] = _read_message(scratch + ".json")
    report["stderr"] = _tail(scratch)
    for path in (scratch, scratch + ".json"):
        with contextlib.suppress(OSError):
            os.unlink(path)
    _send(stdout, report)


def _child(job: dict[str, Any], scratch: str) -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    err = os.open(scratch, os.O_WRONLY | os.O_TRUNC)
    os.dup2(err, 2)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    limit = job.get("address_space")
    if limit:
        _limit_address_space(int(limit))
    try:
        message = {"result": _handler(job["handler"])(job["args"])}
    except BaseException as exc:  # report everything, even SystemExit from a probe
        message = {"error": describe(exc)}
    with open(scratch + ".tmp", "w", encoding="utf-8") as out:
        json.dump(message, out)
    os.replace(scratch + ".tmp", scratch + ".json")


def _read_message(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _handler(spec: str) -> Callable[[dict[str, Any]], Any]:
    module, _, name = spec.partition(":")
    handler: Callable[[dict[str, Any]], Any] = getattr(importlib.import_module(module), name)
    return handler


def _limit_address_space(extra_bytes: int) -> None:
    """Allow ``extra_bytes`` of address space beyond what the process maps now."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        pages = int(statm.read().split()[0])
    limit = pages * resource.getpagesize() + extra_bytes
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def describe(exc: BaseException) -> str:
    """``Type: message (at file:line)`` for the innermost frame of ``exc``."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


def _tail(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = [ln for ln in f.read().splitlines() if not ln.startswith("USDT:")]
    except OSError:
        return ""
    return "\n".join(lines[-STDERR_TAIL:])


def _send(stdout: TextIO, message: dict[str, Any]) -> None:
    stdout.write(json.dumps(message) + "\n")
    stdout.flush()


if __name__ == "__main__":
    serve(sys.stdin, sys.stdout)
