"""The pytest plugin that executes the docs: ``pytest -p checker.doctest.plugin docs``.

Each page becomes a collector; each of its snippets becomes one test item per device. A page
that uses ``device`` (or holds CUDA-only snippets) runs once per requested device, in a fresh
namespace each time; other pages run once, on the CPU. Snippets of a page share that
namespace, in page order, as a reader running them one after another would.

With ``--doc-unchanged FILE`` (``nox -s doctest`` passes ``_build/summary/doctest-pages.json``)
a page is run again on a device only if something it depends on changed since its last run
there passed: the page's bytes, the torch, NumPy and Python versions, whether CUDA can run, or
this package's code. An unchanged page's outcome is the last run's, counted as such
("reused") in the report and the summary; a page that failed is always run again. The file
is written after every run; a run with ``--doc-record`` (the evidence a GPU machine commits)
runs every snippet.
"""

from __future__ import annotations

import doctest
import hashlib
import json
import platform
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from checker.doctest.cuda_record import docs_path, snippet_digest
from checker.doctest.output import OPTIONFLAGS, DeviceOutputChecker
from checker.text.pages import Page, PageError, Snippet, parse_page
from checker.typing import DEVICES

#: ``--doc-device`` values.
CHOICES = ("all", "cpu", "cuda")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("checker-docs", "executing the documentation")
    group.addoption(
        "--doc-device",
        choices=CHOICES,
        default="all",
        help="devices to run snippets on; 'all' (default) skips CUDA with a "
        "reason where it is absent, 'cuda' fails where it is absent",
    )
    group.addoption(
        "--doc-summary",
        metavar="PATH",
        default=None,
        help="write per-device counts of passed/failed/skipped snippets as JSON",
    )
    group.addoption(
        "--doc-unchanged",
        metavar="PATH",
        default=None,
        help="reuse the outcome of pages unchanged since their last passing run, as recorded "
        "in this JSON file (written after the run)",
    )
    group.addoption(
        "--doc-record",
        metavar="PATH",
        default=None,
        help="write the counts with the GPU's name, the torch version and the date: the "
        "evidence file (docs/_evidence/doctest-cuda.json) a GPU machine commits",
    )


def pytest_configure(config: pytest.Config) -> None:
    tally = SnippetTally()
    config.pluginmanager.register(tally, "checker-snippet-tally")
    requested = config.getoption("--doc-device")
    devices: list[str] = list(DEVICES) if requested == "all" else [requested]
    config.stash[_DEVICES] = devices


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> PageFile | None:
    if file_path.suffix != ".md" or not _is_doc_page(file_path):
        return None
    return PageFile.from_parent(parent, path=file_path)


def _is_doc_page(path: Path) -> bool:
    parts = path.parts
    if "docs" not in parts:
        return False
    below = parts[len(parts) - 1 - parts[::-1].index("docs") :]
    return not any(p.startswith(("_", ".")) for p in below)


_DEVICES = pytest.StashKey[list[str]]()


class PageFile(pytest.File):
    """A documentation page: yields one item per snippet and device."""

    def collect(self) -> Iterator[SnippetItem]:
        page = parse_page(self.path)  # a PageError is reported by repr_failure below
        devices = self.config.stash[_DEVICES]
        if not page.device_aware:
            devices = [d for d in devices if d == "cpu"]
        tally = self.config.pluginmanager.get_plugin("checker-snippet-tally")
        assert isinstance(tally, SnippetTally)
        for device in devices:
            digest = page_digest(self.path, device)
            if tally.reused(str(self.path), device, digest, len(page.snippets)):
                continue
            namespace: dict[str, Any] = {}
            for snippet in page.snippets:
                yield SnippetItem.from_parent(
                    self,
                    name=f"{device}:line-{snippet.lineno}",
                    page=page,
                    snippet=snippet,
                    device=device,
                    namespace=namespace,
                )

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, PageError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class SnippetFailure(Exception):
    """A snippet printed something else than the page says, or raised."""


