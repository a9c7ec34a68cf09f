"""The decorators a custom Function's forward and backward get, by name: what the subsections of
"Custom autograd Functions under autocast" share."""

from __future__ import annotations

from typing import Any

from checker.claims.amp._precision import matmul_function


def _decorated(device: str, cast_inputs: Any = None) -> tuple[Any, Any]:
    import torch

    if cast_inputs is None:
        forward = torch.amp.custom_fwd(device_type=device)
    else:
        forward = torch.amp.custom_fwd(device_type=device, cast_inputs=cast_inputs)
    return matmul_function(
        device,
        forward_decorator=forward,
        backward_decorator=torch.amp.custom_bwd(device_type=device),
    )
