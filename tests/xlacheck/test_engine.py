"""The engine contract: never raises, sorted findings, select, light imports."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from xlacheck import engine
from xlacheck.engine import check_source, is_test_file
from xlacheck.rules.base import Rule, RuleContext

ROOT = Path(__file__).resolve().parents[2]

TWO_FINDINGS = (
    "import tensorflow as tf\n"
    "@tf.function(jit_compile=True)\n"
    "def f(x):\n"
    "    tf.print(x)\n"
    "    return x.numpy()\n"
)


def test_engine_import_pulls_nothing_heavy() -> None:
    code = ("import sys, xlacheck.engine;"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "{'tensorflow', 'numpy', 'transformers', 'torch', 'jax', 'libcst'}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_syntax_error_becomes_file_error() -> None:
    result = check_source("def f(:\n    pass\n", "bad.py")
    assert result.diagnostics == ()
    assert result.error is not None and result.error.message.startswith("syntax error")
    assert result.error.line == 1


def test_null_bytes_become_file_error() -> None:
    result = check_source("x = 1\x00\n", "nul.py")
    assert result.error is not None


def test_findings_sorted_and_select_filters() -> None:
    result = check_source(TWO_FINDINGS, "two.py")
    keys = [(d.line, d.col, d.code) for d in result.diagnostics]
    assert keys == sorted(keys) and {k[2] for k in keys} == {"XLA307", "XLA301"}
    only = check_source(TWO_FINDINGS, "two.py", select=lambda code: code == "XLA301")
    assert [d.code for d in only.diagnostics] == ["XLA301"]
    assert result.lines == 5


def test_files_without_framework_imports_are_not_analyzed() -> None:
    assert check_source("def f(x):\n    return x.numpy()\n", "plain.py").diagnostics == ()


def test_rule_crash_becomes_file_error_naming_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    class Exploding(Rule):
        code = "XLA999"
        name = "exploding-rule"
        node_types = (ast.Call,)

        def check(self, node: ast.AST, ctx: RuleContext) -> None:
            raise RuntimeError("boom")

    monkeypatch.setattr(engine, "_INSTANCES", engine._INSTANCES + (Exploding(),))
    result = check_source(TWO_FINDINGS, "two.py")
    assert result.error is not None and "XLA999" in result.error.message


def test_very_deep_expression_skips_only_its_function() -> None:
    deep = " + ".join(["a"] * 950)
    src = (
        "import tensorflow as tf\n"
        "@tf.function(jit_compile=True)\n"
        f"def deep(a):\n    return {deep}\n"
        "@tf.function(jit_compile=True)\n"
        "def shallow(a):\n    return a.numpy()\n"
    )
    result = check_source(src, "deep.py")
    assert result.error is None
    assert [d.code for d in result.diagnostics] == ["XLA301"]


@pytest.mark.parametrize(("path", "is_test"), [
    ("tests/test_model.py", True), ("pkg/tests/helpers.py", True), ("test/train_smoke.py", True),
    ("src/model_test.py", True), ("conftest.py", True), ("src/test_utils.py", True),
    ("src/model.py", False), ("src/testing_utils_extra/model.py", False), ("contest.py", False),
    ("src/attest.py", False),
])
def test_is_test_file(path: str, is_test: bool) -> None:
    assert is_test_file(path) is is_test


def test_declarations_do_not_reach_tests() -> None:
    step = ("import torch\n\ndef train_step(model, opt, x):\n    loss = model(x).sum()\n    loss.backward()\n"
            "    opt.step()\n    print(loss.item())\n")
    assert any(d.code == "XLA350" for d in check_source(step, "src/train.py", torch_xla=True).diagnostics)
    assert not check_source(step, "tests/test_train.py", torch_xla=True).diagnostics
    # a test file that uses torch_xla itself: XLA350 stays off there too (a test reads its results on purpose,
    # torch-prec17), unless it holds no test and runs as a script (a training script named like a test)
    explicit = ("import torch\nimport torch_xla.core.xla_model as xm\n\ndef train(model, opt, loader):\n"
                "    for x in loader:\n        loss = model(x).sum()\n        loss.backward()\n        opt.step()\n"
                "        print(loss.item())\n        xm.mark_step()\n")
    assert not any(d.code == "XLA350" for d in check_source(explicit, "tests/test_train.py").diagnostics)
    script = explicit + "\n\nif __name__ == '__main__':\n    train(None, None, [])\n"
    assert any(d.code == "XLA350" for d in check_source(script, "test_train.py").diagnostics)


def test_the_cli_judges_test_files_on_the_root_relative_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from xlacheck.cli import main

    step = ("import torch\n\ndef train_step(model, opt, x):\n    loss = model(x).sum()\n    loss.backward()\n"
            "    opt.step()\n    print(loss.item())\n")
    project = tmp_path / "test" / "proj"  # a project that lives under a folder named test/
    (project / "tests").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[tool.xlacheck]\ntorch-xla = true\n")
    # (a script the project runs: a module that nothing imports, names or runs has no step,
    # analysis.project.unreached_modules)
    (project / "train.py").write_text(step + "\n\nif __name__ == '__main__':\n    pass\n")
    (project / "tests" / "test_train.py").write_text(step)
    monkeypatch.chdir(tmp_path)
    assert main(["--no-cache", "--output-format", "json", "test/proj"]) == 1
    out = capsys.readouterr().out
    assert '"XLA350"' in out and "train.py" in out and "test_train.py" not in out
