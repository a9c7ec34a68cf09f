"""Proof that a change of structure changed no behaviour: what the project produces, before
and after, compared byte for byte (issue 22).

A *snapshot* of a checkout holds everything a user sees from it:

- the HTML site in English, Japanese and Korean, built by the README's command
  (``python3 noxfile.py -s docs``), every file of ``_build/html``;
- ``python -m checker verify --format json``;
- ``python -m checker scan --format json`` on every sample of ``tests/corpus/`` and on every
  article of ``../shared/real-articles/`` (one scan per folder, its findings split per
  article);
- ``probes.json``: each claim's probe ``module:function`` and source hash.

``compare`` says which files differ. It takes out only what differs from one run to the next
by nature, each in :data:`MASKS` with its reason (durations and times in JSON, dates, object
addresses, Sphinx's configuration digest, asset digests); with ``--noise`` further snapshots
show which lines differ between two runs of the same checkout (an article's unseeded random
numbers), and only those may differ. With ``--renames`` it maps what a move of code renames
by design, claim by claim from ``probes.json``: a probe's ``module:function`` shown under its
evidence, and its hash when the way probes are hashed changed. ``--unordered`` compares lines
as multisets, for a step that only reorders.

``run --base COMMIT`` checks ``COMMIT`` out into ``_build/identity/src-COMMIT`` (a git
worktree), snapshots it (its probes measure, with a cache of their own), snapshots this
working tree starting from the base's measurements of every probe whose code is unchanged
(``--every-probe``: of every claim), so that timings are equal on both sides, snapshots the
base again for the noise, and compares. ``--cold`` also snapshots the working tree with a cold
cache and compares every claim's outcome, control outcome and measured values (timings
aside) with the base's. Usage, with the shared environment's Python::

    python benchmarks/identity.py run --base COMMIT [--renames] [--cold] [--unordered]
    python benchmarks/identity.py snapshot OUT [--checkout DIR]
    python benchmarks/identity.py compare BEFORE AFTER [--renames] [--noise SNAP ...]

The exit status is 1 when anything differs.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
REAL_ARTICLES = ROOT.parent / "shared" / "real-articles"
WORK = ROOT / "_build" / "identity"


@dataclass(frozen=True)
class Mask:
    """A pattern whose matches differ from run to run by nature, and why."""

    pattern: re.Pattern[str]
    replacement: str
    why: str


#: What is taken out of HTML and JSON before comparing.
MASKS: tuple[Mask, ...] = (
    Mask(
        re.compile(r'"(duration_s|measured_at|seconds|code_seconds|elapsed_s|built_at)": [^,\n}]+'),
        r'"\1": "*"',
        "how long a probe or scan took and when (JSON)",
    ),
    Mask(
        re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:\+00:00|Z)?"),
        "<time>",
        "a time of measurement (HTML)",
    ),
    Mask(
        re.compile(r"\b\d{4}-\d\d-\d\d\b"),
        "<date>",
        "the day of the build or of a measurement (HTML)",
    ),
    Mask(
        re.compile(r"^config: [0-9a-f]+$", re.MULTILINE),
        "config: <digest>",
        "Sphinx's digest of the configuration in .buildinfo (it holds the checkout's path)",
    ),
    Mask(
        re.compile(r"\b0x[0-9a-f]{6,}\b"),
        "0x<address>",
        "object addresses in reprs (a probe may show one, e.g. a grad_fn)",
    ),
    Mask(
        re.compile(r"(\?(?:digest|v)=)[0-9a-f]+"),
        r"\1<asset>",
        "digests the theme appends to asset URLs",
    ),
)


#: Prints, per claim, its probe's ``module:function`` and source hash (run in a checkout).
PROBES = """
import json
from checker import registry
from checker.source_hash import claim_hash
print(json.dumps({c.id: [c.probe_name, claim_hash(c)] for c in registry.load()}, indent=1))
"""


# -- taking a snapshot ------------------------------------------------------------------------


def snapshot(
    checkout: Path, out: Path, cache_from: Path | None = None, every_probe: bool = False
) -> None:
    """Build, verify and scan ``checkout``; write what a user sees under ``out``.

    ``cache_from``: a snapshot whose probe cache this one starts from, so both show the same
    measurements: those of every probe whose code is unchanged (the same hash, wherever it
    lives), or with ``every_probe`` those of every claim (for a change of the hash itself);
    the other probes measure again."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    if cache_from is not None:
        _transplant(cache_from, out / "cache", _hashes(checkout), every_probe, _harness(checkout))
    env = {
        **os.environ,
        "CHECKER_CACHE_DIR": str(out / "cache"),
        "CHECKER_TEXT_STORE": "off",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    shutil.rmtree(checkout / "_build" / "html", ignore_errors=True)
    _run(checkout, env, [sys.executable, "noxfile.py", "-s", "docs"], out / "docs.log")
    shutil.copytree(checkout / "_build" / "html", out / "html")
    # the package of the checkout, whatever the environment has installed
    env["PYTHONPATH"] = str(checkout)
    checker = [sys.executable, "-m", "checker"]
    (out / "verify.json").write_text(
        _run(
            checkout, env, [*checker, "verify", "--format", "json"], out / "verify.log", ok=(0, 1)
        ),
        encoding="utf-8",
    )
    (out / "probes.json").write_text(
        _run(checkout, env, [sys.executable, "-c", PROBES], out / "verify.log"), encoding="utf-8"
    )
    for label, paths in _articles(checkout):
        document = _run(
            checkout,
            env,
            [*checker, "scan", "--format", "json", *map(str, paths)],
            out / "scan.log",
            ok=(0, 1),
        )
        document = document.replace(str(checkout), "<checkout>")
        document = document.replace(str(REAL_ARTICLES), "<real-articles>")
        _split_scan(json.loads(document), out / "scan" / label)


def _hashes(checkout: Path) -> dict[str, str]:
    """Per claim, the hash of its probe in ``checkout``."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run(
        [sys.executable, "-c", PROBES], cwd=checkout, env=env, capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    return {claim: name_hash[1] for claim, name_hash in json.loads(done.stdout).items()}


def _harness(checkout: Path) -> tuple[str, ...]:
    """The harness part of ``checkout``'s cache keys (``checker.cache.HARNESS``), if it has one."""
    found = re.search(
        r'^HARNESS = "([^"]*)"', (checkout / "checker" / "cache.py").read_text("utf-8"), re.M
    )
    return (found[1],) if found else ()


def _transplant(
    source: Path, cache: Path, hashes: dict[str, str], every_probe: bool, harness: tuple[str, ...]
) -> None:
    """Copy ``source``'s measured evidence into ``cache`` under the keys of another checkout
    whose probes have the given ``hashes``: the evidence of each probe with the same hash, or
    with ``every_probe`` of every claim, filed (and shown) under the new hash."""
    cache.mkdir(parents=True)
    for path in (source / "cache").glob("*.json"):
        if path.name.endswith(".not-run.json"):
            continue
        evidence = json.loads(path.read_text(encoding="utf-8"))
        if evidence.get("claim") not in hashes:
            continue
        if not every_probe and evidence.get("probe_hash") != hashes[evidence["claim"]]:
            continue
        evidence["probe_hash"] = hashes[evidence["claim"]]
        raw = "\0".join(
            (
                evidence["claim"],
                evidence["probe_hash"],
                evidence["torch_version"],
                evidence["device"],
                *harness,
            )
        )
        key = hashlib.sha256(raw.encode()).hexdigest()[:32]  # checker.cache.Cache.key
        (cache / f"{key}.json").write_text(json.dumps(evidence, sort_keys=True), encoding="utf-8")


def _articles(checkout: Path) -> Iterator[tuple[str, list[Path]]]:
    """Every sample of the corpus, and every real article."""
    corpus = sorted(
        path
        for path in (checkout / "tests" / "corpus").glob("*/*")
        if path.is_file() and not path.name.endswith(".answers.toml")
    )
    yield "corpus", corpus
    yield "real-articles", sorted(REAL_ARTICLES.glob("[0-9]*"))


def _split_scan(document: dict[str, Any], folder: Path) -> None:
    """One file per article (its findings, in the order of the scan) and the summary."""
    folder.mkdir(parents=True, exist_ok=True)
    per_path: dict[str, list[Any]] = {}
    for finding in document["findings"]:
        per_path.setdefault(finding["path"], []).append(finding)
    for path, findings in per_path.items():
        name = path.replace("<checkout>/", "").replace("<real-articles>/", "").replace("/", "__")
        (folder / f"{name}.json").write_text(
            json.dumps(findings, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    rest = {key: value for key, value in document.items() if key != "findings"}
    (folder / "summary.json").write_text(
        json.dumps(rest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )


def _run(
    cwd: Path, env: dict[str, str], argv: list[str], log: Path, ok: tuple[int, ...] = (0,)
) -> str:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    with log.open("a", encoding="utf-8") as stream:
        stream.write(f"$ {' '.join(argv)}\n{done.stderr}\n")
    if done.returncode not in ok:
        sys.exit(f"identity: {' '.join(argv)} exited {done.returncode} in {cwd}; see {log}")
    return done.stdout


# -- comparing -----------------------------------------------------------------------------


@dataclass
class Comparison:
    """What differs between two snapshots."""

    only_before: list[str] = field(default_factory=list)
    only_after: list[str] = field(default_factory=list)
    differing: dict[str, str] = field(default_factory=dict)
    same: int = 0
    #: Files equal once the lines that differ between two runs of the same checkout are
    #: left out (timings a probe measured, random values an article's code printed).
    same_but_noise: dict[str, int] = field(default_factory=dict)
    renamed: dict[str, str] = field(default_factory=dict)
    #: Old statement -> new statement, per claim whose statement was reworded.
    restated: dict[str, str] = field(default_factory=dict)
    #: Per claim and device whose outcome or status differs when measured again, cold.
    outcomes: list[str] = field(default_factory=list)

    @property
    def identical(self) -> bool:
        return not (self.only_before or self.only_after or self.differing or self.outcomes)


def compare(
    before: Path,
    after: Path,
    renames: bool = False,
    noise: tuple[Path, ...] = (),
    unordered: bool = False,
    *,
    restated: bool = False,
) -> Comparison:
    """Compare two snapshots. ``noise``: further snapshots of either checkout, each taken
    on its own: a line that differs between ``before`` (or ``after``) and one of them differs
    by nature, and may differ between ``before`` and ``after`` too. ``unordered``: compare
    each file's lines as a multiset (for a change that only reorders, such as the order in
    which the registry lists claims). ``restated``: the claims' statements may differ (a
    rewording of the registry), each old statement reads as the new one wherever it is
    quoted; everything else must still be equal."""
    result = Comparison()
    mapping = _renames(before, after) if renames else {}
    result.renamed = dict(mapping)
    if restated:
        result.restated = _restatements(before, after)
        mapping = {**mapping, **_quoted_forms(result.restated)}
    names = {p.relative_to(before).as_posix() for p in _files(before)}
    later = {p.relative_to(after).as_posix() for p in _files(after)}
    result.only_before = sorted(names - later)
    result.only_after = sorted(later - names)
    for name in sorted(names & later):
        old = _normalised(before / name, mapping)
        new = _normalised(after / name, {})
        if result.renamed and name.endswith("searchindex.js"):
            old, new = _search_indexes(old, new, result.renamed)
        if old == new:
            result.same += 1
            continue
        noisy_old, noisy_new = _noisy_lines(name, before, after, noise, mapping)
        if unordered:  # compared as multisets, the before's noisy lines left out
            missing, extra = _unordered(old.splitlines(), new.splitlines(), noisy_old)
            if not missing and not extra:
                result.same += 1
                continue
            diff = [f"-{line}" for line in sorted(missing)] + [f"+{line}" for line in sorted(extra)]
            result.differing[name] = "\n".join(diff[:40])
            continue
        leftover = _differences(old.splitlines(), new.splitlines(), noisy_old, noisy_new)
        if not leftover:
            result.same_but_noise[name] = len(noisy_old)
            continue
        diff = difflib.unified_diff(
            old.splitlines(), new.splitlines(), "before/" + name, "after/" + name, lineterm="", n=1
        )
        result.differing[name] = "\n".join(list(diff)[:40])
    return result


def _unordered(old: list[str], new: list[str], noisy: set[int]) -> tuple[list[str], list[str]]:
    """Lines of ``old`` missing from ``new`` and lines of ``new`` not in ``old``, counted as
    multisets. A line of ``old`` that differs from run to run (``noisy``) may be any line of
    ``new`` of the same shape (digits masked): the same line with another random value."""
    kept = Counter(_parity(x) for i, x in enumerate(old) if i not in noisy)
    noisy_shapes = Counter(_shape(_parity(old[i])) for i in noisy)
    later = Counter(_parity(x) for x in new)
    missing, extra = kept - later, later - kept
    extra_shapes = Counter(_shape(x) for x in extra.elements())
    unexplained = extra_shapes - noisy_shapes
    left = [x for x in extra.elements() if unexplained[_shape(x)] > 0]
    return list(missing.elements()), left


def _shape(line: str) -> str:
    return re.sub(r"\s+", "", re.sub(r"[-+]?\d[\d.e+-]*", "#", line))


def _parity(line: str) -> str:
    """A table row's line without its parity (``row-odd``, ``row-even``), which follows the
    row's place: compared as multisets, rows that only moved are equal."""
    return re.sub(r"\brow-(?:odd|even)\b", "row-*", line)


def _noisy_lines(
    name: str, before: Path, after: Path, noise: tuple[Path, ...], mapping: dict[str, str]
) -> tuple[set[int], set[int]]:
    """Line numbers of ``before``'s and ``after``'s file that differ from another run."""
    noisy: list[set[int]] = [set(), set()]
    for side, (snap, renamed) in enumerate(((before, mapping), (after, {}))):
        lines = _normalised(snap / name, renamed).splitlines()
        for other in noise:
            if not (other / name).exists():
                continue
            # a noise snapshot of the before-checkout needs its names mapped, like before's
            same_side = _probe_identity(other) == _probe_identity(snap)
            again = _normalised(other / name, renamed if same_side else {}).splitlines()
            matcher = difflib.SequenceMatcher(None, lines, again, autojunk=False)
            for tag, i1, i2, _, _ in matcher.get_opcodes():
                if tag != "equal":
                    noisy[side].update(range(i1, i2))
    return noisy[0], noisy[1]


def _differences(
    old: list[str], new: list[str], noisy_old: set[int], noisy_new: set[int]
) -> list[tuple[str, int, int, int, int]]:
    """The changes from ``old`` to ``new`` that are not a noisy line replaced by a noisy one,
    line for line."""
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    leftover = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if (
            tag == "replace"
            and i2 - i1 == j2 - j1
            and set(range(i1, i2)) <= noisy_old
            and set(range(j1, j2)) <= noisy_new
        ):
            continue
        leftover.append((tag, i1, i2, j1, j2))
    return leftover


def compare_outcomes(before: Path, after: Path) -> list[str]:
    """Claims × devices whose outcome, status, control outcome or measured values differ
    between two ``verify.json``, each side measured on its own. Values that depend on timing
    are not compared (see :func:`_timed`); every other value must be equal."""

    def decided(snap: Path) -> dict[tuple[str, str], tuple[object, ...]]:
        document = json.loads((snap / "verify.json").read_text(encoding="utf-8"))
        found = {}
        for r in document["results"]:
            evidence = r.get("evidence") or {}
            control = evidence.get("control") or {}
            measured = [*evidence.get("measurements", []), *control.get("measurements", [])]
            timed = _timed(measured)
            values = tuple(
                (m["key"], m["unit"], "<timed>" if m["key"] in timed else _masked(m["value"]))
                for m in measured
            )
            found[r["claim"], r["device"]] = (
                r["outcome"],
                r["status"],
                control.get("holds"),
                values,
            )
        return found

    old, new = decided(before), decided(after)
    return [
        f"{claim}@{device}: {old.get((claim, device))} -> {new.get((claim, device))}"
        for claim, device in sorted(old.keys() | new.keys())
        if old.get((claim, device)) != new.get((claim, device))
    ]


def _timed(measurements: list[dict[str, Any]]) -> set[str]:
    """Keys of values that depend on how fast the machine was: a time, a value whose key
    names a time, and every ratio of a claim that measures a time (its ratios are of times)."""
    times = {m["key"] for m in measurements if m["unit"] == "seconds" or "time" in m["key"]}
    if any(m["unit"] == "seconds" for m in measurements):
        times |= {m["key"] for m in measurements if m["unit"] == "ratio"}
    return times


def _masked(value: object) -> object:
    return re.sub(r"\b0x[0-9a-f]{6,}\b", "0x<address>", value) if isinstance(value, str) else value


def _files(root: Path) -> Iterator[Path]:
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).parts
        if path.is_file() and relative[0] in ("html", "scan", "verify.json"):
            yield path


def _normalised(path: Path, mapping: dict[str, str]) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return path.read_bytes().hex()
    for old, new in mapping.items():
        text = text.replace(old, new)
    for mask in MASKS:
        text = mask.pattern.sub(mask.replacement, text)
    return text


def _search_indexes(old: str, new: str, renamed: dict[str, str]) -> tuple[str, str]:
    """Two search indexes without the terms that differ only because a name was renamed.

    A renamed probe name or hash is a term of the index, and so are its pieces (the Japanese
    and Korean splitters cut a hash into hexadecimal fragments; English stems words): a term
    whose pages differ between the two indexes is left out when it is part of a renamed name,
    old or new. Every other term, and everything else in the index, is compared as it is."""
    names = [name.lower() for pair in renamed.items() for name in pair]
    names += sorted(_stems(names))

    def load(index: str) -> tuple[str, dict[str, Any]]:
        prefix, _, rest = index.partition("(")
        return prefix, json.loads(rest.rstrip().removesuffix(";").removesuffix(")"))

    (prefix_old, old_doc), (prefix_new, new_doc) = load(old), load(new)
    for kind in ("terms", "titleterms"):
        before, after = old_doc.get(kind, {}), new_doc.get(kind, {})
        for term in set(before) | set(after):
            bare = term.lower().lstrip("(")
            if before.get(term) != after.get(term) and any(bare in name for name in names):
                before.pop(term, None)
                after.pop(term, None)

    def dump(prefix: str, document: dict[str, Any]) -> str:
        return f"{prefix}({json.dumps(document, sort_keys=True, ensure_ascii=False, indent=0)})"

    return dump(prefix_old, old_doc), dump(prefix_new, new_doc)


def _stems(names: list[str]) -> set[str]:
    """The English stems of the words of ``names``, as Sphinx's English index writes them
    (``which_copy`` is indexed as ``which_copi``)."""
    try:
        import snowballstemmer  # Sphinx's own stemmer, in the docs environment
    except ImportError:
        return set()
    stemmer = snowballstemmer.stemmer("porter")
    words = {word for name in names for word in re.split(r"[^\w]+", name) if word}
    return {stemmer.stemWord(word) for word in words}


def _restatements(before: Path, after: Path) -> dict[str, str]:
    """Per claim whose statement differs between the two ``verify.json``: old -> new."""

    def statements(snap: Path) -> dict[str, str]:
        document = json.loads((snap / "verify.json").read_text(encoding="utf-8"))
        return {r["claim"]: r["statement"] for r in document["results"]}

    old, new = statements(before), statements(after)
    return {old[c]: new[c] for c in sorted(old.keys() & new.keys()) if old[c] != new[c]}


def _quoted_forms(restated: dict[str, str]) -> dict[str, str]:
    """Each statement as a page, a JSON document or the HTML quote it, longest first (so that
    a statement is replaced before a shorter one it contains)."""
    forms: dict[str, str] = {}
    for old, new in restated.items():
        escaped = (
            (lambda text: text),
            lambda text: json.dumps(text, ensure_ascii=False)[1:-1],
            lambda text: html.escape(text, quote=False),
            html.escape,
            lambda text: html.escape(text, quote=False).replace('"', "&quot;"),
        )
        for escape in escaped:
            forms.setdefault(escape(old), escape(new))
    return dict(sorted(forms.items(), key=lambda pair: -len(pair[0])))


def _renames(before: Path, after: Path) -> dict[str, str]:
    """Per claim, the before-snapshot's probe name and hash mapped to the after's: a move of
    code renames both by design. Each old name must map to one new name."""
    old, new = _probe_identity(before), _probe_identity(after)
    mapping: dict[str, str] = {}
    for claim, names in old.items():
        for a, b in zip(names, new.get(claim, names), strict=True):
            if a == b:
                continue
            if mapping.get(a, b) != b:
                sys.exit(f"identity: {a} maps to {mapping[a]} and to {b}")
            mapping[a] = b
    return dict(sorted(mapping.items(), key=lambda item: -len(item[0])))


def _probe_identity(snapshot_dir: Path) -> dict[str, list[str]]:
    """Per claim, ``[module:function, source hash]`` of its probe (``probes.json``)."""
    path = snapshot_dir / "probes.json"
    found: dict[str, list[str]] = json.loads(path.read_text(encoding="utf-8"))
    return found


# -- the command line ------------------------------------------------------------------------


def _report(result: Comparison, print_: Callable[[str], None] = print) -> None:
    for mask in MASKS:
        print_(f"masked: {mask.why}")
    if result.renamed:
        print_(f"renamed by design: {len(result.renamed)} probe names and hashes")
    for old, new in result.restated.items():
        print_(f"restated by design: {old!r} -> {new!r}")
    print_(f"identical files: {result.same}")
    for name, lines in result.same_but_noise.items():
        print_(f"identical but for {lines} lines that differ from run to run: {name}")
    for name in result.only_before:
        print_(f"only before: {name}")
    for name in result.only_after:
        print_(f"only after: {name}")
    for line in result.outcomes:
        print_(f"outcome differs when measured cold: {line}")
    for name, diff in result.differing.items():
        print_(f"differs: {name}\n{diff}")
    print_("IDENTICAL" if result.identical else f"DIFFERENT: {len(result.differing)} files")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    take = commands.add_parser("snapshot", help="build, verify and scan a checkout")
    take.add_argument("out", type=Path)
    take.add_argument("--checkout", type=Path, default=ROOT)
    take.add_argument("--cache-from", type=Path, help="a snapshot whose measurements to reuse")
    take.add_argument("--every-probe", action="store_true", help="with --cache-from: every claim's")
    both = commands.add_parser("compare", help="compare two snapshots")
    both.add_argument("before", type=Path)
    both.add_argument("after", type=Path)
    both.add_argument("--renames", action="store_true")
    both.add_argument("--noise", type=Path, nargs="*", default=[])
    both.add_argument("--unordered", action="store_true", help="compare lines as multisets")
    both.add_argument(
        "--restated", action="store_true", help="claims' statements reworded: read old as new"
    )
    run = commands.add_parser("run", help="snapshot a commit and the working tree, compare")
    run.add_argument("--base", required=True)
    run.add_argument("--renames", action="store_true")
    run.add_argument("--unordered", action="store_true", help="compare lines as multisets")
    run.add_argument(
        "--every-probe",
        action="store_true",
        help="give the working tree the base's measurements of every claim, not only of the "
        "probes whose code is unchanged (for a change of how probes are hashed)",
    )
    run.add_argument(
        "--cold",
        action="store_true",
        help="also snapshot the working tree with a cold cache and compare every probe's outcome",
    )
    args = parser.parse_args()
    if args.command == "snapshot":
        cache_from = args.cache_from.resolve() if args.cache_from else None
        snapshot(args.checkout.resolve(), args.out.resolve(), cache_from, args.every_probe)
        return 0
    if args.command == "compare":
        result = compare(
            args.before,
            args.after,
            args.renames,
            tuple(args.noise),
            args.unordered,
            restated=args.restated,
        )
    else:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", args.base], cwd=ROOT, capture_output=True,
            text=True, check=True,
        ).stdout.strip()  # fmt: skip
        source = WORK / f"src-{commit}"
        if not source.exists():
            subprocess.run(
                ["git", "worktree", "add", "--detach", str(source), commit], cwd=ROOT, check=True
            )
            (source / ".nox").symlink_to(ROOT / ".nox")
        base, work = WORK / f"base-{commit}", WORK / "work"
        # the base measures; the others start from its measurements, so that timings a
        # probe measured are the same on both sides (a probe's outcome is checked cold
        # below); a second run of the base shows what an article's unseeded code changes
        snapshot(source, base)
        snapshot(ROOT, work, cache_from=base, every_probe=args.every_probe)
        snapshot(source, base.with_name(base.name + "-again"), cache_from=base)
        noise = (base.with_name(base.name + "-again"),)
        result = compare(base, work, args.renames, noise, args.unordered)
        if args.cold:
            snapshot(ROOT, work.with_name("work-cold"))
            result.outcomes = compare_outcomes(base, work.with_name("work-cold"))
    _report(result)
    return 0 if result.identical else 1


if __name__ == "__main__":
    sys.exit(main())
