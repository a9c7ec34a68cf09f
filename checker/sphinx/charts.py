"""The ``measured-chart`` directive: a bar chart of measured values, labelled in the page's
language, drawn at build time from probe evidence.

Markup (the caption and the labels are ordinary, translatable Markdown)::

    ```{measured-chart}
    :values: peak-default, peak-no-grad, peak-checkpoint
    :device: cpu

    Peak memory of one training step.

    - default autograd
    - `torch.no_grad()`
    - activation checkpointing
    ```

The directive emits a neutral :class:`measured_chart_node`. :class:`MeasuredChartTransform`
(every builder but gettext) turns it into a caption and a data table; the HTML-only
:class:`MeasuredChartHtmlTransform` adds the bar chart as inline SVG whose text stays text, so
the reader's browser draws Japanese and Korean labels with its own fonts::

    measured_chart_node (checker-chart)
        paragraph (checker-chart-caption)
        raw (html, classes=[checker-chart-svg])   <- added for HTML: the SVG, in a <div>
        table (checker-chart-data)

The SVG is a ``raw`` node because it is generated content, matplotlib's drawing written out
as it drew it; no HTML around it is written by hand (docutils puts a ``raw`` node with
classes in a ``<div>`` of those classes), and the search index takes the labels' words from
it as from any raw HTML.

Drawing a chart costs far more than the rest of its page (matplotlib's import and layout), so
each SVG is drawn once for its inputs (bars, labels, unit word) and kept: in memory for the
rest of the process, and on disk beside the probe cache (``<cache>/charts/``) for the other
languages' builds and later builds. A figure whose labels are the same in two languages is
drawn once; the key includes this module's source and matplotlib's version, so a change to
either draws afresh.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import io
import json
import logging
import os
import re
import warnings
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective

from checker.cache import Cache
from checker.sphinx import formatting
from checker.sphinx.measured import not_measured, parse_reference
from checker.sphinx.results import mark_dynamic, results_for, shows_results
from checker.sphinx.tables import Cell, table
from checker.sphinx.ui_text import text
from checker.sphinx.warnings_ import CheckerWarnings, warn

#: Fonts the SVG asks the browser for, so CJK labels render wherever the reader has them.
FONT_STACK = (
    "system-ui, -apple-system, 'Segoe UI', 'Noto Sans', 'Noto Sans CJK JP', "
    "'Noto Sans CJK KR', 'Hiragino Sans', 'Yu Gothic', 'Malgun Gothic', "
    "'Apple SD Gothic Neo', sans-serif"
)
_MIB = 1024 * 1024


def setup_charts(app: Sphinx) -> None:
    app.add_node(measured_chart_node)
    app.add_directive("measured-chart", MeasuredChartDirective)
    app.add_post_transform(MeasuredChartTransform)
    app.add_post_transform(MeasuredChartHtmlTransform)


class measured_chart_node(nodes.container):
    """Caption paragraph and label list; ``values`` (references) is an attribute."""


class MeasuredChartDirective(SphinxDirective):
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "values": directives.unchanged_required,
        "device": lambda arg: directives.choice(arg, ["cpu", "cuda"]),
    }

    def run(self) -> list[nodes.Node]:
        refs = [r.strip() for r in self.options.get("values", "").split(",") if r.strip()]
        device = self.options.get("device", "")
        node = measured_chart_node(values=refs, device=device, classes=["checker-chart"])
        self.set_source_info(node)
        node.extend(self.parse_content_to_nodes())
        paragraphs = [n for n in node.children if isinstance(n, nodes.paragraph)]
        lists = [n for n in node.children if isinstance(n, nodes.bullet_list)]
        if not refs or len(paragraphs) != 1 or len(lists) != 1:
            warn(
                CheckerWarnings.DIRECTIVE,
                "measured-chart needs :values:, one caption "
                "paragraph and one bullet list of labels",
                node,
            )
            return []
        if len(lists[0].children) != len(refs):
            warn(
                CheckerWarnings.DIRECTIVE,
                f"measured-chart has {len(refs)} values but {len(lists[0].children)} labels",
                node,
            )
            return []
        mark_dynamic(self.env)
        results = results_for(self.env)
        for ref in refs:
            key, _ = parse_reference(ref)
            if results.loaded and results.registry.by_measurement(key) is None:
                warn(
                    CheckerWarnings.UNKNOWN_MEASUREMENT,
                    f"no probe measures a value named {key!r}",
                    node,
                )
        return [node]


class MeasuredChartTransform(SphinxPostTransform):
    """Caption and data table, for every builder."""

    default_priority = 220

    def is_supported(self) -> bool:
        return shows_results(self.env)

    def run(self, **kwargs: Any) -> None:
        results = results_for(self.env)
        lang = self.config.language or "en"
        for node in list(self.document.findall(measured_chart_node)):
            caption = next(n for n in node.children if isinstance(n, nodes.paragraph))
            items = next(n for n in node.children if isinstance(n, nodes.bullet_list))
            labels = [item.astext().strip() for item in items.children]
            bars: list[tuple[str, float]] = []
            rows: list[list[Cell]] = []
            for label, ref in zip(labels, node["values"], strict=True):
                key, device = parse_reference(ref)
                found = results.value(key, device or node["device"] or None)
                unmeasured = results.unmeasured(key, device or node["device"] or None)
                if found is None and unmeasured is not None:
                    # not run here: the row says so and why, without a bar and a warning
                    rows.append([label, not_measured(unmeasured, lang), ""])
                    continue
                if found is None or isinstance(found[0], bool | str):
                    warn(
                        CheckerWarnings.UNKNOWN_MEASUREMENT,
                        f"chart value {ref!r} has no numeric measurement in this build",
                        node,
                    )
                    continue
                raw, evidence = found
                unit = next(m.unit for m in evidence.observation.measurements if m.key == key)
                shown, _ = formatting.value(raw, unit, lang)
                bars.append((label, float(raw)))
                rows.append([label, shown, formatting.measured_on(evidence, lang)])
            node["bars"] = bars
            node.children = []
            node += nodes.paragraph("", "", *caption.children, classes=["checker-chart-caption"])
            node += table(["", text(lang, "value"), ""], rows, classes=["checker-chart-data"])


class MeasuredChartHtmlTransform(SphinxPostTransform):
    """Inline SVG bar chart before the data table, for HTML."""

    default_priority = 230
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        for node in self.document.findall(measured_chart_node):
            bars: list[tuple[str, float]] = node.get("bars", [])
            if bars:
                mib = text(self.config.language or "en", "unit-mib")
                svg = chart_svg(bars, mib, _chart_dir(results_for(self.env).confdir))
                node.insert(1, nodes.raw("", svg, format="html", classes=["checker-chart-svg"]))


_DRAWN: dict[str, str] = {}


def _chart_dir(root: Path) -> Path | None:
    cache = Cache.default(root)
    return cache.root / "charts" if cache is not None else None


def chart_key(bars: list[tuple[str, float]], mib: str) -> str:
    """What the SVG depends on: its inputs, this module's code and matplotlib's version."""
    # the installed version, read without importing matplotlib (most builds draw nothing)
    matplotlib_version = importlib.metadata.version("matplotlib")
    raw = json.dumps([bars, mib, matplotlib_version, _SOURCE_HASH], ensure_ascii=False)
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


def chart_svg(bars: list[tuple[str, float]], mib: str, directory: Path | None) -> str:
    """:func:`bar_chart_svg`, drawn once per inputs (memory, then ``directory``)."""
    key = chart_key(bars, mib)
    if key in _DRAWN:
        return _DRAWN[key]
    path = directory / f"{key}.svg" if directory is not None else None
    svg = None
    if path is not None:
        try:
            svg = path.read_text(encoding="utf-8")
        except OSError:
            svg = None  # not drawn yet (or unreadable): draw it
    if svg is None:
        svg = bar_chart_svg(bars, mib)
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_text(svg, encoding="utf-8")
                tmp.replace(path)  # atomic: builds side by side never read half a file
            except OSError:
                pass  # a read-only cache only costs the next build a drawing
    _DRAWN[key] = svg
    return svg


def bar_chart_svg(bars: list[tuple[str, float]], mib: str = "MiB") -> str:
    """A horizontal bar chart; byte values are drawn in MiB (written ``mib``) when large."""
    from matplotlib import rcParams
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure

    largest = max((v for _, v in bars), default=0.0)
    scale, unit = (_MIB, mib) if largest >= _MIB else (1.0, "")
    with warnings.catch_warnings(), _quiet_matplotlib():
        warnings.simplefilter("ignore")
        rcParams["svg.fonttype"] = "none"
        rcParams["svg.hashsalt"] = "checker"
        fig = Figure(figsize=(7.0, 0.5 + 0.45 * len(bars)))
        FigureCanvasSVG(fig)
        ax = fig.add_subplot()
        labels = [label for label, _ in bars]
        values = [v / scale for _, v in bars]
        positions = list(range(len(bars)))[::-1]
        ax.barh(positions, values, height=0.5, color="#4c72b0")
        ax.set_yticks(positions, labels=[""] * len(bars))
        whole = not unit and all(float(v).is_integer() for v in values)
        for pos, label, value in zip(positions, labels, values, strict=True):
            ax.text(0, pos + 0.28, label, va="bottom", ha="left", fontsize=9)
            shown = f"{value:,.0f}" if whole else f"{value:,.1f} {unit}".rstrip()
            ax.text(value, pos, f" {shown}", va="center", fontsize=8)
        ax.set_xlim(0, (max(values) if values else 1) * 1.25 or 1)
        ax.spines[["top", "right", "left"]].set_visible(False)
        ax.tick_params(axis="y", length=0)
        if unit:
            ax.set_xlabel(unit)
        fig.tight_layout()
        out = io.StringIO()
        fig.savefig(out, format="svg", metadata={"Date": None})
    svg = out.getvalue()
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r"font-family:[^;\"]*", f"font-family: {FONT_STACK}", svg)
    svg = re.sub(r'font-family="[^"]*"', f'font-family="{FONT_STACK}"', svg)
    return svg


class _quiet_matplotlib:
    """Silence matplotlib's font-fallback chatter while drawing."""

    def __enter__(self) -> None:
        self._logger = logging.getLogger("matplotlib")
        self._level = self._logger.level
        self._logger.setLevel(logging.ERROR)

    def __exit__(self, *exc: object) -> None:
        self._logger.setLevel(self._level)


_SOURCE_HASH = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
