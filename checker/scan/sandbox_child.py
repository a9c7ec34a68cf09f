"""The sandbox's job handler: runs an article's snippets in a process of the jail.

The jail (:mod:`checker.scan.jail`: bubblewrap, seccomp, a control group, the uid ``nobody``)
was made for the scan, and its fork server (:mod:`checker.zygote`) imported torch once. For
each session (an article's snippets, in order) the fork server forks a child that calls
:func:`run_session`, the session's *monitor*, which

1. makes the session's folder in the jail's tmpfs (its working folder and the file that
   takes the snippets' output), and makes itself undumpable (the snippet's process, of the
   same uid, cannot read or write its memory);
2. forks the *executor*, which keeps only descriptors 0, 1, 2 and its own report pipe, moves
   into the working folder, scrubs its environment, sets resource limits (CPU time, file
   size, open files, processes, address space), reports them, and only then runs the
   article's snippets in order in one namespace, statement by statement, reporting after
   each snippet; after a statement raises, the snippet's statements that do not depend on
   it run silently, within a share of the time limit (:mod:`checker.scan.taint`);
3. waits for it with a wall-clock deadline per snippet, kills it on expiry, checks every
   report (a snippet can write into the executor's pipe: a report out of order or out of
   shape ends the session as *interfered*), cuts each statement's output from the output
   file itself, and at the end kills every process the session left in the jail and
   removes its folder.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import errno
import io
import json
import linecache
import os
import re
import resource
import select
import shutil
import signal
import socket
import sys
import tempfile
import time
import traceback
from typing import Any

import torch  # noqa: F401  paid once per fork server, never per snippet

from checker import zygote
from checker.scan import confine
from checker.scan.taint import SALVAGE_SHARE, Taint, salvage

FILENAME = "<snippet>"
_DENIED = {errno.EACCES, errno.EPERM, errno.EROFS}
_NETWORK = {
    errno.ENETUNREACH,
    errno.EAFNOSUPPORT,
    errno.ENETDOWN,
    errno.EHOSTUNREACH,
    errno.ECONNREFUSED,
}
#: Largest report an executor may send about one program.
REPORT_BYTES = 4 * 1024 * 1024


def run_session(args: dict[str, Any]) -> dict[str, Any]:
    """Run an article's snippets in order, in one namespace, as a notebook does.

    ``args``: ``programs`` (each ``source``, ``mode``: exec; single: echo every expression;
    last: echo the last statement's value, as a notebook does; ``watch``: statement index ->
    ``"expr"`` or a name whose value to report; ``customary``: ``[name, import line]`` pairs
    imported when the snippet uses the name and nothing defined it), ``timeout_s`` (per
    program), ``output_bytes``, ``file_bytes``, ``processes``, ``open_files``,
    ``address_space`` or ``data_limit`` (bytes a snippet may add), ``gpu``.

    Returns ``programs`` (one report per program that ran: ``outputs`` per top-level
    statement, ``error``, ``values``, ``supplied``), ``stopped`` (the program that the deadline
    or a signal ended, if any: ``index``, ``timed_out``, ``signal``; ``interfered`` when a
    report was forged) and ``measures`` (the limits the executor set before any snippet ran)."""
    zygote.not_dumpable()
    folder = tempfile.mkdtemp(prefix="session-", dir=confine.jail_tmp())
    work = os.path.join(folder, "work")
    os.mkdir(work)
    out_path = os.path.join(folder, "stdout")
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            zygote.close_all_but((0, 2, write_fd))
            _child(args, work, out_path, write_fd)
        except BaseException:
            code = 70
        finally:
            os._exit(code)
    os.close(write_fd)
    try:
        session = _Session([str(p["source"]) for p in args["programs"]])
        stopped = _wait(pid, read_fd, float(args["timeout_s"]), session)
        data = _read_capped(out_path, int(args["output_bytes"]))
        programs = [session.cut(frame, data) for frame in session.frames]
    finally:
        os.close(read_fd)
        confine.end_other_processes()
        shutil.rmtree(folder, ignore_errors=True)
    return {"measures": session.measures, "programs": programs, "stopped": stopped}


class _Session:
    """The reports of one executor, checked as they come: the first states the limits set
    before any snippet ran; then one per program, in order, with the offsets of each
    statement's output in increasing order, each followed by at most one ``salvaged``."""

    def __init__(self, sources: list[str]) -> None:
        self.sources = sources
        self.frames: list[dict[str, Any]] = []
        self.measures: dict[str, Any] = {}
        self.expected = "measures"
        self.end = 0

    def accept(self, frame: Any) -> str:  # noqa: PLR0911  one return per finding
        """``ok``, ``done`` or what was wrong with ``frame``."""
        if not isinstance(frame, dict):
            return "a report that is not an object"
        if self.expected == "measures":
            if set(frame) != {"measures"} or not isinstance(frame["measures"], dict):
                return "the first report does not state the limits"
            self.measures = {str(k): v for k, v in frame["measures"].items()}
            self.expected = "program"
            return "ok"
        if frame == {"done": True}:
            return "done" if len(self.frames) == len(self.sources) else "done too early"
        if frame == {"salvaged": len(self.frames) - 1} and self.expected == "salvaged":
            self.expected = "program"
            return "ok"
        if frame.get("index") != len(self.frames) or len(self.frames) >= len(self.sources):
            return f"a report for program {frame.get('index')!r} out of order"
        problem = self._shape(frame)
        if problem:
            return problem
        self.frames.append(frame)
        self.expected = "salvaged"
        return "ok"

    def _shape(self, frame: dict[str, Any]) -> str:
        offsets = frame.get("offsets")
        if not isinstance(offsets, list) or not all(
            isinstance(o, list) and len(o) == 2 and all(isinstance(v, int) for v in o)
            for o in offsets
        ):
            return "a report whose output offsets are not pairs of integers"
        for start, end in offsets:
            if not self.end <= start <= end:
                return "a report whose output offsets go back"
            self.end = end
        for key in ("supplied",):
            if not all(isinstance(v, str) for v in frame.get(key) or []):
                return f"a report whose {key} is not text"
        if not all(isinstance(v, str) for v in (frame.get("values") or {}).values()):
            return "a report whose values are not text"
        return ""

    def cut(self, frame: dict[str, Any], data: bytes) -> dict[str, Any]:
        """The program's report with each statement's output cut from the output file."""
        found = dict(frame)
        found["outputs"] = [_text(data[a:b]) for a, b in found.pop("offsets", [])]
        return found


