"""The harness: isolation, errors, timeouts, memory limits, caching."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from checker import registry, speed
from checker.cache import Cache
from checker.evidence import Outcome
from checker.pool import Pool, WorkerJob
from checker.runner import ProbeLimits, Runner
from checker.source_hash import claim_hash, probe_hash
from checker.verdict import Status


def run(module: str, tmp_path: Path, **kwargs: object) -> dict[str, object]:
    reg = registry.load([module], package=None)
    runner = Runner(reg, cache=Cache(tmp_path / "cache"), **kwargs)  # type: ignore[arg-type]
    try:
        verdicts = runner.run(reg.claims, ("cpu", "cuda"))
    finally:
        runner.close()
    return {f"{v.claim.id}@{v.device}": v for v in verdicts}


def test_every_way_a_probe_breaks_is_an_error_and_the_rest_still_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(speed.ENV_VAR, "1")  # a machine as fast as the reference: a hang is a bug
    limits = ProbeLimits(memory_bytes=1024**3)
    verdicts = run("tests.fixtures.claims_broken", tmp_path, limits=limits)
    status = {k: v.status for k, v in verdicts.items() if k.endswith("@cpu")}  # type: ignore[attr-defined]
    assert status == {
        "broken/raises@cpu": Status.ERROR,
        "broken/hangs@cpu": Status.ERROR,
        "broken/segfaults@cpu": Status.ERROR,
        "broken/killed@cpu": Status.ERROR,
        "broken/eats-memory@cpu": Status.ERROR,
        "broken/forgets-measurement@cpu": Status.ERROR,
        "broken/fine@cpu": Status.CONFIRMED,
    }
    reasons = {k: v.reason for k, v in verdicts.items()}  # type: ignore[attr-defined]
    assert reasons["broken/raises@cpu"].startswith("ValueError: the probe itself is wrong")
    assert reasons["broken/hangs@cpu"] == "timed out after 1.5 s"
    assert reasons["broken/segfaults@cpu"].startswith("worker process crashed (SIGSEGV)")
    assert reasons["broken/killed@cpu"].startswith("worker process crashed (SIGKILL)")
    assert reasons["broken/eats-memory@cpu"].startswith("MemoryError")
    assert reasons["broken/forgets-measurement@cpu"].startswith(
        "LookupError: probe did not measure ['fixture-missing']"
    )
    assert reasons["broken/fine@cuda"] == "only meaningful on CPU"


def test_limits_stretch_with_the_slowdown_and_a_busy_machine_gives_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # as fast as the reference machine: 0.8 s of work under a 0.5 s limit is a probe error
    monkeypatch.setenv(speed.ENV_VAR, "1")
    idle = run("tests.fixtures.claims_slow", tmp_path / "idle")
    assert idle["slow/takes-0-8-s@cpu"].status is Status.ERROR  # type: ignore[attr-defined]
    assert idle["slow/takes-0-8-s@cpu"].reason == "timed out after 0.5 s"  # type: ignore[attr-defined]
    assert idle["slow/never-ends@cpu"].status is Status.ERROR  # type: ignore[attr-defined]
    # four times slower (a busy machine): the limits are 2 s, the slow probe finishes, and
    # the one that never ends is not run, saying why, instead of an error
    monkeypatch.setenv(speed.ENV_VAR, "4")
    busy = run("tests.fixtures.claims_slow", tmp_path / "busy")
    assert busy["slow/takes-0-8-s@cpu"].status is Status.CONFIRMED  # type: ignore[attr-defined]
    never = busy["slow/never-ends@cpu"]
    assert never.status is Status.NOT_RUN  # type: ignore[attr-defined]
    assert never.reason == (  # type: ignore[attr-defined]
        "did not finish within 2 s: this machine ran 4.0 times slower than the reference "
        "machine (it is busy with other work); run it again when it is less busy"
    )
    # a not-run of a busy machine is not cached: the next run tries again
    assert not list((tmp_path / "busy" / "cache").glob("*.not-run.json"))


def test_slowdown_is_a_median_against_the_reference_kept_between_1_and_the_ceiling(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(speed.ENV_VAR, raising=False)
    ticks = iter([0.0, 0.35, 1.0, 1.07, 2.0, 2.14, 3.0, 3.035, 4.0, 4.7])  # 0.35, .07, .14, ...

    def slowdown_of(*durations: float) -> float:
        clock = iter(t for d in durations for t in (0.0, d))
        return speed.slowdown(lambda: None, clock=lambda: next(clock), repeats=len(durations))

    assert speed.slowdown(lambda: None, clock=lambda: next(ticks)) == pytest.approx(4.0)
    assert slowdown_of(0.01, 0.02, 0.03) == 1.0  # a faster machine keeps the limits
    assert slowdown_of(7.0, 7.0, 7.0) == speed.MAX_SLOWDOWN  # a hang still ends
    monkeypatch.setenv(speed.ENV_VAR, "2.5")
    assert speed.slowdown() == 2.5
    assert (speed.is_busy(1.4), speed.is_busy(1.5)) == (False, True)


def test_the_pool_measures_again_at_the_limit_and_stretches_it_when_the_machine_slowed() -> None:
    measured = iter([1.0, 3.0])  # idle when the job starts, three times slower at its limit
    calls: list[float] = []

    def slowdown() -> float:
        calls.append(next(measured))
        return calls[-1]

    pool = Pool(preload=["tests.fixtures.pool_jobs"], slowdown=slowdown)
    job = WorkerJob("tests.fixtures.pool_jobs:sleep", {"seconds": 0.8}, timeout_s=0.5)
    try:
        (result,) = pool.run([job])
    finally:
        pool.close()
    assert calls == [1.0, 3.0]
    assert (result.failure, result.result, result.slowdown) == (None, 0.8, 3.0)
    assert result.limit_s == pytest.approx(1.5)


def test_results_are_cached_and_a_rerun_starts_no_worker(tmp_path: Path) -> None:
    reg = registry.load(["tests.fixtures.claims_ok"], package=None)
    cache = Cache(tmp_path / "cache")
    cold = Runner(reg, cache=cache)
    first = cold.run(reg.claims, ("cpu",))
    cold.close()
    warm = Runner(reg, cache=cache)
    second = warm.run(reg.claims, ("cpu",))
    assert (cold.stats.ran, cold.stats.cached) == (3, 0)
    assert (warm.stats.ran, warm.stats.cached) == (0, 3)
    assert warm._pool is None  # nothing was started
    assert [v.status for v in first] == [v.status for v in second] == [Status.CONFIRMED] * 3
    assert {v.evidence.origin for v in second if v.evidence} == {"cache"}


def test_a_myth_measured_false_is_confirmed(tmp_path: Path) -> None:
    verdicts = run("tests.fixtures.claims_ok", tmp_path)
    myth = verdicts["fixture/int-division-stays-int@cpu"]
    assert myth.outcome is Outcome.FAILS  # type: ignore[attr-defined]
    assert myth.status is Status.CONFIRMED  # type: ignore[attr-defined]
    assert myth.evidence.observation.value("fixture-true-division-dtype") == "torch.float32"  # type: ignore[attr-defined]


def test_absent_cuda_is_not_run_with_its_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHECKER_HIDE_CUDA", "1")
    verdicts = run("tests.fixtures.claims_ok", tmp_path)
    cuda = verdicts["fixture/ones-sum@cuda"]
    assert cuda.status is Status.NOT_RUN  # type: ignore[attr-defined]
    assert cuda.reason == "CUDA hidden by CHECKER_HIDE_CUDA"  # type: ignore[attr-defined]


def test_the_hash_changes_with_the_probe_and_with_a_helper_it_calls_not_with_their_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "checker_hash_fixture"
    package.mkdir()
    (package / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))

    def load(helper_body: str, probe_body: str, module: str = "checker.fixture_mod") -> str:
        source = textwrap.dedent(f"""
            def helper():
                {helper_body}

            def probe(device):
                {probe_body}
                return helper()
        """)
        (package / "mod.py").write_text(source)
        import importlib
        import sys

        sys.modules.pop("checker_hash_fixture.mod", None)
        loaded = importlib.import_module("checker_hash_fixture.mod")
        loaded.helper.__module__ = loaded.probe.__module__ = module
        return probe_hash(loaded.probe)

    base = load("return 1", "x = 1")
    assert load("return 1", "x = 1") == base
    # moved to another module of ours, unchanged: the same experiment, the same hash
    assert load("return 1", "x = 1", module="checker.claims.moved.section") == base
    assert load("return 1", "x = 2") != base
    assert load("return 2", "x = 1") != base


def test_a_control_that_flips_decides_and_one_that_does_not_is_an_error(tmp_path: Path) -> None:
    verdicts = run("tests.fixtures.claims_controls", tmp_path)
    flips = verdicts["controls/clone-copies@cpu"]
    same = verdicts["controls/control-does-not-flip@cpu"]
    assert flips.status is Status.CONFIRMED  # type: ignore[attr-defined]
    control = flips.evidence.control  # type: ignore[attr-defined]
    assert (control.label, control.outcome) == ("a slice", Outcome.FAILS)
    assert control.observation.value("fixture-control-shares") is True
    assert same.status is Status.ERROR  # type: ignore[attr-defined]
    assert same.reason.startswith(  # type: ignore[attr-defined]
        "the control (clone again) did not flip: the rule found it holds too"
    )
    assert same.evidence.observation.holds is True  # type: ignore[attr-defined]


def test_a_probe_that_cannot_measure_its_case_is_not_run_with_its_reason(tmp_path: Path) -> None:
    verdicts = run("tests.fixtures.claims_controls", tmp_path)
    skipped = verdicts["controls/not-applicable@cpu"]
    assert skipped.status is Status.NOT_RUN  # type: ignore[attr-defined]
    assert skipped.reason == "this case needs two GPUs"  # type: ignore[attr-defined]


def test_the_control_is_part_of_the_cache_key_and_of_the_recorded_hash() -> None:
    reg = registry.load(["tests.fixtures.claims_controls"], package=None)
    flips, same, _ = reg.claims
    assert flips.probe is same.probe
    assert claim_hash(flips) != claim_hash(same) != probe_hash(flips.probe)
    assert claim_hash(reg.claims[2]) == probe_hash(reg.claims[2].probe)


def test_cached_evidence_keeps_its_control(tmp_path: Path) -> None:
    reg = registry.load(["tests.fixtures.claims_controls"], package=None)
    cache = Cache(tmp_path / "cache")
    for _ in range(2):
        runner = Runner(reg, cache=cache)
        verdicts = runner.run(reg.claims[:1], ("cpu",))
        runner.close()
    assert (runner.stats.ran, runner.stats.cached) == (0, 1)
    assert verdicts[0].status is Status.CONFIRMED
    assert verdicts[0].evidence is not None and verdicts[0].evidence.control is not None


def test_a_probe_that_is_not_applicable_is_answered_from_the_cache_the_second_time(
    tmp_path: Path,
) -> None:
    reg = registry.load(["tests.fixtures.claims_controls"], package=None)
    claim = next(c for c in reg.claims if c.id == "controls/not-applicable")
    cache = Cache(tmp_path / "cache")
    stats = []
    for _ in range(2):
        runner = Runner(reg, cache=cache)
        verdicts = runner.run([claim], ("cpu",))
        runner.close()
        stats.append((runner.stats.ran, runner.stats.cached))
        assert verdicts[0].status is Status.NOT_RUN  # type: ignore[attr-defined]
        assert verdicts[0].reason == "this case needs two GPUs"  # type: ignore[attr-defined]
    assert stats == [(1, 0), (0, 1)]
