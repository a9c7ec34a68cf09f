"""Claims of "Operations that copy" (docs/topics/views-and-inplace.md, ``(vi-copies)=``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.views._tensors import (
    _COPY,
    _SHARE,
    SIDE,
    _allocated,
    _grid,
    _reaches,
    _square,
    _warning,
)
from checker.evidence import Measurement, Observation
from checker.measure import shares_storage
from checker.typing import Device, Lang


def _selection_myth(device: Device, name: str) -> Observation:
    """Shared probe of the three selection myths: ``name`` is the function tested."""
    import torch

    x = _square(device)
    every = torch.arange(SIDE, device=device)
    mask = torch.ones_like(x, dtype=torch.bool)
    columns = every.expand(SIDE, SIDE)
    select: dict[str, Callable[[], Any]] = {
        "index_select": lambda: x.index_select(0, every),
        "masked_select": lambda: x.masked_select(mask),
        "gather": lambda: x.gather(1, columns),
        "slicing": lambda: x[:],
    }
    before = x.clone()
    out, allocated = _allocated(select[name], device)
    shared = shares_storage(out, x)
    out.fill_(0.0)
    reached = not torch.equal(x, before)
    key = name.replace("_", "-")
    return Observation(
        holds=shared or reached,
        rule=f"holds if {name} selecting every element of a {SIDE} × {SIDE} tensor returns "
        "a tensor that shares its storage, or if filling the result changes the input",
        measurements=(
            Measurement(f"vi-{key}-shares", shared, "bool"),
            Measurement(f"vi-{key}-write-reaches-input", reached, "bool"),
            Measurement(f"vi-{key}-allocated", allocated, "bytes"),
        ),
    )


def control_slicing_shares(device: Device) -> Observation:
    return _selection_myth(device, "slicing")


#: "Returns a view": said of operations that are not views (the gather family's myths).
_VIEW: dict[Lang, tuple[str, ...]] = {
    "en": (*_SHARE["en"], "a view"),
    "ja": (*_SHARE["ja"], "ビュー"),
    "ko": (*_SHARE["ko"], "뷰"),
}


def probe_index_select_myth(device: Device) -> Observation:
    return _selection_myth(device, "index_select")


MYTH_INDEX_SELECT_SHARES_MEMORY = Claim(
    id="views/myth-index-select-shares-memory",
    statement="index_select() returns a tensor that shares memory with its input.",
    expect=Expect.FAILS,
    probe=probe_index_select_myth,
    control=Control(
        "basic slicing x[:] in place of the selection",
        control_slicing_shares,
    ),
    measures=(
        "vi-index-select-shares",
        "vi-index-select-write-reaches-input",
        "vi-index-select-allocated",
    ),
    vocabulary=Vocabulary(subjects=("index_select",), predicates=_VIEW, opposites=_COPY),
)


def probe_masked_select_myth(device: Device) -> Observation:
    return _selection_myth(device, "masked_select")


MYTH_MASKED_SELECT_SHARES_MEMORY = Claim(
    id="views/myth-masked-select-shares-memory",
    statement="masked_select() returns a tensor that shares memory with its input.",
    expect=Expect.FAILS,
    probe=probe_masked_select_myth,
    control=Control(
        "basic slicing x[:] in place of the selection",
        control_slicing_shares,
    ),
    measures=(
        "vi-masked-select-shares",
        "vi-masked-select-write-reaches-input",
        "vi-masked-select-allocated",
    ),
    vocabulary=Vocabulary(subjects=("masked_select",), predicates=_VIEW, opposites=_COPY),
)


def probe_gather_myth(device: Device) -> Observation:
    return _selection_myth(device, "gather")


MYTH_GATHER_SHARES_MEMORY = Claim(
    id="views/myth-gather-shares-memory",
    statement="gather() returns a tensor that shares memory with its input.",
    expect=Expect.FAILS,
    probe=probe_gather_myth,
    control=Control(
        "basic slicing x[:] in place of the selection",
        control_slicing_shares,
    ),
    measures=("vi-gather-shares", "vi-gather-write-reaches-input", "vi-gather-allocated"),
    vocabulary=Vocabulary(subjects=("gather",), predicates=_VIEW, opposites=_COPY),
)


def probe_advanced_indexing(device: Device) -> Observation:
    import torch

    x = _grid(device)
    return _own_storage_rule(
        x,
        {
            "list": x[[0, 2]],
            "tensor": x[torch.tensor([0, 2], device=device)],
            "tensor-2d": x[torch.tensor([[0], [2]], device=device)],
            "mask": x[x > 5],
        },
    )


def control_basic_indexing_shares(device: Device) -> Observation:
    x = _grid(device)
    return _own_storage_rule(
        x, {"list": x[0:3:2], "tensor": x[::2], "tensor-2d": x[None, ::2], "mask": x[1:]}
    )


def _own_storage_rule(x: Any, results: dict[str, Any]) -> Observation:
    shared = {name: shares_storage(r, x) for name, r in results.items()}
    return Observation(
        holds=not any(shared.values()),
        rule="holds if the four indexing results (x[[0, 2]], x[torch.tensor([0, 2])], "
        "x[torch.tensor([[0], [2]])] and x[x > 5] for the claim) all have storage of their own",
        measurements=tuple(
            Measurement(f"vi-{name}-index-shares", value, "bool") for name, value in shared.items()
        ),
    )


ADVANCED_INDEXING_COPIES = Claim(
    id="views/advanced-indexing-copies",
    statement="Indexing with a list of integers, an integer tensor of one or more dimensions "
    "or a boolean mask returns a copy.",
    expect=Expect.HOLDS,
    probe=probe_advanced_indexing,
    control=Control(
        "basic slicing (x[0:3:2], x[::2], x[None, ::2], x[1:]) in place of advanced indexing",
        control_basic_indexing_shares,
    ),
    measures=(
        "vi-list-index-shares",
        "vi-tensor-index-shares",
        "vi-tensor-2d-index-shares",
        "vi-mask-index-shares",
    ),
    vocabulary=Vocabulary(
        subjects=(
            "mask",
            "index",
            "indexing",
            "Indexing",
            "マスク",
            "インデックス",
            "마스크",
            "인덱싱",
        ),
        predicates=_COPY,
        opposites={  # "indexing with a list returns a view as well"
            "en": ("returns a view", "is a view", "a view as well", "shares memory"),
            "ja": ("ビューを返", "ビューになる", "メモリを共有"),
            "ko": ("뷰를 반환", "뷰가 된", "메모리를 공유"),
        },
        unless={  # basic indexing (integers, slices) is the other case: it returns views
            "en": ("slice", "basic", "with an integer", "with integers"),
            "ja": ("スライス", "基本的なインデックス", "整数で", "整数インデックス"),
            "ko": ("슬라이스", "슬라이싱", "기본 인덱싱", "정수로", "정수 인덱스"),
        },
    ),
)


def probe_zero_dim_index_view(device: Device) -> Observation:
    import torch

    return _zero_dim_index_rule(device, torch.tensor(1, device=device))


def control_one_element_index_copies(device: Device) -> Observation:
    import torch

    return _zero_dim_index_rule(device, torch.tensor([1], device=device))


def _zero_dim_index_rule(device: Device, index: Any) -> Observation:
    x = _grid(device)
    row = x[index]
    shared = shares_storage(row, x)
    row.fill_(-1.0)
    reached = bool((x[1] == -1.0).all())
    return Observation(
        holds=shared and reached,
        rule=f"holds if x[torch.tensor({index.tolist()})] shares x's storage and filling it "
        "writes row 1 of x",
        measurements=(
            Measurement(f"vi-index-{index.dim()}d-tensor-shares", shared, "bool"),
            Measurement(f"vi-index-{index.dim()}d-tensor-write-reaches-input", reached, "bool"),
        ),
    )


ZERO_DIM_INDEX_TENSOR_VIEW = Claim(
    id="views/zero-dim-index-tensor-view",
    statement="A 0-dim integer tensor indexes as an integer does: x[torch.tensor(1)] returns "
    "a view, and writes through it reach x.",
    expect=Expect.HOLDS,
    probe=probe_zero_dim_index_view,
    control=Control(
        "a 1-D index tensor, torch.tensor([1])",
        control_one_element_index_copies,
        measures=("vi-index-1d-tensor-shares", "vi-index-1d-tensor-write-reaches-input"),
    ),
    measures=("vi-index-0d-tensor-shares", "vi-index-0d-tensor-write-reaches-input"),
    vocabulary=Vocabulary(
        subjects=(
            "0-dim integer tensor",
            "0-dim index",
            "0次元の整数テンソル",
            "0 次元の整数テンソル",
            "0차원 정수 텐서",
        ),
        predicates={
            "en": ("returns a view", "is a view", "share"),
            "ja": ("ビューを返", "ビューにな", "共有"),
            "ko": ("뷰를 반환", "뷰가 된", "공유"),
        },
        opposites=_COPY,
    ),
)


def probe_index_assignment(device: Device) -> Observation:
    return _index_assignment_rule(device, through_copy=False)


def control_assignment_to_indexed_copy(device: Device) -> Observation:
    return _index_assignment_rule(device, through_copy=True)


def _index_assignment_rule(device: Device, through_copy: bool) -> Observation:
    import torch

    def indices(x: Any) -> dict[str, Any]:
        return {
            "x[[0, 2]]": [0, 2],
            "x[torch.tensor([0, 2])]": torch.tensor([0, 2], device=device),
            "x[torch.tensor([[0], [2]])]": torch.tensor([[0], [2]], device=device),
            "x[x > 5]": x > 5,
        }

    assigned, same_storage, filled = [], [], []
    for name in indices(_grid(device)):
        x = _grid(device)
        index = indices(x)[name]
        ptr = x.untyped_storage().data_ptr()
        if through_copy:
            picked = x[index]
            picked[...] = 0.0
        else:
            x[index] = 0.0
        assigned.append(bool((x[index] == 0.0).all()))
        same_storage.append(x.untyped_storage().data_ptr() == ptr)
        y = _grid(device)
        y[indices(y)[name]].fill_(0.0)
        filled.append(not torch.equal(y, _grid(device)))
    return Observation(
        holds=all(assigned) and all(same_storage) and not any(filled),
        rule="holds if, for each of x[[0, 2]], x[torch.tensor([0, 2])], "
        "x[torch.tensor([[0], [2]])] and x[x > 5], "
        + ("y = x[idx]; y[...] = 0" if through_copy else "x[idx] = 0")
        + " zeroes the indexed elements of x in its own storage, while x[idx].fill_(0) leaves "
        "x unchanged",
        measurements=(
            Measurement("vi-index-assign-changes-input", all(assigned), "bool"),
            Measurement("vi-index-assign-same-storage", all(same_storage), "bool"),
            Measurement("vi-indexed-fill-changes-input", any(filled), "bool"),
        ),
    )


INDEX_ASSIGNMENT_WRITES_IN_PLACE = Claim(
    id="views/index-assignment-writes-in-place",
    statement="Assigning through advanced indexing (x[idx] = v) writes into x, although "
    "reading x[idx] makes a copy.",
    expect=Expect.HOLDS,
    probe=probe_index_assignment,
    control=Control(
        "an assignment to the indexed copy",
        control_assignment_to_indexed_copy,
    ),
    measures=(
        "vi-index-assign-changes-input",
        "vi-index-assign-same-storage",
        "vi-indexed-fill-changes-input",
    ),
)


def probe_torch_tensor_copies(device: Device) -> Observation:
    import torch

    return _copies_rule(device, torch.tensor)


def control_as_tensor_in_place_of_tensor(device: Device) -> Observation:
    import torch

    return _copies_rule(device, torch.as_tensor)


def _copies_rule(device: Device, convert: Any) -> Observation:
    import numpy as np

    a = np.ones((SIDE, SIDE), dtype=np.float32)
    from_array, allocated = _allocated(lambda: convert(a, device=device), device)
    array_shared = _reaches(a, from_array)
    x = _grid(device)
    holder: list[Any] = []
    warning = _warning(lambda: holder.append(convert(x)))
    tensor_shared = shares_storage(holder[0], x)
    return Observation(
        holds=not array_shared and not tensor_shared and allocated >= a.nbytes,
        rule=f"holds if torch.{convert.__name__}(a) of a NumPy array allocates at least the "
        "array's bytes and does not see later writes to it, and the same of a tensor has "
        "storage of its own",
        measurements=(
            Measurement("vi-tensor-from-array-shares", array_shared, "bool"),
            Measurement("vi-tensor-from-array-allocated", allocated, "bytes"),
            Measurement("vi-tensor-from-tensor-shares", tensor_shared, "bool"),
            Measurement("vi-tensor-from-tensor-warning", warning, "text"),
        ),
    )


TORCH_TENSOR_COPIES = Claim(
    id="views/torch-tensor-copies",
    statement="torch.tensor() always copies its data, whether it is given a NumPy array or "
    "a tensor.",
    expect=Expect.HOLDS,
    probe=probe_torch_tensor_copies,
    control=Control(
        "torch.as_tensor in place of torch.tensor",
        control_as_tensor_in_place_of_tensor,
    ),
    measures=(
        "vi-tensor-from-array-shares",
        "vi-tensor-from-array-allocated",
        "vi-tensor-from-tensor-shares",
        "vi-tensor-from-tensor-warning",
    ),
    vocabulary=Vocabulary(subjects=("torch.tensor(",), predicates=_COPY, opposites=_SHARE),
)


def probe_torch_tensor_advice(device: Device) -> Observation:
    return _warning_advice(source_is_tensor=True)


def control_torch_tensor_of_list(device: Device) -> Observation:
    return _warning_advice(source_is_tensor=False)


def _warning_advice(source_is_tensor: bool) -> Observation:
    import torch

    source: Any = torch.ones(3) if source_is_tensor else [1.0, 2.0, 3.0]
    warning = _warning(lambda: torch.tensor(source))
    advice = "detach().clone()" in warning
    older = "clone().detach()" in warning
    return Observation(
        holds=advice,
        rule="holds if torch.tensor("
        + ("a tensor" if source_is_tensor else "a list")
        + ") warns and recommends sourceTensor.detach().clone()",
        measurements=(
            Measurement(
                f"vi-tensor-{'tensor' if source_is_tensor else 'list'}-warning",
                warning.split(", rather")[0][:200],
                "text",
            ),
            Measurement(
                f"vi-tensor-{'tensor' if source_is_tensor else 'list'}-advice-detach-clone",
                advice,
                "bool",
            ),
            Measurement(
                f"vi-tensor-{'tensor' if source_is_tensor else 'list'}-advice-clone-detach",
                older,
                "bool",
            ),
        ),
    )


TORCH_TENSOR_WARNING_ADVISES_DETACH_CLONE = Claim(
    id="views/torch-tensor-warning-advises-detach-clone",
    statement="Given a tensor, torch.tensor() warns and recommends "
    "sourceTensor.detach().clone() to copy it.",
    expect=Expect.HOLDS,
    probe=probe_torch_tensor_advice,
    devices=("cpu",),
    measures=(
        "vi-tensor-tensor-warning",
        "vi-tensor-tensor-advice-detach-clone",
        "vi-tensor-tensor-advice-clone-detach",
    ),
    control=Control("torch.tensor of a list, which does not warn", control_torch_tensor_of_list),
    # the advice is code, the same in every language; older releases gave the other order
    vocabulary=Vocabulary(
        subjects=("torch.tensor",),
        predicates={lang: ("detach().clone()",) for lang in ("en", "ja", "ko")},
        opposites={lang: ("clone().detach()",) for lang in ("en", "ja", "ko")},
    ),
)


CLAIMS = (
    MYTH_INDEX_SELECT_SHARES_MEMORY,
    MYTH_MASKED_SELECT_SHARES_MEMORY,
    MYTH_GATHER_SHARES_MEMORY,
    ADVANCED_INDEXING_COPIES,
    ZERO_DIM_INDEX_TENSOR_VIEW,
    INDEX_ASSIGNMENT_WRITES_IN_PLACE,
    TORCH_TENSOR_COPIES,
    TORCH_TENSOR_WARNING_ADVISES_DETACH_CLONE,
)
