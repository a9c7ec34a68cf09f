"""The scanner against hostile articles (``tests/samples/hostile/``): each is stopped with a
finding that says what happened, the scan goes on, it finishes in bounded time, and nothing
outside the sandbox's temporary folder changes.

The whole set is scanned once (one sandbox, one fork server) into a temporary folder that also
holds the canary file, the target of the writing snippet, the generated 50 MB article, and a
listening socket's port.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from checker import registry as registry_mod
from checker.scan.findings import FindingVerdict, ScanFinding, ScanResult
from checker.scan.readers import MAX_BYTES
from checker.scan.run import ScanOptions, scan
from checker.scan.sandbox import SnippetLimits
from tests.helpers import ROOT, sample

HOSTILE = sample("hostile")
TIMEOUT_S = 3.0
#: The whole hostile set, sandbox start included (each snippet is bounded by TIMEOUT_S).
BOUND_S = 90.0
#: Small enough that touching it all takes well under TIMEOUT_S on a slow machine.
MEMORY_BYTES = 256 * 1024**2
COPIED = ("loop.md", "memory.md", "segfault.md", "fork.md", "print.md", "disk.md")
#: Small enough that the 64 files of 4 MiB of disk.md fill it quickly.
DISK_BYTES = 32 * 1024**2
BIG = 50 * 1024 * 1024


@dataclass(frozen=True)
class Scanned:
    result: ScanResult
    articles: Path
    canary: Path
    target: Path
    watched: Path
    listing_before: list[tuple[str, int, int]]
    connections: int
    seconds: float
    temp_dirs_left: set[str]

    def findings(self, name: str) -> list[ScanFinding]:
        return [f for f in self.result.findings if Path(f.path).name == name]

    def only(self, name: str) -> ScanFinding:
        (finding,) = self.findings(name)
        return finding


def _listing(folder: Path) -> list[tuple[str, int, int]]:
    return sorted(
        (p.relative_to(folder).as_posix(), p.stat().st_size, p.stat().st_mtime_ns)
        for p in folder.rglob("*")
    )


def _sandbox_dirs() -> set[str]:
    return {
        p.name
        for pattern in ("checker-scan-*", "checker-jail-*", "checker-tmp-*")
        for p in Path(tempfile.gettempdir()).glob(pattern)
    }


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
def scanned(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Scanned]:
    base = tmp_path_factory.mktemp("hostile")
    articles, watched = base / "articles", base / "watched"
    articles.mkdir()
    watched.mkdir()
    canary = watched / "canary.txt"
    canary.write_text("still here\n", encoding="utf-8")
    (watched / "notes").mkdir()
    (watched / "notes" / "kept.txt").write_text("kept\n", encoding="utf-8")
    target = watched / "written.txt"
    for name in (*COPIED, "invalid-utf8.md", "binary.md"):
        shutil.copy(HOSTILE / name, articles / name)
    (articles / "large.md").write_bytes(b"# Large\n\n" + b"word " * (BIG // 5))
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    port = server.getsockname()[1]
    fills = {"canary": str(canary), "target": str(target), "port": str(port)}
    for template in HOSTILE.glob("*.md.in"):
        text = template.read_text(encoding="utf-8")
        for key, value in fills.items():
            text = text.replace("{" + key + "}", value)
        (articles / template.name.removesuffix(".in")).write_text(text, encoding="utf-8")
    before = _listing(watched)
    # a temporary folder of this test's own: other scans on the machine use /tmp too
    private_tmp = Path(tempfile.mkdtemp(prefix="checker-test-tmp-"))
    private_tmp.chmod(0o755)  # the snippet (nobody) passes through it to its work folder
    shared_tmp, tempfile.tempdir = tempfile.tempdir, str(private_tmp)
    dirs_before = _sandbox_dirs()
    options = ScanOptions(
        limits=SnippetLimits(timeout_s=TIMEOUT_S, memory_bytes=MEMORY_BYTES, disk_bytes=DISK_BYTES),
        use_cache=False,
        project_root=ROOT,
    )
    started = time.monotonic()
    try:
        result = scan([articles], registry_mod.load(), options)
        seconds = time.monotonic() - started
        connections = _accepted(server)
        dirs_left = _sandbox_dirs() - dirs_before
    finally:
        server.close()
        tempfile.tempdir = shared_tmp
        shutil.rmtree(private_tmp, ignore_errors=True)
    yield Scanned(
        result,
        articles,
        canary,
        target,
        watched,
        before,
        connections,
        seconds,
        dirs_left,
    )


def test_the_set_finishes_in_bounded_time(scanned: Scanned) -> None:
    assert scanned.seconds < BOUND_S


def test_every_file_is_reported(scanned: Scanned) -> None:
    snippets = {Path(f.path).name for f in scanned.result.findings if f.kind == "snippet"}
    assert snippets == {
        "loop.md",
        "memory.md",
        "segfault.md",
        "fork.md",
        "print.md",
        "disk.md",
        "delete.md",
        "write.md",
        "network.md",
    }
    assert {Path(e.path).name for e in scanned.result.errors} == {
        "invalid-utf8.md",
        "binary.md",
        "large.md",
    }
    assert scanned.result.exit_code == 1


def test_infinite_loop(scanned: Scanned) -> None:
    finding = scanned.only("loop.md")
    assert (finding.line, finding.verdict) == (4, FindingVerdict.UNVERIFIED)
    assert finding.evidence == (
        f"exceeded the time limit ({TIMEOUT_S:g} s per snippet; raise it with --timeout)"
    )


def test_memory_bomb(scanned: Scanned) -> None:
    finding = scanned.only("memory.md")
    assert (finding.line, finding.verdict) == (6, FindingVerdict.UNVERIFIED)
    assert finding.evidence == (
        "exceeded the memory limit (0.25 GiB, MemoryError, line 6; raise it with --memory-limit)"
    )


def test_segfault(scanned: Scanned) -> None:
    finding = scanned.only("segfault.md")
    assert (finding.line, finding.verdict) == (4, FindingVerdict.BROKEN)
    assert finding.evidence == "the process crashed with SIGSEGV (Segmentation fault)"


def test_fork_bomb(scanned: Scanned) -> None:
    if not scanned.result.sandbox.get("processes"):
        pytest.skip("the process limit cannot be enforced here (see the sandbox's measures)")
    finding = scanned.only("fork.md")
    assert (finding.line, finding.verdict) == (7, FindingVerdict.BROKEN)
    assert finding.evidence == (
        "stopped by the sandbox: process limit "
        "(BlockingIOError: [Errno 11] Resource temporarily unavailable, line 7)"
    )


def test_a_gigabyte_of_output(scanned: Scanned) -> None:
    finding = scanned.only("print.md")
    assert (finding.line, finding.verdict) == (7, FindingVerdict.BROKEN)
    assert finding.evidence == (
        "stopped by the sandbox: output limit (OSError: [Errno 27] File too large, line 7)"
    )


def test_many_files_fill_the_disk_limit(scanned: Scanned) -> None:
    finding = scanned.only("disk.md")
    assert (finding.line, finding.verdict) == (7, FindingVerdict.BROKEN)
    assert finding.evidence == (
        "stopped by the sandbox: disk limit (OSError: [Errno 28] No space left on device, line 7)"
    )


def test_deleting_a_file_outside(scanned: Scanned) -> None:
    """The jail shows nothing of the host's folders but the installation: the canary is not
    there to delete."""
    finding = scanned.only("delete.md")
    assert (finding.line, finding.verdict) == (7, FindingVerdict.UNVERIFIED)
    assert finding.evidence == (
        "needs a file the article does not provide (FileNotFoundError: [Errno 2] No such "
        f"file or directory: '{scanned.canary}', line 7)"
    )
    assert scanned.canary.read_text(encoding="utf-8") == "still here\n"


def test_writing_a_file_outside(scanned: Scanned) -> None:
    finding = scanned.only("write.md")
    assert (finding.line, finding.verdict) == (4, FindingVerdict.UNVERIFIED)
    assert finding.evidence == (
        "needs a file the article does not provide (FileNotFoundError: [Errno 2] No such "
        f"file or directory: '{scanned.target}', line 4)"
    )
    assert not scanned.target.exists()


def test_network_access(scanned: Scanned) -> None:
    finding = scanned.only("network.md")
    assert (finding.line, finding.verdict) == (5, FindingVerdict.UNVERIFIED)
    assert finding.evidence.startswith("needs the network, which the sandbox refuses (")
    assert finding.evidence.endswith(", line 5)")
    assert scanned.connections == 0


def test_nothing_outside_changed(scanned: Scanned) -> None:
    assert _listing(scanned.watched) == scanned.listing_before
    assert scanned.temp_dirs_left == set()
    assert not any(p.name.startswith("checker-job-") for p in Path(tempfile.gettempdir()).iterdir())


def test_a_50_mb_article(scanned: Scanned) -> None:
    (error,) = [e for e in scanned.result.errors if Path(e.path).name == "large.md"]
    size = os.path.getsize(scanned.articles / "large.md")
    assert (error.line, error.message) == (
        1,
        f"file too large to scan ({size} bytes; the limit is {MAX_BYTES})",
    )


def test_invalid_utf8(scanned: Scanned) -> None:
    (error,) = [e for e in scanned.result.errors if Path(e.path).name == "invalid-utf8.md"]
    assert (error.line, error.message) == (4, "not UTF-8: byte 0xff (invalid start byte)")


def test_a_binary_file_named_md(scanned: Scanned) -> None:
    (error,) = [e for e in scanned.result.errors if Path(e.path).name == "binary.md"]
    assert (error.line, error.message) == (3, "binary file (NUL byte), not an article")
