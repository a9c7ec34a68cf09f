"""The sandbox reports how many of an article's snippets ran while they run (the service's
progress, "snippets run / total"), across a session that a stopped snippet restarted."""

from __future__ import annotations

from checker.scan.sandbox import Sandbox, SandboxProgram, SnippetLimits


def test_progress_counts_the_snippets_as_they_run() -> None:
    sandbox = Sandbox(SnippetLimits(timeout_s=1.5))
    seen: list[int] = []
    programs = [
        SandboxProgram("import time\ntime.sleep(0.6)"),
        SandboxProgram("while True:\n    pass"),  # stopped by its deadline: a new session follows
        SandboxProgram("import time\ntime.sleep(0.6)"),
        SandboxProgram("x = 1"),
    ]
    try:
        outcomes = sandbox.run_session(programs, seen.append)
    finally:
        sandbox.close()
    assert [o.timed_out for o in outcomes] == [False, True, False, False]
    assert seen == sorted(seen) and seen[-1] == 4
    assert 1 in seen and 2 in seen  # the first session's count, then the stopped snippet's
    assert all(0 < n <= 4 for n in seen)
