"""GitHub Actions workflow commands: each finding becomes an annotation on the pull request.

``::error file=PATH,line=L,col=C,endLine=L,endColumn=C,title=CODE::message``; findings that
compile but are slow or recompile are ``::warning``; findings that project facts set aside, one
``::notice`` counting them. Values are escaped as the runner expects
(``%``, CR and LF everywhere; also ``:`` and ``,`` inside properties).
"""

from __future__ import annotations

from xlacheck.diagnostics import RunResult, Severity
from xlacheck.reporters.text import set_aside_line


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def _cell(cell: int | None) -> str:
    return "" if cell is None else f"cell {cell}: "  # annotations have no cells: lines are the cell's


def render(result: RunResult) -> str:
    out = []
    for e in result.errors:
        out.append(f"::error file={_prop(e.path)},line={e.line},col={e.col + 1},"
                   f"title=xlacheck::{_data(_cell(e.cell) + e.message)}")
    for d in result.diagnostics:
        level = "warning" if d.severity in (Severity.RECOMPILE, Severity.WARNING) else "error"
        out.append(
            f"::{level} file={_prop(d.path)},line={d.start.line},col={d.start.col + 1},"
            f"endLine={d.end.line},endColumn={d.end.col + 1},"
            f"title={_prop(d.code)}::{_data(_cell(d.cell) + d.code + ' ' + d.message)}"
        )
    # findings project facts set aside fail nothing and annotate no line; one notice says they exist
    aside = set_aside_line(result, "run xlacheck --show-set-aside to list them")
    if aside is not None:
        out.append(f"::notice title=xlacheck::{_data(aside)}")
    return "".join(line + "\n" for line in out)
