"""The command line: flags, output formats, exit codes (0 clean, 1 findings, 2 usage/internal error)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_fakes import TF_HEADER, fake_engine  # noqa: F401  (fixture)

from xlacheck.cli import main

ROOT = Path(__file__).resolve().parents[2]
MODEL = TF_HEADER + "y = x.numpy()\nif tf.reduce_any(m):\n    z = tf.boolean_mask(x, m)\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_engine) -> Path:  # noqa: F811
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    (tmp_path / "model.py").write_text(MODEL)
    (tmp_path / "clean.py").write_text(TF_HEADER + "y = tf.abs(x)\n")
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_findings_exit_1_with_ruff_style_lines(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--no-cache")
    assert code == 1
    assert out.splitlines()[:3] == [
        "model.py:2:6: XLA301 [*] `.numpy()` syncs with the host",
        "model.py:3:1: XLA101 Python `if` on a tensor",
        "model.py:4:9: XLA201 boolean mask has a data-dependent shape",
    ]
    assert "Found 3 findings in 1 file." in out


def test_clean_exit_0(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert run(capsys, "clean.py") == (0, "All checks passed!\n", "")


def test_exit_zero(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert run(capsys, "--exit-zero")[0] == 0


def test_syntax_error_is_one_line_exit_1_and_the_run_goes_on(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (project / "broken.py").write_text(TF_HEADER + "def f(:\n")
    code, out, _ = run(capsys, "broken.py", "clean.py")
    assert code == 1
    assert out.splitlines()[0].startswith("broken.py:2:7: error: syntax error:")
    assert "1 file could not be checked" in out


def test_internal_error_exits_2_even_with_exit_zero(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (project / "crash.py").write_text(TF_HEADER + "CRASH_RULE = 1\n")
    assert run(capsys, "--exit-zero", "crash.py")[0] == 2


@pytest.mark.parametrize(
    ("argv", "codes"),
    [
        (("--select", "XLA1,XLA2"), {"XLA101", "XLA201"}),
        (("--select", "XLA1", "--select", "XLA301"), {"XLA101", "XLA301"}),
        (("--ignore", "XLA3"), {"XLA101", "XLA201"}),
        (("--select", "XLA1", "--extend-select", "XLA201"), {"XLA101", "XLA201"}),
        (("--select", "all", "--ignore", "XLA101"), {"XLA201", "XLA301"}),
    ],
)
def test_selection_flags(project: Path, capsys, argv: tuple[str, ...], codes: set[str]) -> None:  # type: ignore[no-untyped-def]
    _, out, _ = run(capsys, "--format", "json", "--no-cache", *argv)
    assert {d["code"] for d in json.loads(out)["diagnostics"]} == codes


def test_command_line_overrides_config(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (project / "pyproject.toml").write_text('[tool.xlacheck]\nselect = ["XLA1"]\n')
    _, out, _ = run(capsys, "--format", "json")
    assert {d["code"] for d in json.loads(out)["diagnostics"]} == {"XLA101"}
    _, out, _ = run(capsys, "--format", "json", "--select", "XLA3")
    assert {d["code"] for d in json.loads(out)["diagnostics"]} == {"XLA301"}


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (("--select", "XLA9"), "--select: XLA9 matches no rule"),
        (("--ignore", "E501"), "argument --ignore: 'E501' is not a rule selector"),
        (("--jobs", "zero"), "argument --jobs: 'zero' is not a positive number"),
        (("--format", "xml"), "argument --output-format/--format: invalid choice: 'xml'"),
        (("--frobnicate",), "unrecognized arguments: --frobnicate"),
        (("--config", "missing.toml"), "missing.toml: no such config file"),
        (("--statistics", "--format", "sarif"), "--statistics prints text or json"),
        (("--explain", "XLA999"), "--explain XLA999: no such rule; known codes: XLA101"),
        (("--target-version", "3.12"), '--target-version: expected a Python version like "py311"'),
    ],
)
def test_usage_errors_exit_2_with_one_line(project: Path, capsys, argv: tuple[str, ...], needle: str) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("xlacheck: error: ") and needle in err, err


def test_bad_config_file_exits_2_naming_the_key(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (project / "pyproject.toml").write_text('[tool.xlacheck]\nexclud = ["x"]\n')
    code, _, err = run(capsys)
    assert code == 2 and "pyproject.toml [tool.xlacheck]: unknown key 'exclud'; did you mean 'exclude'?" in err


def test_config_flag_and_unknown_selector_in_config(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (project / "lint.toml").write_text('ignore = ["XLA1", "XLA2"]\n')
    _, out, _ = run(capsys, "--config", "lint.toml", "--format", "json")
    assert {d["code"] for d in json.loads(out)["diagnostics"]} == {"XLA301"}
    (project / "lint.toml").write_text('ignore = ["XLA7"]\n')
    code, _, err = run(capsys, "--config", "lint.toml")
    assert code == 2 and "lint.toml select/ignore/extend-select: XLA7 matches no rule" in err


@pytest.mark.parametrize("fmt", ["json", "sarif", "github"])
def test_machine_formats(project: Path, capsys, fmt: str) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--format", fmt, "--no-cache")
    assert code == 1
    if fmt == "github":
        assert out.splitlines()[0].startswith("::error file=model.py,line=2,col=6,")
    else:
        json.loads(out)


def test_statistics(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--statistics")
    assert code == 1 and out == "1\tXLA101\t    tensor-if\n1\tXLA201\t    boolean-mask\n1\tXLA301\t[*] numpy-call\n"
    _, out, _ = run(capsys, "--statistics", "--format", "json", "--unsafe-fixes")
    assert {r["code"]: r["fixable"] for r in json.loads(out)} == {"XLA101": 0, "XLA201": 1, "XLA301": 1}


def test_fix_applies_safe_fixes_only(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--fix", "--show-fixes")
    assert code == 1  # XLA101 and the unsafe XLA201 remain
    assert (project / "model.py").read_text() == MODEL.replace("x.numpy()", "x")
    assert "Fixed 1 finding:" in out and "1 × XLA301 (numpy-call)" in out and "(1 fixed, 2 remaining)" in out


def test_unsafe_fixes(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, _ = run(capsys, "--fix", "--unsafe-fixes", "--select", "XLA2,XLA3")
    assert code == 0
    assert (project / "model.py").read_text() == MODEL.replace("x.numpy()", "x").replace("tf.boolean_mask", "masked_select")


def test_diff_writes_nothing_and_exits_1(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, "--diff")
    assert code == 1 and (project / "model.py").read_text() == MODEL
    assert out.startswith("--- a/model.py\n+++ b/model.py\n") and "-y = x.numpy()\n+y = x\n" in out
    assert err == "Would fix 1 finding.\n"
    code, out, err = run(capsys, "--diff", "clean.py")
    assert (code, out, err) == (0, "", "No fixes to apply.\n")


def test_fix_that_does_not_parse_is_reported_not_written(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (project / "item.py").write_text(TF_HEADER + "a = x.item()\n")
    code, out, _ = run(capsys, "--fix", "item.py")
    assert code == 1 and (project / "item.py").read_text() == TF_HEADER + "a = x.item()\n"
    assert "item.py: fix not applied: fixes for XLA302 would produce code that does not parse" in out


def test_quiet_prints_findings_only(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    _, out, _ = run(capsys, "-q")
    assert len(out.splitlines()) == 3 and "Found" not in out


def test_show_fixes_lists_each_fix(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    _, out, _ = run(capsys, "--show-fixes")
    assert "    fix (safe): remove .numpy()" in out and "    fix (unsafe): use masked_select" in out


def test_jobs_and_cache_flags(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    for i in range(6):
        (project / f"m{i}.py").write_text(MODEL)
    _, serial, _ = run(capsys, "--no-cache", "--jobs", "1")
    _, parallel, _ = run(capsys, "--no-cache", "--jobs", "2")
    assert serial == parallel and not (project / ".xlacheck_cache").exists()
    run(capsys)
    assert (project / ".xlacheck_cache").is_dir()


def test_version(capsys) -> None:  # type: ignore[no-untyped-def]
    import xlacheck

    assert run(capsys, "--version") == (0, f"xlacheck {xlacheck.__version__}\n", "")


def test_help_exits_0(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "--unsafe-fixes" in out


def test_explain_prints_the_rule_page(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "--explain", "xla301")
    assert code == 0 and out.startswith("# XLA301: numpy-call\n")
    for section in ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Fix safety"):
        assert section in out
    assert run(capsys, "--explain", "numpy-call")[1] == out


def test_color_when_forced(project: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("FORCE_COLOR", "1")
    _, out, _ = run(capsys, "--no-cache")
    assert "\x1b[" in out and "model.py" in out
    monkeypatch.setenv("NO_COLOR", "1")
    _, out, _ = run(capsys, "--no-cache")
    assert "\x1b[" not in out


def test_importing_the_cli_pulls_nothing_heavy() -> None:
    """A pre-commit hook starts per commit: no tensorflow/numpy/transformers, and rich only when printing colour."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import xlacheck.cli"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )
    imported = {line.split("|")[-1].strip().split(".")[0] for line in out.stderr.splitlines() if "|" in line}
    assert not imported & {"tensorflow", "numpy", "transformers", "torch", "jax", "rich", "libcst"}


