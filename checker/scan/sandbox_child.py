"""The sandbox's job handler: runs one snippet, confined, in a process forked from the zygote.

The zygote (:mod:`checker.zygote`) preloads this module, so ``import torch`` is paid once per
zygote; it was started with a scrubbed environment (:data:`checker.pool.ENVIRONMENT_KEPT`).
For each article the zygote forks a child that calls :func:`run_session`, which

1. enters a new PID namespace where it may (the snippet's processes die with it), and a
   mount namespace of its own: one size-limited tmpfs on the throw-away folder is the only
   writable place (the working folder, the output, ``/dev/shm``), the host's Unix sockets
   bound to paths and ``/run`` are covered, and closed folders around the Python
   installation (``/root`` for pyenv) are covered by a tmpfs that binds back only the
   installation; then a network namespace (no network);
2. forks the process that runs the snippet, which: moves into the throw-away directory,
   scrubs its environment, sets resource limits (CPU time, file size, open files, processes),
   applies Landlock (read only the Python installation, torch, system folders and a few
   files of ``/etc``; write only the throw-away directory; no TCP; no abstract Unix socket or
   signal outside), becomes ``nobody``, and runs the article's snippets in order in one
   namespace, statement by statement, its output going to a file of capped size, and reports
   after each snippet; after a statement raises, the snippet's statements that do not depend
   on it run silently, within a share of the time limit (:mod:`checker.scan.taint`);
3. waits for it with a wall-clock deadline per snippet, kills it on expiry, and returns what
   each snippet printed (per statement), how it ended, which measures were active and which
   were missing, with the reason (:func:`missing_measures`).
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import errno
import glob
import io
import json
import linecache
import os
import re
import resource
import select
import signal
import site
import socket
import struct
import sys
import sysconfig
import tempfile
import time
import traceback
from typing import Any

import torch  # paid once per zygote, never per snippet

from checker.scan import confine
from checker.scan.taint import SALVAGE_SHARE, Taint, salvage

_LENGTH = struct.Struct("!Q")
FILENAME = "<snippet>"
_DENIED = {errno.EACCES, errno.EPERM, errno.EROFS}
_NETWORK = {
    errno.ENETUNREACH,
    errno.EAFNOSUPPORT,
    errno.ENETDOWN,
    errno.EHOSTUNREACH,
    errno.ECONNREFUSED,  # a Unix socket the sandbox covered
}


def run_session(args: dict[str, Any]) -> dict[str, Any]:
    """Run an article's snippets in order, in one namespace, as a notebook does.

    ``args``: ``programs`` (each ``source``, ``mode``: exec; single: echo every expression;
    last: echo the last statement's value, as a notebook does; ``watch``: statement index ->
    ``"expr"`` or a name whose value to report; ``customary``: ``[name, import line]`` pairs
    imported when the snippet uses the name and nothing defined it), ``root`` (throw-away
    folder holding ``work/``), ``timeout_s`` (per program), ``output_bytes``, ``file_bytes``,
    ``processes``, ``open_files``, ``gpu`` (the snippets may use CUDA).

    Returns ``programs`` (one report per program that ran: ``outputs`` per top-level
    statement, ``error``, ``values``, ``supplied``), ``stopped`` (the program that the deadline
    or a signal ended, if any: ``index``, ``timed_out``, ``signal``) and ``measures``."""
    measures: dict[str, Any] = {}
    # The CUDA driver fails to start in a new PID namespace; a GPU snippet relies on the
    # process limit instead (enforced: the snippet runs as nobody, or without capabilities).
    gpu = bool(args.get("gpu"))
    measures["pid-namespace"] = not gpu and confine.unshare(confine.CLONE_NEWPID)
    root = str(args["root"])
    work = os.path.join(root, "work")
    out_path = os.path.join(root, "stdout")
    shm = _private_filesystem(root, work, int(args.get("disk_bytes") or 0), measures)
    measures["network-namespace"] = confine.unshare(confine.CLONE_NEWNET)
    measures["shared-memory"] = shm and "private /dev/shm"
    args = {**args, "shared_memory": shm}
    if os.geteuid() == 0:  # it becomes nobody, or keeps uid 0 without the right to override
        os.chown(work, confine.NOBODY, confine.NOBODY)
        os.chmod(work, 0o777)  # the folder around it can be passed through, not listed
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        code = 0
        try:
            _child(args, work, out_path, write_fd)
        except BaseException:
            code = 70
        finally:
            os._exit(code)
    os.close(write_fd)
    progress = str(args["progress"])  # outside the session's tmpfs: the parent reads it
    frames, stopped = _wait(pid, read_fd, float(args["timeout_s"]), progress)
    data = _read_capped(out_path, int(args["output_bytes"]))
    programs = []
    for frame in frames:
        if "measures" in frame:
            measures |= frame["measures"]
        elif "index" in frame:
            offsets = frame.pop("offsets", [])
            frame["outputs"] = [_text(data[a:b]) for a, b in offsets]
            programs.append(frame)
    measures["missing"] = "; ".join(missing_measures(measures)) or "none"
    return {"measures": measures, "programs": programs, "stopped": stopped}


def _private_filesystem(root: str, work: str, disk: int, measures: dict[str, Any]) -> bool:
    """In a mount namespace of the session's own: one tmpfs of ``disk`` bytes on ``root``
    as the only writable place (the working folder, its temporary files, the output and
    ``/dev/shm``, which multiprocessing's semaphores need), the host's Unix sockets and
    ``/run`` covered, closed folders around the Python installation covered. Whether
    ``/dev/shm`` is private."""
    if not confine.private_mounts():
        measures["disk-bytes"] = False
        measures["unix-sockets"] = "reachable (no mount namespace)"
        return False
    measures["disk-bytes"] = bool(disk) and confine.tmpfs(root, disk, 0o711) and disk
    os.makedirs(work, exist_ok=True)
    shared = os.path.join(root, "shm")
    os.makedirs(shared, exist_ok=True)
    os.chmod(shared, 0o1777)
    shm = os.path.isdir("/dev/shm") and confine.bind(shared, "/dev/shm")
    hidden = confine.hide_unix_sockets(root)
    measures["unix-sockets"] = f"{hidden} path sockets and /run hidden"
    # the throw-away folder too: TMPDIR may lie in a closed folder
    covered = confine.make_reachable(readable_paths(), writable=(root,))
    measures["closed-folders-covered"] = ", ".join(covered) or "none"
    return shm


def missing_measures(measures: dict[str, Any]) -> list[str]:
    """What the sandbox could not do here, each with its reason and what it leaves open."""
    missing = []
    if not measures.get("pid-namespace"):
        missing.append(
            "no PID namespace (a GPU session, or no CAP_SYS_ADMIN): the snippet sees the "
            "host's processes"
        )
    if not measures.get("network-namespace"):
        missing.append("no network namespace (no CAP_SYS_ADMIN): only Landlock 4+ refuses TCP")
    if not measures.get("disk-bytes"):
        missing.append(
            "no mount namespace (not root, or no CAP_SYS_ADMIN): disk is bounded per file "
            "only, Unix sockets bound to paths stay reachable, /dev/shm is the host's"
        )
    abi = int(measures.get("landlock-abi") or 0)
    if abi == 0:
        missing.append(
            "no Landlock (the kernel lacks it): files are guarded by the uid's permissions only"
        )
    elif abi < 4:
        missing.append(f"Landlock ABI {abi} < 4: TCP is refused by the network namespace only")
    elif abi < 6:
        missing.append(f"Landlock ABI {abi} < 6: abstract Unix sockets outside are reachable")
    if os.getuid() == 0 and measures.get("privileges") != "nobody":
        missing.append(
            f"the snippet is not nobody ({measures.get('privileges')}): it may change the "
            "metadata of files its uid owns"
        )
    return missing


def _wait(
    pid: int, fd: int, timeout: float, progress: str
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The frames the child sent, and how it was stopped (``None`` if it finished). Each
    program has ``timeout`` seconds from the previous frame. The count of programs that
    reported is written to ``progress`` as they report (the parent may show it)."""
    frames: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    buffer = b""

    def current() -> int:
        return sum("index" in f for f in frames)

    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return frames, {"index": current(), "timed_out": True, "signal": None}
        ready, _, _ = select.select([fd], [], [], min(remaining, 0.5))
        if not ready:
            continue
        chunk = os.read(fd, 1 << 16)
        buffer += chunk
        while len(buffer) >= _LENGTH.size:
            (size,) = _LENGTH.unpack(buffer[: _LENGTH.size])
            if len(buffer) < _LENGTH.size + size:
                break
            frame = json.loads(buffer[_LENGTH.size : _LENGTH.size + size])
            buffer = buffer[_LENGTH.size + size :]
            if frame.get("done"):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)  # the namespace's other processes die too
                os.waitpid(pid, 0)
                return frames, None
            frames.append(frame)
            deadline = time.monotonic() + timeout
            if "index" in frame:
                with contextlib.suppress(OSError), open(progress, "w") as handle:
                    handle.write(str(current()))
        if not chunk:
            _, status = os.waitpid(pid, 0)
            name = signal.Signals(os.WTERMSIG(status)).name if os.WIFSIGNALED(status) else None
            return frames, {"index": current(), "timed_out": False, "signal": name}


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
    out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(out, 1)
    os.close(out)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.chdir(work)
    _scrub_environment(work)
    measures = _confine(args, work)
    sys.stdout = io.TextIOWrapper(
        os.fdopen(1, "wb", buffering=0, closefd=False), encoding="utf-8", errors="replace"
    )
    sys.dont_write_bytecode = True
    _send(result_fd, {"measures": measures})
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
        _send(result_fd, {"index": index, **result})
        if rest:
            salvage(rest, namespace, (taint, index), budget, FILENAME)
            if os.getpid() != me:
                os._exit(0)
            _send(result_fd, {"salvaged": index})  # the next program's deadline starts here
    _send(result_fd, {"done": True})


