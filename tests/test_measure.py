"""Tests of checker/measure.py, the measuring helpers the probes share."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from checker import measure

ROOT = Path(__file__).resolve().parents[1]


def test_measure_does_not_import_torch() -> None:
    code = "import sys, checker.measure; sys.exit('torch' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False)
    assert result.returncode == 0


def test_level_at_takes_the_last_event_not_after_the_mark() -> None:
    levels = [(10, 100), (20, 300), (30, 50)]
    assert measure._level_at(levels, 5) == 0
    assert measure._level_at(levels, 20) == 300
    assert measure._level_at(levels, 25) == 300
    assert measure._level_at(levels, 99) == 50


def test_error_text_and_caught_warnings() -> None:
    assert measure.error_text(lambda: None) == "no error"
    assert measure.error_text(lambda: 1 / 0).startswith("ZeroDivisionError")

    def warn() -> int:
        import warnings

        warnings.warn("careful", FutureWarning, stacklevel=1)
        return 3

    result, caught = measure.caught_warnings(warn)
    assert result == 3
    assert caught == [("FutureWarning", "careful")]


torch = pytest.importorskip("torch")


def test_shares_storage_tells_a_view_from_a_copy() -> None:
    x = torch.zeros(8)
    assert measure.shares_storage(x[2:], x)
    assert not measure.shares_storage(x.clone(), x)


def test_trace_memory_on_cpu_reports_marks_peak_and_end() -> None:
    def run(mark: Any) -> Any:
        a = torch.empty(1024, dtype=torch.float32)  # 4 KiB
        mark("one")
        b = torch.empty(2048, dtype=torch.float32)  # 8 KiB
        mark("two")
        del a, b
        mark("none")
        return torch.empty(256, dtype=torch.float32)  # 1 KiB, kept

    kept, trace = measure.trace_memory(run, "cpu")
    assert trace.marks == {"one": 4096, "two": 12288, "none": 0}
    assert trace.peak == 12288
    assert trace.end == kept.nbytes == 1024


def test_trace_memory_on_cpu_sees_the_temporary_of_slice_assignment() -> None:
    x = torch.ones(256, 256)

    def assign(mark: Any) -> Any:
        y = torch.zeros(256, 256)
        y[:] = y + x
        return y

    def add_(mark: Any) -> Any:
        y = torch.zeros(256, 256)
        return y.add_(x)

    nbytes = x.nbytes
    _, assigned = measure.trace_memory(assign, "cpu")
    _, added = measure.trace_memory(add_, "cpu")
    assert (assigned.peak, assigned.end) == (2 * nbytes, nbytes)
    assert (added.peak, added.end) == (nbytes, nbytes)


def test_packed_gives_the_tensors_autograd_saves_in_order() -> None:
    x = torch.randn(4, 4, requires_grad=True)
    w = torch.randn(4, 4, requires_grad=True)
    out, tensors = measure.packed(lambda: x.mm(w).exp())
    assert len(tensors) == 3
    assert {id(t) for t in tensors[:2]} == {id(x), id(w)}  # mm saves both inputs, first
    assert measure.shares_storage(tensors[2], out)  # exp saves its output, last
    out.sum().backward()  # the hooks kept the graph usable
    assert x.grad is not None


def test_saved_bytes_leaves_out_excluded_storages() -> None:
    x = torch.randn(16, 16, requires_grad=True)
    w = torch.randn(16, 16, requires_grad=True)
    out, saved = measure.saved_bytes(lambda: x.mm(w).exp(), exclude=[w])
    assert saved.packs == 3  # mm saves x and w, exp saves its output
    assert saved.bytes == 2 * 16 * 16 * 4  # x and the output
    assert saved.all_bytes == 3 * 16 * 16 * 4
    out.sum().backward()  # the hooks kept the graph usable
    assert x.grad is not None


def test_count_work_counts_matrix_product_flops() -> None:
    a = torch.randn(32, 32)
    _, work = measure.count_work(lambda: a.mm(a))
    _, again = measure.count_work(lambda: a.mm(a))
    assert work.ops >= 1  # aten::mm, and the operators it calls
    assert work == again
    assert work.flops == 2 * 32**3


def test_count_kernels_counts_operators_by_name() -> None:
    a = torch.randn(4, 4, requires_grad=True)
    _, counts = measure.count_kernels(lambda: a.mm(a).relu().sum().backward(), ("mm", "relu"))
    assert counts == {"mm": 3, "relu": 1}  # forward, then the two gradients of mm
