"""Which sentences of an article's prose the scanner reads as statements
(``checker.scan.statements``): a sentence, not a heading or a lone word; examples read with the
sentence they illustrate; Korean sentences one at a time."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker import registry as registry_mod
from checker.claim import Claim
from checker.scan.document import Block, BlockKind
from checker.scan.statements import mentions_in
from checker.text import reading
from tests.helpers import scan_prose


@pytest.fixture(scope="module")
def claims() -> tuple[Claim, ...]:
    return tuple(registry_mod.load().claims)


def _claim_findings(sentence: str, folder: Path) -> list[tuple[str | None, str]]:
    """``(claim, verdict)`` of each claim finding of a prose scan of a one-sentence article."""
    (folder / "a.md").write_text(f"# t\n\n{sentence}\n", encoding="utf-8")
    result = scan_prose(folder)
    return [(f.claim, f.verdict.value) for f in result.findings if f.kind == "claim"]


def _read(text: str, lang: str, claims: tuple[Claim, ...]) -> list[tuple[int, str | None]]:
    """``(line, claim id or None)`` of every mention in a one-block article."""
    lines = tuple(range(1, text.count("\n") + 2))
    block = Block(BlockKind.PROSE, text, lines)
    return [
        (m.line, m.mention.claim.id if m.mention else None)
        for m in mentions_in(block, lang, claims)
    ]


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Automatic Mixed Precision package - torch.cuda.amp", "en"),
        ("inference_mode", "ko"),
        ("expand()", "ja"),
        ("PyTorch autograd 메모리 이해하기: 저장된 텐서, no_grad, inference_mode", "ko"),
        ("`torch.no_grad()` と `torch.inference_mode()`", "ja"),
    ],
)
def test_a_heading_or_a_lone_name_states_nothing(
    text: str, lang: str, claims: tuple[Claim, ...]
) -> None:
    assert _read(text, lang, claims) == []


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("torch.cuda.amp provides convenience methods for mixed precision.", "en"),
        ("inference_mode는 no_grad보다 더 빠르다.", "ko"),
        ("torch.inference_mode は torch.no_grad よりも高速に動作するとよく言われています", "ja"),
    ],
)
def test_a_sentence_that_names_an_api_is_reported_even_without_a_known_claim(
    text: str, lang: str, claims: tuple[Claim, ...]
) -> None:
    assert _read(text, lang, claims) == [(1, None)]


def test_an_example_list_is_read_with_the_sentence_it_illustrates(
    claims: tuple[Claim, ...],
) -> None:
    text = (
        "Many selection functions share memory with their input too.\n"
        "For example index_select() and gather()."
    )
    found = _read(text, "en", claims)
    assert (1, "views/myth-index-select-shares-memory") in found
    assert (1, "views/myth-gather-shares-memory") in found
    alone = _read("For example index_select() and gather().", "en", claims)
    assert all(claim is None for _, claim in alone)


def test_korean_sentences_are_read_one_at_a_time(claims: tuple[Claim, ...]) -> None:
    """A demonstrative (이 안에서, "inside it") refers to the API of the sentence before, and
    each sentence gets its own finding."""
    text = (
        "inference_mode는 no_grad보다 더 빠르다. "
        "이 안에서 만든 텐서도 나중에 학습에 그대로 쓸 수 있다."
    )
    assert [s for _, s in reading.sentences(text)] == [
        "inference_mode는 no_grad보다 더 빠르다.",
        "이 안에서 만든 텐서도 나중에 학습에 그대로 쓸 수 있다.",
    ]
    assert _read(text, "ko", claims) == [
        (1, None),
        (1, "saved-tensors/myth-inference-tensors-train-later"),
    ]


def test_small_gradients_that_do_not_underflow_agree_with_the_scaler_claim(
    claims: tuple[Claim, ...],
) -> None:
    """ "Do not underflow" is what GradScaler's claim says, not a denial of it."""
    text = "GradScaler scales the loss so small gradients do not underflow."
    block = Block(BlockKind.PROSE, text, (1,))
    (mention,) = [
        m.mention
        for m in mentions_in(block, "en", claims)
        if m.mention and m.mention.claim.id == "amp/gradscaler-recovers-small-gradients"
    ]
    assert mention.asserts


