"""Build copies of the sample site (tests/samples/site) in-process, with edits."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from sphinx.cmd.build import build_main

from checker.text.languages import TRANSLATED
from tests.helpers import sample


@dataclass
class Site:
    root: Path

    @property
    def docs(self) -> Path:
        return self.root / "docs"

    def page(self, name: str) -> Path:
        return self.docs / name

    def append(self, name: str, text: str) -> int:
        """Append ``text`` to a page; return the 1-based line where it starts."""
        path = self.page(name)
        before = path.read_text(encoding="utf-8") if path.exists() else ""
        path.write_text(before + text, encoding="utf-8")
        return before.count("\n") + 1

    def build(
        self, builder: str = "html", lang: str = "en", *extra: str, fresh: bool = True
    ) -> Build:
        """Build one language; ``fresh=False`` keeps the last build's environment."""
        out = self.root / "_build" / builder / lang
        warnings = self.root / f"warnings-{builder}-{lang}.txt"
        code = build_main(
            [
                "-b",
                builder,
                "-c",
                str(self.root),
                "-D",
                f"language={lang}",
                "-W",
                "--keep-going",
                "-q",
                *(["-E"] if fresh else []),
                "-w",
                str(warnings),
                *extra,
                str(self.docs),
                str(out),
            ]
        )
        return Build(code, warnings.read_text(encoding="utf-8"), out)


@dataclass
class Build:
    code: int
    warnings: str
    out: Path

    def html(self, page: str = "index") -> str:
        return (self.out / f"{page}.html").read_text(encoding="utf-8")


def copy_site(tmp_path: Path) -> Site:
    root = tmp_path / "site"
    shutil.copytree(sample("site"), root)
    # git keeps no empty folders: a fresh clone has no catalogs directory yet.
    for lang in TRANSLATED:
        (root / "locales" / lang / "LC_MESSAGES").mkdir(parents=True, exist_ok=True)
    return Site(root)
