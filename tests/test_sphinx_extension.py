"""The Sphinx extension: badges, evidence, measured values, charts, index, and every build
error the issue names (unknown id, duplicate, missing value, corrupt evidence, contradiction)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import ROOT
from tests.sphinx_site import Site, copy_site


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Site:
    monkeypatch.setenv("CHECKER_REPO_ROOT", str(ROOT))
    monkeypatch.setenv("CHECKER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CHECKER_HIDE_CUDA", "1")
    return copy_site(tmp_path)


def test_clean_site_builds_without_warnings_and_shows_verdicts(site: Site) -> None:
    build = site.build()
    assert (build.code, build.warnings) == (0, "")
    html = build.html()
    assert 'id="claim-fixture-ones-sum"' in html
    assert '<span class="checker-claim-label">Myth</span>' in html
    assert (
        'checker-badge checker-confirmed checker-outcome-fails">myth refuted · CPU · torch ' in html
    )
    assert '<details class="checker-evidence"><summary>Evidence</summary>' in html
    assert '<span class="pre">fixture-true-division-dtype</span>' in html
    assert '<abbr class="checker-measured" title="measured on CPU, torch ' in html
    assert "not run · CUDA" in html
    assert "<svg" in html and "the bytes" in html
    assert 'class="checker-verdict" id="verdict-fixture-float16-is-2-bytes"' in html
    assert "Values on this page were measured by its probes: CPU with torch" in html


def test_claims_index_lists_every_claim_with_its_page(site: Site) -> None:
    html = site.build().html("claims")
    for claim_id in (
        "fixture/ones-sum",
        "fixture/int-division-stays-int",
        "fixture/float16-is-2-bytes",
    ):
        assert claim_id in html
    assert 'href="index.html#claim-fixture-ones-sum"' in html
    assert 'href="index.html#verdict-fixture-float16-is-2-bytes"' in html


def test_claims_index_has_a_filter_by_topic_device_and_outcome_for_html_only(
    site: Site,
) -> None:
    build = site.build()
    assert (build.code, build.warnings) == (0, "")
    html = build.html("claims")
    start = html.index('<form class="checker-claims-filter"')
    form = html[start : html.index("</form>", start)]
    assert form.startswith('<form class="checker-claims-filter" data-shown="{shown} of {total}')
    assert '<label>Topic <select name="topic"><option value="">all</option>' in form
    assert '<option value="t0">Fixture site</option></select>' in form  # the page's title
    devices = '<option value="cpu">CPU</option><option value="cuda">CUDA</option></select>'
    assert f'<label>Device <select name="device"><option value="">all</option>{devices}' in form
    assert (
        '<option value="confirmed">as the docs say</option>'
        '<option value="contradicted">against the docs</option>'
        '<option value="error">probe error</option><option value="not-run">not run</option>'
    ) in form
    # every row names its topic and each device's status, for the script to filter on
    row = '<tr class="checker-topic-t0 checker-on-cpu-confirmed checker-on-cuda-not-run row-'
    assert html.count(row) == 3
    assert '<script defer="defer" src="_static/claims-filter.js' in html
    assert (build.out / "_static" / "claims-filter.js").is_file()
    assert "claims-filter.js" not in build.html("index")  # only where the index is
    # a CUDA verdict not run says why, under its badge
    assert (
        '<span class="checker-badge checker-not-run"><span class="checker-badge-part">not run'
        '</span> · <span class="checker-badge-part">CUDA</span></span>'
        '<span class="checker-reason">CUDA hidden by CHECKER_HIDE_CUDA</span>'
    ) in html
    # the gettext builder sees neither the filter nor the table: the page's words only
    text = site.build("gettext")
    assert text.code == 0
    assert "Topic" not in (text.out / "claims.pot").read_text(encoding="utf-8")


def test_a_probe_out_of_time_on_a_busy_machine_is_not_run_and_its_values_say_so(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A machine four times slower than the reference (CHECKER_SLOWDOWN): the slow probe
    finishes within its stretched limit, the one that never ends is not run with the reason,
    its value reads "not measured", and the build passes without a warning."""
    monkeypatch.setenv("CHECKER_SLOWDOWN", "4")
    conf = site.root / "conf.py"
    conf.write_text(
        conf.read_text().replace(
            '["tests.fixtures.claims_ok"]',
            '["tests.fixtures.claims_ok", "tests.fixtures.claims_slow"]',
        )
    )
    site.append(
        "index.md",
        "\n```{claim}\n:id: slow/takes-0-8-s\n:expect: holds\n\nSlow.\n```\n"
        "\n```{claim}\n:id: slow/never-ends\n:expect: holds\n\nNever.\n```\n"
        "\nIt measured {measured}`fixture-never-measured`.\n",
    )
    build = site.build()
    assert (build.code, build.warnings) == (0, "")
    html = build.html()
    reason = (
        "did not finish within 2 s: this machine ran 4.0 times slower than the reference "
        "machine (it is busy with other work); run it again when it is less busy"
    )
    assert f"<p>CPU: {reason}</p>" in html  # the evidence panel
    assert (
        f'It measured <abbr class="checker-measured checker-not-measured" title="CPU: {reason}">'
        "not measured in this build</abbr>."
    ) in html
    assert "fixture-never-measured</span>" not in html  # never the raw key
    assert 'checker-confirmed checker-outcome-holds">holds · CPU' in html  # 0.8 s, within 2 s