def test_an_english_sentence_in_a_japanese_article_is_read_in_english(
    claims: tuple[Claim, ...],
) -> None:
    """A quoted English sentence is read with the English vocabulary; its finding still
    belongs to the Japanese article (and links to the Japanese page)."""
    text = (
        "フォーラムの回答です。Running the forward pass inside disable_saved_tensors_hooks "
        "reduces the memory autograd uses."
    )
    found = mentions_in(Block(BlockKind.PROSE, text, (1,)), "ja", claims)
    (quoted,) = [m for m in found if m.mention is not None]
    assert quoted.mention is not None
    assert quoted.mention.claim.id == "saved-tensors/myth-disable-reduces-memory"
    assert (quoted.lang, quoted.read_in) == ("ja", "en")


@pytest.mark.parametrize(
    ("heading", "lang", "states"),
    [
        ("deepcopy와 계산 그래프", "ko", None),
        ("`deepcopy`는 계산 그래프를 유지한다", "ko", "data/myth-deepcopy-keeps-graph"),
        ("deepcopy と計算グラフ", "ja", None),
        ("deepcopy は計算グラフを保持する", "ja", "data/myth-deepcopy-keeps-graph"),
        ("deepcopy and the computation graph", "en", None),
        ("deepcopy keeps the computation graph", "en", "data/myth-deepcopy-keeps-graph"),
        ("Why index_select shares memory", "en", "views/myth-index-select-shares-memory"),
    ],
)
def test_a_heading_states_a_claim_only_with_a_verb(
    heading: str, lang: str, states: str | None, claims: tuple[Claim, ...]
) -> None:
    block = Block(BlockKind.PROSE, heading, (1,), heading=True)
    found = [m.mention.claim.id for m in mentions_in(block, lang, claims) if m.mention]
    assert found == ([states] if states else [])


def test_a_setting_written_as_code_names_its_subject(claims: tuple[Claim, ...]) -> None:
    text = (
        "`use_reentrant=True`로 두면 입력이 기울기를 요구하지 않을 때 파라미터에 기울기가 "
        "전달되지 않습니다."
    )
    assert _read(text, "ko", claims) == [(1, "checkpointing/reentrant-input-without-grad")]


