"""What the scanner says about prose: our own pages and catalogs never cry wolf, and the three
source articles' false statements are found at the lines our reviews name.

The articles live beside the project (``../shared/seeds``), not in it: they are not ours to
copy. Where they are absent the seed test is skipped with that reason; the others always run.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from checker import registry
from checker.scan.findings import FindingVerdict, ScanFinding
from checker.scan.run import ScanOptions, scan
from checker.text.languages import LANGS
from tests.helpers import ROOT

SEEDS = ROOT.parent / "shared" / "seeds"
PROSE_ONLY = ScanOptions(run_code=False, project_root=ROOT)


def scan_prose(*paths: Path, kinds: tuple[str, ...] = ("claim",)) -> list[ScanFinding]:
    findings = scan(list(paths), registry.load(), PROSE_ONLY).findings
    return [f for f in findings if f.kind in kinds]


def test_our_pages_and_catalogs_contradict_nothing() -> None:
    everything = scan_prose(ROOT / "docs", ROOT / "locales", kinds=("claim", "api"))
    contradicted = [
        f"{f.path}:{f.line} [{f.claim or f.kind}] {f.quote}"
        for f in everything
        if f.verdict in (FindingVerdict.CONTRADICTED, FindingVerdict.BROKEN)
    ]
    assert contradicted == []
    # The API names our pages use all exist; the deprecated ones are named as such on purpose.
    assert {f.verdict for f in everything if f.kind == "api"} == {FindingVerdict.OUTDATED}
    findings = [f for f in everything if f.kind == "claim"]
    by_lang = Counter(f.lang for f in findings if f.verdict is FindingVerdict.SUPPORTED)
    # The scanner does read them: each language has statements it recognises and confirms.
    assert min(by_lang[lang] for lang in LANGS) >= 20


#: (seed file prefix, line, claim) of every statement the scanner finds contradicted; each is a
#: row our review of that article marks false (docs/reviews/*.md).
CONTRADICTED = {
    "000": {
        (2, "saved-tensors/myth-disable-reduces-memory"),
        (2, "saved-tensors/myth-disable-reduces-compute"),
        # "this context manager" (the title's disable_saved_tensors_hooks) does these
        (3, "saved-tensors/myth-disable-stops-saving"),
        (8, "saved-tensors/myth-disable-stops-saving"),
        (20, "saved-tensors/myth-disable-reduces-memory"),
        (20, "saved-tensors/myth-disable-reduces-compute"),
        (21, "saved-tensors/myth-disable-breaks-gradients"),
        (41, "saved-tensors/myth-disable-reduces-memory"),
        (41, "saved-tensors/myth-disable-reduces-compute"),
        (42, "saved-tensors/myth-disable-breaks-gradients"),
        (5, "saved-tensors/myth-autograd-saves-every-intermediate"),
        (50, "saved-tensors/myth-del-reduces-compute"),
        (60, "saved-tensors/myth-pool-shares-tensor-without-copy"),
        (73, "saved-tensors/myth-numpy-rand-saves-memory"),
    },
    "001": {
        # "this function" (custom_bwd) recomputes in higher precision: rows 3 and 34 of the
        # review; line 9 says it of the same function, combining with high-precision outputs
        (3, "amp/myth-custom-bwd-recomputes-in-higher-precision"),
        (9, "amp/myth-custom-bwd-recomputes-in-higher-precision"),
        (34, "amp/myth-custom-bwd-recomputes-in-higher-precision"),
        (5, "amp/myth-custom-bwd-takes-args-outputs-inputs"),
        (23, "amp/activations-follow-input-dtype"),
        (23, "amp/myth-relu-runs-in-lower-precision"),
        (23, "amp/myth-custom-bwd-recomputes-in-higher-precision"),
        (37, "amp/myth-custom-bwd-only-for-complex-gradients"),
        (38, "amp/myth-custom-bwd-cuda-only"),
        (92, "amp/activations-follow-input-dtype"),
        (92, "amp/myth-relu-runs-in-lower-precision"),
    },
    "002": {
        (85, "views/myth-index-select-shares-memory"),
        (85, "views/myth-masked-select-shares-memory"),
        (85, "views/myth-gather-shares-memory"),
        (257, "views/myth-detach-metadata-change-raises"),
    },
}

#: Statements the reviews call true, which the scanner confirms.
SUPPORTED = {
    "000": {
        (2, "saved-tensors/disable-is-a-context-manager"),
        (50, "saved-tensors/del-frees-unsaved-intermediate"),
    },
    "001": {(90, "amp/matmul-linear-conv-run-in-lower-precision")},
    "002": {
        (80, "views/view-and-reshape-share-storage"),
        (169, "views/detach-shares-storage-outside-graph"),
        (169, "views/detach-sees-in-place-updates"),
        # "new tensors may still share memory, for example detach()": the example is read
        # with the sentence it illustrates (the review's row for lines 113 and 170)
        (170, "views/detach-shares-storage-outside-graph"),
        (181, "views/sharing-tensors-have-different-ids"),
    },
}


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the source articles are not at {SEEDS}")
@pytest.mark.parametrize("seed", sorted(CONTRADICTED))
def test_the_source_articles_false_statements_are_found(seed: str) -> None:
    (path,) = SEEDS.glob(f"{seed}_*.txt")
    findings = scan_prose(path)
    judged = {
        verdict: {(f.line, f.claim) for f in findings if f.verdict is verdict}
        for verdict in (FindingVerdict.CONTRADICTED, FindingVerdict.SUPPORTED)
    }
    assert judged[FindingVerdict.CONTRADICTED] == CONTRADICTED[seed]
    assert judged[FindingVerdict.SUPPORTED] == SUPPORTED[seed]
    for finding in findings:
        if finding.verdict is FindingVerdict.CONTRADICTED:
            lang = "ko" if seed == "002" else "ja"
            assert finding.lang == lang
            assert finding.link and f"/{lang}/" in finding.link and "#claim-" in finding.link
            assert "holds" in finding.evidence or "fails" in finding.evidence


#: Per seed, the snippets our reviews list as not compiling as published (flattened blocks:
#: "does-not-compile (line N)"), which the scanner must report broken at that line, and the
#: snippets the reviews call valid once the page's indentation is removed or ``torch`` is
#: imported, which it must not flag.
BROKEN_SNIPPETS = {
    "000": {13, 27, 36, 64},
    "001": {16, 43, 61, 103, 140},
    "002": {38},
}
WORKING_SNIPPETS = {"002": {115, 123, 133, 149, 172, 186, 208, 237}}


@pytest.fixture(scope="module")
def seed_snippets() -> dict[str, list[ScanFinding]]:
    paths = sorted(SEEDS.glob("*.txt"))
    result = scan(paths, registry.load(), ScanOptions(project_root=ROOT))
    return {
        seed: [f for f in result.findings if f.kind == "snippet" and Path(f.path).name[:3] == seed]
        for seed in BROKEN_SNIPPETS
    }


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the source articles are not at {SEEDS}")
@pytest.mark.parametrize("seed", sorted(BROKEN_SNIPPETS))
def test_the_source_articles_broken_snippets_are_found(
    seed: str, seed_snippets: dict[str, list[ScanFinding]]
) -> None:
    findings = seed_snippets[seed]
    broken = {f.line for f in findings if f.verdict is FindingVerdict.BROKEN}
    assert broken == BROKEN_SNIPPETS[seed]
    working = {f.line for f in findings if f.line in WORKING_SNIPPETS.get(seed, set())}
    assert working == WORKING_SNIPPETS.get(seed, set())
    assert not any(
        f.verdict in (FindingVerdict.BROKEN, FindingVerdict.CONTRADICTED)
        for f in findings
        if f.line in WORKING_SNIPPETS.get(seed, set())
    )


@pytest.mark.parametrize(
    ("quote", "lang", "flagged"),
    [
        ("Wrap the forward pass in `torch.cuda.amp.autocast()`.", "en", True),
        ("`torch.cuda.amp.autocast` is deprecated; use `torch.amp.autocast('cuda')`.", "en", False),
        ("`torch.cuda.amp.autocast` は非推奨です。", "ja", False),
        ("`torch.cuda.amp.autocast`는 이제 권장되지 않습니다.", "ko", False),
    ],
)
def test_a_deprecated_name_is_outdated_unless_the_sentence_says_so(
    quote: str, lang: str, flagged: bool
) -> None:
    from checker.scan.api import Reference, findings

    ref = Reference("torch.cuda.amp.autocast", 3, "prose", quote)
    facts = {"exists": True, "deprecated": "use torch.amp.autocast('cuda')", "missing": ""}
    found = findings([ref], {ref.name: facts}, {}, "2.13.0", "a.md", lang)
    assert [f.verdict for f in found] == ([FindingVerdict.OUTDATED] if flagged else [])
