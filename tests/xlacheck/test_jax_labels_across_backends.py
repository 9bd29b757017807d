"""benchmarks/jax_labels_across_backends.py: ``compare`` counts agreement on label and trace
counts, sets apart cases that could not run on the other side, and fails on a real disagreement;
the H200 relabelling checked in under benchmarks/results/jax_h200 agrees with the CPU labels."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _benchmark() -> Any:
    path = ROOT / "benchmarks" / "jax_labels_across_backends.py"
    spec = importlib.util.spec_from_file_location("jax_labels_across_backends", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["jax_labels_across_backends"] = module
    spec.loader.exec_module(module)
    return module


def _write(path: Path, cases: list[dict]) -> Path:
    path.write_text(json.dumps({"framework_version": "jax test", "cases": cases}))
    return path


def test_compare_counts_disagreements_and_not_run(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _benchmark()
    base = [{"case": "a", "label": "ok", "retraces": 1, "alt_retraces": 0},
            {"case": "b", "label": "recompile", "retraces": 1, "alt_retraces": 2},
            {"case": "c", "label": "ok", "retraces": 1, "alt_retraces": 0}]
    labels = _write(tmp_path / "labels.json", base)
    monkeypatch.setattr(bench, "CORPORA", {"repo": (tmp_path, labels)})
    out = tmp_path / "out"
    out.mkdir()
    other = [dict(base[0]), dict(base[1], alt_retraces=1),
             {"case": "c", "label": "harness_error", "harness_error": {"stderr_tail": "x\nNo module named 'keras'"}}]
    _write(out / "repo_jax_cuda.json", other)
    assert bench.main(["compare", str(out)]) == 1
    printed = capsys.readouterr().out
    assert "1/2 agree" in printed and "1 could not run there" in printed
    assert "DIFFERS  b" in printed and "No module named 'keras'" in printed
    _write(out / "repo_jax_cuda.json", [dict(base[0]), dict(base[1]), other[2]])
    assert bench.main(["compare", str(out)]) == 0


def test_checked_in_h200_labels_agree_with_cpu_labels(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _benchmark()
    repo = bench.CORPORA["repo"]
    monkeypatch.setattr(bench, "CORPORA", {"repo": repo})  # the shared corpus lives outside the clone
    assert bench.main(["compare", str(ROOT / "benchmarks" / "results" / "jax_h200")]) == 0
    printed = capsys.readouterr().out
    assert "705/705 agree" in printed and "990/990 agree" in printed
