"""Plain docutils tables, for evidence, the claims index and chart data."""

from __future__ import annotations

from collections.abc import Sequence

from docutils import nodes

Cell = str | nodes.Node | Sequence[nodes.Node]


def table(
    headers: Sequence[str], rows: Sequence[Sequence[Cell]], classes: Sequence[str] = ()
) -> nodes.table:
    """A table with one header row; cells are text or ready-made inline nodes."""
    tbl = nodes.table(classes=list(classes))
    group = nodes.tgroup(cols=len(headers))
    tbl += group
    for _ in headers:
        group += nodes.colspec(colwidth=1)
    head = nodes.thead()
    head += _row(headers)
    group += head
    body = nodes.tbody()
    for row in rows:
        body += _row(row)
    group += body
    return tbl


def _row(cells: Sequence[Cell]) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        para = nodes.paragraph()
        if isinstance(cell, str):
            para += nodes.Text(cell)
        elif isinstance(cell, nodes.Node):
            para += cell
        else:
            para.extend(cell)
        entry += para
        row += entry
    return row
