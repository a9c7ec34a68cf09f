"""The fork server: a process that imports torch once and runs each job in a fresh child.

Started by :class:`checker.pool.Pool` as ``python -m checker.zygote``; it speaks JSON lines on
stdin/stdout. It never runs a torch operation itself, so forking it is safe (no threads yet)
and its children may still initialise CUDA.

A child is forked *before* its job arrives and waits on a pipe, so the cost of forking a
process that maps all of torch is paid while the previous job runs, not on the critical path.
For each job the server:

1. hands the job to the waiting child and reports ``{"pid": N}``, so the parent can kill a
   child that runs too long;
2. forks the next spare child;
3. relays the child's message (``{"result": ...}`` or ``{"error": ...}``) as soon as it
   arrives, or, if the child dies first, its exit status and signal:
   ``{"exit": status|null, "signal": name|null, "message": ...|null, "stderr": last lines}``.

Each child runs in its own process group, which is killed when the job ends, so processes a
job started (a fork bomb) do not outlive it. A child's stdout goes to ``/dev/null`` and its
stderr to a file, so nothing a job prints can corrupt the protocol.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import resource
import selectors
import shutil
import signal
import struct
import sys
import tempfile
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

#: Lines of a job's stderr reported with its outcome.
STDERR_TAIL = 12
#: The header of a framed message: its length in bytes (the payload is JSON).
FRAME_HEADER = struct.Struct("!Q")


@dataclass
class _Child:
    pid: int
    job_fd: int
    result_fd: int
    #: An unlinked temporary file: nothing is left on disk, even if the server is killed.
    stderr_fd: int
    #: The job's temporary folder (its ``TMPDIR``), removed when the job ends: a child ends
    #: with ``os._exit``, so what ``multiprocessing`` and ``tempfile`` would clean up at exit
    #: (``pymp-*`` folders) is removed here instead.
    temp_dir: str


def serve(stdin: TextIO, stdout: TextIO) -> None:
    """Handle jobs until stdin closes. The first line names the modules to preload; when it
    asks for ``facts``, the ready line carries :func:`facts`, read before anything else ran."""
    hello = json.loads(stdin.readline())
    found = facts() if hello.get("facts") else None
    if found is not None:  # in a jail: a job's processes (same uid) may not read this one
        not_dumpable()
    _remove_stale_folders()
    sys.path[:0] = [p for p in hello.get("sys_path", []) if p not in sys.path]
    for name in hello.get("preload", []):
        importlib.import_module(name)
    gc.collect()
    gc.freeze()  # children never scan (and so never copy) the preloaded objects
    wakeup_r, wakeup_w = os.pipe()
    os.set_blocking(wakeup_w, False)
    signal.set_wakeup_fd(wakeup_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    spare = _fork_child()
    _send(stdout, {"ready": True, "facts": found})
    for line in stdin:
        if not line.strip():
            continue
        child = spare
        os.write(child.job_fd, line.encode())
        os.close(child.job_fd)
        _send(stdout, {"pid": child.pid})
        spare = _fork_child()  # while the job runs
        _send(stdout, _outcome(child, wakeup_r, stdout))
    os.close(spare.job_fd)  # the spare child reads EOF and exits
    os.waitpid(spare.pid, 0)
    os.close(spare.stderr_fd)
    shutil.rmtree(spare.temp_dir, ignore_errors=True)
    for pid in _EXITING:
        _reap(pid, block=True)


def _fork_child() -> _Child:
    job_r, job_w = os.pipe()
    result_r, result_w = os.pipe()
    stderr_fd, stderr_path = tempfile.mkstemp(prefix="checker-job-", suffix=".log")
    os.unlink(stderr_path)
    temp_dir = tempfile.mkdtemp(prefix=f"{_TEMP_PREFIX}{os.getpid()}-")
    pid = os.fork()
    if pid == 0:  # child
        code = 0
        try:
            # only its own descriptors: never those of the job that runs beside it
            close_all_but((0, 1, 2, job_r, result_w, stderr_fd))
            os.environ["TMPDIR"] = temp_dir
            tempfile.tempdir = temp_dir
            _child(job_r, result_w, stderr_fd)
        except BaseException:
            code = 70
        finally:
            os._exit(code)
    os.close(job_r)
    os.close(result_w)
    return _Child(pid, job_w, result_r, stderr_fd, temp_dir)


_TEMP_PREFIX = "checker-tmp-"


def _remove_stale_folders() -> None:
    """Remove the job folders of fork servers that were killed (``SIGKILL``) before they
    could: their names carry the server's pid."""
    base = tempfile.gettempdir()
    with contextlib.suppress(OSError):
        for name in os.listdir(base):
            owner = name.removeprefix(_TEMP_PREFIX).split("-", 1)[0]
            if name.startswith(_TEMP_PREFIX) and owner.isdigit() and not _alive(int(owner)):
                shutil.rmtree(os.path.join(base, name), ignore_errors=True)


