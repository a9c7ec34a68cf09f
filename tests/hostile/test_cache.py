"""Attack 13: a pickle placed in the build's text store (``.checker-cache/sphinx/``) that runs
a command when loaded (``tests/hostile/cache/evil.pickle``: ``os.system`` by ``__reduce__``).
Expected: the store counts as empty, and nothing runs."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import pytest

from checker.sphinx.text_store import DATA_CLASSES, TextStore, load_data
from checker.text.po_entries import Entry

EVIL = Path(__file__).resolve().parent / "cache" / "evil.pickle"
RAN = Path("/tmp/checker-pickle-ran")


def test_the_sample_would_run_a_command() -> None:
    assert b"system" in EVIL.read_bytes() and b"checker-pickle-ran" in EVIL.read_bytes()


def test_a_pickle_that_runs_code_is_refused(tmp_path: Path) -> None:
    RAN.unlink(missing_ok=True)
    with pytest.raises(pickle.UnpicklingError, match="system is not stored data"):
        load_data(EVIL.read_bytes())
    path = tmp_path / "safe-messages-ja.pickle"
    shutil.copy(EVIL, path)
    assert TextStore(path, "any").get("k") is None
    assert not RAN.exists()


def test_stored_data_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "catalog-entries-ja.pickle"
    store = TextStore(path, "v1")
    store.put(("a", 1), [{"x": (1, 2.0, "y", None, True)}])
    store.save()
    assert TextStore(path, "v1").get(("a", 1)) == [{"x": (1, 2.0, "y", None, True)}]
    assert ("checker.text.po_entries", Entry.__name__) in DATA_CLASSES
