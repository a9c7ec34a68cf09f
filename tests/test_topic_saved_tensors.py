"""Tests of the saved-tensors topic: its claims, the model they measure, the probes of
"Offloading in practice" on the CPU, and the scanner reading statements of those claims in
English, Japanese and Korean (tests/samples/scan-topics/saved-tensors/)."""

from __future__ import annotations

import pytest

from checker import registry
from checker.claims.saved_tensors import _model
from checker.scan.findings import FindingVerdict
from checker.text.languages import LANGS
from tests.helpers import claim_verdicts, sample, scan_prose

CLAIMS = registry.load().in_package("checker.claims.saved_tensors")


def test_ids_and_keys_carry_the_topic_prefix() -> None:
    for claim in CLAIMS:
        assert claim.id.startswith("saved-tensors/")
        assert all(key.startswith("st-") for key in claim.measures)


def test_every_myth_has_a_vocabulary() -> None:
    myths = [c for c in CLAIMS if c.expect.value == "fails"]
    assert myths
    assert all(c.vocabulary is not None for c in myths)


def test_memory_myths_are_decided_on_both_devices() -> None:
    claim = next(c for c in CLAIMS if c.id == "saved-tensors/myth-disable-reduces-memory")
    assert claim.devices == ("cpu", "cuda")


#: (language, line, claim, verdict) of every claim finding in the sample notes: each claim of
#: "Offloading in practice" stated once per language, the myth that save_on_cpu offloads only
#: activations stated (line 3) and denied (line 5). The CUDA-only claim is judged by the
#: recorded CUDA evidence (an H200, 2026-11-27); the claim save-on-cpu-frees-gpu-memory, whose
#: subject and predicate every line names, is kept out by its `unless` phrases or by the
#: sentence naming another subject.
OFFLOAD_STATEMENTS = {
    (lang, line, f"saved-tensors/{claim}", verdict)
    for lang in LANGS
    for line, claim, verdict in (
        (3, "myth-save-on-cpu-offloads-only-activations", FindingVerdict.CONTRADICTED),
        (5, "myth-save-on-cpu-offloads-only-activations", FindingVerdict.SUPPORTED),
        (7, "offload-hooks-can-keep-parameters", FindingVerdict.SUPPORTED),
        (9, "save-on-cpu-pin-memory-falls-back-without-cuda", FindingVerdict.SUPPORTED),
        (11, "save-on-cpu-pinned-copies-do-not-wait", FindingVerdict.SUPPORTED),
        (13, "myth-save-on-cpu-offloads-func-grad", FindingVerdict.CONTRADICTED),
        (15, "save-on-cpu-packs-vmap-batch-once", FindingVerdict.SUPPORTED),
    )
}


def test_the_scanner_reads_every_offloading_claim_in_three_languages() -> None:
    found = claim_verdicts(scan_prose(sample("scan-topics", "saved-tensors")))
    assert found == OFFLOAD_STATEMENTS


def test_the_offloading_claims_each_have_a_control_and_the_pinned_ones_their_device() -> None:
    offload = [c for c in CLAIMS if c.probe.__module__.startswith(f"{_OFFLOAD}.")]
    assert len(offload) == 6
    assert all(c.control is not None and c.vocabulary is not None for c in offload)
    devices = {c.id.removeprefix("saved-tensors/"): c.devices for c in offload}
    assert devices["save-on-cpu-pin-memory-falls-back-without-cuda"] == ("cpu",)
    assert devices["save-on-cpu-pinned-copies-do-not-wait"] == ("cuda",)
    assert [c.expect.value for c in offload].count("fails") == 2


_OFFLOAD = "checker.claims.saved_tensors.offload"
torch = pytest.importorskip("torch")


def test_ffn_model_and_batch_are_deterministic() -> None:
    first = _model.ffn_model("cpu")(_model.ffn_batch("cpu"))
    second = _model.ffn_model("cpu")(_model.ffn_batch("cpu"))
    assert torch.equal(first, second)
    assert first.shape == (_model.FFN_ROWS, _model.FFN_WIDTH)