class SnippetItem(pytest.Item):
    """One snippet, run on one device."""

    def __init__(
        self, *, page: Page, snippet: Snippet, device: str, namespace: dict[str, Any], **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.page = page
        self.snippet = snippet
        self.device = device
        self.namespace = namespace
        self.user_properties.append(("device", device))
        self.user_properties.append(("page", str(self.path)))
        self.user_properties.append(("snippet", snippet_digest(docs_path(self.path), snippet)))

    def runtest(self) -> None:
        if self.device == "cuda":
            reason = cuda_absent_reason()
            if reason:
                if self.config.getoption("--doc-device") == "cuda":
                    raise SnippetFailure(f"--doc-device cuda was requested, but {reason}")
                pytest.skip(f"CUDA run skipped: {reason}")
        if self.snippet.cuda_only and self.device != "cuda":
            pytest.skip(f"CUDA only: {self.snippet.cuda_only}")
        if not self.namespace:
            self.namespace.update({"__name__": "__main__", "device": self.device})
        test = doctest.DocTest(
            list(self.snippet.examples), {}, str(self.path), str(self.path), 0, self.snippet.source
        )
        test.globs = self.namespace  # DocTest copies its globals; the page shares one namespace
        runner = doctest.DocTestRunner(checker=DeviceOutputChecker(), optionflags=OPTIONFLAGS)
        report: list[str] = []
        result = runner.run(test, out=report.append, clear_globs=False)
        if result.failed:
            raise SnippetFailure("".join(report))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, SnippetFailure):
            return f"{self.path}:{self.snippet.lineno} [device: {self.device}]\n{excinfo.value}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return (
            self.path,
            self.snippet.lineno - 1,
            f"{self.path.name}:{self.snippet.lineno} [{self.device}]",
        )


def cuda_absent_reason() -> str | None:
    """Why CUDA cannot run snippets here, or ``None`` if it can."""
    import torch

    if torch.version.cuda is None:
        return f"torch {torch.__version__} is a CPU-only build"
    if not torch.cuda.is_available():
        return "no CUDA device is visible (torch.cuda.is_available() is False)"
    return None


def page_digest(path: Path, device: str) -> str:
    """What a page's outcome on ``device`` depends on (see the module's description)."""
    import numpy
    import torch

    digest = hashlib.sha256(path.read_bytes())
    ours = sorted(Path(__file__).parent.glob("*.py"))
    cuda = cuda_absent_reason() if device == "cuda" else ""
    for part in (device, torch.__version__, numpy.__version__, platform.python_version(), cuda):
        digest.update(b"\0" + str(part).encode())
    for source in ours:
        digest.update(b"\0" + source.read_bytes())
    return digest.hexdigest()


#: One page's outcome on one device: counts and skip reasons, as in the summary.
Outcome = dict[str, Any]


