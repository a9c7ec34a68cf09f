"""The jail an article's code runs in: one bubblewrap sandbox per scan job, made fresh.

:class:`Jail` builds the command that starts the sandbox's fork server
(:mod:`checker.zygote`, which imports torch inside the jail) through the launcher
(:mod:`checker.scan.jail_launch`). What the jail is:

- bubblewrap (Debian's ``bubblewrap``, what Flatpak uses), with new user, PID, IPC, network,
  UTS, mount and cgroup namespaces, a procfs of its own (only the jail's processes), a
  minimal ``/dev``, no capabilities, no further user namespaces, its own session (no
  terminal), killed with the process that started it;
- a filesystem made of read-only binds (the Python installation, torch, the ``checker``
  package, system libraries and a few files of ``/etc``) and size-limited tmpfs mounts
  (``/tmp``, ``/dev/shm``): the only writable places, gone with the jail;
- the uid ``nobody`` inside and outside: started as root, the launcher makes the
  installation reachable in a mount namespace of its own and becomes ``nobody`` before it
  runs bubblewrap (as another user, bubblewrap runs as that user, who owns nothing inside);
- a seccomp allowlist (:mod:`checker.scan.seccomp`) loaded before the fork server starts;
- a control group (:mod:`checker.scan.cgroup`) bounding the memory and the tasks of
  everything in the jail, where one can be made; otherwise resource limits, reported;
- only file descriptors 0, 1 and 2 (the fork server's protocol and its error log).

Where bubblewrap is missing or cannot make the jail, no code runs: :func:`unavailable` says
why, and the findings say it. There is no weaker mode.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checker.scan import seccomp
from checker.scan.cgroup import ControlGroup
from checker.text.said import Said, said

NOBODY = 65534
#: Where the ``checker`` package is bound inside the jail (``PYTHONPATH``).
PACKAGE_MOUNT = "/opt/checker"
#: The jail's writable places, each a tmpfs of its own.
TMP, SHM = "/tmp", "/dev/shm"
#: Folders of the host bound read-only: programs and libraries (a symlink, as in a merged
#: ``/usr``, is made a symlink).
SYSTEM_DIRS = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin")
#: What a CPU jail sees of ``/sys``: the processors and memory nodes (PyTorch and OpenMP read
#: them); a jail that may use the GPU sees all of it, as the CUDA driver needs.
SYS_DIRS = ("/sys/devices/system/cpu", "/sys/devices/system/node")
#: Single files of ``/etc``: the dynamic linker's cache, users and groups by name (not
#: their passwords), time zone, locale and name-service settings.
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
#: Memory of the jail beyond what its snippets may map: the fork server with torch loaded,
#: the session's monitor, the filesystem's tmpfs.
OVERHEAD_BYTES = 2 * 1024**3
#: Tasks (processes and threads) of the jail beyond a snippet's own: the fork server, the
#: monitor, and two threads per processor (OpenMP and the allocator start them).
OVERHEAD_TASKS = 16


class JailUnavailable(Exception):
    """No jail can be made here; the message says why (shown in every finding of code)."""


@dataclass(frozen=True)
class JailLimits:
    memory_bytes: int
    disk_bytes: int
    tasks: int
    #: Files and folders the jail may create (the tmpfs's ``nr_inodes``; root only).
    inodes: int = 16384
    gpu: bool = False


@dataclass
class Jail:
    """One sandbox's command and resources; :meth:`close` removes what it made."""

    limits: JailLimits
    argv: list[str] = field(default_factory=list)
    pass_fds: tuple[int, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    measures: dict[str, Any] = field(default_factory=dict)
    _group: ControlGroup | None = None
    #: The host folder the launcher covers with the jail's tmpfs (root only).
    _staging: str | None = None

    @classmethod
    def make(cls, limits: JailLimits, command: Sequence[str]) -> Jail:
        """The jail running ``command`` (a Python module run by this interpreter)."""
        reason = unavailable()
        if reason:
            raise JailUnavailable(reason)
        jail = cls(limits)
        tasks = limits.tasks + OVERHEAD_TASKS + 2 * (os.cpu_count() or 1)
        memory = limits.memory_bytes + limits.disk_bytes + OVERHEAD_BYTES
        group = ControlGroup.create(memory, tasks) if os.geteuid() == 0 else None
        if isinstance(group, ControlGroup):
            jail._group = group
            jail.measures["cgroup"] = f"v{group.version}: memory {memory}, tasks {tasks}"
        else:
            jail.measures["cgroup"] = False
            jail.measures["cgroup-reason"] = group or "not root: no control group is made"
        filter_r, filter_w = os.pipe()
        os.write(filter_w, seccomp.program())
        os.close(filter_w)
        jail.pass_fds = (filter_r,)
        bound = readable_paths()
        if os.geteuid() == 0:  # a tmpfs with an inode limit, mounted by the launcher
            jail._staging = _staging_point()
            jail.measures["inodes"] = limits.inodes
        else:
            jail.measures["inodes"] = False
        launch = {
            "bwrap": bwrap_argv(limits, bound, filter_r, command, jail._staging),
            "reachable": [*bound, package_root()],
            "cgroup": [str(f) for f in group.folders] if isinstance(group, ControlGroup) else [],
            "tmpfs": None
            if jail._staging is None
            else {"path": jail._staging, "size": limits.disk_bytes, "inodes": limits.inodes},
        }
        jail.argv = [sys.executable, "-m", "checker.scan.jail_launch", json.dumps(launch)]
        jail.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
        jail.measures |= {
            "jail": f"bubblewrap {bwrap_version()}",
            "namespaces": "user, pid, ipc, net, uts, mount, cgroup"
            if not limits.gpu
            else "user, ipc, net, uts, mount, cgroup (a GPU jail shares the PID namespace)",
            "seccomp": f"allowlist of {len(seccomp.ALLOWED) + 3} calls",
            "disk-bytes": limits.disk_bytes,
        }
        return jail

    def started(self) -> None:
        """The launcher has the filter's descriptor: close this process's copy."""
        for fd in self.pass_fds:
            os.close(fd)
        self.pass_fds = ()

    def close(self) -> None:
        self.started()
        if self._group is not None:
            self._group.remove()
            self._group = None
        self._staging = None


#: Host folders the launcher may cover, in its own mount namespace only, with the jail's
#: tmpfs: the host never sees that tmpfs, and nothing is left behind on its disk.
STAGING_POINTS = ("/dev/shm", "/mnt", "/media", "/srv")


def _staging_point() -> str:
    for path in STAGING_POINTS:
        if os.path.isdir(path) and not os.path.islink(path):
            return path
    raise JailUnavailable(f"none of {', '.join(STAGING_POINTS)} exists to mount the jail's tmpfs")


def facts_measures(facts: Mapping[str, Any], measures: dict[str, Any]) -> dict[str, Any]:
    """The measures of a jail whose fork server reported ``facts`` (read inside the jail
    before any article's code ran), with what is missing and why."""
    found = dict(measures)
    uid = facts.get("uid")
    found["user"] = "nobody" if uid == NOBODY and facts.get("capabilities") == 0 else str(uid)
    found["seccomp-active"] = facts.get("seccomp") == 2
    found["inherited-fds"] = ", ".join(str(fd) for fd in facts.get("fds", []))
    missing = []
    if not found.get("cgroup"):
        missing.append(
            f"{found.get('cgroup-reason')}: memory is bounded per snippet by its resource "
            "limit (RLIMIT_AS; RLIMIT_DATA where it may use the GPU), processes by RLIMIT_NPROC"
        )
    if found["user"] != "nobody":
        missing.append(f"the jail runs as uid {uid}")
    if not found["seccomp-active"]:
        missing.append("no seccomp filter is active")
    if not found.get("inodes"):
        missing.append("no inode limit (not root): files are bounded by size only")
    found["missing"] = "; ".join(missing) or "none"
    return found


def unavailable() -> str:
    """Why no jail can be made here; empty when one can."""
    reason = unavailable_said()
    return reason.english if reason is not None else ""


@functools.cache
def unavailable_said() -> Said | None:
    """Why no jail can be made here, as a template a findings page translates; ``None``
    when one can."""
    if sys.platform != "linux":
        return said("the sandbox needs Linux (this is {platform})", platform=sys.platform)
    if shutil.which("bwrap") is None:
        return said("bubblewrap (bwrap) is not installed: install the bubblewrap package")
    try:
        seccomp.program()
    except seccomp.UnsupportedArchitecture:
        return said("no system call filter for the {arch} architecture", arch=seccomp.machine())
    trial = ["bwrap", "--unshare-user", "--unshare-pid", "--unshare-net", "--ro-bind", "/", "/"]
    probe = subprocess.run(
        [*trial, "--", "/bin/true"],
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=_as_nobody if os.geteuid() == 0 else None,
        timeout=30,
    )
    if probe.returncode != 0:
        return said(
            "bubblewrap cannot make a sandbox here: {error}", error=probe.stderr.strip()[:300]
        )
    return None


def _as_nobody() -> None:
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


@functools.cache
def bwrap_version() -> str:
    done = subprocess.run(["bwrap", "--version"], capture_output=True, text=True, check=False)
    return done.stdout.split()[-1] if done.stdout.split() else "?"


def bwrap_argv(
    limits: JailLimits,
    bound: Sequence[str],
    filter_fd: int,
    command: Sequence[str],
    staging: str | None = None,
) -> list[str]:
    argv = [
        "bwrap",
        "--unshare-user", "--uid", str(NOBODY), "--gid", str(NOBODY), "--disable-userns",
        "--unshare-ipc", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
        "--hostname", "jail", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
        "--clearenv",
    ]  # fmt: skip
    if not limits.gpu:
        argv += ["--unshare-pid"]
    argv += _system_binds(limits.gpu)
    # the writable places first: an installation inside /tmp (a checkout there) is bound
    # into the jail's /tmp afterwards, not hidden by it
    if staging is not None:  # one tmpfs, size and inodes bounded, for both
        argv += ["--bind", staging, TMP, "--bind", staging + "/shm", SHM]
    else:
        argv += ["--perms", "1777", "--size", str(limits.disk_bytes), "--tmpfs", TMP]
        argv += ["--perms", "1777", "--size", str(limits.disk_bytes), "--tmpfs", SHM]
    for path in bound:  # from where it really is, to where this interpreter names it
        argv += ["--ro-bind", os.path.realpath(path), path]
    argv += ["--ro-bind", package_root() + "/checker", PACKAGE_MOUNT + "/checker"]
    for name, value in _environment(limits).items():
        argv += ["--setenv", name, value]
    argv += ["--chdir", TMP, "--seccomp", str(filter_fd), "--", *command]
    return argv


def _system_binds(gpu: bool) -> list[str]:
    """Programs and libraries, ``/proc``, ``/dev``, what ``/sys`` says of the processors (all
    of it, and the NVIDIA devices, for a jail that may use the GPU), a few files of ``/etc``."""
    argv = []
    for path in SYSTEM_DIRS:
        if os.path.islink(path):
            argv += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            argv += ["--ro-bind", path, path]
    argv += ["--proc", "/proc", "--dev", "/dev"]
    for path in ("/sys",) if gpu else SYS_DIRS:
        if os.path.isdir(path):
            argv += ["--ro-bind", path, path]
    if gpu:
        for name in sorted(os.listdir("/dev")):
            if name.startswith("nvidia") and not os.path.isdir(f"/dev/{name}"):
                argv += ["--dev-bind", f"/dev/{name}", f"/dev/{name}"]
    for path in SYSTEM_FILES:
        if os.path.isfile(path):
            argv += ["--ro-bind", path, path]
    return argv


def _environment(limits: JailLimits) -> dict[str, str]:
    from checker.pool import kept_environment

    env = kept_environment() | {
        "PATH": "/usr/bin:/bin",
        "HOME": TMP,
        "TMPDIR": TMP,
        "PYTHONPATH": PACKAGE_MOUNT,
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    if not limits.gpu:
        env["CUDA_VISIBLE_DEVICES"] = ""
    return env


def package_root() -> str:
    """The folder holding the ``checker`` package (a checkout, or site-packages)."""
    return str(Path(__file__).resolve().parents[2])


def readable_paths() -> list[str]:
    """The Python installation a jail binds: the interpreter's prefixes, its standard
    library and site-packages, and torch's folder (found without importing it). Never the
    working folder of the scan, nor a ``PYTHONPATH`` entry outside the installation."""
    paths = sysconfig.get_paths()
    torch_spec = importlib.util.find_spec("torch")
    torch_dirs = list(torch_spec.submodule_search_locations or []) if torch_spec else []
    installation = {
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        sys.base_exec_prefix,
        *(paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib") if key in paths),
        *site.getsitepackages(),
        *(os.path.dirname(d) for d in torch_dirs),
    }
    real = {os.path.realpath(p) for p in installation if p and os.path.isdir(p)}
    kept = sorted(p for p in {*installation, *real} if p and os.path.isdir(p))
    # a folder inside another is bound with it
    return [p for p in kept if not any(p != o and p.startswith(o + os.sep) for o in kept)]
