"""Claims of "Two floating dtypes" (docs/topics/numerics-facts.md, ``(nm-widths)=``)."""

from __future__ import annotations

from checker.claim import Claim, Control, Expect, Vocabulary
from checker.claims.numerics._dtypes import dtype_name
from checker.claims.numerics._words import BFLOAT16, FLOAT16, _error
from checker.evidence import Measurement, Observation
from checker.typing import Device, Lang

_LANGS: tuple[Lang, ...] = ("en", "ja", "ko")


def probe_float32_plus_float64(device: Device) -> Observation:
    return _float64_rule(zero_dim=False)


def control_float32_plus_zero_dim_float64(device: Device) -> Observation:
    return _float64_rule(zero_dim=True)


def _float64_rule(zero_dim: bool) -> Observation:
    import torch

    other = torch.tensor(1.0 if zero_dim else [1.0], dtype=torch.float64)
    result = dtype_name((torch.ones(3) + other).dtype)
    return Observation(
        holds=result == "float64",
        rule="holds if a float32 tensor plus a "
        + ("zero-dimensional" if zero_dim else "one-dimensional")
        + " float64 tensor gives float64",
        measurements=(
            Measurement(
                "nm-float32-plus-zero-dim-float64" if zero_dim else "nm-float32-plus-float64",
                result,
                "dtype",
            ),
        ),
    )


FLOAT32_PLUS_FLOAT64_IS_FLOAT64 = Claim(
    id="promotion/float32-plus-float64-is-float64",
    statement="A float32 tensor plus a float64 tensor gives float64.",
    expect=Expect.HOLDS,
    probe=probe_float32_plus_float64,
    control=Control(
        "a zero-dimensional float64 tensor",
        control_float32_plus_zero_dim_float64,
        measures=("nm-float32-plus-zero-dim-float64",),
    ),
    devices=("cpu",),
    measures=("nm-float32-plus-float64",),
    vocabulary=Vocabulary(
        subjects=("float32 tensor", "FloatTensor", "float32 のテンソル", "float32 텐서"),
        predicates={
            "en": ("float64 tensor … float64", "DoubleTensor … float64", "double tensor … double"),
            "ja": ("float64 のテンソル … float64 になる", "float64 テンソル … float64 になる"),
            "ko": ("float64 텐서 … float64가 된", "float64 텐서 … float64이 된"),
        },
        unless={
            lang: ("zero-dim", "0-dim", "0次元", "0차원", "matmul", "@", "numpy", "autocast")
            for lang in _LANGS
        },
    ),
)


def probe_bfloat16_plus_float16(device: Device) -> Observation:
    return _sixteen_bit_rule(zero_dim=False)


def control_bfloat16_plus_zero_dim_float16(device: Device) -> Observation:
    return _sixteen_bit_rule(zero_dim=True)


def _sixteen_bit_rule(zero_dim: bool) -> Observation:
    import torch

    other = torch.tensor(1.0 if zero_dim else [1.0], dtype=torch.float16)
    result = dtype_name((torch.ones(3, dtype=torch.bfloat16) + other).dtype)
    promoted = dtype_name(torch.promote_types(torch.bfloat16, torch.float16))
    kind = "zero-dim-float16" if zero_dim else "float16"
    return Observation(
        holds=result == "float32",
        rule="holds if a bfloat16 tensor plus a "
        + ("zero-dimensional" if zero_dim else "one-dimensional")
        + " float16 tensor gives float32",
        measurements=(
            Measurement(f"nm-bfloat16-plus-{kind}", result, "dtype"),
            Measurement(f"nm-promote-types-bfloat16-{kind}", promoted, "dtype"),
        ),
    )