def test_a_value_is_never_taken_from_another_device_than_the_one_its_sentence_is_about() -> None:
    """A value without ``@device`` is read on the first device the claim is meant for; when
    the CPU did not measure it (its probe ran out of time), CUDA's recording is not shown in
    its place: the CPU's verdict says why."""
    from checker import registry
    from checker.evidence import Evidence, Measurement, Observation
    from checker.sphinx.results import Results
    from checker.verdict import not_run

    reg = registry.load(["tests.fixtures.claims_ok"], package=None)
    claim = reg.by_measurement("fixture-ones-sum")
    assert claim is not None
    observation = Observation(True, "-", (Measurement("fixture-ones-sum", 4, "count"),))
    recorded = Evidence(
        claim.id, "cuda", "GPU", "2.11.0", "hash", observation, 0.1, "2026-11-22", "recorded"
    )
    cpu = not_run(claim, "cpu", "did not finish within 2 s: ...")
    results = Results(
        registry=reg,
        devices=("cpu", "cuda"),
        absent={"cuda": "CUDA hidden by CHECKER_HIDE_CUDA"},
        verdicts={
            (claim.id, "cpu"): cpu,
            (claim.id, "cuda"): not_run(claim, "cuda", "hidden", recorded),
        },
    )
    assert results.default_device("fixture-ones-sum") == "cpu"
    assert results.value("fixture-ones-sum") is None  # not CUDA's 4
    assert results.unmeasured("fixture-ones-sum") is cpu
    assert results.value("fixture-ones-sum", "cuda") == (4, recorded)
    assert results.unmeasured("fixture-ones-sum", "cuda") is None  # absent: recorded or warned


def test_language_switcher_links_the_same_page(site: Site) -> None:
    html = site.build().html("claims")
    assert '<a class="checker-language" href="../ja/claims.html" hreflang="ja"' in html
    assert 'aria-current="page">English</span>' in html


def test_contradicted_claim_fails_the_build_with_page_line_and_evidence(site: Site) -> None:
    conf = site.root / "conf.py"
    conf.write_text(
        conf.read_text().replace(
            '["tests.fixtures.claims_ok"]',
            '["tests.fixtures.claims_ok", "tests.fixtures.claims_contradicted"]',
        )
    )
    line = site.append(
        "index.md",
        "\n```{claim}\n:id: fixture/clone-shares-storage\n"
        ":expect: holds\n\nA clone shares storage.\n```\n",
    )
    build = site.build()
    assert build.code != 0
    assert (
        f"index.md:{line + 1}: WARNING: claim fixture/clone-shares-storage is "
        "contradicted on cpu: the page says it holds, the probe found it fails" in build.warnings
    )
    assert "fixture-clone-shares=False" in build.warnings
    assert "[checker.contradicted]" in build.warnings


@pytest.mark.parametrize(
    ("snippet", "message"),
    [
        (
            "```{claim}\n:id: fixture/no-such-claim\n:expect: holds\n\nText.\n```\n",
            "unknown claim id 'fixture/no-such-claim' [checker.unknown_claim]",
        ),
        (
            "```{claim}\n:id: fixture/ones-sum\n:expect: fails\n\nText.\n```\n",
            "claim fixture/ones-sum expects 'fails' here, but is defined with expect='holds'",
        ),
        (
            "A value that no probe measures: {measured}`no-such-value`.\n",
            "no probe measures a value named 'no-such-value' [checker.unknown_measurement]",
        ),
        (
            "```{claim}\n:id: fixture/ones-sum\n\nText.\n```\n",
            "a claim needs both :id: and :expect: [checker.directive]",
        ),
    ],
)
def test_bad_markup_is_a_build_error_with_file_and_line(
    site: Site, snippet: str, message: str
) -> None:
    line = site.append("index.md", "\n" + snippet)
    build = site.build()
    assert build.code != 0
    [warning] = [w for w in build.warnings.splitlines() if message in w]
    assert warning.startswith(f"{site.page('index.md')}:{line + 1}: WARNING: ")


