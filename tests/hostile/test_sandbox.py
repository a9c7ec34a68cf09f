"""Attacks on the scanner's sandbox (``tests/hostile/sandbox/``), each a snippet and the
refusal it must meet: the attacks of issue 28 (a job reading an earlier job's output, a
forged report, privileges of root, SysV IPC, the host's ``/proc``, memory outside the limits,
system calls no snippet needs, inodes) and the earlier ones (the parent's environment, the
host's secrets, the working folder, root-owned files, Unix sockets, shared mappings, disk, the
temporary folders).

One sandbox (one jail, one fork server) runs every sample, started with a secret in the
environment from a working folder that holds a private file; each sample runs in a session of
its own. The tests run wherever the scanner runs code: a machine without bubblewrap is a
failure here, not a skip (CI installs it).
"""

from __future__ import annotations

import ast
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

from checker import registry as registry_mod
from checker.pool import Pool, WorkerJob
from checker.scan import jail as jail_mod
from checker.scan.cgroup import ControlGroup
from checker.scan.findings import FindingVerdict
from checker.scan.run import ScanOptions, scan
from checker.scan.sandbox import Sandbox, SandboxProgram, SnippetLimits, SnippetOutcome
from tests.helpers import ROOT

ATTACKS = Path(__file__).resolve().parent / "sandbox"
SECRET_NAME = "CHECKER_TEST_SECRET"
SECRET = "s3cr3t-value-of-the-parent"
MEMORY_BYTES = 256 * 1024**2
DISK_BYTES = 32 * 1024**2
LIMITS = SnippetLimits(timeout_s=10.0, memory_bytes=MEMORY_BYTES, disk_bytes=DISK_BYTES)


@dataclass(frozen=True)
class Jailed:
    sandbox: Sandbox
    folder: Path
    private: Path
    owned: Path
    socket_path: Path
    server: socket.socket

    def run(self, name: str, sandbox: Sandbox | None = None, **fields: str) -> SnippetOutcome:
        (outcome,) = (sandbox or self.sandbox).run_session([SandboxProgram(attack(name, **fields))])
        return outcome


def attack(name: str, **fields: str) -> str:
    source = (ATTACKS / name).read_text(encoding="utf-8")
    for key, value in fields.items():
        source = source.replace("{" + key + "}", value)
    return source


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
def jailed() -> Iterator[Jailed]:
    assert not jail_mod.unavailable(), jail_mod.unavailable()
    folder = Path(tempfile.mkdtemp(prefix="checker-confinement-"))
    folder.chmod(0o755)  # reachable by anyone, as a host's files are
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
    sandbox = Sandbox(LIMITS)
    try:
        yield Jailed(sandbox, folder, private, owned, socket_path, server)
    finally:
        os.chdir(previous)
        del os.environ[SECRET_NAME]
        sandbox.close()
        server.close()
        shutil.rmtree(folder)


def _error(outcome: SnippetOutcome) -> tuple[str, str, int]:
    assert outcome.error is not None, outcome
    return outcome.error.type, outcome.error.cause, outcome.error.line


def environment_block(args: dict[str, str]) -> str:
    """A job handler (run as a probe runs): the environment block it started with."""
    with open("/proc/self/environ", "rb") as block:
        return block.read().decode("utf-8", errors="replace")


def multiprocessing_temp_dir(args: dict[str, str]) -> str:
    """A job handler that makes ``multiprocessing`` create its ``pymp-*`` folder."""
    return str(multiprocessing.util.get_temp_dir())


# -- issue 28 ---------------------------------------------------------------------------------


def test_1_a_job_cannot_read_an_earlier_jobs_output(jailed: Jailed) -> None:
    earlier = Sandbox(LIMITS)
    try:
        printed = earlier.run_session(
            [
                SandboxProgram(
                    f"import sys\nprint({SECRET!r})\nsys.stderr.write({SECRET!r})\n"
                    f"open('/tmp/kept.txt', 'w').write({SECRET!r})\n"
                )
            ]
        )
    finally:
        earlier.close()
    assert printed[0].outputs == ("", f"{SECRET}\n", "", "")
    outcome = jailed.run("previous_job.py", secret_reversed=SECRET[::-1])
    assert outcome.error is None, outcome
    assert outcome.outputs[-1] == "[]\n"


