"""The JSON format documented in docs/cli.md (## Formats): one object, lines and columns 1-based."""

from __future__ import annotations

import json
from typing import Any

import xlacheck
from xlacheck.diagnostics import Diagnostic, RunResult, SetAside


def diagnostic_dict(d: Diagnostic) -> dict[str, Any]:
    fix = None
    if d.fix is not None:
        fix = {
            "message": d.fix.message,
            "applicability": d.fix.applicability.value,
            "edits": [
                {
                    "line": e.start.line,
                    "column": e.start.col + 1,
                    "end_line": e.end.line,
                    "end_column": e.end.col + 1,
                    "content": e.content,
                }
                for e in d.fix.edits
            ],
        }
    return {
        "path": d.path,
        "line": d.start.line,
        "column": d.start.col + 1,
        "end_line": d.end.line,
        "end_column": d.end.col + 1,
        "code": d.code,
        "name": d.name,
        "message": d.message,
        "severity": d.severity.value,
        "fix": fix,
        "cell": d.cell,  # a notebook's cell (1-based over all cells, as ruff); lines are the cell's
    }


def set_aside_dict(s: SetAside) -> dict[str, Any]:
    """A finding a project fact set aside: the finding's fields (never a fix), and the fact."""
    return {**diagnostic_dict(s.diagnostic), "set_aside": {"reason": s.reason.value, "why": s.why}}


def render(result: RunResult) -> str:
    payload = {
        "version": xlacheck.__version__,
        "diagnostics": [diagnostic_dict(d) for d in result.diagnostics],
        "errors": [
            {"path": e.path, "line": e.line, "column": e.col + 1, "message": e.message, "cell": e.cell}
            for e in result.errors
        ],
        # findings a project fact set aside (an unreached module, code that runs once): not findings of
        # the run (they never fail it), listed so a user can see and dispute the fact
        "set_aside": [set_aside_dict(s) for s in result.set_aside],
    }
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
