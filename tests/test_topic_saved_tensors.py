"""Tests of the saved-tensors topic: its claim module and the measuring helpers it relies on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from checker.claims import saved_tensors
from checker.probes import autograd_memory

ROOT = Path(__file__).resolve().parents[1]


def test_claim_module_does_not_import_torch() -> None:
    code = (
        "import sys, checker.claims.saved_tensors, checker.probes.autograd_memory; "
        "sys.exit('torch' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False)
    assert result.returncode == 0


def test_ids_and_keys_carry_the_topic_prefix() -> None:
    for claim in saved_tensors.CLAIMS:
        assert claim.id.startswith("saved-tensors/")
        assert all(key.startswith("st-") for key in claim.measures)


def test_every_myth_has_a_vocabulary() -> None:
    myths = [c for c in saved_tensors.CLAIMS if c.expect.value == "fails"]
    assert myths
    assert all(c.vocabulary is not None for c in myths)


def test_memory_myths_are_decided_on_both_devices() -> None:
    claim = next(
        c for c in saved_tensors.CLAIMS if c.id == "saved-tensors/myth-disable-reduces-memory"
    )
    assert claim.devices == ("cpu", "cuda")


def test_level_at_takes_the_last_event_not_after_the_mark() -> None:
    levels = [(10, 100), (20, 300), (30, 50)]
    assert autograd_memory._level_at(levels, 5) == 0
    assert autograd_memory._level_at(levels, 20) == 300
    assert autograd_memory._level_at(levels, 25) == 300
    assert autograd_memory._level_at(levels, 99) == 50


torch = pytest.importorskip("torch")


def test_trace_memory_on_cpu_reports_marks_peak_and_end() -> None:
    def run(mark: Any) -> Any:
        a = torch.empty(1024, dtype=torch.float32)  # 4 KiB
        mark("one")
        b = torch.empty(2048, dtype=torch.float32)  # 8 KiB
        mark("two")
        del a, b
        mark("none")
        return torch.empty(256, dtype=torch.float32)  # 1 KiB, kept

    kept, trace = autograd_memory.trace_memory(run, "cpu")
    assert trace.marks == {"one": 4096, "two": 12288, "none": 0}
    assert trace.peak == 12288
    assert trace.end == kept.nbytes == 1024


def test_saved_bytes_leaves_out_excluded_storages() -> None:
    x = torch.randn(16, 16, requires_grad=True)
    w = torch.randn(16, 16, requires_grad=True)
    out, saved = autograd_memory.saved_bytes(lambda: x.mm(w).exp(), exclude=[w])
    assert saved.packs == 3  # mm saves x and w, exp saves its output
    assert saved.bytes == 2 * 16 * 16 * 4  # x and the output
    assert saved.all_bytes == 3 * 16 * 16 * 4
    out.sum().backward()  # the hooks kept the graph usable
    assert x.grad is not None


def test_count_work_counts_matrix_product_flops() -> None:
    a = torch.randn(32, 32)
    _, work = autograd_memory.count_work(lambda: a.mm(a))
    _, again = autograd_memory.count_work(lambda: a.mm(a))
    assert work.ops >= 1  # aten::mm, and the operators it calls
    assert work == again
    assert work.flops == 2 * 32**3


def test_ffn_model_and_batch_are_deterministic() -> None:
    first = autograd_memory.ffn_model("cpu")(autograd_memory.ffn_batch("cpu"))
    second = autograd_memory.ffn_model("cpu")(autograd_memory.ffn_batch("cpu"))
    assert torch.equal(first, second)
    assert first.shape == (autograd_memory.FFN_ROWS, autograd_memory.FFN_WIDTH)