def test_2_a_forged_report_is_refused_and_changes_no_measure(jailed: Jailed) -> None:
    outcome = jailed.run("forge_report.py")
    assert outcome.refused is not None
    assert outcome.refused.startswith(
        "not judged: the snippet wrote into the sandbox's report channel ("
    )
    assert outcome.measures["user"] == "nobody"
    assert outcome.measures["missing"] == _missing_here()


def test_2_a_forged_report_is_not_a_supported_finding(tmp_path: Path) -> None:
    article = tmp_path / "forged.md"
    article.write_text(
        "# Doubling\n\n```python\n"
        + attack("forge_report.py")
        + "```\n\nOutput:\n\n```text\n[2.0, 2.0]\n```\n",
        encoding="utf-8",
    )
    result = scan([article], registry_mod.load(), ScanOptions(limits=LIMITS, project_root=ROOT))
    (finding,) = [f for f in result.findings if f.kind == "snippet"]
    assert finding.verdict is FindingVerdict.UNVERIFIED
    assert finding.evidence.startswith("not judged: the snippet wrote into")
    assert result.sandbox["user"] == "nobody"


def test_3_no_privilege_of_root(jailed: Jailed) -> None:
    before = os.stat("/usr/bin/env")
    outcome = jailed.run("privileges.py")
    assert outcome.error is None, outcome
    assert outcome.outputs[3] == f"{jail_mod.NOBODY} {jail_mod.NOBODY} []\n"
    assert outcome.outputs[6] == "['EROFS', 'EROFS', 'EPERM', 'EPERM']\n"
    assert outcome.outputs[-3:] == ("stopped: EAGAIN\n", "True\n", "")
    after = os.stat("/usr/bin/env")
    assert (after.st_mode, after.st_mtime_ns) == (before.st_mode, before.st_mtime_ns)


def test_3_a_python_reached_through_a_closed_folder_still_runs_as_nobody(
    jailed: Jailed, monkeypatch: pytest.MonkeyPatch
) -> None:
    if os.geteuid() != 0:
        pytest.skip("a closed folder stops only others than root: this needs root")
    closed = Path(tempfile.mkdtemp(prefix="checker-closed-"))  # 0700
    (closed / "link").symlink_to("/usr/share")
    real = jail_mod.readable_paths
    monkeypatch.setattr(jail_mod, "readable_paths", lambda: [*real(), str(closed / "link")])
    sandbox = Sandbox(LIMITS)
    try:
        outcome = jailed.run("privileges.py", sandbox)
    finally:
        sandbox.close()
        shutil.rmtree(closed)
    assert outcome.outputs[3] == f"{jail_mod.NOBODY} {jail_mod.NOBODY} []\n"
    assert outcome.outputs[-3:] == ("stopped: EAGAIN\n", "True\n", "")


def test_4_sysv_ipc_is_refused(jailed: Jailed) -> None:
    before = Path("/proc/sysvipc/shm").read_text()
    outcome = jailed.run("sysv_ipc.py")
    assert outcome.outputs[-1] == "['EPERM', 'EPERM', 'EPERM']\n"
    assert Path("/proc/sysvipc/shm").read_text() == before


def test_5_the_hosts_processes_and_mounts_are_not_visible(jailed: Jailed) -> None:
    outcome = jailed.run("host_proc.py")
    assert outcome.error is None, outcome
    assert (outcome.outputs[2], *outcome.outputs[-2:]) == ("True\n", "False\n", "False\n")


def test_6_memfd_is_refused(jailed: Jailed) -> None:
    outcome = jailed.run("memfd.py")
    assert _error(outcome) == ("PermissionError", "refused", 6)


def test_6_anonymous_memory_past_the_limit(jailed: Jailed) -> None:
    outcome = jailed.run("anonymous_memory.py")
    assert _error(outcome) == ("MemoryError", "memory", 3)


def test_7_system_calls_no_snippet_needs_are_refused(jailed: Jailed) -> None:
    outcome = jailed.run("syscalls.py")
    assert outcome.error is None, outcome
    assert outcome.outputs[-3:] == (
        "['EPERM', 'EPERM', 'EPERM', 'EAFNOSUPPORT', 'EPERM', 'EROFS']\n",
        "",
        "True\n",
    )