def _send(fd: int, message: dict[str, Any]) -> None:
    payload = json.dumps(message).encode()
    view = memoryview(_LENGTH.pack(len(payload)) + payload)
    while view:
        view = view[os.write(fd, view) :]


def _scrub_environment(work: str) -> None:
    os.environ.clear()
    os.environ.update({"PATH": "/usr/bin:/bin", "HOME": work, "TMPDIR": work, "LANG": "C.UTF-8"})
    tempfile.tempdir = None  # the zygote's choice is cached: make tempfile read TMPDIR again


def _confine(args: dict[str, Any], work: str) -> dict[str, Any]:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writing past the limit fails with EFBIG
    programs = max(1, len(args.get("programs", ())))
    cpu = int(float(args["timeout_s"]) * programs * (1 + SALVAGE_SHARE)) + 1
    measures: dict[str, Any] = {
        "cpu-seconds": confine.limit(resource.RLIMIT_CPU, cpu) and cpu,
        "file-bytes": confine.limit(resource.RLIMIT_FSIZE, int(args["file_bytes"]))
        and int(args["file_bytes"]),
        "open-files": confine.limit(resource.RLIMIT_NOFILE, int(args["open_files"]))
        and int(args["open_files"]),
        "core-dumps": confine.limit(resource.RLIMIT_CORE, 0),
    }
    readable = readable_paths()
    # A snippet may use the GPU: CUDA opens its device nodes read-write and drives them with
    # ioctls. They give access to the GPU only, nothing on disk.
    writable, files = [work], [os.devnull]
    if args.get("shared_memory"):
        writable.append("/dev/shm")
    if args.get("gpu"):  # the driver also writes to its own process's /proc entries
        writable.append(os.path.realpath("/proc/self"))
        files += [p for p in sorted(glob.glob("/dev/nvidia*")) if not os.path.isdir(p)]
    system_files = [p for p in SYSTEM_FILES if os.path.isfile(p)]
    measures["landlock-abi"] = confine.landlock([*readable, *system_files], writable, files)
    measures["privileges"] = confine.drop_privileges(readable) or "unchanged"
    processes = int(args["processes"])
    total = processes + confine.processes_of_user()
    # a real uid 0 (or CAP_SYS_RESOURCE/CAP_SYS_ADMIN) is exempt from RLIMIT_NPROC
    capable = os.geteuid() == 0 and measures["privileges"] != "no-capabilities"
    enforced = os.getuid() != 0 and not capable
    measures["processes"] = enforced and confine.limit(resource.RLIMIT_NPROC, total) and processes
    measures["dies-with-parent"] = confine.die_with_parent()
    return measures


