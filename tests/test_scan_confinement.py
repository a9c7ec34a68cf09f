"""What a scanned snippet must not reach (``tests/samples/hostile/confinement/``): the
environment of whoever started the scan, the host's secrets, the working folder, root-owned
files, Unix sockets, memory through shared mappings, disk through many files; and nothing it
or a probe creates is left in the temporary folder.

One sandbox (one fork server) runs every sample, started with a secret in the environment
from a working folder that holds a private file; each sample runs in a session of its own.
"""

from __future__ import annotations

import multiprocessing.util
import os
import shutil
import socket
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from checker.scan.sandbox import Sandbox, SandboxProgram, SnippetLimits, SnippetOutcome
from tests.helpers import sample

CONFINEMENT = sample("hostile", "confinement")
SECRET_NAME = "CHECKER_TEST_SECRET"
SECRET = "s3cr3t-value-of-the-parent"
MEMORY_BYTES = 256 * 1024**2
DISK_BYTES = 32 * 1024**2


@dataclass(frozen=True)
class Confined:
    sandbox: Sandbox
    folder: Path
    private: Path
    owned: Path
    socket_path: Path
    server: socket.socket

    def run(self, name: str, **fields: str) -> SnippetOutcome:
        source = (CONFINEMENT / name).read_text(encoding="utf-8")
        for key, value in fields.items():
            source = source.replace("{" + key + "}", value)
        (outcome,) = self.sandbox.run_session([SandboxProgram(source)])
        return outcome


def _accepted(server: socket.socket) -> int:
    server.setblocking(False)
    count = 0
    while True:
        try:
            connection, _ = server.accept()
        except BlockingIOError:
            return count
        connection.close()
        count += 1


@pytest.fixture(scope="module")
def confined() -> Iterator[Confined]:
    # reachable by anyone (pytest's own temporary folders are not), as a host's files are
    folder = Path(tempfile.mkdtemp(prefix="checker-confinement-"))
    folder.chmod(0o755)
    working = folder / "working"
    working.mkdir()
    private = working / "private.txt"
    private.write_text("a file of the project\n", encoding="utf-8")
    private.chmod(0o644)
    owned = folder / "owned.txt"
    owned.write_text("owned by whoever runs the tests\n", encoding="utf-8")
    owned.chmod(0o644)
    socket_path = folder / "service.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(socket_path))
    socket_path.chmod(0o777)  # anyone may connect, as to a careless service's socket
    server.listen(8)
    previous = os.getcwd()
    os.environ[SECRET_NAME] = SECRET
    os.chdir(working)
    sandbox = Sandbox(
        SnippetLimits(timeout_s=10.0, memory_bytes=MEMORY_BYTES, disk_bytes=DISK_BYTES)
    )
    try:
        yield Confined(sandbox, folder, private, owned, socket_path, server)
    finally:
        os.chdir(previous)
        del os.environ[SECRET_NAME]
        sandbox.close()
        server.close()
        shutil.rmtree(folder)


def _as_root() -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root: the snippet must be refused what root could do")


def _error(outcome: SnippetOutcome) -> tuple[str, str, int]:
    assert outcome.error is not None, outcome
    return outcome.error.type, outcome.error.cause, outcome.error.line


def environment_block(args: dict[str, str]) -> str:
    """A job handler (run unconfined, as a probe runs): the environment block it started with."""
    with open("/proc/self/environ", "rb") as block:
        return block.read().decode("utf-8", errors="replace")


def multiprocessing_temp_dir(args: dict[str, str]) -> str:
    """A job handler that makes ``multiprocessing`` create its ``pymp-*`` folder."""
    return str(multiprocessing.util.get_temp_dir())


def test_a_probe_does_not_see_the_parents_environment(confined: Confined) -> None:
    block = confined.sandbox.call(f"{__name__}:environment_block", {})
    assert SECRET not in block
    assert "PATH=" in block


def test_a_snippet_does_not_see_the_parents_environment(confined: Confined) -> None:
    outcome = confined.run("environ.py", secret=SECRET)
    assert outcome.error is None, outcome
    assert outcome.outputs == ("", "0\n", "", "0\n")


def test_host_secrets_are_not_readable(confined: Confined) -> None:
    outcome = confined.run("shadow.py")
    assert _error(outcome) == ("PermissionError", "denied", 1)
    assert outcome.outputs == ("",)


def test_the_working_folder_is_not_readable(confined: Confined) -> None:
    outcome = confined.run("working_folder.py", file=confined.private.name)
    assert _error(outcome) == ("PermissionError", "denied", 3)
    assert outcome.outputs == ("", "", "")


def test_the_snippet_runs_as_nobody(confined: Confined) -> None:
    _as_root()
    outcome = confined.run("environ.py", secret=SECRET)
    assert outcome.measures["privileges"] == "nobody"


