"""ruff habits: .gitignore, stdin, rule listing, --output-format/-o, -v."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from cli_fakes import TF_HEADER, fake_engine  # noqa: F401  (fixture)

from xlacheck.cli import main

MODEL = TF_HEADER + "y = x.numpy()\nif tf.reduce_any(m):\n    z = 1\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_engine) -> Path:  # noqa: F811
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    (tmp_path / "model.py").write_text(MODEL)
    (tmp_path / "plain.py").write_text("print(1)\n")
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_gitignored_files_are_skipped_unless_named_or_asked(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (project / ".git").mkdir()
    (project / ".gitignore").write_text("gen/\n")
    (project / "gen").mkdir()
    (project / "gen" / "ops.py").write_text(MODEL)
    _, out, _ = run(capsys, "--no-cache")
    assert "gen/ops.py" not in out and "model.py:2:6" in out
    _, out, _ = run(capsys, "--no-cache", "gen/ops.py")  # named on the command line: checked
    assert "gen/ops.py:2:6" in out
    _, out, _ = run(capsys, "--no-cache", "--force-exclude", "gen/ops.py")  # pre-commit: not checked
    assert "gen/ops.py" not in out
    _, out, _ = run(capsys, "--no-cache", "--no-respect-gitignore")
    assert "gen/ops.py:2:6" in out


def test_stdin_is_linted_as_the_named_file(project: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(MODEL.encode())))
    code, out, _ = run(capsys, "-", "--stdin-filename", "pkg/new.py")
    assert code == 1 and "pkg/new.py:2:6: XLA301" in out and "pkg/new.py:3:1: XLA101" in out


def test_stdin_fix_prints_the_fixed_text_and_reports_on_stderr(project: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(MODEL.encode())))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO()))
    buffer = sys.stdout.buffer
    code = main(["-", "--stdin-filename", "m.py", "--fix"])
    sys.stdout.flush()
    assert code == 1 and buffer.getvalue().decode() == MODEL.replace("x.numpy()", "x")  # type: ignore[attr-defined]
    err = capsys.readouterr().err
    assert "m.py:3:1: XLA101" in err and "(1 fixed, 1 remaining)" in err


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (("-", "model.py"), "`-` (read stdin) cannot be mixed"),
        (("--stdin-filename", "x.py", "model.py"), "--stdin-filename names the text read from stdin"),
    ],
)
def test_stdin_usage_errors(project: Path, capsys, argv: tuple[str, ...], needle: str) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and needle in err and err.count("\n") == 1


def test_rule_listing_text_and_json(capsys) -> None:  # type: ignore[no-untyped-def]
    from xlacheck import rules

    code, out, _ = run(capsys, "rule", "--all")
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["code", "name", "family", "fix"]
    assert len(lines) == len(rules.ALL_RULES) + 3  # header, XLA001, XLA002
    code, same, _ = run(capsys, "--list-rules")
    assert same == out
    code, out, _ = run(capsys, "rule", "--all", "--output-format", "json")
    listed = json.loads(out)
    assert [r["code"] for r in listed] == ["XLA001", "XLA002", *sorted(r.code for r in rules.ALL_RULES)]
    by_code = {r["code"]: r for r in listed}
    assert by_code["XLA101"]["family"] == "data-dependent control flow"
    assert {r["fix"] for r in listed} <= {"none", "sometimes"} and set(listed[0]) >= {"code", "name", "family", "fix"}
    # fix availability comes from each rule's declaration (Rule.fix), not from its docstring
    assert all(by_code[r.code]["fix"] == ("none" if r.fix is None else "sometimes") for r in rules.ALL_RULES)
    code, out, _ = run(capsys, "rule", "XLA101")
    assert code == 0 and "XLA101" in out


def test_output_format_alias_and_output_file(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--no-cache", "--output-format", "json", "-o", "report.json")
    assert code == 1 and out == ""
    report = json.loads((project / "report.json").read_text())
    assert {d["code"] for d in report["diagnostics"]} == {"XLA101", "XLA301"}
    code, out, _ = run(capsys, "--no-cache", "--format", "json")
    assert json.loads(out) == report
    code, out, err = run(capsys, "--no-cache", "-o", "missing/dir/r.txt")
    assert code == 2 and "--output-file missing/dir/r.txt: cannot write" in err


def test_verbose_says_what_happened_to_each_file(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    import logging

    try:
        run(capsys, "-v")
        _, _, err = run(capsys, "-v")  # second run: model.py comes from the cache
    finally:
        logging.getLogger().setLevel(logging.WARNING)
    assert "xlacheck: model.py: from cache" in err and "xlacheck: plain.py: skipped (names no ML framework)" in err
    assert "xlacheck: 2 files (1 from cache, 1 skipped (names no ML framework)) in " in err


def test_unknown_noqa_codes_are_reported_by_default(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (project / "model.py").write_text(TF_HEADER + "y = x.numpy()  # noqa: XLA3O1, E501\nz = 1  # xlacheck: ignore[XLA999]\n")
    code, out, _ = run(capsys, "--no-cache", "model.py")
    assert code == 1
    assert "model.py:2:16: XLA002 unknown rule code XLA3 in a suppression comment" not in out  # XLA3 is a family
    assert "model.py:3:8: XLA002 unknown rule code XLA999 in a suppression comment" in out
    assert "E501" not in out.replace("XLA3O1, E501", "")  # other tools' codes are theirs
    assert "XLA001" not in out  # off by default


def test_unused_suppressions_when_selected(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (project / "model.py").write_text(
        TF_HEADER
        + "y = x.numpy()  # noqa: XLA301\n"  # used
        + "z = 1  # noqa: XLA301, F401\n"  # XLA301 unused; F401 is another tool's
        + "w = 2  # xlacheck: ignore\n"  # unused
        + "v = 3  # noqa\n"  # bare noqa: may serve another linter, never reported
        + "u = x.numpy()  # noqa: XLA101\n"  # unused (and XLA301 stays reported)
    )
    code, out, _ = run(capsys, "--no-cache", "--extend-select", "XLA001", "model.py")
    lines = [line for line in out.splitlines() if "XLA0" in line or "XLA3" in line]
    assert lines == [
        "model.py:3:8: XLA001 unused suppression (XLA301): nothing is reported here; remove it",
        "model.py:4:8: XLA001 unused suppression (`# xlacheck: ignore`): nothing is reported here; remove it",
        "model.py:6:6: XLA301 [*] `.numpy()` syncs with the host",
        "model.py:6:16: XLA001 unused suppression (XLA101): nothing is reported here; remove it",
    ]
    # a code whose rule is not selected is not judged
    _, out, _ = run(capsys, "--no-cache", "--extend-select", "XLA001", "--ignore", "XLA301", "model.py")
    assert "(XLA301)" not in out
    # select = ALL turns it on, as in ruff
    _, out, _ = run(capsys, "--no-cache", "--select", "ALL", "model.py")
    assert "XLA001 unused suppression (XLA101)" in out
