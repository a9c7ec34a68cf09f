"""The survey of real posts (docs/_survey/statements.json): its counts are the posts' own, every
claim it names exists, every script it names is there, and a post keeps nothing that would
identify it."""

from __future__ import annotations

import json
from collections import Counter

from checker import registry
from tests.helpers import ROOT

SURVEY = ROOT / "docs" / "_survey"
DATA = json.loads((SURVEY / "statements.json").read_text(encoding="utf-8"))
STATEMENTS = DATA["statements"]
POSTS = DATA["posts"]


def test_the_survey_reads_at_least_150_posts_in_three_languages() -> None:
    assert len(POSTS) == 200
    assert [p["post"] for p in POSTS] == list(range(1, 201))
    assert {p["lang"] for p in POSTS} == {"en", "ja", "ko"}
    assert {p["kind"] for p in POSTS} <= {"blog", "q&a", "issue", "docs"}


def test_a_post_keeps_only_its_number_language_kind_topic_and_statements() -> None:
    assert all(set(p) == {"post", "lang", "kind", "topic", "statements"} for p in POSTS)
    assert "http" not in json.dumps(DATA)


def test_each_count_and_language_list_is_the_posts_own() -> None:
    counted: Counter[str] = Counter(s for p in POSTS for s in p["statements"])
    languages: dict[str, set[str]] = {}
    for post in POSTS:
        for s in post["statements"]:
            languages.setdefault(s, set()).add(post["lang"])
    assert {s["id"]: s["posts"] for s in STATEMENTS} == dict(counted)
    assert all(sorted(languages[s["id"]]) == s["languages"] for s in STATEMENTS)
    assert [s["posts"] for s in STATEMENTS] == sorted(
        (s["posts"] for s in STATEMENTS), reverse=True
    )


def test_every_claim_named_exists_and_every_script_named_is_there() -> None:
    ids = {c.id for c in registry.load()}
    named = {c for s in STATEMENTS for c in s["claims"]}
    assert named - ids == set()
    assert all(set(s["new_claims"]) <= set(s["claims"]) for s in STATEMENTS)
    scripts = {s["evidence"] for s in STATEMENTS if s["evidence"].endswith(".py")}
    assert scripts == {"docs/_survey/checks/misc.py"}
    assert all((ROOT / script).is_file() for script in scripts)


def test_a_verdict_comes_from_running_or_says_why_nothing_ran() -> None:
    for s in STATEMENTS:
        assert s["verdict"] in {"supported", "refuted", "undecided"}, s["id"]
        decided_by_running = s["evidence"] == "the claims' probes" or s["evidence"].endswith(".py")
        assert decided_by_running == (s["verdict"] != "undecided"), s["id"]
        assert s["evidence"] != "the claims' probes" or s["claims"], s["id"]


def test_the_new_claims_cover_the_most_frequent_statements_no_claim_covered() -> None:
    new = {c for s in STATEMENTS for c in s["new_claims"]}
    assert len(new) == 56
    top = [s for s in STATEMENTS if s["posts"] >= 4]
    assert all(s["claims"] for s in top)
