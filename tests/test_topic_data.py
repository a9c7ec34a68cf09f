"""Tests of the topic "Tensors made from data": its claims, and the scanner reading
statements of its claims in English, Japanese and Korean (``tests/samples/scan-data/``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker import registry
from checker.scan.findings import FindingVerdict
from checker.scan.run import ScanOptions, scan
from checker.text.languages import LANGS
from tests.helpers import ROOT, sample

C, S = FindingVerdict.CONTRADICTED, FindingVerdict.SUPPORTED
CLAIMS = registry.load().in_package("checker.claims.data")


def test_ids_and_keys_carry_the_topic_prefix() -> None:
    for claim in CLAIMS:
        assert claim.topic == "data", claim.id
        assert all(key.startswith("data-") for key in claim.all_measures), claim.id


def test_every_claim_has_a_control_and_a_vocabulary() -> None:
    assert len(CLAIMS) == 21
    assert all(c.control is not None and c.vocabulary is not None for c in CLAIMS)
    myths = {c.id for c in CLAIMS if c.expect.value == "fails"}
    assert myths == {
        "data/myth-tensor-class-always-copies",
        "data/myth-deepcopy-keeps-graph",
        "data/myth-from-numpy-refuses-int8",
        "data/myth-as-tensor-int-array-gives-float32",
    }


#: (line, claim, verdict) of every claim finding, the same in each language's sample: one
#: statement per line, the first also denying the myth that torch.Tensor always copies, the
#: a false one about .data (it shares memory, as detach() does); then the dtypes from_numpy and
#: as_tensor keep (two myths stated: int8 refused, integer arrays made float32), clone() of a
#: from_numpy tensor, .to() returning the tensor itself, and NumPy's strides in bytes.
FINDINGS = {
    (3, "data/tensor-class-shares-float32-arrays", S),
    (3, "data/myth-tensor-class-always-copies", S),
    (5, "data/myth-tensor-class-always-copies", C),
    (7, "data/asarray-copy-argument", S),
    (9, "data/numpy-force-shares-on-cpu", C),
    (11, "data/negative-strides-refused", S),
    (13, "data/from-numpy-not-resizable", S),
    (15, "data/deepcopy-leaf-copies-memory-and-grad", S),
    (17, "data/deepcopy-non-leaf-raises", S),
    (19, "data/myth-deepcopy-keeps-graph", C),
    (21, "data/deepcopy-of-view-copies-whole-storage", S),
    (23, "data/np-shares-memory-gets-both-cases", S),
    (25, "data/copying-constructors-cost-grows-with-size", S),
    (27, "data/deepcopy-keeps-shared-storage", S),
    (29, "data/dot-data-shares-without-version", C),
    (31, "data/from-numpy-keeps-int32", S),
    (33, "data/myth-from-numpy-refuses-int8", C),
    (35, "data/myth-as-tensor-int-array-gives-float32", C),
    (37, "data/from-numpy-clone-does-not-share", S),
    (39, "data/to-same-dtype-returns-self", S),
    (41, "data/numpy-strides-count-bytes", S),
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_scanner_reads_each_claim_in_each_language(lang: str) -> None:
    path = sample("scan-data") / f"{lang}.md"
    result = scan([path], registry.load(), ScanOptions(run_code=False, project_root=ROOT))
    found = [(f.line, f.claim, f.verdict) for f in result.findings if f.kind == "claim"]
    assert len(found) == len(FINDINGS) == 21
    assert set(found) == FINDINGS
    assert {f.lang for f in result.findings if f.kind == "claim"} == {lang}


@pytest.mark.parametrize(
    ("sentence", "verdict"),
    [
        # a copy said as the copy itself, the memory it takes, or how arguments are passed
        ("`torch.Tensor()` allocates new memory for a NumPy array.", C),
        ("`torch.Tensor()` takes a NumPy array call by value.", C),
        ("`torch.Tensor()` は NumPy 配列から新しいメモリ領域を作る。", C),
        ("`torch.Tensor()` は NumPy 配列を値渡しで受け取る。", C),
        ("`torch.Tensor()`는 NumPy 배열의 사본을 만든다.", C),
        ("`torch.Tensor()`는 NumPy 배열을 변환할 때 새 메모리를 할당한다.", C),
        ("`torch.Tensor()`는 NumPy 배열을 call by value로 받는다.", C),
        # the same memory denies the myth
        ("`torch.Tensor()` uses the same memory as a float32 NumPy array.", S),
        ("`torch.Tensor()` は float32 の NumPy 配列と同じメモリを使う。", S),
        ("`torch.Tensor()`는 float32 NumPy 배열과 같은 메모리를 쓴다.", S),
    ],
)
def test_the_copy_myth_is_read_in_the_words_posts_use(
    sentence: str, verdict: FindingVerdict, tmp_path: Path
) -> None:
    (tmp_path / "a.md").write_text(f"# t\n\n{sentence}\n", encoding="utf-8")
    result = scan([tmp_path], registry.load(), ScanOptions(run_code=False, project_root=ROOT))
    found = {(f.claim, f.verdict) for f in result.findings if f.kind == "claim"}
    assert ("data/myth-tensor-class-always-copies", verdict) in found
    assert all(v is not C for _, v in found) or verdict is C


torch = pytest.importorskip("torch")


def test_every_cpu_claim_is_confirmed_and_its_control_flips() -> None:
    for claim in CLAIMS:
        assert "cpu" in claim.devices, claim.id
        observation = claim.probe("cpu")
        assert observation.holds == (claim.expect.value == "holds"), claim.id
        assert {m.key for m in observation.measurements} == set(claim.measures), claim.id
        assert claim.control is not None
        control = claim.control.probe("cpu")
        assert control.holds != observation.holds, claim.id
        assert {m.key for m in control.measurements} == set(claim.control.measures), claim.id


@pytest.mark.parametrize(
    "sentence",
    [
        # .to() copies when something changes; only .to() to what the tensor has returns it
        "`.to()` returns a copy when the dtype changes.",
        "`.to()` は dtype が変わるとコピーを返す。",
        "`.to()`는 dtype이 바뀌면 복사본을 반환한다.",
        # the legacy constructor makes float32, not torch.as_tensor
        "`torch.as_tensor` keeps the integer dtype of the array, while `torch.Tensor` gives "
        "float32.",
        "`torch.from_numpy(a)` shares memory, so call `.clone()` if you need an independent copy.",
    ],
)
def test_true_sentences_near_the_dtype_and_copy_claims_are_not_contradicted(
    sentence: str, tmp_path: Path
) -> None:
    (tmp_path / "a.md").write_text(f"# t\n\n{sentence}\n", encoding="utf-8")
    result = scan([tmp_path], registry.load(), ScanOptions(run_code=False, project_root=ROOT))
    assert C not in {f.verdict for f in result.findings if f.kind == "claim"}