class SnippetTally:
    """Counts outcomes per device and prints them; writes them as JSON when asked."""

    def __init__(self) -> None:
        self.counts: dict[str, Counter[str]] = defaultdict(Counter)
        self.skip_reasons: dict[str, Counter[str]] = defaultdict(Counter)
        #: ``--doc-unchanged``: the file, what it held, and this run's outcome per page.
        self.unchanged_file: Path | None = None
        self.previous: dict[str, dict[str, Outcome]] = {}
        self.pages: dict[tuple[str, str], Outcome] = {}
        self.reused_counts: Counter[str] = Counter()
        #: Digests of the snippets that passed on CUDA, per page below ``docs/``.
        self.ran_on_cuda: dict[str, set[str]] = defaultdict(set)

    def pytest_configure(self, config: pytest.Config) -> None:
        option = config.getoption("--doc-unchanged")
        if option and not config.getoption("--doc-record"):
            self.unchanged_file = Path(option)
            try:
                loaded = json.loads(self.unchanged_file.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                loaded = {}  # none yet, or unreadable: every page runs
            self.previous = loaded if isinstance(loaded, dict) else {}

    def reused(self, page: str, device: str, digest: str, snippets: int) -> bool:
        """Count the last run's outcome of an unchanged page that passed; else note the
        digest, so that this run's outcome is recorded under it."""
        entry = self.previous.get(page)
        last = entry.get(device) if isinstance(entry, dict) else None
        if (
            self.unchanged_file is not None
            and isinstance(last, dict)
            and last.get("digest") == digest
            and last.get("failed") == 0
        ):
            self.pages[(page, device)] = last
            for outcome in ("passed", "skipped"):
                self.counts[device][outcome] += int(last.get(outcome, 0))
                self.reused_counts[device] += int(last.get(outcome, 0))
            for reason, n in dict(last.get("skip_reasons", {})).items():
                self.skip_reasons[device][str(reason)] += int(n)
            return True
        self.pages[(page, device)] = {
            "digest": digest,
            "snippets": snippets,
            "passed": 0,
            "failed": 0,
            "skipped": 0,
            "skip_reasons": {},
        }
        return False

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        properties = dict(report.user_properties)
        device = properties.get("device")
        if device is None:
            return
        if report.when == "call" or (report.when == "setup" and not report.passed):
            self.counts[str(device)][report.outcome] += 1
            if device == "cuda" and report.passed:
                page_name = docs_path(Path(str(properties.get("page"))))
                self.ran_on_cuda[page_name].add(str(properties.get("snippet")))
            page = self.pages.get((str(properties.get("page")), str(device)))
            if page is not None:
                page[report.outcome] += 1
            if report.skipped and isinstance(report.longrepr, tuple):
                reason = str(report.longrepr[2]).removeprefix("Skipped: ")
                self.skip_reasons[str(device)][reason] += 1
                if page is not None:
                    page["skip_reasons"][reason] = page["skip_reasons"].get(reason, 0) + 1

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.counts:
            return
        write = terminalreporter.write_line
        terminalreporter.section("snippets per device")
        for device in DEVICES:
            if device in self.counts:
                c = self.counts[device]
                reused = self.reused_counts[device]
                write(
                    f"{device:>5}: {c['passed']} passed, {c['failed']} failed, "
                    f"{c['skipped']} skipped"
                    + (f" ({reused} of them reused: unchanged pages)" if reused else "")
                )
                for reason, n in sorted(self.skip_reasons[device].items()):
                    write(f"       {n} skipped: {reason}")

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if session.exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and self.reused_counts:
            session.exitstatus = pytest.ExitCode.OK  # every page was unchanged: all reused
        summary = session.config.getoption("--doc-summary")
        record = session.config.getoption("--doc-record")
        if summary:
            _write_json(Path(summary), self.data())
        if record:
            on_cuda = {p: sorted(digests) for p, digests in sorted(self.ran_on_cuda.items())}
            _write_json(Path(record), recorded(self.data(), on_cuda))
        if self.unchanged_file is not None:
            pages: dict[str, dict[str, Outcome]] = defaultdict(dict)
            for (page, device), outcome in sorted(self.pages.items()):
                ran = sum(int(outcome[k]) for k in ("passed", "failed", "skipped"))
                if ran == outcome.get("snippets"):  # not a run cut short or narrowed by -k
                    pages[page][device] = outcome
            _write_json(self.unchanged_file, pages)

    def data(self) -> dict[str, Any]:
        data = {
            device: {
                "passed": c["passed"],
                "failed": c["failed"],
                "skipped": c["skipped"],
                "skip_reasons": dict(self.skip_reasons[device]),
            }
            for device, c in self.counts.items()
        }
        for device, reused in self.reused_counts.items():
            data[device]["reused"] = reused
        return data


def recorded(snippets: dict[str, Any], ran: dict[str, list[str]]) -> dict[str, Any]:
    """The counts of one run, with where and when they were measured, and the digests of the
    snippets that passed on CUDA (see :mod:`checker.doctest.cuda_record`)."""
    import datetime
    import platform

    import torch

    cuda = torch.cuda.is_available()
    return {
        "device_name": torch.cuda.get_device_name(0) if cuda else "no CUDA device",
        "torch": torch.__version__,
        "python": platform.python_version(),
        "measured_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "snippets": snippets,
        "ran": ran,
    }


def _write_json(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