def test_duplicate_claim_names_both_places(site: Site) -> None:
    line = site.append(
        "claims.md", "\n```{claim}\n:id: fixture/ones-sum\n:expect: holds\n\nAgain.\n```\n"
    )
    build = site.build()
    assert build.code != 0
    assert (
        f"claim fixture/ones-sum is shown 2 times ({site.page('claims.md')}:{line + 1}, "
        in build.warnings
        or f"{site.page('index.md')}:3" in build.warnings
    )
    assert "[checker.duplicate_claim]" in build.warnings


def test_corrupt_evidence_file_is_named(site: Site) -> None:
    evidence = site.root / "evidence"
    evidence.mkdir()
    (evidence / "cuda.json").write_text('{"schema": 1, "claims": {\n')
    build = site.build()
    assert build.code != 0
    assert f"{evidence / 'cuda.json'}:2: not valid JSON" in build.warnings
    assert "Traceback" not in build.warnings


def test_gettext_extracts_statements_not_badges(site: Site) -> None:
    build = site.build("gettext")
    assert build.code == 0
    pot = (build.out / "index.pot").read_text(encoding="utf-8")
    assert 'msgid "Dividing integer tensors with `/` keeps an integer dtype."' in pot
    assert "refuted" not in pot and "Evidence" not in pot
    assert 'msgid "3"' not in pot  # a bare line number has nothing to translate
    assert "{verdict}" not in pot


def test_translated_build_shows_translated_statement_and_labels(site: Site) -> None:
    catalogs = site.root / "locales" / "ja" / "LC_MESSAGES"
    for page, entries in {
        "index": {
            "Fixture site": "フィクスチャ",
            "Dividing integer tensors with `/` keeps an integer dtype.": (
                "整数テンソルを `/` で割っても整数型のままである。"
            ),
        },
        "claims": {"All claims": "すべての主張"},
    }.items():
        body = "".join(f'msgid "{k}"\nmsgstr "{v}"\n\n' for k, v in entries.items())
        (catalogs / f"{page}.po").write_text(
            'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' + body,
            encoding="utf-8",
        )
    build = site.build("html", "ja")
    assert build.code == 0, build.warnings
    html = build.html()
    assert "整数テンソルを <code" in html
    assert '<span class="checker-claim-label">誤解</span>' in html
    assert "反証 · CPU" in html
    assert "ja/index.html" not in html and "../en/index.html" in html


def test_missing_catalog_fails_that_language_with_its_path(site: Site) -> None:
    build = site.build("html", "ko")
    assert build.code != 0
    expected = site.root / "locales" / "ko" / "LC_MESSAGES" / "index.po"
    assert f"no ko catalog for page 'index': expected {expected}" in build.warnings


def test_broken_catalog_is_reported_with_its_path(site: Site) -> None:
    catalogs = site.root / "locales" / "ja" / "LC_MESSAGES"
    (catalogs / "index.po").write_text('msgid "a"\nmsgstr "b"\nmsgid "unterminated\n')
    (catalogs / "claims.po").write_bytes(b"\x00\x01binary")
    build = site.build("html", "ja")
    assert build.code != 0
    unterminated = "unterminated string (no closing quote on this line)"
    assert f"{catalogs / 'index.po'}:3: malformed catalog: {unterminated}" in build.warnings
    assert f"{catalogs / 'claims.po'}:1: binary data, not a .po catalog" in build.warnings


