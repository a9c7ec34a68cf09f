"""The scanner on real public posts nobody here wrote (issue 23): every error it finds in
``../shared/real-articles`` stays found, and it raises no false alarm there.

The posts and their answer key live beside the project, not in it: they are measurement data,
not ours to copy. Where they are absent the tests are skipped with that reason. The whole
picture (what is missed and why, per language and kind, the time per article) is printed by
``benchmarks/real_articles.py``.
"""

from __future__ import annotations

import pytest

from checker import registry
from checker.scan.run import ScanOptions, scan
from tests.answer_key import Score, load_key, score
from tests.helpers import ROOT

ARTICLES = ROOT.parent / "shared" / "real-articles"

#: The errors of the key the scanner finds today (``article:id``): losing one fails.
FOUND = frozenset(
    {
        "01_ja_iifx-detach-clone-deepcopy.txt:C1",
        "01_ja_iifx-detach-clone-deepcopy.txt:C3",
        "01_ja_iifx-detach-clone-deepcopy.txt:C5",
        "01_ja_iifx-detach-clone-deepcopy.txt:S1",
        "01_ja_iifx-detach-clone-deepcopy.txt:S2",
        "01_ja_iifx-detach-clone-deepcopy.txt:S3",
        "02_ja_iifx-variable-data-inplace.txt:C4",
        "02_ja_iifx-variable-data-inplace.txt:S1",
        "02_ja_iifx-variable-data-inplace.txt:S2",
        "02_ja_iifx-variable-data-inplace.txt:S3",
        "03_ja_iifx-as-tensor-vs-from-numpy.txt:C1",
        "03_ja_iifx-as-tensor-vs-from-numpy.txt:C2",
        "03_ja_iifx-as-tensor-vs-from-numpy.txt:C8",
        "04_ja_runebook-amp-guide.txt:C5",
        "05_ja_runebook-checkpoint-sequential.txt:C4",
        "06_ko_ds31x-inplace-ops.txt:C1",
        "06_ko_ds31x-inplace-ops.txt:S1",
        "07_ko_sanghyu-from-numpy.txt:C1",
        "08_ko_tutorials-kr-saved-tensors-hooks.txt:F",
        "08_ko_tutorials-kr-saved-tensors-hooks.txt:S14",
        "08_ko_tutorials-kr-saved-tensors-hooks.txt:S17",
        "09_ko_velog-gradscaler-autocast.txt:C5",
        "10_en_androidkt-clone-detach-deepcopy.txt:C1",
        "12_en_pytorch-docs-2.2-amp.txt:C1",
        "13_ja_silicloud-view.txt:C1",
        "14_ja_runebook-reshape-as.txt:C1",
        "14_ja_runebook-reshape-as.txt:C2",
        "15_ja_mastering-pytorch-storage.txt:C1",
        "17_ja_runebook-allow-mutation.txt:C1",
        "19_ja_runebook-multiply.txt:C1",
        "20_ko_velog-jsyeon-autograd.txt:S1",
        "23_ko_runebook-checkpoint.txt:C1",
        "24_ko_selab-autograd-notebook.txt:C1",
        "24_ko_selab-autograd-notebook.txt:C2",
        "25_ko_velog-lkl4502-week1.txt:C1",
        "27_en_taourl-inplace-error.txt:C1",
        "28_en_discuss-inplace-is-leaf.txt:C1",
        "29_en_runebook-inplacefunction-forward.txt:C1",
        "29_en_runebook-inplacefunction-forward.txt:S1",
        "30_en_devgem-retain-graph.txt:C1",
    }
)


@pytest.fixture(scope="module")
def outcome() -> Score:
    if not (ARTICLES / "key.json").is_file():
        pytest.skip(f"the real articles are not beside the project ({ARTICLES})")
    errors, neutral = load_key(ARTICLES)
    paths = sorted(p for p in ARTICLES.glob("[0-9]*") if p.is_file())
    result = scan(paths, registry.load(), ScanOptions(project_root=ROOT))
    return score(result, errors, neutral)


def test_every_error_found_before_is_still_found(outcome: Score) -> None:
    found = {f"{e.article}:{e.name}" for e in outcome.found}
    assert sorted(FOUND - found) == []


def test_the_key_names_every_pinned_error(outcome: Score) -> None:
    keyed = {f"{e.article}:{e.name}" for e in outcome.errors}
    assert sorted(FOUND - keyed) == []


def test_no_false_alarm(outcome: Score) -> None:
    alarms = [f"{a['article']}:{a['line']} {a['evidence'][:120]}" for a in outcome.false_alarms]
    assert alarms == []
