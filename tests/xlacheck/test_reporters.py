"""Every output format pinned by a snapshot under tests/xlacheck/snapshots/.

Regenerate after an intended change with ``XLACHECK_UPDATE_SNAPSHOTS=1 pytest tests/xlacheck/test_reporters.py``
and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_fakes import fake_engine  # noqa: F401  (fixture)

from xlacheck.api import FileFix
from xlacheck.diagnostics import (
    Applicability,
    Diagnostic,
    Edit,
    FileError,
    FileResult,
    Fix,
    Location,
    RunResult,
    Severity,
)
from xlacheck.reporters import ReportOptions, render, statistics

SNAPSHOTS = Path(__file__).parent / "snapshots"


def assert_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("XLACHECK_UPDATE_SNAPSHOTS") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} missing; run with XLACHECK_UPDATE_SNAPSHOTS=1 to create it"
    assert text == path.read_text(encoding="utf-8"), f"{name} changed; rerun with XLACHECK_UPDATE_SNAPSHOTS=1 if intended"


def loc(line: int, col: int) -> Location:
    return Location(line, col)


NUMPY = Diagnostic(
    "src/model.py", "XLA301", "numpy-call", "`.numpy()` syncs with the host", loc(4, 8), loc(4, 16), Severity.ERROR,
    Fix("remove .numpy()", (Edit(loc(4, 8), loc(4, 16), ""),)),
)
MASK = Diagnostic(
    "src/model.py", "XLA201", "boolean-mask", "boolean mask has a data-dependent shape", loc(7, 11), loc(7, 26),
    Severity.WRONG_RESULT,
    Fix("use masked_select", (Edit(loc(7, 11), loc(7, 25), "masked_select"), Edit(loc(1, 0), loc(1, 0), "from m import masked_select\n")), Applicability.UNSAFE),
)
IF = Diagnostic("src/model.py", "XLA101", "tensor-if", "Python `if` on a tensor:\nuse tf.cond", loc(9, 4), loc(9, 10))
PAD = Diagnostic(
    "data/a,b:c.py", "XLA401", "padding-longest", "padding to 100% of the longest sequence recompiles", loc(2, 0), loc(2, 12),
    Severity.RECOMPILE,
    Fix("pad to a multiple of 8", (Edit(loc(2, 0), loc(2, 12), "padding=True, pad_to_multiple_of=8"),), Applicability.DISPLAY_ONLY),
)
RESULT = RunResult(
    (
        FileResult("data/a,b:c.py", (PAD,), lines=3),
        FileResult("src/broken.py", error=FileError("src/broken.py", "syntax error: invalid syntax", 3, 7), lines=5),
        FileResult("src/model.py", (NUMPY, MASK, IF), lines=12),
        FileResult("src/plain.py", skipped=True, lines=40),
    )
)


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("text.txt", ReportOptions()),
        ("text_unsafe_show_fixes.txt", ReportOptions(unsafe_fixes=True, show_fixes=True)),
        ("text_quiet.txt", ReportOptions(quiet=True)),
        ("text_color.txt", ReportOptions(color=True)),
    ],
)
def test_text(name: str, options: ReportOptions) -> None:
    assert_snapshot(name, render("text", RESULT, options))


def test_text_after_fix() -> None:
    fixed = FileFix("src/model.py", "a", "b", (NUMPY, NUMPY), written=True)
    failed = FileFix("src/other.py", "a", "a", (), error="fixes for XLA302 would produce code that does not parse (invalid syntax); file left unchanged")
    remaining = RunResult((FileResult("src/model.py", (IF,), lines=12),))
    assert_snapshot("text_fix.txt", render("text", remaining, ReportOptions(show_fixes=True, fixing=True), (fixed, failed)))


def test_text_clean() -> None:
    assert render("text", RunResult((FileResult("a.py", lines=1),)), ReportOptions()) == "All checks passed!\n"


def test_json(fake_engine) -> None:  # noqa: F811
    text = render("json", RESULT)
    assert_snapshot("report.json", text)
    payload = json.loads(text)
    assert set(payload) == {"version", "diagnostics", "errors", "set_aside"}
    first = payload["diagnostics"][0]
    assert set(first) == {"path", "line", "column", "end_line", "end_column", "code", "name", "message", "severity", "fix", "cell"}
    assert set(first["fix"]) == {"message", "applicability", "edits"}
    assert set(first["fix"]["edits"][0]) == {"line", "column", "end_line", "end_column", "content"}
    assert payload["errors"] == [{"path": "src/broken.py", "line": 3, "column": 8, "message": "syntax error: invalid syntax", "cell": None}]


def test_sarif(fake_engine) -> None:  # noqa: F811
    text = render("sarif", RESULT)
    assert_snapshot("report.sarif", text)
    log = json.loads(text)
    run = log["runs"][0]
    assert log["version"] == "2.1.0"
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["XLA001", "XLA002", "XLA101", "XLA201", "XLA301", "XLA302", "XLA401"]
    by_id = {r["ruleId"]: r for r in run["results"]}
    assert run["tool"]["driver"]["rules"][by_id["XLA301"]["ruleIndex"]]["id"] == "XLA301"
    replacements = by_id["XLA201"]["fixes"][0]["artifactChanges"][0]["replacements"]
    assert replacements[0] == {
        "deletedRegion": {"startLine": 7, "startColumn": 12, "endLine": 7, "endColumn": 26},
        "insertedContent": {"text": "masked_select"},
    }
    assert by_id["XLA401"]["level"] == "warning" and by_id["XLA301"]["level"] == "error"
    assert run["invocations"][0]["executionSuccessful"] is False


def test_sarif_validates_against_the_2_1_0_shape(fake_engine) -> None:  # noqa: F811
    # Without network access the official schema cannot be fetched; check the required members.
    log = json.loads(render("sarif", RESULT))
    assert {"version", "runs"} <= set(log)
    for result in log["runs"][0]["results"]:
        assert {"message", "locations"} <= set(result) and "text" in result["message"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert all(region[k] >= 1 for k in ("startLine", "startColumn", "endLine", "endColumn"))


def test_github() -> None:
    text = render("github", RESULT)
    assert_snapshot("report.github.txt", text)
    assert "::error file=src/model.py,line=4,col=9,endLine=4,endColumn=17,title=XLA301::XLA301 `.numpy()` syncs with the host" in text
    assert "file=data/a%2Cb%3Ac.py" in text and "100%25" in text and "tensor:%0Ause" in text


def test_statistics() -> None:
    assert_snapshot("statistics.txt", statistics.render(RESULT, "text"))
    rows = json.loads(statistics.render(RESULT, "json"))
    assert rows[0] == {"code": "XLA101", "name": "tensor-if", "count": 1, "fixable": 0}
    assert {r["code"]: r["fixable"] for r in json.loads(statistics.render(RESULT, "json", unsafe_fixes=True))}["XLA201"] == 1
