"""The tiny model every probe of the GradScaler page trains, its batch, and what several sections
use to compare results."""

from __future__ import annotations

from typing import Any

from checker.typing import Device

_SCALER = ("GradScaler", "scaler")


def _model(device: Device, seed: int = 0) -> Any:
    import torch

    torch.manual_seed(seed)
    return torch.nn.Linear(8, 4).to(device)


def _batch(device: Device, seed: int = 1) -> Any:
    import torch

    generator = torch.Generator().manual_seed(seed)
    return torch.randn(16, 8, generator=generator).to(device)


def _same(a: Any, b: Any) -> bool:
    import torch

    return all(torch.allclose(x, y, rtol=1e-5, atol=1e-7) for x, y in zip(a, b, strict=True))
