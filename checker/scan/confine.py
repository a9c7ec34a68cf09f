"""Confining a process on Linux, the parts done by our own code: the launcher's mount
namespace (:mod:`checker.scan.jail_launch`), and a session's limits and clean-up inside the
jail (:mod:`checker.scan.sandbox_child`). The jail itself is bubblewrap's
(:mod:`checker.scan.jail`).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
import time

CLONE_NEWNS = 0x00020000
NOBODY = 65534

_libc = ctypes.CDLL(None, use_errno=True)


def unshare(flags: int) -> bool:
    return int(_libc.unshare(flags)) == 0


_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_REMOUNT, _MS_BIND = 0x1, 0x2, 0x4, 0x20, 0x1000
_MS_REC, _MS_PRIVATE = 0x4000, 0x40000


def private_mounts() -> bool:
    """Enter a new mount namespace whose mounts do not propagate back to the host. Needs
    ``CAP_SYS_ADMIN`` (root); ``False`` where it cannot be done."""
    if not unshare(CLONE_NEWNS):
        return False
    return int(_libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None)) == 0


def tmpfs(path: str, size_bytes: int = 0, mode: int = 0o755, options: str = "") -> bool:
    """Mount a fresh tmpfs of at most ``size_bytes`` on ``path`` (in a private mount
    namespace: see :func:`private_mounts`), or with the mount ``options`` given."""
    data = (options or f"size={size_bytes},mode={mode:o}").encode()
    flags = _MS_NOSUID | _MS_NODEV
    return int(_libc.mount(b"tmpfs", path.encode(), b"tmpfs", flags, data)) == 0


def bind(source: str, target: str, *, read_only: bool = False) -> bool:
    """Make ``target`` show ``source`` (a folder or a single file)."""
    flags = _MS_BIND | _MS_REC
    if _libc.mount(source.encode(), target.encode(), None, flags, None) != 0:
        return False
    if read_only:
        flags = _MS_BIND | _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID | _MS_NODEV
        return int(_libc.mount(b"none", target.encode(), None, flags, None)) == 0
    return True


def make_reachable(paths: list[str], writable: tuple[str, ...] = ()) -> list[str]:
    """Make every folder of ``paths`` reachable by ``nobody`` without exposing what lies
    beside it: each closed ancestor (``/root`` is ``0700``, and a Python installed by pyenv
    lives beneath it) is covered, in this mount namespace, by an empty tmpfs in which only
    the needed folders are bound back (read-only, but for those in ``writable``). Returns
    the ancestors covered; call it in a private mount namespace (:func:`private_mounts`), as
    root."""
    kept_writable = {os.path.realpath(p) for p in writable}
    blocked: dict[str, list[str]] = {}
    for path in sorted({os.path.realpath(p) for p in [*paths, *writable] if os.path.isdir(p)}):
        closed = _closed_ancestor(path)
        if closed is not None:
            blocked.setdefault(closed, []).append(path)
    covered = []
    for ancestor, needed in sorted(blocked.items()):
        kept = [p for p in needed if not any(p.startswith(o + os.sep) for o in needed if o != p)]
        handles = {p: os.open(p, os.O_PATH | os.O_CLOEXEC) for p in kept}
        try:
            if not tmpfs(ancestor, 1024 * 1024, 0o755):
                continue
            for path, fd in handles.items():
                os.makedirs(path, mode=0o755, exist_ok=True)
                bind(f"/proc/self/fd/{fd}", path, read_only=path not in kept_writable)
            covered.append(ancestor)
        finally:
            for fd in handles.values():
                os.close(fd)
    return covered


def _closed_ancestor(path: str) -> str | None:
    """The highest folder on the way to ``path`` (itself included) that others cannot
    search, or ``None``."""
    parts = path.strip(os.sep).split(os.sep)
    for i in range(1, len(parts) + 1):
        current = os.sep + os.sep.join(parts[:i])
        try:
            if not os.stat(current).st_mode & 0o001:
                return current
        except OSError:
            return None
    return None


def limit(resource_id: int, value: int) -> bool:
    try:
        resource.setrlimit(resource_id, (value, value))
    except (ValueError, OSError):
        return False
    return True


def processes_of_user() -> int:
    """How many processes the real user runs now (the process limit counts them all)."""
    uid, count = os.getuid(), 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    count += 1
            except OSError:
                continue
    return count


def jail_tmp() -> str:
    """The jail's tmpfs (where a session's folder goes)."""
    return os.environ.get("TMPDIR") or "/tmp"


def end_other_processes() -> int:
    """Kill every process of this uid in this PID namespace but this one, its ancestors (the
    fork server, the jail's init) and the fork server's other children (its spare): what a
    session's snippet left running, wherever it moved. How many."""
    keep, pid = set(), os.getpid()
    while pid > 0:
        keep.add(pid)
        pid = parent_of(pid)
    server = os.getppid()
    uid, ended = os.getuid(), 0
    for _ in range(20):
        others = [
            int(e)
            for e in os.listdir("/proc")
            if e.isdigit()
            and int(e) not in keep
            and _owner(int(e)) == uid
            and parent_of(int(e)) != server
        ]
        if not others:
            break
        for other in others:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(other, signal.SIGKILL)
                ended += 1
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        time.sleep(0.01)
    return ended


def parent_of(pid: int) -> int:
    """The parent of process ``pid`` (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def _owner(pid: int) -> int | None:
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return None
