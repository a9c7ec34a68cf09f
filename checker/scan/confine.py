"""Confining a process on Linux: namespaces, Landlock, resource limits, a dropped user.

Every function applies one measure to the calling process and says whether it could; the
sandbox (:mod:`checker.scan.sandbox_child`) reports which measures were active. Nothing here is
fatal: a kernel or a user without a feature gets the other measures.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal

CLONE_NEWNS = 0x00020000
CLONE_NEWNET = 0x40000000
CLONE_NEWPID = 0x20000000
PR_SET_NO_NEW_PRIVS = 38
PR_SET_PDEATHSIG = 1
_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446
_RULE_PATH_BENEATH = 1
_CREATE_RULESET_VERSION = 1

# Landlock filesystem rights (linux/landlock.h)
FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
FS_TRUNCATE, FS_IOCTL_DEV = 1 << 14, 1 << 15
_FILE_RIGHTS = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV
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


def tmpfs(path: str, size_bytes: int, mode: int = 0o755) -> bool:
    """Mount a fresh tmpfs of at most ``size_bytes`` on ``path`` (in a private mount
    namespace: see :func:`private_mounts`). Everything written beneath ``path`` then counts
    against that size, whatever the number of files."""
    options = f"size={size_bytes},mode={mode:o}".encode()
    flags = _MS_NOSUID | _MS_NODEV
    return int(_libc.mount(b"tmpfs", path.encode(), b"tmpfs", flags, options)) == 0


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


def hide_unix_sockets(keep_under: str) -> int:
    """Cover every Unix socket bound to a path (those the kernel lists in ``/proc/net/unix``
    for this network namespace), except beneath ``keep_under``, with ``/dev/null``, and
    ``/run`` (where services put theirs) with an empty tmpfs: a connect by path then finds
    no listener. Call it in a private mount namespace, before leaving the host's network
    namespace. Returns how many sockets were covered."""
    covered = 0
    for path in _unix_socket_paths():
        if path.startswith(keep_under.rstrip(os.sep) + os.sep):
            continue
        if bind(os.devnull, path):
            covered += 1
    if os.path.isdir("/run") and not os.path.islink("/run"):
        tmpfs("/run", 1024 * 1024, 0o755)
    return covered


def _unix_socket_paths() -> list[str]:
    try:
        with open("/proc/net/unix", encoding="utf-8", errors="replace") as table:
            lines = table.read().splitlines()[1:]
    except OSError:
        return []
    paths = set()
    for line in lines:
        fields = line.split(None, 7)
        if len(fields) == 8 and fields[7].startswith(os.sep):  # '@' marks an abstract one
            paths.add(fields[7])
    return sorted(p for p in paths if os.path.exists(p))


def landlock_abi() -> int:
    """The Landlock ABI version the kernel offers (0 when it offers none)."""
    version = int(_libc.syscall(_SYS_CREATE_RULESET, None, 0, _CREATE_RULESET_VERSION))
    return max(version, 0)


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = (("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32))


def _handled_fs(abi: int) -> int:
    rights = (1 << 13) - 1
    if abi >= 2:
        rights |= 1 << 13  # REFER
    if abi >= 3:
        rights |= FS_TRUNCATE
    if abi >= 5:
        rights |= FS_IOCTL_DEV
    return rights


def landlock(readable: list[str], writable: list[str], files: list[str]) -> int:
    """Allow reading (and executing) beneath ``readable``, everything beneath ``writable``,
    reading and writing the single ``files``; deny all other file access, and on ABI 4+ all
    TCP binds and connects, on ABI 6+ signals and abstract sockets outside the sandbox.
    Returns the ABI enforced, 0 when Landlock is not available."""
    abi = landlock_abi()
    if abi < 1:
        return 0
    handled = _handled_fs(abi)
    fields = [handled]
    if abi >= 4:
        fields.append(0b11)  # handled_access_net: BIND_TCP | CONNECT_TCP, none allowed
    if abi >= 6:
        fields.append(0b11)  # scoped: ABSTRACT_UNIX_SOCKET | SIGNAL
    attr = (ctypes.c_uint64 * len(fields))(*fields)
    ruleset = int(_libc.syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.sizeof(attr), 0))
    if ruleset < 0:
        return 0
    try:
        read_rights = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR
        for paths, rights in ((readable, read_rights), (writable, handled)):
            for path in paths:
                _add_rule(ruleset, path, rights)
        for path in files:
            _add_rule(ruleset, path, _FILE_RIGHTS & handled)
        if _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return 0
        if _libc.syscall(_SYS_RESTRICT_SELF, ruleset, 0) != 0:
            return 0
    finally:
        os.close(ruleset)
    return abi


def _add_rule(ruleset: int, path: str, rights: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if not os.path.isdir(path):
            rights &= _FILE_RIGHTS
        rule = _PathBeneath(rights, fd)
        _libc.syscall(_SYS_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), 0)
    finally:
        os.close(fd)


def limit(resource_id: int, value: int) -> bool:
    try:
        resource.setrlimit(resource_id, (value, value))
    except (ValueError, OSError):
        return False
    return True


def drop_privileges(needed: list[str]) -> str:
    """Give up root: become ``nobody`` when it can read every path in ``needed`` (the Python
    installation), else keep the effective uid 0 (to read it) but make ``nobody`` the real
    uid and drop every capability. Either way the limit on processes then applies: the
    kernel exempts a process whose *real* uid is 0, or that holds ``CAP_SYS_RESOURCE`` or
    ``CAP_SYS_ADMIN``. Returns what was done: ``nobody``, ``no-capabilities`` or ``""`` (not
    root, or the capabilities could not be dropped)."""
    if os.geteuid() != 0:
        return ""
    os.setgroups([])
    if all(_world_readable(path) for path in needed):
        os.setgid(NOBODY)
        os.setuid(NOBODY)
        return "nobody"
    os.setresgid(NOBODY, os.getegid(), os.getegid())
    os.setresuid(NOBODY, 0, 0)  # capabilities are kept while the effective uid is 0
    header = (ctypes.c_uint32 * 2)(_CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()
    if _libc.capset(ctypes.byref(header), ctypes.byref(data)) != 0:
        return ""
    return "no-capabilities"


_CAPABILITY_VERSION_3 = 0x20080522


def _world_readable(path: str) -> bool:
    """Whether ``nobody`` can reach and list ``path`` (every ancestor searchable by others)."""
    current = os.path.abspath(path)
    while True:
        try:
            mode = os.stat(current).st_mode
        except OSError:
            return False
        if not mode & 0o001:
            return False
        parent = os.path.dirname(current)
        if parent == current:
            return True
        current = parent


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


def die_with_parent() -> bool:
    return int(_libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)) == 0
