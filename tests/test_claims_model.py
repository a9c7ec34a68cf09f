"""Claims, the registry and the project's own claim modules."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from checker import registry
from checker.claim import Claim, Expect, Vocabulary
from checker.evidence import Measurement, Observation
from checker.registry import Registry, RegistryError
from tests.helpers import ROOT


def probe(device: str) -> Observation:
    return Observation(True, "always")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"id": "no-slash"}, "not of the form 'topic/slug'"),
        ({"id": "Topic/Upper"}, "not of the form 'topic/slug'"),
        ({"devices": ("tpu",)}, "devices must be a non-empty subset"),
        ({"devices": ()}, "devices must be a non-empty subset"),
        ({"measures": ("Not_Kebab",)}, "is not kebab-case"),
        ({"measures": ("a", "a")}, "duplicate measurement keys"),
    ],
)
def test_malformed_claims_are_refused(kwargs: dict[str, object], message: str) -> None:
    fields: dict[str, object] = {
        "id": "t/ok",
        "statement": "s",
        "expect": Expect.HOLDS,
        "probe": probe,
    }
    fields.update(kwargs)
    with pytest.raises(ValueError, match=message):
        Claim(**fields)  # type: ignore[arg-type]


def test_measurements_pair_booleans_with_the_bool_unit() -> None:
    with pytest.raises(ValueError, match="booleans and unit 'bool' go together"):
        Measurement("flag", True, "count")
    with pytest.raises(ValueError, match="unknown unit 'furlongs'"):
        Measurement("size", 3, "furlongs")


def test_vocabulary_needs_a_subject_and_known_languages() -> None:
    with pytest.raises(ValueError, match="at least one subject"):
        Vocabulary(subjects=())
    with pytest.raises(ValueError, match="unknown languages"):
        Vocabulary(subjects=("x",), predicates={"fr": ("y",)})  # type: ignore[dict-item]


def test_duplicate_ids_name_both_definitions() -> None:
    a = Claim(id="t/same", statement="a", expect=Expect.HOLDS, probe=probe)
    with pytest.raises(
        RegistryError,
        match=r"test_claims_model\.py:\d+: duplicate claim id "
        r"'t/same', first defined at .*test_claims_model",
    ):
        Registry((a, a))


def test_duplicate_measurement_keys_across_claims_are_refused() -> None:
    a = Claim(id="t/a", statement="a", expect=Expect.HOLDS, probe=probe, measures=("k",))
    b = Claim(id="t/b", statement="b", expect=Expect.HOLDS, probe=probe, measures=("k",))
    with pytest.raises(RegistryError, match="key 'k' of t/b is already measured by t/a"):
        Registry((a, b))


def test_unknown_module_is_a_registry_error() -> None:
    with pytest.raises(RegistryError, match=r"cannot import claim module 'tests\.nowhere'"):
        registry.load(["tests.nowhere"], package=None)


_SECTION = """
from checker.claim import Claim, Expect
from checker.evidence import Observation


def probe(device):
    return Observation(True, "always")


CLAIMS = tuple(Claim(id=f"t/{{name}}", statement="s.", expect=Expect.HOLDS, probe=probe)
               for name in {names!r})
"""


def _topic(root: Path, name: str, sections: str, modules: dict[str, tuple[str, ...]]) -> Path:
    """A topic package under ``root``: ``sections`` is the text of its ``SECTIONS``, each
    module holds claims ``t/<name>`` for the names given."""
    package = root / name
    package.mkdir()
    (package / "__init__.py").write_text(f'"""A topic."""\n\nSECTIONS = {sections}\n')
    for module, names in modules.items():
        (package / f"{module}.py").write_text(_SECTION.format(names=names))
    return package


def test_a_topic_lists_its_sections_in_the_order_it_declares(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    _topic(
        tmp_path,
        "topic_order",
        '("why", "how")',
        {"how": ("how-a", "how-b"), "why": ("why",), "_helpers": ()},
    )
    reg = registry.load(["topic_order"], package=None)
    assert [c.id for c in reg] == ["t/why", "t/how-a", "t/how-b"]
    assert reg.modules == ("topic_order.why", "topic_order.how")
    assert [c.id for c in reg.in_package("topic_order.how")] == ["t/how-a", "t/how-b"]


def test_a_section_package_lists_its_subsections_in_their_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    package = _topic(tmp_path, "topic_nested", '("intro", "deep")', {"intro": ("intro",)})
    _topic(package, "deep", '("second", "first")', {"first": ("1",), "second": ("2",)})
    reg = registry.load(["topic_nested"], package=None)
    assert [c.id for c in reg] == ["t/intro", "t/2", "t/1"]


def test_a_section_missing_from_sections_is_refused_with_file_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    package = _topic(tmp_path, "topic_forgot", '("why",)', {"why": ("why",), "how": ("how",)})
    init = package / "__init__.py"
    with pytest.raises(
        RegistryError,
        match=rf"^{init}:3: the section {package / 'how.py'} is missing from SECTIONS",
    ):
        registry.load(["topic_forgot"], package=None)


def test_a_section_declared_but_absent_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    package = _topic(tmp_path, "topic_extra", '("why", "gone")', {"why": ("why",)})
    with pytest.raises(RegistryError, match=r"__init__\.py:3: SECTIONS names 'gone', which"):
        registry.load(["topic_extra"], package=None)
    assert package.exists()


def test_a_package_without_sections_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    package = tmp_path / "topic_bare"
    package.mkdir()
    (package / "__init__.py").write_text("")
    with pytest.raises(RegistryError, match=r"declares its sections in page order as SECTIONS"):
        registry.load(["topic_bare"], package=None)


def test_selecting_by_pattern() -> None:
    reg = registry.load(["tests.fixtures.claims_ok"], package=None)
    assert [c.id for c in reg.select("fixture/*-is-*")] == ["fixture/float16-is-2-bytes"]
    assert reg.by_measurement("fixture-ones-sum") is reg.get("fixture/ones-sum")


def test_project_claim_modules_do_not_import_torch() -> None:
    code = (
        "import sys; from checker import registry; registry.load(); print('torch' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
