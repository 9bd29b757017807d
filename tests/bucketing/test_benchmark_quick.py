"""The benchmark's smoke run: every section runs and prints its figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.tf
def test_benchmark_quick_runs_every_section() -> None:
    pytest.importorskip("tensorflow")
    pytest.importorskip("transformers")
    pytest.importorskip("tokenizers")
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bucketing.py"), "--quick"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    for title in ("1. padded-token fraction", "1b. packing", "tf.data pack_dataset (TF ops only)", "2. lognormal", "3. collation", "4. tiny Keras model"):
        assert title in out.stdout
    assert "strictly below quantiles and powers of 2 for every K=2..4: True" in out.stdout
