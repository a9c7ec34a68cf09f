"""Test-session setup shared by every test module."""

from __future__ import annotations

import os
from pathlib import Path


def pytest_configure() -> None:
    """Make ``PYTHONPATH`` absolute: tests that run pytest or Sphinx in a subprocess from
    another folder (pytester, the gettext builder) must still import ``checker``, also when
    the suite is started as ``PYTHONPATH=. python -m pytest``."""
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if paths:
        os.environ["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in paths)