def not_dumpable() -> bool:
    """Forbid other processes of this uid to read or write this process's memory (through
    ``/proc/PID/mem``) or to attach to it (``PR_SET_DUMPABLE`` 0)."""
    import ctypes

    return int(ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)) == 0


def facts() -> dict[str, Any]:
    """What this process is, read from the kernel before any job ran: its uid, capabilities,
    seccomp mode, ``no_new_privs`` and open descriptors (the jail reports them)."""
    status = {}
    with open("/proc/self/status", encoding="ascii") as lines:
        for line in lines:
            name, _, value = line.partition(":")
            status[name] = value.strip()
    return {
        "uid": os.getuid(),
        "euid": os.geteuid(),
        "capabilities": int(status.get("CapEff", "0"), 16) | int(status.get("CapPrm", "0"), 16),
        "seccomp": int(status.get("Seccomp", "0")),
        "no_new_privs": int(status.get("NoNewPrivs", "0")),
        "fds": sorted(int(fd) for fd in os.listdir("/proc/self/fd") if fd.isdigit())[:-1],
        "pid": os.getpid(),
    }


def close_all_but(keep: tuple[int, ...]) -> None:
    """Close every file descriptor but those in ``keep``."""
    low = 0
    for fd in sorted(keep):
        if fd > low:
            os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 1 << 20)


#: The descriptor a job's handler reports on (set in the child, for :func:`progress`).
_RESULT_FD: list[int] = []


def progress(message: dict[str, Any]) -> None:
    """Send ``message`` to the parent while the job runs (the parent passes it to the job's
    progress callback). Only for a handler's own code: a job's children must not call it."""
    for fd in _RESULT_FD:
        write_frame(fd, {"progress": message})


def write_frame(fd: int, message: dict[str, Any]) -> None:
    """Write ``message`` to ``fd`` as one frame (:data:`FRAME_HEADER`, then its JSON)."""
    payload = json.dumps(message).encode()
    view = memoryview(FRAME_HEADER.pack(len(payload)) + payload)
    while view:
        view = view[os.write(fd, view) :]


def _child(job_fd: int, result_fd: int, stderr_fd: int) -> None:
    _RESULT_FD[:] = [result_fd]
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.setpgid(0, 0)
    with os.fdopen(job_fd, "rb") as source:
        raw = source.read()
    if not raw:
        return  # the server is shutting down
    job = json.loads(raw)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.dup2(stderr_fd, 2)
    limit = job.get("address_space")
    if limit:
        _limit_address_space(int(limit))
    data = job.get("data_limit")
    if data:
        _limit_data(int(data))
    try:
        message = {"result": _handler(job["handler"])(job["args"])}
    except BaseException as exc:  # report everything, even SystemExit from a probe
        message = {"error": describe(exc)}
    write_frame(result_fd, message)
    os.close(result_fd)