def test_13_inodes_are_bounded(jailed: Jailed) -> None:
    if os.geteuid() != 0:
        pytest.skip("the inode limit is the launcher's tmpfs, mounted as root")
    outcome = jailed.run("inodes.py")
    assert _error(outcome)[:2] == ("OSError", "disk")
    assert outcome.error is not None
    count = int(outcome.error.message.rsplit("-", 1)[1].rstrip("'"))
    assert count < jail_mod.JailLimits(0, 0, 0).inodes


def test_a_session_leaves_no_process_to_the_next(jailed: Jailed) -> None:
    left = jailed.sandbox.run_session([SandboxProgram(attack("escape_session.py"))])
    assert left[0].outputs[-1] == "left one\n"
    outcome = jailed.run("count_processes.py")
    assert outcome.outputs[-1] == "[]\n"


def test_the_jail_reports_its_measures(jailed: Jailed) -> None:
    outcome = jailed.run("environ.py", secret=SECRET)
    measures = outcome.measures
    assert measures["jail"].startswith("bubblewrap ")
    assert measures["user"] == "nobody"
    assert measures["seccomp-active"] is True
    assert measures["inherited-fds"] == "0, 1, 2"
    assert measures["missing"] == _missing_here()


def _missing_here() -> str:
    """What this machine cannot do: as root, nothing where a control group can be made here
    (CI; a GPU machine whose cgroup v2 tree is not delegated cannot); as another user, no
    control group and no inode limit."""
    root = os.geteuid() == 0
    group = ControlGroup.create(64 << 20, 8) if root else "not root: no control group is made"
    if isinstance(group, ControlGroup):
        group.remove()
    facts = {"uid": jail_mod.NOBODY, "capabilities": 0, "seccomp": 2}
    measures = {"cgroup": not isinstance(group, str), "cgroup-reason": group, "inodes": root}
    return str(jail_mod.facts_measures(facts, measures)["missing"])


# -- earlier attacks --------------------------------------------------------------------------


def _probe(handler: str) -> str:
    """Run ``handler`` as a probe runs: in a plain child of a fork server of ours."""
    pool = Pool(preload=[])
    try:
        (result,) = pool.run([WorkerJob(f"{__name__}:{handler}", {}, timeout_s=60.0)])
    finally:
        pool.close()
    assert result.failure is None, result
    return str(result.result)


def test_a_probe_does_not_see_the_parents_environment(jailed: Jailed) -> None:
    block = _probe("environment_block")
    assert SECRET not in block
    assert "PATH=" in block


def test_a_snippet_does_not_see_the_parents_environment(jailed: Jailed) -> None:
    outcome = jailed.run("environ.py", secret=SECRET)
    assert outcome.error is None, outcome
    assert outcome.outputs == ("", "0\n", "", "0\n")


def test_host_secrets_are_not_there(jailed: Jailed) -> None:
    outcome = jailed.run("shadow.py")
    assert _error(outcome) == ("FileNotFoundError", "file", 1)


def test_the_working_folder_is_not_there(jailed: Jailed) -> None:
    outcome = jailed.run("working_folder.py", file=jailed.private.name)
    assert _error(outcome) == ("FileNotFoundError", "file", 3)


def test_a_host_file_cannot_be_changed(jailed: Jailed) -> None:
    before = jailed.owned.stat()
    for name in ("chmod.py", "utime.py"):
        outcome = jailed.run(name, owned=str(jailed.owned))
        assert _error(outcome) == ("FileNotFoundError", "file", 2)
    after = jailed.owned.stat()
    assert stat.S_IMODE(after.st_mode) == 0o644
    assert after.st_mtime_ns == before.st_mtime_ns


def test_a_unix_socket_outside_is_not_reachable(jailed: Jailed) -> None:
    outcome = jailed.run("unix_socket.py", socket=str(jailed.socket_path))
    assert _error(outcome) == ("FileNotFoundError", "file", 3)
    assert _accepted(jailed.server) == 0


def test_a_shared_mapping_counts_against_the_memory_limit(jailed: Jailed) -> None:
    outcome = jailed.run("shared_mapping.py", size=str(4 * MEMORY_BYTES))
    assert _error(outcome) == ("OSError", "memory", 2)
    assert outcome.measures["memory"] == f"RLIMIT_AS {MEMORY_BYTES} (address space)"


