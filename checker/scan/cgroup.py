"""A control group per jail: the memory (files in its tmpfs, memfd, kernel memory for inodes
included) and the number of tasks of everything the jail runs, counted by the kernel.

Two layouts are handled: cgroup v1 with the ``memory`` and ``pids`` hierarchies mounted
(``/sys/fs/cgroup/memory``, ``/sys/fs/cgroup/pids``), and cgroup v2 where this process may
create a child group with both controllers (root, or a delegated subtree). Where neither can
be done, :meth:`ControlGroup.create` says why and the jail falls back to resource limits,
reported as a missing measure.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
#: The parent group of every jail's group, beneath each hierarchy.
PARENT = "checker-jails"


@dataclass(frozen=True)
class ControlGroup:
    """The folders of one jail's group, one per hierarchy (one in all for v2)."""

    folders: tuple[Path, ...]
    version: int

    @classmethod
    def create(cls, memory_bytes: int, tasks: int) -> ControlGroup | str:
        """A new group bounding memory and tasks; the reason as a string where none can be
        made here."""
        name = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"
        reasons = []
        for make in (_v1, _v2):
            try:
                return make(name, memory_bytes, tasks)
            except OSError as exc:
                reasons.append(f"{exc.strerror or exc} ({exc.filename or ''})".strip())
            except LookupError as exc:
                reasons.append(str(exc))
        return "no control group could be made: " + "; ".join(reasons)

    def join(self, pid: int = 0) -> None:
        """Move ``pid`` (this process when 0) into the group: its later children follow."""
        for folder in self.folders:
            (folder / "cgroup.procs").write_text(str(pid or os.getpid()))

    def remove(self) -> None:
        """Kill what is left in the group and remove it."""
        for folder in self.folders:
            _empty(folder)
            with contextlib.suppress(OSError):
                folder.rmdir()

    def peak_memory(self) -> int | None:
        for folder in self.folders:
            for name in ("memory.max_usage_in_bytes", "memory.peak"):
                with contextlib.suppress(OSError, ValueError):
                    return int((folder / name).read_text())
        return None


def _v1(name: str, memory_bytes: int, tasks: int) -> ControlGroup:
    memory, pids = ROOT / "memory", ROOT / "pids"
    if not (memory / "cgroup.procs").exists() or not (pids / "cgroup.procs").exists():
        raise LookupError("no cgroup v1 memory and pids hierarchies")
    folders = []
    try:
        for hierarchy in (memory, pids):
            parent = hierarchy / PARENT
            parent.mkdir(exist_ok=True)
            _remove_stale(parent)
            folder = parent / name
            folder.mkdir()
            folders.append(folder)
        (folders[0] / "memory.limit_in_bytes").write_text(str(memory_bytes))
        swap = folders[0] / "memory.memsw.limit_in_bytes"
        if swap.exists():
            swap.write_text(str(memory_bytes))
        (folders[1] / "pids.max").write_text(str(tasks))
    except OSError:
        for folder in folders:
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    return ControlGroup(tuple(folders), 1)


def _v2(name: str, memory_bytes: int, tasks: int) -> ControlGroup:
    candidates = (ROOT, ROOT / "unified")
    mounted = next((p for p in candidates if (p / "cgroup.controllers").exists()), None)
    if mounted is None:
        raise LookupError("no cgroup v2 mounted")
    own = _own_v2_group()
    base = mounted / own.lstrip("/")
    if not {"memory", "pids"} <= set((base / "cgroup.subtree_control").read_text().split()):
        raise LookupError(f"cgroup v2 group {own} does not delegate memory and pids")
    folder = base / f"{PARENT}-{name}"
    folder.mkdir()
    try:
        (folder / "memory.max").write_text(str(memory_bytes))
        with contextlib.suppress(OSError):
            (folder / "memory.swap.max").write_text("0")
        (folder / "pids.max").write_text(str(tasks))
    except OSError:
        folder.rmdir()
        raise
    return ControlGroup((folder,), 2)


def _own_v2_group() -> str:
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        if line.startswith("0::"):
            return line[3:]
    raise LookupError("this process is in no cgroup v2 group")


def _empty(folder: Path) -> None:
    for _ in range(50):
        try:
            pids = [int(p) for p in (folder / "cgroup.procs").read_text().split()]
        except OSError:
            return
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.02)


def _remove_stale(parent: Path) -> None:
    """Remove the groups of jails whose checker process is gone (killed with ``SIGKILL``)."""
    for folder in parent.iterdir():
        owner = folder.name.split("-", 1)[0]
        if folder.is_dir() and owner.isdigit() and not Path(f"/proc/{owner}").exists():
            _empty(folder)
            with contextlib.suppress(OSError):
                folder.rmdir()
