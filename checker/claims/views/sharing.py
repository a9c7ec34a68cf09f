"""Claims of "Testing whether two tensors share memory" (docs/topics/views-and-inplace.md,
``(vi-sharing)=``)."""

from __future__ import annotations

from typing import Any

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.measure import shares_storage
from checker.typing import Device


def probe_sharing_different_ids(device: Device) -> Observation:
    return _different_ids_rule(device, copies=False)


def control_copies_have_different_ids(device: Device) -> Observation:
    return _different_ids_rule(device, copies=True)


def _different_ids_rule(device: Device, copies: bool) -> Observation:
    import torch

    a = torch.tensor([1.0, 2.0], device=device, requires_grad=True)
    b = a.detach().clone() if copies else a.detach()
    v = a.view(2, 1).clone() if copies else a.view(2, 1)
    return Observation(
        holds=id(a) != id(b) and id(a) != id(v) and shares_storage(a, b) and shares_storage(a, v),
        rule="holds if a.detach() and a.view(2, 1)"
        + (", cloned," if copies else "")
        + " share a's storage while their id() differs from a's",
        measurements=(
            Measurement("vi-detach-same-id", id(a) == id(b), "bool"),
            Measurement("vi-view-same-id", id(a) == id(v), "bool"),
            Measurement("vi-detach-and-view-share", shares_storage(a, b), "bool"),
        ),
    )


SHARING_TENSORS_HAVE_DIFFERENT_IDS = Claim(
    id="views/sharing-tensors-have-different-ids",
    statement="Tensors that share storage, such as a tensor and its detach() or view(), are "
    "different Python objects: their id() values differ.",
    expect=Expect.HOLDS,
    probe=probe_sharing_different_ids,
    control=Control(
        "clones, which have their own storage",
        control_copies_have_different_ids,
    ),
    measures=("vi-detach-same-id", "vi-view-same-id", "vi-detach-and-view-share"),
    vocabulary=Vocabulary(
        subjects=("id(", "id"),
        predicates={"en": ("different",), "ja": ("異な", "違"), "ko": ("다르", "같지 않")},
    ),
)


def probe_pointer_test_limits(device: Device) -> Observation:
    return _pointer_test_limits(from_numpy=True)


def control_pointer_test_on_views(device: Device) -> Observation:
    return _pointer_test_limits(from_numpy=False)


def _byte_ranges_overlap(a: Any, b: Any) -> bool:
    """Whether the storages of ``a`` and ``b`` overlap in memory; empty storages never do."""
    sa, sb = a.untyped_storage(), b.untyped_storage()
    if sa.nbytes() == 0 or sb.nbytes() == 0:
        return False
    return bool(
        sa.data_ptr() < sb.data_ptr() + sb.nbytes() and sb.data_ptr() < sa.data_ptr() + sa.nbytes()
    )


def _pointer_test_limits(from_numpy: bool) -> Observation:
    import numpy as np
    import torch

    array = np.zeros(9, dtype=np.float32)
    if from_numpy:
        first, second = torch.from_numpy(array[0:6]), torch.from_numpy(array[3:9])
    else:
        base = torch.from_numpy(array)
        first, second = base[0:6], base[3:9]
    pointer = shares_storage(first, second)
    first[4] = 7.0  # element 4 of the first is element 1 of the second
    reaches = float(second[1]) == 7.0
    ranges = _byte_ranges_overlap(first, second)
    empty_a, empty_b = torch.empty(0), torch.empty(0)
    empty_pointer = shares_storage(empty_a, empty_b)
    empty_ranges = _byte_ranges_overlap(empty_a, empty_b)
    kind = "numpy" if from_numpy else "view"
    return Observation(
        holds=reaches and not pointer and ranges and empty_pointer and not empty_ranges,
        rule="holds if, for two tensors over overlapping slices of one NumPy array made with "
        + ("torch.from_numpy" if from_numpy else "slicing one tensor")
        + ", a write through one reaches the other but their storage pointers differ, while "
        "the byte ranges of their storages overlap; and if two empty tensors have equal "
        "storage pointers but no overlapping bytes",
        measurements=(
            Measurement(f"vi-{kind}-overlap-pointers-equal", pointer, "bool"),
            Measurement(f"vi-{kind}-overlap-write-reaches", reaches, "bool"),
            Measurement(f"vi-{kind}-overlap-ranges-overlap", ranges, "bool"),
            Measurement(f"vi-{kind}-empty-pointers-equal", empty_pointer, "bool"),
            Measurement(f"vi-{kind}-empty-ranges-overlap", empty_ranges, "bool"),
        ),
    )


STORAGE_POINTER_TEST_LIMITS = Claim(
    id="views/storage-pointer-test-limits",
    statement="Comparing untyped_storage().data_ptr() misses tensors made with "
    "torch.from_numpy from overlapping slices of one array, and reports any two empty "
    "tensors as sharing; comparing the byte ranges of the storages gets both right.",
    expect=Expect.HOLDS,
    probe=probe_pointer_test_limits,
    devices=("cpu",),
    measures=(
        "vi-numpy-overlap-pointers-equal",
        "vi-numpy-overlap-write-reaches",
        "vi-numpy-overlap-ranges-overlap",
        "vi-numpy-empty-pointers-equal",
        "vi-numpy-empty-ranges-overlap",
    ),
    control=Control(
        "slices of one tensor, which share a storage",
        control_pointer_test_on_views,
        measures=("vi-view-overlap-pointers-equal",),
    ),
)


def probe_temporary_ids(device: Device) -> Observation:
    return _temporary_ids_rule(device, kept_alive=False)


def control_ids_of_living_tensors(device: Device) -> Observation:
    return _temporary_ids_rule(device, kept_alive=True)


def _temporary_ids_rule(device: Device, kept_alive: bool) -> Observation:
    import torch

    y = torch.ones(3, device=device)
    tries = 100
    alive: list[Any] = []

    def detached() -> Any:
        d = y.detach()
        if kept_alive:
            alive.append(d)
        return d

    equal = sum(id(detached()) == id(detached()) for _ in range(tries))
    same_object = y.detach() is y.detach()
    return Observation(
        holds=equal > 0 and not same_object,
        rule="holds if id(y.detach()) == id(y.detach()) is True at least once in 100 tries"
        + (" (every result kept alive)" if kept_alive else "")
        + ", while y.detach() is y.detach() is False",
        measurements=(
            Measurement("vi-temporary-ids-tries", tries, "count"),
            Measurement("vi-temporary-ids-equal", equal, "count"),
            Measurement("vi-temporaries-same-object", same_object, "bool"),
        ),
    )


ID_OF_TEMPORARIES_CAN_REPEAT = Claim(
    id="views/id-of-temporaries-can-repeat",
    statement="Two temporary tensors created one after the other can have the same id(), so "
    "equal ids do not show that two expressions give the same tensor.",
    expect=Expect.HOLDS,
    probe=probe_temporary_ids,
    control=Control(
        "results kept alive",
        control_ids_of_living_tensors,
    ),
    devices=("cpu",),
    measures=("vi-temporary-ids-tries", "vi-temporary-ids-equal", "vi-temporaries-same-object"),
    vocabulary=Vocabulary(
        subjects=("id(", "id"),
        predicates={"en": ("same address",), "ja": ("同じアドレス",), "ko": ("주소는 같",)},
    ),
)


CLAIMS = (
    SHARING_TENSORS_HAVE_DIFFERENT_IDS,
    STORAGE_POINTER_TEST_LIMITS,
    ID_OF_TEMPORARIES_CAN_REPEAT,
)
