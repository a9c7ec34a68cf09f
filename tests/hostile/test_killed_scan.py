"""Attack 13: a scan killed with ``SIGKILL`` while a snippet runs
(``tests/hostile/killed/sleeping.md``). Expected: the jail's processes end with it (bubblewrap
dies with its parent), nothing is left in the temporary folder, and the next jail removes the
control groups the killed one left."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from checker.scan import cgroup
from checker.scan.confine import parent_of
from checker.scan.sandbox import Sandbox
from tests.helpers import ROOT

ARTICLE = Path(__file__).resolve().parent / "killed" / "sleeping.md"


def _left(pids: set[int]) -> set[str]:
    """What the processes ``pids`` left in the temporary folder (a fork server's job folders
    carry its pid; the jail leaves nothing on the host's disk)."""
    base = Path(tempfile.gettempdir())
    return {p.name for pid in pids for p in base.glob(f"checker-tmp-{pid}-*")}


def _descendants(root: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            pid = int(entry.name)
            while pid > 1 and pid != root:
                pid = parent_of(pid)
            if pid == root:
                found.add(int(entry.name))
    return found


def _jail_of(scan: int) -> set[int]:
    """The bubblewrap processes the scan ``scan`` started (its descendants)."""
    return {pid for pid in _descendants(scan) if _command(pid).startswith(b"bwrap")}


def _command(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _alive(pids: set[int]) -> set[int]:
    return {pid for pid in pids if Path(f"/proc/{pid}").exists()}


def test_a_killed_scan_leaves_nothing(tmp_path: Path) -> None:
    scan = subprocess.Popen(
        [sys.executable, "-m", "checker", "scan", "--timeout", "120", str(ARTICLE)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    jail: set[int] = set()
    while not jail and time.monotonic() < deadline:
        time.sleep(0.2)
        jail = _jail_of(scan.pid)
    assert jail, "the jail never started"
    time.sleep(3)  # the snippet is asleep by now
    family = _descendants(scan.pid) | {scan.pid}
    os.kill(scan.pid, signal.SIGKILL)
    scan.wait()
    deadline = time.monotonic() + 10
    while _alive(jail) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _alive(jail) == set()
    deadline = time.monotonic() + 10  # a fork server of probes reads the end of its input
    while _alive(family) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _left(family) == set()
    if os.geteuid() == 0:  # the killed scan's control groups go with the next jail
        stale = str(scan.pid)
        sandbox = Sandbox()
        try:
            assert sandbox.run("print(1)").outputs == ("1\n",)
        finally:
            sandbox.close()
        for hierarchy in ("memory", "pids"):
            parent = cgroup.ROOT / hierarchy / cgroup.PARENT
            assert [p.name for p in parent.glob(f"{stale}-*")] == []