def _measured(claim_id: str, control: bool = False) -> dict[str, object]:
    (claim,) = [c for c in CLAIMS if c.id == claim_id]
    probe = claim.control.probe if control and claim.control else claim.probe
    observation = probe("cpu")
    return {m.key: m.value for m in observation.measurements} | {"holds": observation.holds}


def test_save_on_cpu_sends_the_seven_weights_and_the_batch_besides_the_activations() -> None:
    # 7 saved weights of 512 x 128 float32 (the first layer's input does not require grad),
    # the 256 x 128 batch, and the 4587520 bytes of activations counted on the page
    assert _measured("saved-tensors/myth-save-on-cpu-offloads-only-activations") == {
        "st-offload-soc-parameter-bytes": 7 * 512 * 128 * 4,
        "st-offload-soc-batch-bytes": 256 * 128 * 4,
        "st-offload-soc-packed": 19,
        "st-offload-soc-activation-bytes": 4587520,
        "st-offload-soc-bytes": 6553600,
        "holds": False,
    }
    assert _measured("saved-tensors/myth-save-on-cpu-offloads-only-activations", True) == {
        "st-offload-keep-parameter-bytes": 0,
        "st-offload-keep-batch-bytes": 0,
        "holds": True,
    }


def test_hooks_keeping_the_parameters_send_seven_tenths_with_identical_gradients() -> None:
    assert _measured("saved-tensors/offload-hooks-can-keep-parameters") == {
        "st-offload-kept-bytes": 4587520,
        "st-offload-kept-ratio": 0.7,
        "st-offload-kept-same-gradients": True,
        "holds": True,
    }
    assert _measured("saved-tensors/offload-hooks-can-keep-parameters", True) == {
        "st-offload-none-kept-bytes": 6553600,
        "st-offload-none-kept-ratio": 1.0,
        "st-offload-none-kept-same-gradients": True,
        "holds": False,
    }


@pytest.mark.skipif(torch.cuda.is_available(), reason="the claim is about a machine without CUDA")
def test_without_cuda_pinned_save_on_cpu_copies_unpinned_and_torch_empty_raises() -> None:
    fallback = _measured("saved-tensors/save-on-cpu-pin-memory-falls-back-without-cuda")
    assert fallback == {
        "st-pin-soc-error": "no error",
        "st-pin-soc-pinned": False,
        "st-pin-soc-copied": True,
        "holds": True,
    }
    direct = _measured("saved-tensors/save-on-cpu-pin-memory-falls-back-without-cuda", True)
    assert str(direct["st-pin-empty-error"]).startswith("RuntimeError: ")
    assert (direct["st-pin-empty-pinned"], direct["holds"]) == (False, False)


def test_func_grad_refuses_save_on_cpu_and_autograd_grad_offloads_the_same_gradients() -> None:
    refused = "RuntimeError: torch.func.{grad, vjp, jacrev, hessian} don't yet support saved "
    grad = _measured("saved-tensors/myth-save-on-cpu-offloads-func-grad")
    errors = (
        "st-func-soc-grad-error",
        "st-func-soc-grad-vjp-error",
        "st-func-soc-grad-inside-error",
    )
    assert all(str(grad[key]).startswith(refused) for key in errors)
    assert (grad["st-func-soc-grad-packed"], grad["holds"]) == (0, False)
    assert _measured("saved-tensors/myth-save-on-cpu-offloads-func-grad", True) == {
        "st-func-soc-autograd-error": "no error",
        "st-func-soc-autograd-packed": 19,
        "st-func-soc-autograd-same-gradients": True,
        "holds": True,
    }


def test_vmap_packs_the_nineteen_tensors_of_the_batch_and_a_loop_nineteen_per_sample() -> None:
    assert _measured("saved-tensors/save-on-cpu-packs-vmap-batch-once") == {
        "st-func-soc-vmap-packed": 19,
        "st-func-soc-vmap-whole-batch-packed": 19,
        "st-func-soc-vmap-error": "no error",
        "holds": True,
    }
    looped = _measured("saved-tensors/save-on-cpu-packs-vmap-batch-once", True)
    assert (looped["st-func-soc-loop-packed"], looped["holds"]) == (19 * 256, False)