def test_total_disk_is_bounded(jailed: Jailed) -> None:
    outcome = jailed.run("disk.py", count=str(2 * DISK_BYTES // (4 * 1024**2)))
    error_type, cause, line = _error(outcome)
    assert (error_type, cause) == ("OSError", "disk")
    assert line in (3, 4)  # the write, or the close that flushes it
    assert outcome.error is not None
    assert "No space left on device" in outcome.error.message
    assert outcome.measures["disk-bytes"] == DISK_BYTES


def test_a_snippets_temporary_folder_is_removed(jailed: Jailed) -> None:
    outcome = jailed.run("temporary_folder.py")
    assert outcome.error is None, outcome
    assert Path(outcome.outputs[1].strip()).name.startswith("pymp-")


def test_a_probes_temporary_folder_is_removed(jailed: Jailed) -> None:
    made = Path(_probe("multiprocessing_temp_dir"))
    assert made.name.startswith("pymp-")
    assert not made.exists()


def test_dev_shm_is_private_and_multiprocessing_works(jailed: Jailed) -> None:
    marker = Path("/dev/shm") / f"checker-test-{os.getpid()}"
    marker.write_text("the host's\n", encoding="utf-8")
    try:
        outcome = jailed.run("shared_memory.py")
    finally:
        marker.unlink()
    assert outcome.error is None, outcome
    assert outcome.outputs == ("", "", "", "[]\n")


def test_the_host_temporary_folder_is_not_there(jailed: Jailed) -> None:
    outcome = jailed.run("closed_temporary_folder.py")
    assert outcome.error is None, outcome
    assert outcome.outputs[2] == "True\n"
    # this session's folder, and the folders leading to an installation bound from the host's
    # /tmp (a checkout there, as in CI), nothing else
    listed = ast.literal_eval(outcome.outputs[3])
    assert [name for name in listed if name.startswith("session-")] != []
    bound = {Path(p).parts[2] for p in jail_mod.readable_paths() if p.startswith("/tmp/")}
    assert {name for name in listed if not name.startswith("session-")} <= bound


def test_no_jail_no_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where bubblewrap is missing, nothing runs, and the outcome says why."""
    monkeypatch.setattr(jail_mod.shutil, "which", lambda name: None)
    jail_mod.unavailable_said.cache_clear()
    from checker.scan import sandbox as sandbox_mod
    from checker.scan.snippet_said import refused

    try:
        monkeypatch.setattr(sandbox_mod, "unavailable", jail_mod.unavailable)
        outcome = Sandbox(LIMITS).run("print('ran')")
        assert outcome.outputs == ()
        assert outcome.refused == (
            "not run: bubblewrap (bwrap) is not installed: install the bubblewrap package"
        )
        # a findings page in another language translates the reason too: it is a template
        reason = refused(outcome.refused)
        assert not isinstance(reason, str)
        assert reason.to_dict()["values"]["reason"]["template"] == (
            "bubblewrap (bwrap) is not installed: install the bubblewrap package"
        )
    finally:
        jail_mod.unavailable_said.cache_clear()


#: On a machine with an NVIDIA GPU (the device machine a session is sometimes lent; CI has
#: none, so this is skipped there), the jail that may use the GPU: CUDA works inside it, and it
#: is still the jail: uid nobody, seccomp active, no new user namespace, no host files.
GPU_PRESENT = Path("/dev/nvidiactl").exists()


@pytest.mark.skipif(not GPU_PRESENT, reason="needs an NVIDIA GPU (/dev/nvidiactl)")
def test_a_gpu_jail_runs_cuda_and_stays_a_jail(jailed: Jailed) -> None:
    program = (
        "import os, torch\n"
        "x = torch.ones(1024, device='cuda')\n"
        "print(float((x * 2).sum()), x.device.type)\n"
        "print(os.getuid(), os.path.exists('/root'))\n"
        "try:\n"
        "    os.unshare(os.CLONE_NEWUSER)\n"
        "    print('unshared')\n"
        "except OSError as e:\n"
        "    print('refused', e.errno)\n"
    )
    (outcome,) = jailed.sandbox.run_session([SandboxProgram(program, gpu=True)])
    assert outcome.error is None, outcome
    assert outcome.outputs[2] == "2048.0 cuda\n"
    uid, root_there = outcome.outputs[3].split()
    assert (int(uid), root_there) == (jail_mod.NOBODY, "False")
    assert outcome.outputs[4].startswith("refused ")
    assert outcome.measures["seccomp-active"] is True
    assert outcome.measures["memory"].startswith("RLIMIT_DATA ")
