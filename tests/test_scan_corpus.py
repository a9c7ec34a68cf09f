"""The scanner on its corpus (``tests/corpus/``): article-like samples in English, Japanese
and Korean, written by us in the shapes real articles take, each with the errors a reviewer
finds by running its code and the correct statements that must not be flagged.

The whole corpus is scanned once. No false alarm is allowed; the errors found are pinned per
language and class, so that a drop (or a gain, which should be recorded) shows.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from checker import registry as registry_mod
from checker.scan import corpus
from checker.scan.findings import FindingVerdict
from checker.scan.history import History
from checker.scan.run import ScanOptions, scan
from checker.text.languages import LANGS
from tests.helpers import ROOT

CORPUS = ROOT / "tests" / "corpus"

#: (lang, class) -> errors found, of those expected. Update when the scanner improves.
FOUND = {
    ("en", "api-deprecated"): (9, 9),
    ("en", "api-exists"): (5, 5),
    ("en", "api-signature"): (4, 4),
    ("en", "claims-neighbourhood"): (18, 18),
    ("en", "comment-values"): (17, 17),
    ("en", "imports"): (2, 2),
    ("en", "indentation"): (1, 1),
    ("en", "session"): (2, 2),
    ("en", "statement-recognition"): (7, 7),
    ("en", "typography"): (1, 1),
    ("en", "versions"): (1, 1),
    ("ja", "api-deprecated"): (5, 5),
    ("ja", "api-exists"): (2, 2),
    ("ja", "api-signature"): (4, 4),
    ("ja", "claims-neighbourhood"): (15, 15),
    ("ja", "comment-values"): (16, 16),
    ("ja", "imports"): (1, 1),
    ("ja", "indentation"): (4, 4),
    ("ja", "session"): (4, 4),
    ("ja", "statement-recognition"): (7, 7),
    ("ja", "typography"): (1, 1),
    ("ja", "versions"): (1, 1),
    ("ko", "api-deprecated"): (4, 4),
    ("ko", "api-exists"): (2, 2),
    ("ko", "api-signature"): (4, 4),
    ("ko", "claims-neighbourhood"): (16, 16),
    ("ko", "comment-values"): (17, 17),
    ("ko", "imports"): (2, 2),
    ("ko", "indentation"): (2, 2),
    ("ko", "session"): (3, 3),
    ("ko", "statement-recognition"): (10, 10),
    ("ko", "typography"): (1, 1),
    ("ko", "versions"): (1, 1),
}


@pytest.fixture(scope="module")
def answers() -> list[corpus.Answers]:
    return [corpus.load(path) for path in corpus.articles(CORPUS)]


@pytest.fixture(scope="module")
def score(answers: list[corpus.Answers]) -> corpus.Score:
    paths = [a.article for a in answers]
    result = scan(paths, registry_mod.load(), ScanOptions(project_root=ROOT))
    return corpus.score(result, answers)


def test_the_corpus_has_at_least_ten_articles_per_language(answers: list[corpus.Answers]) -> None:
    per_language = Counter(a.lang for a in answers)
    assert set(per_language) == set(LANGS)
    assert min(per_language.values()) >= 10
    assert all(a.expected or a.ok for a in answers)


def test_no_false_alarm(score: corpus.Score) -> None:
    alarms = [
        f"{f.path}:{f.line} {f.kind} {f.verdict.value}: {f.evidence}" for f in score.false_alarms
    ]
    assert alarms == []


def test_every_ok_entry_gets_its_verdict(score: corpus.Score) -> None:
    assert [f"{o.article}:{o.line} {o.why}" for o in score.ok_missed] == []


def test_errors_found_per_language_and_class(score: corpus.Score) -> None:
    assert score.recall == FOUND


def test_an_answer_file_that_cannot_be_read_names_itself(tmp_path: Path) -> None:
    article = tmp_path / "a.md"
    article.write_text("# A\n", encoding="utf-8")
    (tmp_path / "a.answers.toml").write_text("[[expect]]\nline = 'x'\n", encoding="utf-8")
    with pytest.raises(corpus.AnswersError, match=r"a\.answers\.toml: bad entry"):
        corpus.load(article)


# -- statements true in an older torch ----------------------------------------------------


def test_history_says_when_a_statement_stopped_being_true() -> None:
    history = History(
        ("2.4.1", "2.6.0", "2.13.0"),
        {"amp/x": {"2.4.1": "holds", "2.6.0": "fails", "2.13.0": "fails"}},
    )
    # 2.5 was not sampled: the releases only bound the change
    assert (
        history.agreed("amp/x", True) == "true on torch 2.4.1, false by torch 2.6.0 at the latest"
    )
    adjacent = History(("2.4.1", "2.5.1"), {"amp/x": {"2.4.1": "holds", "2.5.1": "fails"}})
    assert adjacent.agreed("amp/x", True) == "true up to torch 2.4.1, false since torch 2.5.1"
    assert history.agreed("amp/x", False) is None  # the article agrees with today
    assert history.agreed("amp/unknown", True) is None


def test_a_statement_true_in_an_older_release_is_outdated(tmp_path: Path) -> None:
    """A project whose recorded history says the myth held on an older release (a fixture:
    the real file is written by ``nox -s versions``)."""
    claim = "saved-tensors/myth-disable-reduces-memory"
    evidence = tmp_path / "docs" / "_evidence"
    evidence.mkdir(parents=True)
    (evidence / "versions.json").write_text(
        json.dumps(
            {
                "schema": "checker.versions/1",
                "releases": ["2.4.1", "2.13.0"],
                "claims": {claim: {"2.4.1": "holds", "2.13.0": "fails"}},
            }
        ),
        encoding="utf-8",
    )
    article = tmp_path / "old.md"
    article.write_text(
        "# Notes\n\n`disable_saved_tensors_hooks` reduces the memory autograd uses.\n",
        encoding="utf-8",
    )
    options = ScanOptions(project_root=tmp_path, run_code=False, use_cache=False)
    findings = scan([article], registry_mod.load(), options).findings
    (finding,) = [f for f in findings if f.claim == claim]
    assert finding.verdict is FindingVerdict.OUTDATED
    assert finding.evidence.startswith(
        "agrees with 'Running a model inside disable_saved_tensors_hooks reduces the memory "
        "autograd uses.' — true on torch 2.4.1, false by torch 2.13.0 at the latest; cpu: fails"
    )