@pytest.mark.parametrize(
    ("sentence", "lang", "found"),
    [
        # a device in the sentence picks the claim: CPU autocast keeps softmax's input dtype
        (
            "`autocast` の中でも `softmax` は CPU では常に float32 で計算されます。",
            "ja",
            [("amp/reductions-follow-input-on-cpu", "contradicted")],
        ),
        (
            "Under CUDA autocast, `softmax` returns float32.",
            "en",
            [("amp/reductions-float32-on-cuda", "supported")],
        ),
        # re-creating the scaler each iteration is the myth, whatever words say "each"
        (
            "It is fine to recreate the `GradScaler` every iteration.",
            "en",
            [("amp/gradscaler-lives-across-iterations", "contradicted")],
        ),
        (
            "`GradScaler` は毎回作り直しても問題ありません。",
            "ja",
            [("amp/gradscaler-lives-across-iterations", "contradicted")],
        ),
        (
            "`GradScaler`는 매 반복마다 새로 만들어도 괜찮습니다.",
            "ko",
            [("amp/gradscaler-lives-across-iterations", "contradicted")],
        ),
        # a claim about order is denied by the other order (checker.scan.order)
        (
            "勾配クリッピングは `unscale_` の前に行います。",
            "ja",
            [("amp/clip-after-unscale", "contradicted")],
        ),
        ("Do not clip before `unscale_`.", "en", [("amp/clip-after-unscale", "supported")]),
        ("클리핑 전에 `unscale_`를 호출합니다.", "ko", [("amp/clip-after-unscale", "supported")]),
    ],
)
def test_vocabulary_cases_found_by_a_blind_qiita_sample(
    sentence: str, lang: str, found: list[tuple[str | None, str]], tmp_path: Path
) -> None:
    assert _claim_findings(sentence, tmp_path) == found


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        # a clause after ';' that points back at the subject goes on about it
        (
            "You don't have to pass `use_reentrant`; the default works and prints nothing.",
            [("checkpointing/use-reentrant-omitted-warns", "contradicted")],
        ),
        # one that names another subject does not
        (
            "`index_select()` is handy; `view()` shares memory with the input.",
            [
                ("views/view-and-reshape-share-storage", "supported"),
                ("views/myth-index-select-shares-memory", "unverified"),
            ],
        ),
    ],
)
def test_a_clause_after_a_semicolon_that_points_back_keeps_its_subject(
    sentence: str, found: list[tuple[str, str]], tmp_path: Path
) -> None:
    assert _claim_findings(sentence, tmp_path) == found


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        # a subject set against the sentence's own: the predicate is not said of it
        (
            "Unlike `index_select()`, slicing returns a view that shares memory.",
            [("views/myth-index-select-shares-memory", "supported")],
        ),
        (
            "`index_select()`와 달리 슬라이싱은 메모리를 공유하는 뷰를 반환합니다.",
            [("views/myth-index-select-shares-memory", "supported")],
        ),
        # a negation that is part of the claim's own words ("아무것도 저장되지 않") is no denial
        (
            "`torch.no_grad()` 안에서는 역전파를 위해 아무것도 저장되지 않습니다.",
            [("saved-tensors/no-grad-holds-nothing", "supported")],
        ),
        (
            "`index_select()`는 슬라이싱과 달리 새 메모리에 결과를 복사합니다.",
            [("views/myth-index-select-shares-memory", "supported")],
        ),
        # a hedge ("may ... depending on") states no rule
        (
            "`reshape()` may return a view or a copy, depending on the strides.",
            [
                ("views/view-and-reshape-share-storage", "unverified"),
                ("views/reshape-copies-non-contiguous", "unverified"),
            ],
        ),
        # English: the predicate after the subject ("avoids a copy"), not the clause before
        (
            "`torch.tensor()` always copies, while `torch.as_tensor()` avoids a copy when it can.",
            [
                ("views/torch-tensor-copies", "supported"),
                ("views/as-tensor-shares-when-dtype-and-device-match", "supported"),
            ],
        ),
    ],
)
def test_correct_sentences_a_precision_test_found_contradicted(
    sentence: str, found: list[tuple[str, str]], tmp_path: Path
) -> None:
    assert _claim_findings(sentence, tmp_path) == found


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        # the predicate's words describe the subject; the negation after it denies the rest
        (
            "In-place methods like `add_` do not allocate a new tensor.",
            [
                ("inplace/underscore-methods-return-self", "unverified"),
                ("inplace/out-and-in-place-allocate-nothing", "supported"),
            ],
        ),
        (
            "An in-place op such as `add_` cannot change the dtype of its tensor.",
            [
                ("promotion/in-place-keeps-dtype", "supported"),
                ("inplace/underscore-methods-return-self", "unverified"),
            ],
        ),
        # Japanese and Korean: the subject given as an example of the phrase that holds them
        (
            "`add_` のようなインプレース演算は dtype を変えられません。",
            [
                ("promotion/in-place-keeps-dtype", "supported"),
                ("inplace/underscore-methods-return-self", "unverified"),
            ],
        ),
        (
            "`add_` 같은 인플레이스 메서드는 새 텐서를 할당하지 않습니다.",
            [
                ("inplace/underscore-methods-return-self", "unverified"),
                ("inplace/out-and-in-place-allocate-nothing", "supported"),
            ],
        ),
        # the predicate after its subject is what the negation denies
        (
            "`add_` はインプレース演算ではありません。",
            [("inplace/underscore-methods-return-self", "contradicted")],
        ),
        (
            "`add_`는 인플레이스 연산이 아닙니다.",
            [("inplace/underscore-methods-return-self", "contradicted")],
        ),
        (
            "`view()` 같은 연산은 데이터를 복사하지 않습니다.",
            [("views/view-and-reshape-share-storage", "supported")],
        ),
        (
            "`add_` is not an in-place method.",
            [("inplace/underscore-methods-return-self", "contradicted")],
        ),
        # a negation before the predicate, in a passive sentence, denies it too
        (
            "Memory is not shared by `index_select()`.",
            [("views/myth-index-select-shares-memory", "supported")],
        ),
    ],
)
def test_a_predicate_that_only_describes_the_subject_is_not_what_a_negation_denies(
    sentence: str, found: list[tuple[str, str]], tmp_path: Path
) -> None:
    assert _claim_findings(sentence, tmp_path) == found


