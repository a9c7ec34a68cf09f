"""Attacks on the readers (issue 28, item 11): prose and nesting that exhaust a parser's
recursion or memory (``tests/hostile/reading/recipes.toml``). The scan answers, and a file it
cannot read is a file error that says where and why."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from checker import registry as registry_mod
from checker.scan.run import ScanOptions, scan
from tests.helpers import ROOT

RECIPES = tomllib.loads(
    (Path(__file__).resolve().parent / "reading" / "recipes.toml").read_text(encoding="utf-8")
)


def build(recipe: dict[str, Any]) -> str:
    units = (
        recipe["unit"].replace("{i}", str(i)).replace("{indent}", "  " * i)
        for i in range(recipe["count"])
    )
    return recipe["head"] + "".join(units) + recipe["tail"]


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_a_scan_answers(name: str, tmp_path: Path) -> None:
    recipe = RECIPES[name]
    path = tmp_path / recipe["file"]
    path.write_text(build(recipe), encoding="utf-8")
    result = scan([path], registry_mod.load(), ScanOptions(run_code=False, project_root=ROOT))
    assert len(result.errors) == recipe["errors"]
    for error in result.errors:
        assert error.line == recipe["error_line"]
        assert error.message == "nested too deeply to read"