def _outcome(child: _Child, wakeup_fd: int, stdout: TextIO) -> dict[str, Any]:
    """Wait for the child's message or its death, whichever comes first; relay its progress
    messages to ``stdout`` as they come."""
    frames = _Frames(stdout)
    status: int | None = None
    with selectors.DefaultSelector() as sel:
        sel.register(child.result_fd, selectors.EVENT_READ)
        sel.register(wakeup_fd, selectors.EVENT_READ)
        eof = False
        while frames.final is None and not eof:
            for key, _ in sel.select():
                if key.fd == wakeup_fd:  # SIGCHLD
                    with contextlib.suppress(BlockingIOError):
                        os.read(wakeup_fd, 4096)
                    continue
                chunk = os.read(child.result_fd, 1 << 20)
                frames.feed(chunk)
                eof = not chunk
            status = _reap(child.pid, block=False) if status is None else status
            if status is not None:  # it exited: whatever it wrote is in the pipe already
                frames.feed(_drain(child.result_fd))
                break
    os.close(child.result_fd)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, signal.SIGKILL)  # anything the job left behind
    if status is None and frames.final is None:
        status = _reap(child.pid, block=True)
    elif status is None:
        _EXITING.append(child.pid)  # reaped later, off the critical path
    _reap_exited()
    report: dict[str, Any] = {"exit": None, "signal": None, "message": frames.final}
    if frames.final is None and status is not None:
        if os.WIFSIGNALED(status):
            report["signal"] = signal.Signals(os.WTERMSIG(status)).name
        report["exit"] = os.waitstatus_to_exitcode(status)
    report["stderr"] = _tail(child.stderr_fd)
    os.close(child.stderr_fd)
    shutil.rmtree(child.temp_dir, ignore_errors=True)
    return report


class _Frames:
    """Length-prefixed messages read from a child: progress is relayed, the first other
    message is the job's outcome (:attr:`final`); anything after it is ignored."""

    def __init__(self, stdout: TextIO) -> None:
        self.stdout, self.buffer = stdout, b""
        self.final: dict[str, Any] | None = None

    def feed(self, chunk: bytes) -> None:
        self.buffer += chunk
        while self.final is None and len(self.buffer) >= FRAME_HEADER.size:
            (size,) = FRAME_HEADER.unpack(self.buffer[: FRAME_HEADER.size])
            if len(self.buffer) < FRAME_HEADER.size + size:
                return
            raw = self.buffer[FRAME_HEADER.size : FRAME_HEADER.size + size]
            self.buffer = self.buffer[FRAME_HEADER.size + size :]
            try:
                message = json.loads(raw)
            except ValueError:
                message = {"error": "the job's report could not be read"}
            if isinstance(message, dict) and set(message) == {"progress"}:
                _send(self.stdout, message)
            else:
                self.final = message if isinstance(message, dict) else {"error": "bad report"}


#: Children that delivered their message and are still exiting.
_EXITING: list[int] = []


def _reap_exited() -> None:
    for pid in list(_EXITING):
        if _reap(pid, block=False) is not None or not _alive(pid):
            _EXITING.remove(pid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _drain(fd: int) -> bytes:
    os.set_blocking(fd, False)
    data = b""
    with contextlib.suppress(BlockingIOError):
        while chunk := os.read(fd, 1 << 20):
            data += chunk
    return data


def _reap(pid: int, *, block: bool) -> int | None:
    try:
        done, status = os.waitpid(pid, 0 if block else os.WNOHANG)
    except ChildProcessError:
        return None
    return status if done else None


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


def _limit_data(extra_bytes: int) -> None:
    """Allow ``extra_bytes`` of private writable memory (``RLIMIT_DATA``) beyond what the
    process holds now. Unlike ``RLIMIT_AS`` it leaves address space that is only reserved
    alone, which the CUDA driver needs in large amounts."""
    with open("/proc/self/status", encoding="ascii") as status:
        data_kib = next(int(line.split()[1]) for line in status if line.startswith("VmData:"))
    limit = data_kib * 1024 + extra_bytes
    resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))


def describe(exc: BaseException) -> str:
    """``Type: message (at file:line)`` for the innermost frame of ``exc``."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


def _tail(fd: int, limit: int = 1 << 16) -> str:
    """The last lines a child wrote to its stderr file (at most ``limit`` bytes are read)."""
    try:
        size = os.fstat(fd).st_size
        raw = os.pread(fd, min(size, limit), max(0, size - limit))
    except OSError:
        return ""
    text = raw.decode("utf-8", errors="replace")
    lines = [ln for ln in text.splitlines() if not ln.startswith("USDT:")]
    return "\n".join(lines[-STDERR_TAIL:])


def _send(stdout: TextIO, message: dict[str, Any]) -> None:
    stdout.write(json.dumps(message) + "\n")
    stdout.flush()


if __name__ == "__main__":
    # run as ``checker.zygote``, not ``__main__``: handlers import it (``progress``)
    importlib.import_module("checker.zygote").serve(sys.stdin, sys.stdout)
