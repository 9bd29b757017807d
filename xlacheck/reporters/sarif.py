"""SARIF 2.1.0 (what GitHub code scanning and most IDEs ingest): rule metadata, results, fixes.

Regions use 1-based lines and columns, and the run states how they are counted, as a consumer
cannot guess it: columns in code points (``columnKind``, the same characters ruff and the other
formats count; UTF-16 code units would differ after an emoji) and lines ended by ``\\r\\n``,
``\\r`` or ``\\n``, as Python ends them (``newlineSequences``; SARIF's default leaves out a lone
``\\r``). A fix becomes ``fixes[].artifactChanges``
with one replacement per edit; files that could not be checked become tool execution
notifications, so a consumer sees them instead of a silently short result list. A finding a
project fact set aside (an unreached module, code that runs once) is a result with a
``suppressions`` entry (SARIF 2.1.0 3.35: ``kind`` "external", as it is not a comment in the
source; ``status`` "accepted"; the fact as ``justification`` and its code in ``properties``), so
viewers such as GitHub code scanning show it as closed, not as an open finding.
"""

from __future__ import annotations

import json
from typing import Any

import xlacheck
from xlacheck.diagnostics import Diagnostic, Location, RunResult, SetAside, Severity

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _level(severity: Severity) -> str:
    return "warning" if severity in (Severity.RECOMPILE, Severity.WARNING) else "error"


def _region(start: Location, end: Location) -> dict[str, int]:
    return {"startLine": start.line, "startColumn": start.col + 1, "endLine": end.line, "endColumn": end.col + 1}


def _rules() -> list[dict[str, Any]]:
    from xlacheck.docs_gen import all_rule_docs, rule_markdown
    from xlacheck.suppression import SUPPRESSION_RULES

    own = [
        {"id": r.code, "name": r.name, "shortDescription": {"text": r.summary}, "fullDescription": {"text": r.doc}}
        for r in SUPPRESSION_RULES
    ]
    return own + [
        {
            "id": doc.code,
            "name": doc.name,
            "shortDescription": {"text": doc.summary},
            "fullDescription": {"text": doc.section("What it does")},
            "help": {"text": doc.section("Why is this bad?"), "markdown": rule_markdown(doc)},
        }
        for doc in sorted(all_rule_docs(), key=lambda d: d.code)
    ]


def _result(d: Diagnostic, index: dict[str, int]) -> dict[str, Any]:
    artifact = {"uri": d.path.replace("\\", "/")}
    result: dict[str, Any] = {
        "ruleId": d.code,
        "level": _level(d.severity),
        "message": {"text": d.message},
        "locations": [{"physicalLocation": {"artifactLocation": artifact, "region": _region(d.start, d.end)}}],
    }
    if d.cell is not None:  # SARIF has no cells: the region's lines count from the cell's first line
        result["locations"][0]["properties"] = {"cell": d.cell}
    if d.code in index:
        result["ruleIndex"] = index[d.code]
    if d.fix is not None:
        result["fixes"] = [
            {
                "description": {"text": f"{d.fix.message} ({d.fix.applicability.value})"},
                "artifactChanges": [
                    {
                        "artifactLocation": artifact,
                        "replacements": [
                            {"deletedRegion": _region(e.start, e.end), "insertedContent": {"text": e.content}}
                            for e in d.fix.edits
                        ],
                    }
                ],
            }
        ]
    return result


def _set_aside_result(s: SetAside, index: dict[str, int]) -> dict[str, Any]:
    result = _result(s.diagnostic, index)
    result["suppressions"] = [{"kind": "external", "status": "accepted", "justification": s.why,
                               "properties": {"reason": s.reason.value}}]
    return result


def render(result: RunResult) -> str:
    rules = _rules()
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    notifications = [
        {
            "level": "error",
            "message": {"text": e.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": e.path.replace("\\", "/")},
                        "region": {"startLine": e.line, "startColumn": e.col + 1},
                    }
                }
            ],
        }
        for e in result.errors
    ]
    log = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "xlacheck",
                        "version": xlacheck.__version__,
                        "rules": rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "newlineSequences": ["\r\n", "\r", "\n"],
                "invocations": [
                    {"executionSuccessful": not notifications, "toolExecutionNotifications": notifications}
                ],
                "results": [_result(d, index) for d in result.diagnostics]
                + [_set_aside_result(s, index) for s in result.set_aside],
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"