def test_evidence_json_of_recorded_cuda_is_shown_with_date(site: Site) -> None:
    evidence = site.root / "evidence"
    evidence.mkdir()
    from checker import registry
    from checker.source_hash import probe_hash

    claim = registry.load(["tests.fixtures.claims_ok"], package=None).get("fixture/ones-sum")
    assert claim is not None
    entry = {
        "claim": claim.id,
        "device": "cuda",
        "device_name": "NVIDIA H100 80GB HBM3",
        "torch_version": "2.11.0+cu130",
        "probe_hash": probe_hash(claim.probe),
        "holds": True,
        "rule": "r",
        "measurements": [{"key": "fixture-ones-sum", "value": 4, "unit": "count"}],
        "duration_s": 0.1,
        "measured_at": "2026-11-20T08:00:00+00:00",
    }
    (evidence / "cuda.json").write_text(
        json.dumps(
            {
                "schema": 1,
                "device": "cuda",
                "device_name": "NVIDIA H100 80GB HBM3",
                "torch_version": "2.11.0+cu130",
                "recorded_at": "2026-11-20T08:00:00+00:00",
                "claims": {claim.id: entry},
            }
        )
    )
    html = site.build().html()
    assert "holds · CUDA · NVIDIA H100 80GB HBM3 · torch 2.11.0+cu130 · recorded 2026-11-20" in html


