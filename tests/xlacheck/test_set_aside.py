"""Findings a project fact sets aside are returned apart, shown on request, never fixed nor counted.

Two facts about what a project runs take findings out of a run: a module nothing in the project
imports or runs (:func:`xlacheck.analysis.project.unreached_modules`) and a block that ends the run
(:func:`xlacheck.analysis.torch_model.once_per_run`, read by XLA350). Both reach the user through one
channel, :class:`xlacheck.diagnostics.SetAside` (the finding, a reason code, one line naming the
fact): the text summary counts them, ``--show-set-aside`` lists them, JSON and SARIF carry them
apart, and neither the exit code nor ``--fix`` sees them. Each snippet is written here.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from xlacheck.api import check_paths, fix_paths
from xlacheck.cache import CachedLint, ResultCache
from xlacheck.cli import main
from xlacheck.config import Settings
from xlacheck.diagnostics import SetAsideReason
from xlacheck.engine import check_file

# a check that fired prints the loss and ends the run: the print runs once, the test every step
TRAIN = """
import sys
import torch
import torch_xla
from pkg import util


def train(model, loader, opt):
    device = torch_xla.device()
    for x, y in loader:
        loss = model(x.to(device)).sum()
        loss.backward()
        opt.step()
        if torch.isnan(loss):
            print(loss.item())
            sys.exit(1)
        print(loss.item())
        torch_xla.sync()


if __name__ == "__main__":
    train(None, [], None)
"""
# the same step in a module nothing imports or runs
ORPHAN = """
import torch
import torch_xla


def train(model, loader, opt):
    device = torch_xla.device()
    for x, y in loader:
        loss = model(x.to(device)).sum()
        loss.backward()
        opt.step()
        print(loss.item())
        torch_xla.sync()
