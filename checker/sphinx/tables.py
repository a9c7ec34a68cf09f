"""Plain docutils tables, for evidence, the claims index and chart data."""

from __future__ import annotations

from collections.abc import Sequence

from docutils import nodes

Cell = str | nodes.Node | Sequence[nodes.Node]


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Cell]],
    classes: Sequence[str] = (),
    row_classes: Sequence[Sequence[str]] = (),
) -> nodes.table:
    """A table with one header row; cells are text or ready-made inline nodes; ``row_classes``,
    where given, are the classes of each body row."""
    tbl = nodes.table(classes=list(classes))
    group = nodes.tgroup(cols=len(headers))
    tbl += group
    for _ in headers:
        group += nodes.colspec(colwidth=1)
    head = nodes.thead()
    head += _row(headers)
    group += head
    body = nodes.tbody()
    for index, row in enumerate(rows):
        body_row = _row(row)
        if index < len(row_classes):
            body_row["classes"].extend(row_classes[index])
        body += body_row
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