#: Folders a snippet may read besides the Python installation: programs and libraries, and
#: the kernel's views of processes, devices and the hardware (no files of the host's users).
SYSTEM_DIRS = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/proc", "/sys", "/dev")
#: Single files of ``/etc`` a snippet may read: the dynamic linker's cache, users and groups
#: by name (not their passwords), time zone, locale and name-service settings.
SYSTEM_FILES = tuple(
    f"/etc/{name}"
    for name in (
        "ld.so.cache",
        "ld.so.conf",
        "localtime",
        "passwd",
        "group",
        "nsswitch.conf",
        "host.conf",
        "hosts",
        "locale.alias",
        "mime.types",
    )
)


def readable_paths() -> list[str]:
    """What a snippet may read: the Python installation (the interpreter's prefixes, its
    standard library and site-packages, torch's folder) and :data:`SYSTEM_DIRS`. Never the
    working folder of the scan, though it is ``sys.path[0]``, nor another ``sys.path`` entry
    outside the installation (``PYTHONPATH``)."""
    paths = sysconfig.get_paths()
    installation = {
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        sys.base_exec_prefix,
        *(paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib") if key in paths),
        *site.getsitepackages(),
        os.path.dirname(os.path.dirname(torch.__file__)),
    }
    return sorted(p for p in {*installation, *SYSTEM_DIRS} if p and os.path.isdir(p))


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
    if isinstance(exc, socket.gaierror):
        return "network"
    if isinstance(exc, OSError):
        if exc.errno == errno.EFBIG:
            return "output"
        if exc.errno == errno.EAGAIN and isinstance(exc, BlockingIOError):
            return "processes"
        if exc.errno in _NETWORK:
            return "network"
        if exc.errno in _DENIED:
            return "network" if exc.filename is None and _from_socket(exc) else "denied"
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