"""
PROJECT = {"setup.py": "", "pkg/__init__.py": "", "pkg/util.py": "X = 1\n", "pkg/train.py": TRAIN,
           "pkg/orphan.py": ORPHAN}


def _write(root: Path, files: dict[str, str]) -> None:
    for name, src in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(src).lstrip("\n"))


def _rows(items) -> list[tuple[str, int, str]]:
    return sorted((Path(s.diagnostic.path).name, s.diagnostic.line, s.reason.value) for s in items)


def test_the_library_returns_what_each_fact_set_aside(tmp_path: Path) -> None:
    _write(tmp_path, PROJECT)
    result = check_paths([str(tmp_path)], Settings(cache=False, root=tmp_path))
    assert sorted((Path(d.path).name, d.line) for d in result.diagnostics) == [("train.py", 13), ("train.py", 16)]
    assert _rows(result.set_aside) == [("orphan.py", 11, "unreached-module"), ("train.py", 14, "once-per-run")]
    why = {s.reason: s.why for s in result.set_aside}
    assert why[SetAsideReason.ONCE_PER_RUN] == "runs once: the block ends the run (sys.exit at line 15)"
    assert why[SetAsideReason.UNREACHED_MODULE].startswith("no file of the project imports or names this module")
    assert "checked 5 .py files and 0 config and other files" in why[SetAsideReason.UNREACHED_MODULE]
    assert all(s.diagnostic.fix is None for s in result.set_aside)  # never fixed


def test_the_engine_sets_aside_what_an_unreached_module_would_report() -> None:
    source = textwrap.dedent(ORPHAN)
    reached = check_file(source, "pkg/orphan.py").result
    unreached = check_file(source, "pkg/orphan.py", unreached="nothing runs it").result
    assert [d.line for d in reached.diagnostics] == [12] and not reached.set_aside
    assert not unreached.diagnostics
    assert [(s.diagnostic.line, s.reason, s.why) for s in unreached.set_aside] == [
        (12, SetAsideReason.UNREACHED_MODULE, "nothing runs it")]
    assert unreached.set_aside[0].diagnostic.message == reached.diagnostics[0].message


def test_only_set_aside_findings_pass_the_run_and_the_summary_says_how_to_list_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    quiet = TRAIN.replace("        print(loss.item())\n        torch_xla", "        torch_xla")
    _write(tmp_path, {**PROJECT, "pkg/train.py": quiet.replace("if torch.isnan(loss):", "if opt is None:")})
    assert main([str(tmp_path), "--no-cache"]) == 0
    out = capsys.readouterr().out
    assert "All checks passed!" in out
    assert ("2 findings set aside by project facts (1 unreached module, 1 once per run); use --show-set-aside "
            "to list them.") in out
    assert "XLA350" not in out
    assert main([str(tmp_path), "--no-cache", "--show-set-aside"]) == 0
    out = capsys.readouterr().out
    assert "orphan.py:11:15: XLA350 `.item()`" in out
    assert "    set aside (once-per-run): runs once: the block ends the run (sys.exit at line 15)" in out
    assert "; listed above." in out


def test_json_and_sarif_carry_them_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, PROJECT)
    main([str(tmp_path), "--no-cache", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert [d["line"] for d in data["diagnostics"]] == [13, 16]
    assert sorted((d["line"], d["set_aside"]["reason"]) for d in data["set_aside"]) == [
        (11, "unreached-module"), (14, "once-per-run")]
    assert all(d["fix"] is None for d in data["set_aside"])
    main([str(tmp_path), "--no-cache", "--format", "sarif"])
    results = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    suppressed = [r for r in results if r.get("suppressions")]
    assert len(results) == 4 and len(suppressed) == 2
    assert {s["kind"] for r in suppressed for s in r["suppressions"]} == {"external"}
    assert {s["properties"]["reason"] for r in suppressed for s in r["suppressions"]} == {
        "unreached-module", "once-per-run"}


def test_github_annotations_give_them_one_notice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, PROJECT)
    main([str(tmp_path), "--no-cache", "--format", "github"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" ", 1)[0] for line in lines] == ["::warning", "::warning", "::notice"]  # host syncs: slow
    assert lines[-1] == ("::notice title=xlacheck::2 findings set aside by project facts (1 unreached module, 1 once "
                         "per run); run xlacheck --show-set-aside to list them.")


def test_fix_never_touches_them_and_they_follow_the_fixed_text(tmp_path: Path) -> None:
    _write(tmp_path, PROJECT)
    orphan = (tmp_path / "pkg/orphan.py").read_text()
    run = fix_paths([str(tmp_path)], Settings(cache=False, root=tmp_path), unsafe=True)
    assert (tmp_path / "pkg/orphan.py").read_text() == orphan  # set aside: its closure fix is not applied
    assert "xm.add_step_closure" in (tmp_path / "pkg/train.py").read_text()  # the finding in every step is fixed
    # the fix added an import line: the set-aside finding moved with the text
    assert _rows(run.result.set_aside) == [("orphan.py", 11, "unreached-module"), ("train.py", 15, "once-per-run")]


def test_the_cache_keeps_them(tmp_path: Path) -> None:
    _write(tmp_path, PROJECT)
    settings = Settings(cache=True, cache_dir=tmp_path / ".cache", root=tmp_path)
    cold = check_paths([str(tmp_path)], settings)
    warm = check_paths([str(tmp_path)], settings)
    assert all(f.cached for f in warm.files if not f.skipped)
    assert warm.set_aside == cold.set_aside and len(warm.set_aside) == 2
    entry = CachedLint((), None, 1, set_aside=cold.set_aside)
    cache = ResultCache(tmp_path / ".c2", "salt")
    cache.store("ab", entry)
    assert cache.load("ab", cold.set_aside[0].diagnostic.path).set_aside[0] == cold.set_aside[0]


def test_selection_and_noqa_apply_to_them(tmp_path: Path) -> None:
    _write(tmp_path, {**PROJECT, "pkg/train.py": TRAIN.replace("            print(loss.item())",
                                                               "            print(loss.item())  # noqa: XLA350")})
    result = check_paths([str(tmp_path)], Settings(cache=False, root=tmp_path))
    assert _rows(result.set_aside) == [("orphan.py", 11, "unreached-module")]
    ignored = check_paths([str(tmp_path)], Settings(cache=False, root=tmp_path, ignore=("XLA350",)))
    assert not ignored.set_aside