def test_chmod_on_a_root_owned_file_fails(confined: Confined) -> None:
    _as_root()
    before = confined.owned.stat()
    outcome = confined.run("chmod.py", owned=str(confined.owned))
    assert _error(outcome) == ("PermissionError", "denied", 2)
    assert outcome.error is not None
    assert outcome.error.message.startswith("[Errno 1] Operation not permitted")
    assert stat.S_IMODE(confined.owned.stat().st_mode) == stat.S_IMODE(before.st_mode) == 0o644


def test_utime_on_a_root_owned_file_fails(confined: Confined) -> None:
    _as_root()
    before = confined.owned.stat().st_mtime_ns
    outcome = confined.run("utime.py", owned=str(confined.owned))
    assert _error(outcome) == ("PermissionError", "denied", 2)
    assert confined.owned.stat().st_mtime_ns == before


def test_a_unix_socket_outside_is_not_reachable(confined: Confined) -> None:
    _as_root()
    outcome = confined.run("unix_socket.py", socket=str(confined.socket_path))
    assert _error(outcome) == ("ConnectionRefusedError", "network", 3)
    assert _accepted(confined.server) == 0


def test_a_shared_mapping_counts_against_the_memory_limit(confined: Confined) -> None:
    outcome = confined.run("shared_mapping.py", size=str(4 * MEMORY_BYTES))
    assert _error(outcome) == ("OSError", "memory", 2)
    assert outcome.measures["memory"] == "RLIMIT_AS (address space)"


def test_total_disk_is_bounded(confined: Confined) -> None:
    _as_root()
    outcome = confined.run("disk.py", count=str(2 * DISK_BYTES // (4 * 1024**2)))
    error_type, cause, line = _error(outcome)
    assert (error_type, cause) == ("OSError", "disk")
    assert line in (3, 4)  # the write, or the close that flushes it
    assert outcome.error is not None
    assert "No space left on device" in outcome.error.message
    assert outcome.measures["disk-bytes"] == DISK_BYTES


def test_a_snippets_temporary_folder_is_removed(confined: Confined) -> None:
    outcome = confined.run("temporary_folder.py")
    assert outcome.error is None, outcome
    made = Path(outcome.outputs[1].strip())
    assert made.name.startswith("pymp-")
    assert not made.exists()


def test_a_probes_temporary_folder_is_removed(confined: Confined) -> None:
    made = Path(confined.sandbox.call(f"{__name__}:multiprocessing_temp_dir", {}))
    assert made.name.startswith("pymp-")
    assert not made.exists()


def test_every_missing_measure_is_reported_with_its_reason() -> None:
    from checker.scan.sandbox_child import missing_measures

    complete = {
        "pid-namespace": True,
        "network-namespace": True,
        "disk-bytes": DISK_BYTES,
        "landlock-abi": 7,
        "privileges": "nobody",
    }
    assert missing_measures(complete) == []
    bare = {"landlock-abi": 0, "privileges": "unchanged"}
    reasons = missing_measures(bare)
    assert [r.split(" (")[0] for r in reasons[:4]] == [
        "no PID namespace",
        "no network namespace",
        "no mount namespace",
        "no Landlock",
    ]
    assert len(reasons) == (5 if os.getuid() == 0 else 4)
    assert missing_measures({**complete, "landlock-abi": 5}) == [
        "Landlock ABI 5 < 6: abstract Unix sockets outside are reachable"
    ]


def test_a_session_reports_what_is_missing(confined: Confined) -> None:
    outcome = confined.run("environ.py", secret=SECRET)
    from checker.scan.sandbox_child import missing_measures

    assert outcome.measures["missing"] == (
        "; ".join(missing_measures(dict(outcome.measures))) or "none"
    )


def test_dev_shm_is_private_and_multiprocessing_works(confined: Confined) -> None:
    if not Path("/dev/shm").is_dir():
        pytest.skip("this machine has no /dev/shm")
    _as_root()
    marker = Path("/dev/shm") / f"checker-test-{os.getpid()}"
    marker.write_text("the host's\n", encoding="utf-8")
    try:
        outcome = confined.run("shared_memory.py")
    finally:
        marker.unlink()
    assert outcome.error is None, outcome
    assert outcome.outputs == ("", "", "", "[]\n")
    assert outcome.measures["shared-memory"] == "private /dev/shm"


def test_a_temporary_folder_inside_a_closed_folder_works_and_shows_nothing_else(
    confined: Confined,
) -> None:
    _as_root()
    closed = Path(tempfile.mkdtemp(prefix="checker-closed-"))  # 0700: nobody may not pass
    (closed / "beside.txt").write_text("not for the snippet\n", encoding="utf-8")
    shared, tempfile.tempdir = tempfile.tempdir, str(closed)
    try:
        outcome = confined.run("closed_temporary_folder.py")
    finally:
        tempfile.tempdir = shared
        shutil.rmtree(closed)
    assert _error(outcome) == ("PermissionError", "denied", 4)
    assert outcome.outputs == ("", "", "True\n", "")
    assert str(closed) in outcome.measures["closed-folders-covered"].split(", ")