def test_an_article_in_a_language_we_do_not_read_is_read_with_the_source_rules(
    tmp_path: Path,
) -> None:
    """Chinese (Han without kana) is no language we read: the scanner reads the article with
    the English rules, so the API it names is reported and its Han is not read as Japanese
    (as Japanese, 半精度 made this sentence state three claims about autocast)."""
    (tmp_path / "a.md").write_text(
        "# 张量\n\n在 `autocast` 区域内，`torch.relu()` 以半精度计算。\n", encoding="utf-8"
    )
    findings = [(f.lang, f.claim, f.verdict.value) for f in scan_prose(tmp_path).findings]
    assert findings == [("en", None, "unverified")]


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        # a negation that bears on a quantifier: not true of all is not false
        (
            "No, `autocast` does not cast every operation to float16, because many are not "
            "stable enough in it.",
            [("amp/matmul-linear-conv-run-in-lower-precision", "unverified")],
        ),
        (
            "`autocast` はすべての演算を float16 にするわけではありません。",
            [("amp/matmul-linear-conv-run-in-lower-precision", "unverified")],
        ),
        (
            "`autocast`는 모든 연산을 float16으로 바꾸는 것은 아니다.",
            [("amp/matmul-linear-conv-run-in-lower-precision", "unverified")],
        ),
        # the same claims denied outright: still contradicted
        (
            "`autocast` does not run `matmul` in float16.",
            [("amp/matmul-linear-conv-run-in-lower-precision", "contradicted")],
        ),
        (
            "`autocast`는 `matmul`을 float16으로 실행하지 않는다.",
            [("amp/matmul-linear-conv-run-in-lower-precision", "contradicted")],
        ),
        # a hedged negation ("may not") is no denial
        (
            "`requires_grad=True`인 텐서에 in-place 연산을 하면 계산 그래프가 제대로 기록되지 "
            "않을 수 있다.",
            [("saved-tensors/graph-needs-requires-grad", "unverified")],
        ),
        (
            "`requires_grad` が True のテンソルでは計算グラフが記録されないかもしれません。",
            [("saved-tensors/graph-needs-requires-grad", "unverified")],
        ),
        (
            "`requires_grad=True`인 텐서에 in-place 연산을 하면 계산 그래프가 기록되지 않는다.",
            [("saved-tensors/graph-needs-requires-grad", "contradicted")],
        ),
        # "and it" opens a clause about something else than autograd, the agent before it
        (
            "`clone()` is tracked by autograd and it makes a copy of the data.",
            [
                ("saved-tensors/myth-saving-copies-tensors", "unverified"),
                ("views/clone-copies-and-stays-in-graph", "unverified"),
            ],
        ),
        (
            "In PyTorch, autograd makes a copy of every tensor it saves.",
            [("saved-tensors/myth-saving-copies-tensors", "contradicted")],
        ),
        # the words of a link state nothing; the same words as a sentence do
        ("Source: https://example.org/posts/why-detach-makes-a-copy-of-the-tensor", []),
        ("Read why-detach-makes-a-copy-of-the-tensor next.", []),
        (
            "`detach()` makes a copy of the tensor.",
            [("views/detach-shares-storage-outside-graph", "contradicted")],
        ),
    ],
)
def test_shapes_of_real_posts_that_were_false_alarms(
    sentence: str, found: list[tuple[str, str]], tmp_path: Path
) -> None:
    assert _claim_findings(sentence, tmp_path) == found