BFLOAT16_PLUS_FLOAT16_IS_FLOAT32 = Claim(
    id="promotion/bfloat16-plus-float16-is-float32",
    statement="A bfloat16 tensor plus a float16 tensor gives float32: neither 16-bit format "
    "holds all the values of the other.",
    expect=Expect.HOLDS,
    probe=probe_bfloat16_plus_float16,
    control=Control(
        "a zero-dimensional float16 tensor",
        control_bfloat16_plus_zero_dim_float16,
        measures=(
            "nm-bfloat16-plus-zero-dim-float16",
            "nm-promote-types-bfloat16-zero-dim-float16",
        ),
    ),
    devices=("cpu",),
    measures=("nm-bfloat16-plus-float16", "nm-promote-types-bfloat16-float16"),
    vocabulary=Vocabulary(
        subjects=BFLOAT16,
        predicates={
            "en": tuple(f"{half} … gives float32" for half in FLOAT16[:3])
            + tuple(f"{half} … promotes to float32" for half in FLOAT16[:3]),
            "ja": tuple(f"{half} … float32 にな" for half in FLOAT16[:3])
            + tuple(f"{half} … float32 に昇格" for half in FLOAT16[:3]),
            "ko": tuple(f"{half} … float32가 된" for half in FLOAT16[:3])
            + tuple(f"{half} … float32로 승격" for half in FLOAT16[:3]),
        },
        unless={
            lang: (
                "zero-dim",
                "0-dim",
                "0次元",
                "0차원",
                "matmul",
                "@",
                "autocast",
                "float32 tensor",
            )
            for lang in _LANGS
        },
    ),
)


def probe_bfloat16_plus_float32_raises(device: Device) -> Observation:
    return _bfloat16_float32_rule(product=False)


def control_bfloat16_matmul_float32(device: Device) -> Observation:
    return _bfloat16_float32_rule(product=True)


def _bfloat16_float32_rule(product: bool) -> Observation:
    import torch

    brain, single = torch.ones(2, 2, dtype=torch.bfloat16), torch.ones(2, 2)
    raised = _error(lambda: brain @ single if product else brain + single)
    kind = "matmul" if product else "plus"
    measurements = [Measurement(f"nm-bfloat16-{kind}-float32", raised, "exception")]
    if not product:  # what the sum gives where it runs (a release that raises: "error")
        result = "error" if raised != "no error" else dtype_name((brain + single).dtype)
        measurements.append(Measurement("nm-bfloat16-plus-float32-dtype", result, "text"))
    return Observation(
        holds=raised != "no error",
        rule="holds if "
        + (
            "a bfloat16 @ float32 matrix product"
            if product
            else "a bfloat16 tensor plus a float32 tensor"
        )
        + " raises an error",
        measurements=tuple(measurements),
    )


MYTH_BFLOAT16_PLUS_FLOAT32_RAISES = Claim(
    id="promotion/myth-bfloat16-plus-float32-raises",
    statement="Adding a bfloat16 tensor and a float32 tensor raises an error.",
    expect=Expect.FAILS,
    probe=probe_bfloat16_plus_float32_raises,
    control=Control(
        "a matrix product of the same two tensors",
        control_bfloat16_matmul_float32,
        measures=("nm-bfloat16-matmul-float32",),
    ),
    devices=("cpu",),
    measures=("nm-bfloat16-plus-float32", "nm-bfloat16-plus-float32-dtype"),
    vocabulary=Vocabulary(
        # the pair itself is the subject: a sentence on bfloat16 weights meeting float32
        # inputs (a layer, a product) speaks of another operation
        subjects=(
            "bfloat16 and float32",
            "bfloat16 tensor and a float32",
            "bfloat16 tensor to a float32",
            "bfloat16 tensor plus a float32",
            "bfloat16 + float32",
            "bf16 + fp32",
            "bfloat16 と float32",
            "bfloat16 のテンソルと float32",
            "bfloat16 テンソルと float32",
            "bfloat16와 float32",
            "bfloat16 텐서와 float32",
        ),
        predicates={"en": ("error", "raise", "throw"), "ja": ("エラー",), "ko": ("오류", "에러")},
        requires={
            "en": ("add", "plus", "sum", "+"),
            "ja": ("足", "加算", "+"),
            "ko": ("더하", "더한", "더해", "덧셈", "+"),
        },
        unless={
            lang: ("matmul", "@", "mm(", "Linear", "in-place", "add_", "autocast", "numpy")
            for lang in _LANGS
        },
    ),
)


CLAIMS = (
    FLOAT32_PLUS_FLOAT64_IS_FLOAT64,
    BFLOAT16_PLUS_FLOAT16_IS_FLOAT32,
    MYTH_BFLOAT16_PLUS_FLOAT32_RAISES,
)
