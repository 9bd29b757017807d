from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from reference_trainer.cli import main
from reference_trainer.preflight import PreflightFindings, PreflightUnavailable, compiled_module_paths, static_check
from tests.reference_trainer.conftest import TINY_FLAGS, copy_prepared

pytestmark = pytest.mark.tf


def test_preflight_without_xlacheck_api_says_so_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "xlacheck.api", None)  # import fails as if the module were absent
    with pytest.raises(PreflightUnavailable, match=r"xlacheck's API is not available .* --skip-preflight") as info:
        static_check()
    assert "\n" not in str(info.value)


def test_preflight_stops_on_findings_and_checks_the_users_module(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from xlacheck.diagnostics import Diagnostic, FileResult, Location, RunResult

    user_module = tmp_path / "my_loss.py"
    user_module.write_text("import tensorflow as tf\n")
    seen: list[str] = []

    def check_paths(paths, settings=None):  # noqa: ANN001, ANN202
        seen.extend(str(p) for p in paths)
        diag = Diagnostic(path=str(user_module), code="XLA201", name="boolean-mask-index", message="data-dependent shape",
                          start=Location(3, 4), end=Location(3, 10), severity="error", fix=None)
        return RunResult(files=(FileResult(path=str(user_module), diagnostics=(diag,)),))

    monkeypatch.setitem(sys.modules, "xlacheck.api", types.SimpleNamespace(check_paths=check_paths))
    with pytest.raises(PreflightFindings, match=r"1 problem.*my_loss.py:3:5: XLA201 boolean-mask-index"):
        static_check([str(user_module)])
    assert seen == [*compiled_module_paths(), str(user_module)]
    assert any(p.endswith("steps.py") for p in seen) and any(p.endswith("model.py") for p in seen)


def test_cli_stage_error_is_one_line_and_exit_code_1(prepared_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = copy_prepared(prepared_dir, tmp_path / "run")
    assert main(["prepare", "--output-dir", str(out), "--vocab-size", "500", "--no-progress"]) == 1
    printed = capsys.readouterr().out
    assert "error:" in printed and "--vocab-size=500 does not match" in printed and "drop --vocab-size" in printed


def test_cli_runs_train_evaluate_fill_mask_on_a_prepared_dir(
    prepared_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "250")  # rich wraps table cells at 80 columns otherwise
    out = copy_prepared(prepared_dir, tmp_path / "run")
    # No subcommand means `run`; prepare is reused because the manifest matches.
    assert main(["--output-dir", str(out), *TINY_FLAGS]) == 0
    printed = capsys.readouterr().out
    for text in ("reference_trainer summary", "train compiles vs distinct batch shapes", "1 vs 1 (8x32)",
                 "jit_compile", "eval masked accuracy vs frequency baseline", "fill-mask", "loss.png", "reused"):
        assert text in printed
    assert (out / "loss.png").stat().st_size > 1000
    # a later stage alone takes the recorded config: no flags needed
    assert main(["evaluate", "--output-dir", str(out), "--no-progress", "--allow-failed-checks"]) == 0


def test_the_code_this_run_compiles_passes_the_real_xlacheck() -> None:
    pytest.importorskip("xlacheck.api")
    result = static_check()
    assert result.findings == () and len(result.checked) == 2