def _wait(pid: int, fd: int, timeout: float, session: _Session) -> dict[str, Any] | None:
    """How the executor was stopped (``None`` if it finished). Each program has ``timeout``
    seconds from the previous report. The count of programs that reported is sent to the
    parent as they report (:func:`checker.zygote.progress`)."""
    deadline = time.monotonic() + timeout
    buffer = b""

    def stop(**how: Any) -> dict[str, Any]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        name = signal.Signals(os.WTERMSIG(status)).name if os.WIFSIGNALED(status) else None
        return {"index": len(session.frames), "timed_out": False, "signal": name, **how}

    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return {**stop(), "timed_out": True, "signal": None}
        ready, _, _ = select.select([fd], [], [], min(remaining, 0.5))
        if not ready:
            continue
        chunk = os.read(fd, 1 << 16)
        buffer += chunk
        while len(buffer) >= zygote.FRAME_HEADER.size:
            (size,) = zygote.FRAME_HEADER.unpack(buffer[: zygote.FRAME_HEADER.size])
            if size > REPORT_BYTES:
                return stop(interfered="a report larger than any the sandbox writes")
            if len(buffer) < zygote.FRAME_HEADER.size + size:
                break
            raw = buffer[zygote.FRAME_HEADER.size : zygote.FRAME_HEADER.size + size]
            buffer = buffer[zygote.FRAME_HEADER.size + size :]
            try:
                frame = json.loads(raw)
            except ValueError:
                return stop(interfered="a report that is not JSON")
            verdict = session.accept(frame)
            if verdict == "done":
                stop()
                return None
            if verdict != "ok":
                return stop(interfered=verdict)
            deadline = time.monotonic() + timeout
            if "index" in frame:
                zygote.progress({"ran": len(session.frames)})
        if not chunk:
            return stop()


def _read_capped(path: str, cap: int) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(cap)
    except OSError:
        return b""


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


# -- the process that runs the snippet --------------------------------------------------------


def _child(args: dict[str, Any], work: str, out_path: str, result_fd: int) -> None:
    me = os.getpid()
    for fd, path, flags in (
        (1, out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
        (0, os.devnull, os.O_RDONLY),
    ):
        opened = os.open(path, flags, 0o600)
        if opened != fd:
            os.dup2(opened, fd)
            os.close(opened)
    os.chdir(work)
    _scrub_environment(work)
    measures = _confine(args)
    sys.stdout = io.TextIOWrapper(
        os.fdopen(1, "wb", buffering=0, closefd=False), encoding="utf-8", errors="replace"
    )
    sys.dont_write_bytecode = True
    zygote.write_frame(result_fd, {"measures": measures})
    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}
    taint = Taint()
    budget = float(args["timeout_s"]) * SALVAGE_SHARE
    for index, program in enumerate(args["programs"]):
        started = time.perf_counter()
        result, rest = _execute(program, namespace, taint, index)
        result["seconds"] = time.perf_counter() - started
        if os.getpid() != me:  # a process the snippet forked got here: it must not report
            os._exit(0)
        with contextlib.suppress(Exception):
            sys.stdout.flush()
        zygote.write_frame(result_fd, {"index": index, **result})
        if rest:
            salvage(rest, namespace, (taint, index), budget, FILENAME)
            if os.getpid() != me:
                os._exit(0)
            # the next program's deadline starts here
            zygote.write_frame(result_fd, {"salvaged": index})
    zygote.write_frame(result_fd, {"done": True})


