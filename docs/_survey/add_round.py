"""Append the last round of reading of one survey file to another.

Two branches may each grow docs/_survey/statements.json: one appends a round of posts, another
adds claims to statements or reads a few posts of its own. Merging the JSON by lines then
conflicts. This replays the round instead: the round's posts are renumbered after the base's,
the statements they first made are appended, and every count and language list is recounted
from the posts, so the base keeps its own claims, verdicts and order.

Run: python docs/_survey/add_round.py BASE ROUND_SOURCE [OUT]
(BASE: the file to extend; ROUND_SOURCE: a file whose `rounds` ends with the round to replay;
OUT defaults to BASE.)
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any


def add_round(base: dict[str, Any], source: dict[str, Any]) -> dict[str, Any]:
    """``base`` with the last round of ``source`` appended (neither is modified)."""
    last = source["rounds"][-1]
    posts = source["posts"][len(source["posts"]) - last["posts"] :]
    added = source["statements"][len(source["statements"]) - last["statements"] :]
    by_id = {s["id"]: s for s in added}
    known = {s["id"] for s in base["statements"]}
    start = len(base["posts"])
    new_posts = [{**post, "post": start + n} for n, post in enumerate(posts, start=1)]
    all_posts = base["posts"] + new_posts
    counts: Counter[str] = Counter(s for p in all_posts for s in p["statements"])
    languages: defaultdict[str, set[str]] = defaultdict(set)
    for post in all_posts:
        for s in post["statements"]:
            languages[s].add(post["lang"])
    first_made = [s for p in new_posts for s in p["statements"] if s not in known]
    missing = sorted(set(first_made) - set(by_id))
    if missing:
        raise ValueError(f"the round's posts name statements it does not define: {missing}")
    fresh = sorted(set(first_made), key=lambda s: (-counts[s], s))
    statements = [dict(s) for s in base["statements"]] + [dict(by_id[s]) for s in fresh]
    for s in statements:
        s["posts"] = counts[s["id"]]
        s["languages"] = sorted(languages[s["id"]])
    rounds = base.get("rounds") or [{"posts": start, "statements": len(base["statements"])}]
    rounds = [*rounds, {"posts": len(new_posts), "statements": len(fresh)}]
    head = {k: v for k, v in base.items() if k not in ("rounds", "statements", "posts")}
    return {**head, "rounds": rounds, "statements": statements, "posts": all_posts}


def main(argv: list[str]) -> int:
    base_path, source_path = Path(argv[0]), Path(argv[1])
    out = Path(argv[2]) if len(argv) > 2 else base_path
    base = json.loads(base_path.read_text(encoding="utf-8"))
    source = json.loads(source_path.read_text(encoding="utf-8"))
    merged = add_round(base, source)
    out.write_text(json.dumps(merged, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    last = merged["rounds"][-1]
    print(f"{out}: +{last['posts']} posts, +{last['statements']} statements")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
