"""Results of pure functions of text, computed by a translated build and kept between builds.

A translated build repeats, on every build, work that depends on nothing but a piece of text
and the versions of the tools doing it: the parse of each translated message into nodes
(:mod:`checker.sphinx.fast_i18n`), the safety check of each translated message
(:mod:`checker.sphinx.safety`) and, in Japanese, the search index's split of each text into
words (:mod:`checker.sphinx.search_ja`). Like the probe results and the charts, these are
kept in the checker's cache folder (``.checker-cache/sphinx/``; ``CHECKER_CACHE_DIR`` moves
it and ``off`` turns it off; ``CHECKER_TEXT_STORE`` moves or turns off this store alone), one
file per kind of result and language:

- each result is stored under its whole input (the text, and where the input depends on more,
  that too), and each file under a *version* naming everything else the results depend on
  (the tools' versions, a digest of this project's code doing the work, the configuration it
  reads). A file of another version, or one that cannot be read, counts as empty;
- a build reads a file the first time it needs it and writes it back when the build ends,
  only if it learned something, through a temporary file renamed into place, so builds side by
  side never see half a file (the last one to finish keeps its results).

The store holds pickles of data only: they are read back by an unpickler that builds nothing
but Python's own containers and the classes in :data:`DATA_CLASSES`, so a file placed there
(by a snippet, a careless tool, a hostile pull request) cannot run code; one that names
anything else counts as empty. ``tests/test_build_speed_identity.py`` builds with an empty store and
again with a full one and compares every page and the search index byte for byte.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import pickle
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from checker.cache import Cache

#: The only classes a stored file may name (module, name): plain frozen dataclasses.
DATA_CLASSES = frozenset({("checker.text.po_entries", "Entry")})


class _DataUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in DATA_CLASSES:
            raise pickle.UnpicklingError(f"{module}.{name} is not stored data")
        return super().find_class(module, name)


def load_data(raw: bytes) -> Any:
    """Unpickle ``raw``, refusing every class but :data:`DATA_CLASSES`."""
    return _DataUnpickler(io.BytesIO(raw)).load()


def setup_text_store(app: Sphinx) -> None:
    app.connect("build-finished", _save_all)


def _save_all(app: Sphinx, exception: BaseException | None) -> None:
    if exception is None:
        for store in _STORES.values():
            store.save()


class TextStore:
    """A dict from input to result, loaded from and saved to ``path`` (``None``: memory only)."""

    def __init__(self, path: Path | None, version: str) -> None:
        self.path = path
        self.version = version
        self._data: dict[Any, Any] = self._load()
        self._learned = False

    def _load(self) -> dict[Any, Any]:
        if self.path is None:
            return {}
        try:
            stored = load_data(self.path.read_bytes())
        except Exception:  # missing, damaged or written by other code: start empty
            return {}
        if not isinstance(stored, dict) or stored.get("version") != self.version:
            return {}
        data = stored.get("data")
        return data if isinstance(data, dict) else {}

    def get(self, key: Any) -> Any:
        return self._data.get(key)

    def put(self, key: Any, value: Any) -> None:
        self._data[key] = value
        self._learned = True

    def save(self) -> None:
        if self.path is None or not self._learned:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(pickle.dumps({"version": self.version, "data": self._data}))
        tmp.replace(self.path)
        self._learned = False


_STORES: dict[tuple[Path | None, str, str], TextStore] = {}


def text_store(confdir: Path, lang: str, kind: str, version: str) -> TextStore:
    """The store of ``kind`` results in ``lang`` of the project in ``confdir``, under
    ``version``."""
    folder = store_folder(confdir)
    path = folder / f"{kind}-{lang}.pickle" if folder is not None else None
    key = (path, kind, lang)
    store = _STORES.get(key)
    if store is None or store.version != version:
        store = _STORES[key] = TextStore(path, version)
    return store


#: Environment variable that moves the store (a folder), or turns it off (``off``).
ENV_VAR = "CHECKER_TEXT_STORE"


def store_folder(confdir: Path) -> Path | None:
    configured = os.environ.get(ENV_VAR)
    if configured:
        return None if configured == "off" else Path(configured)
    cache = Cache.default(confdir)
    return cache.root / "sphinx" if cache is not None else None


@functools.cache
def code_digest(*modules: Any) -> str:
    """A digest of the source files of ``modules`` (a store's version names the code), read
    once per process: the stores ask for it per page and per catalog."""
    digest = hashlib.sha256()
    for module in modules:
        digest.update(Path(module.__file__).read_bytes())
    return digest.hexdigest()[:16]