def _scrub_environment(work: str) -> None:
    os.environ.clear()
    os.environ.update({"PATH": "/usr/bin:/bin", "HOME": work, "TMPDIR": work, "LANG": "C.UTF-8"})
    tempfile.tempdir = None  # the fork server's choice is cached: make tempfile read TMPDIR


def _confine(args: dict[str, Any]) -> dict[str, Any]:
    """Set the executor's resource limits; what was set (reported before any snippet runs)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writing past the limit fails with EFBIG
    programs = max(1, len(args.get("programs", ())))
    cpu = int(float(args["timeout_s"]) * programs * (1 + SALVAGE_SHARE)) + 1
    processes = int(args["processes"])
    measures: dict[str, Any] = {
        "cpu-seconds": confine.limit(resource.RLIMIT_CPU, cpu) and cpu,
        "file-bytes": confine.limit(resource.RLIMIT_FSIZE, int(args["file_bytes"]))
        and int(args["file_bytes"]),
        "open-files": confine.limit(resource.RLIMIT_NOFILE, int(args["open_files"]))
        and int(args["open_files"]),
        "core-dumps": confine.limit(resource.RLIMIT_CORE, 0),
        "processes": confine.limit(resource.RLIMIT_NPROC, processes + confine.processes_of_user())
        and processes,
    }
    return measures


def _execute(
    program: dict[str, Any], namespace: dict[str, Any], taint: Taint, index_of_program: int
) -> tuple[dict[str, Any], list[ast.stmt]]:
    """Run one program's statements; its report, and the statements after the one that
    raised (to salvage: :func:`checker.scan.taint.salvage`)."""
    supplied = _supply(program.get("customary", []), namespace)
    offsets: list[list[int]] = []
    values: dict[str, str] = {}
    watch = {int(k): v for k, v in program.get("watch", {}).items()}
    raises = {int(i) for i in program.get("raises", [])}
    source = str(program["source"])
    mode = program["mode"]
    linecache.cache[FILENAME] = (len(source), None, source.splitlines(True), FILENAME)
    tainted: dict[str, dict[str, int]] = {}
    report: dict[str, Any] = {
        "supplied": supplied,
        "values": values,
        "error": None,
        "tainted": tainted,
    }
    try:
        tree = ast.parse(source, FILENAME)
    except SyntaxError as exc:
        report.update(offsets=offsets, error=_error(exc, exc.lineno))
        return report, []
    resume = program.get("resume")
    body, index = list(tree.body), 0
    while index < len(body):
        node = body[index]
        start = _position()
        unbound = taint.judged(node)
        if unbound:
            tainted[str(index)] = unbound
        salvaged = {"salvaged": taint.from_salvage(node)}
        try:
            last = mode == "last" and node is body[-1]  # a notebook cell's value
            echo = mode == "single" or (last and isinstance(node, ast.Expr))
            value = _statement(node, echo, watch.get(index), namespace)
            if value is not None:
                values[str(index)] = value
        except BaseException as exc:
            if index in raises and isinstance(exc, Exception):
                # the article shows this exception: it is the statement's output, as in doctest
                print(f"Traceback (most recent call last):\n  ...\n{type(exc).__name__}: {exc}")
                offsets.append([start, _position()])
                index += 1
                continue
            if _resumes(resume, index, exc):
                # a known, trivial fault: the repaired program goes on from this statement
                report["repaired_error"] = _error(exc, _line_of(exc, node.lineno))
                body, resume = _repaired(str(resume["source"])), None  # type: ignore[index]
                continue
            # the snippet's failure is the result
            offsets.append([start, _position()])
            error = _error(exc, _line_of(exc, node.lineno))
            error.update(tainted=taint.judged_at(node, error["line"]), **salvaged)
            report.update(offsets=offsets, error=error)
            return report, _after_failure(
                body[index:], exc, error, namespace, (taint, index_of_program)
            )
        taint.ran(node, namespace)
        offsets.append([start, _position()])
        index += 1
    report["offsets"] = offsets
    return report, []


def _statement(
    node: ast.stmt, echo: bool, watched: str | None, namespace: dict[str, Any]
) -> str | None:
    """Run one top-level statement (``echo``: print its value, as a console does); the repr
    of the value ``watched`` names (``"expr"``: the expression's; else a name's), if any."""
    if watched == "expr" and isinstance(node, ast.Expr):
        value = eval(compile(ast.Expression(node.value), FILENAME, "eval"), namespace)
        if echo and value is not None:
            print(repr(value))
        return _repr(value)
    if echo:
        code = compile(ast.Interactive([node]), FILENAME, "single")
    else:
        code = compile(ast.Module([node], []), FILENAME, "exec")
    exec(code, namespace)
    if watched and watched != "expr" and watched in namespace:
        return _repr(namespace[watched])
    return None


def _supply(customary: list[list[str]], namespace: dict[str, Any]) -> list[str]:
    """Import the customary names the program uses that nothing defined; the lines run."""
    supplied = []
    for name, line in customary:
        if name not in namespace and not hasattr(builtins, name):
            with contextlib.suppress(BaseException):
                exec(compile(line, "<customary>", "exec"), namespace)
                supplied.append(line)
    return supplied


def _after_failure(
    body: list[ast.stmt],
    exc: BaseException,
    error: dict[str, Any],
    namespace: dict[str, Any],
    taint_of: tuple[Taint, int],
) -> list[ast.stmt]:
    """``body[0]`` raised: what it left undone is tainted; the statements after it to
    salvage (none when a limit or the sandbox stopped it: those are tainted too)."""
    taint, origin = taint_of
    taint.undone(body[0], namespace, origin)
    if not error["cause"] and isinstance(exc, Exception):
        return body[1:]
    for later in body[1:]:
        taint.undone(later, namespace, origin)
    return []


def _repaired(source: str) -> list[ast.stmt]:
    """The statements of the repaired program, whose lines tracebacks now show."""
    linecache.cache[FILENAME] = (len(source), None, source.splitlines(True), FILENAME)
    return list(ast.parse(source, FILENAME).body)


def _resumes(resume: dict[str, Any] | None, index: int, exc: BaseException) -> bool:
    """Whether the repaired program goes on from statement ``index``: it raised the error
    the repair is for (``resume``: ``statement``, ``source``, ``error`` pattern)."""
    if resume is None or int(resume["statement"]) != index or not isinstance(exc, Exception):
        return False
    return re.search(str(resume["error"]), f"{type(exc).__name__}: {exc}") is not None


def _repr(value: Any) -> str:
    try:
        return repr(value)[:4000]
    except Exception as exc:  # a broken __repr__ is the snippet's business
        return f"<repr failed: {type(exc).__name__}>"


def _position() -> int:
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    try:
        return os.lseek(1, 0, os.SEEK_CUR)
    except OSError:
        return 0


def _line_of(exc: BaseException, default: int) -> int:
    if isinstance(exc, SyntaxError) and exc.filename == FILENAME and exc.lineno:
        return exc.lineno
    lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename == FILENAME]
    return (lines[-1] or default) if lines else default


def _error(exc: BaseException, line: int | None) -> dict[str, Any]:
    return {
        "type": type(exc).__name__,
        "message": str(exc if not isinstance(exc, SyntaxError) else exc.msg)[:2000],
        "line": line or 1,
        "cause": _cause(exc),
    }


def _cause(exc: BaseException) -> str:  # noqa: PLR0911  one cause per return
    """Why the snippet stopped, when the sandbox rather than the code is to blame."""
    text = str(exc)
    if isinstance(exc, MemoryError) or "can't allocate memory" in text or "out of memory" in text:
        return "memory"
    if isinstance(exc, OSError) and exc.errno == errno.ENOMEM:
        return "memory"
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "disk"
    if isinstance(exc, FileNotFoundError):
        return "file"  # the article's own data, or a path (or socket) of its author's machine
    if isinstance(exc, socket.gaierror):
        return "network"
    if isinstance(exc, OSError):
        if exc.errno == errno.EFBIG:
            return "output"
        if exc.errno == errno.EAGAIN and isinstance(exc, BlockingIOError):
            return "processes"
        if exc.errno in _NETWORK:
            return "network"
        if exc.errno in _DENIED and exc.filename is None:
            return "network" if _from_socket(exc) else "refused"
        if exc.errno in _DENIED:
            return "denied"
    return ""


def _from_socket(exc: BaseException) -> bool:
    """Whether ``exc`` was raised by a socket operation (Landlock refuses a TCP connect with
    ``EACCES``, as it refuses a file)."""
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename.endswith("socket.py") or re.search(
            r"\b(?:socket|connect|bind|sendto|urlopen)\b", frame.line or ""
        ):
            return True
    return False