def test_python_dash_m_entry_point() -> None:
    out = subprocess.run([sys.executable, "-m", "xlacheck", "--version"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("xlacheck ")


def test_pre_commit_hooks_run_valid_commands() -> None:
    from xlacheck.cli import build_parser

    text = (ROOT / ".pre-commit-hooks.yaml").read_text()
    ids = [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("- id:")]
    entries = [line.split(":", 1)[1].strip() for line in text.splitlines() if line.strip().startswith("entry:")]
    assert ids == ["xlacheck", "xlacheck-fix"] and len(entries) == 2
    for entry in entries:
        program, *flags = entry.split()
        args = build_parser().parse_args([*flags, "staged.py"])
        assert program == "xlacheck" and args.force_exclude and args.paths == ["staged.py"]
    assert build_parser().parse_args(entries[1].split()[1:]).fix


def test_internal_error_is_one_line_and_verbose_shows_the_traceback(project: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    import xlacheck.api

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(xlacheck.api, "check_paths", broken)
    code, out, err = run(capsys, "model.py")
    assert code == 2 and out == "" and err.count("\n") == 1 and "internal error: RuntimeError: boom" in err
    import logging

    monkeypatch.setattr(logging.root, "handlers", [])  # basicConfig configures only a bare root logger
    monkeypatch.setattr(logging.root, "level", logging.root.level)  # -v sets DEBUG: restore it after
    code, _, err = run(capsys, "-v", "model.py")
    assert code == 2 and "Traceback" in err
