"""XLA122's tf.switch_case example against TensorFlow, in a subprocess: XLA aborts the whole process on
branches of different rank (xlacheck/data/tf_branch_carry.json, ``switch_case.rank_differs``), so the
claim is that the child dies under ``jit_compile=True`` and runs in a plain ``tf.function``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from xlacheck.rules.branch_rank_mismatch import BranchRankMismatch

pytest.importorskip("tensorflow")
pytestmark = [pytest.mark.tf, pytest.mark.slow]

_DRIVER = """
import sys
import tensorflow as tf
sys.path.insert(0, {folder!r})
import example
f = example.f if {jit} else tf.function(example.f.python_function)
print(f(tf.ones([4, 3]), tf.constant(1)).shape)
"""


def _run(tmp_path: Path, jit: bool) -> subprocess.CompletedProcess[str]:
    (tmp_path / "example.py").write_text(BranchRankMismatch.INVALID[1].code)
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "TF_USE_LEGACY_KERAS": "1"}
    return subprocess.run([sys.executable, "-c", _DRIVER.format(folder=str(tmp_path), jit=jit)],
                          capture_output=True, text=True, env=env, timeout=300, check=False)


def test_switch_case_of_different_ranks_kills_the_process_under_xla_only(tmp_path: Path) -> None:
    assert "tf.switch_case" in BranchRankMismatch.INVALID[1].code
    graph = _run(tmp_path, jit=False)
    assert graph.returncode == 0, graph.stderr[-2000:]
    xla = _run(tmp_path, jit=True)
    assert xla.returncode != 0
