"""Test-session setup shared by every test module."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Make ``PYTHONPATH`` absolute: tests that run pytest or Sphinx in a subprocess from
    another folder (pytester, the gettext builder) must still import ``checker``, also when
    the suite is started as ``PYTHONPATH=. python -m pytest``.

    Sphinx 11 removes ``.app`` of transforms and of the build environment: a use of it
    (or of anything else Sphinx 11 removes) in ``checker`` fails the test that builds."""
    config.addinivalue_line(
        "filterwarnings", "error::sphinx.deprecation.RemovedInSphinx11Warning:checker"
    )
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if paths:
        os.environ["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in paths)