def test_generated_text_theme_labels_and_title_follow_the_page_language(
    site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sphinx.locale

    from checker.sphinx import messages

    sphinx.locale.translators.clear()  # catalogs of earlier builds in this process
    locale = tmp_path / "extension-locale" / "ja" / "LC_MESSAGES"
    locale.mkdir(parents=True)
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    (locale / "checker.po").write_text(
        header
        + 'msgid "holds if the sum of four ones is 4"\nmsgstr "1 を 4 つ足すと 4 なら成立"\n\n'
        'msgctxt "rule"\nmsgid "Decision rule"\nmsgstr "判定基準"\n',
        encoding="utf-8",
    )
    (locale / "sphinx.po").write_text(
        header + 'msgid "Back to top"\nmsgstr "先頭へ戻る"\n', encoding="utf-8"
    )
    monkeypatch.setattr(messages, "LOCALE_DIR", tmp_path / "extension-locale")
    site.append(
        "../conf.py",
        '\nchecker_site_text = {"ja": {"html_title": "検証済みサイト", "project": "検証済み"}}\n',
    )
    (site.root / "locales" / "ja" / "LC_MESSAGES" / "index.po").write_text(header)
    (site.root / "locales" / "ja" / "LC_MESSAGES" / "claims.po").write_text(header)
    build = site.build("html", "ja")
    assert build.code == 0, build.warnings
    html = build.html()
    assert "<em>判定基準: </em>1 を 4 つ足すと 4 なら成立" in html
    assert "先頭へ戻る" in html and "Back to top" not in html  # the theme's says トップに戻る
    assert "検証済みサイト</title>" in html
    sphinx.locale.translators.clear()


def test_controls_are_shown_and_one_that_does_not_flip_fails_the_build(site: Site) -> None:
    conf = site.root / "conf.py"
    conf.write_text(
        conf.read_text().replace(
            '["tests.fixtures.claims_ok"]',
            '["tests.fixtures.claims_ok", "tests.fixtures.claims_controls"]',
        )
    )
    line = site.append(
        "index.md",
        "\n```{claim}\n:id: controls/clone-copies\n:expect: holds\n\nclone() copies.\n```\n"
        "\n```{claim}\n:id: controls/control-does-not-flip\n:expect: holds\n\nSame.\n```\n"
        "\n```{claim}\n:id: controls/not-applicable\n:expect: holds\n\nTwo GPUs.\n```\n",
    )
    build = site.build()
    assert build.code != 0
    assert (
        f"index.md:{line + 8}: WARNING: probe of claim controls/control-does-not-flip broke on "
        "cpu: the control (clone again) did not flip" in build.warnings
    )
    assert build.warnings.count("WARNING") == 1  # the claim that cannot run is no error
    html = build.html()
    assert (
        '<p class="checker-control"><em>Control: </em>a slice, <code class="docutils literal '
        'notranslate"><span class="pre">fixture-control-shares</span></code> <code class="docutils '
        'literal notranslate"><span class="pre">True</span></code>, <strong>refuted</strong></p>'
        in html
    )
    assert "<em>No control: </em>none written yet" in html  # the fixture claims of claims_ok
    assert "CPU: this case needs two GPUs" in html


def test_outcomes_across_releases_are_shown_beside_the_badges(site: Site) -> None:
    evidence = site.root / "evidence"
    evidence.mkdir()
    (evidence / "versions.json").write_text(
        json.dumps(
            {
                "schema": "checker.versions/1",
                "releases": ["2.4.1", "2.5.1", "2.13.0"],
                "claims": {
                    "fixture/ones-sum": {"2.4.1": "fails", "2.5.1": "holds", "2.13.0": "holds"},
                    # 2.6 to 2.12 not sampled: the releases only bound this change
                    "fixture/int-division-stays-int": {"2.5.1": "fails", "2.13.0": "holds"},
                },
                "measured_at": "2026-11-24T04:00:00+00:00",
                "python": "3.11.7",
            }
        )
    )
    build = site.build()
    assert (build.code, build.warnings) == (0, "")
    html = build.html()
    assert html.count("checker-release-change") == 2
    assert '"checker-badge checker-release-change">holds since torch 2.5</span>' in html
    bounded = "holds by torch 2.13 at the latest (fails on torch 2.5)"
    assert f'"checker-badge checker-release-change">{bounded}</span>' in html
    assert "Across torch releases (CPU): </em>2.4 fails · 2.5 holds · 2.13 holds" in html
    ja = site.build("html", "ja").html()
    assert "torch 2.5 以降は成立" in ja
    assert "遅くとも torch 2.13 以降は成立（torch 2.5 では誤り）" in ja


_EXAMPLES = """
```pycon
>>> torch.ones(2, device=device).sum().item()
2.0
```

```pycon
>>> torch.zeros(2, device=device).sum().item()
0.0
```

% snippet: cuda-only: the caching allocator exists only on CUDA
```pycon
>>> torch.cuda.memory_allocated() >= 0
True
```
"""


def test_examples_not_run_on_cuda_are_marked_and_follow_the_record(site: Site) -> None:
    """The committed CUDA run names the first example and the CUDA-only one: the second is
    marked as run on the CPU only, the CUDA-only one says where it was checked; a new record
    naming every example removes the mark on the next (incremental) build."""
    from checker.doctest.cuda_record import snippet_digest
    from checker.text.pages import parse_page

    site.append("index.md", _EXAMPLES)
    first, second, cuda_only = parse_page(site.page("index.md")).snippets
    evidence = site.root / "evidence"
    evidence.mkdir()

    def record(*snippets: object) -> None:
        (evidence / "doctest-cuda.json").write_text(
            json.dumps(
                {
                    "device_name": "NVIDIA H100 80GB HBM3",
                    "torch": "2.11.0+cu130",
                    "measured_at": "2026-11-22T22:41:29+00:00",
                    "snippets": {"cuda": {"passed": len(snippets), "failed": 0, "skipped": 0}},
                    "ran": {"index.md": [snippet_digest("index.md", s) for s in snippets]},
                }
            )
        )

    record(first, cuda_only)
    build = site.build()
    assert (build.code, build.warnings) == (0, "")
    html = build.html()
    assert html.count('class="checker-cuda-run') == 2
    pending = html.index("checker-cuda-pending")
    assert html.index("0.0") < pending < html.index("memory_allocated")
    assert (
        "Not yet run on CUDA: this example is newer than the last recorded GPU run "
        "(NVIDIA H100 80GB HBM3, torch 2.11.0+cu130, 2026-11-22) and has run on the CPU only."
    ) in html
    assert (
        "CUDA only: checked on NVIDIA H100 80GB HBM3 with torch 2.11.0+cu130, recorded 2026-11-22."
    ) in html

    record(first, second, cuda_only)
    html = site.build(fresh=False).html()
    assert html.count('class="checker-cuda-run') == 1
    assert "checker-cuda-pending" not in html

    (evidence / "doctest-cuda.json").unlink()
    html = site.build(fresh=False).html()
    assert html.count("checker-cuda-pending") == 3
    assert "CUDA only, and not yet run on a GPU: its output is not checked yet." in html
    assert "CUDA 専用の例で、まだ GPU で実行していません。出力は未検証です。" in (
        site.build("html", "ja").html()
    )


@pytest.mark.parametrize(
    ("builder", "page", "value"),
    [
        ("text", "index.txt", "Four ones add up to 4 (measured on CPU, torch "),
        ("latex", "fixturesite.tex", r"up to \sphinxstyleabbreviation{4} (measured on CPU, torch "),
    ],
)
def test_other_builders_show_the_statements_and_values_without_html(
    site: Site, builder: str, page: str, value: str
) -> None:
    """The claim, the measured value and the chart's caption reach every builder; the badges
    and the evidence panel are HTML's own (checker.sphinx.claims, evidence_panel)."""
    build = site.build(builder)
    assert (build.code, build.warnings) == (0, "")
    written = (build.out / page).read_text(encoding="utf-8")
    assert value in written
    assert "keeps an integer dtype" in written
    assert "Two measured numbers." in written  # the chart's caption, above its data table
    assert "details" not in written and "Evidence" not in written
