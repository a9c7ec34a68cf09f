"""Which devices are present, decided without importing torch.

Importing torch costs seconds; the parent process of a ``verify`` run, a Sphinx build or a
warm re-run served from the cache never pays it. A CUDA build of torch on a machine with an
NVIDIA driver counts as "cuda present"; the worker confirms with ``torch.cuda.is_available()``
and reports the device as absent if it is not.
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

from checker.typing import Device

#: Where the NVIDIA kernel driver shows itself.
_NVIDIA_MARKERS = ("/proc/driver/nvidia/version", "/dev/nvidiactl")


@dataclass(frozen=True)
class Presence:
    """Whether a device can run probes here, and if not, why."""

    device: Device
    present: bool
    reason: str = ""


@functools.cache
def torch_version() -> str:
    """The installed torch version, e.g. ``"2.13.0+cpu"``."""
    try:
        return importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


@functools.cache
def torch_cuda_version() -> str | None:
    """The CUDA version torch was built with, or ``None`` for a CPU-only build."""
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return None
    version_file = Path(next(iter(spec.submodule_search_locations))) / "version.py"
    try:
        tree = ast.parse(version_file.read_text(encoding="utf-8"))
    except OSError:
        return None
    for node in tree.body:
        target: ast.expr
        if isinstance(node, ast.AnnAssign):
            target, assigned = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, assigned = node.targets[0], node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id == "cuda" and assigned is not None:
            value = ast.literal_eval(assigned)
            return value if isinstance(value, str) else None
    return None


def presence(device: Device) -> Presence:
    """Whether ``device`` is present on this machine."""
    if device == "cpu":
        return Presence("cpu", True)
    if os.environ.get("CHECKER_HIDE_CUDA"):
        return Presence("cuda", False, "CUDA hidden by CHECKER_HIDE_CUDA")
    if torch_cuda_version() is None:
        return Presence("cuda", False, f"torch {torch_version()} is a CPU-only build")
    if not any(os.path.exists(p) for p in _NVIDIA_MARKERS):
        return Presence("cuda", False, "no NVIDIA driver on this machine")
    return Presence("cuda", True)
