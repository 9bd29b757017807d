"""xlacheck/data/tf_branch_carry.json: the loader's answers on the facts a rule would rely on, every
row well formed, and (slow, needs TensorFlow) the generator's ``--check`` re-measuring every probe.
The facts pinned here are the measured summary in :mod:`xlacheck.tf_branch_carry`: under XLA:CPU a
branch output may differ in one DIM from the other branch's, not in RANK; a loop carry may not grow
under a relaxed ``shape_invariants``; a variable of unknown shape may not be assigned a grown value."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from xlacheck import tf_branch_carry

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "xlacheck" / "data" / "tf_branch_carry.json"


@pytest.mark.parametrize(("key", "xla_only"), [
    # rank differs between branches: XLA only (graph TF merges to an unknown shape)
    ("cond.rank_differs", True), ("cond.broadcast_scalar_vs_matrix", True), ("cond.boolean_mask", True),
    ("autograph_if.rank_differs", True), ("switch_case.rank_differs", True),
    # one dim differs, or a dim only known at run time: XLA compiles it (bounded dynamic shapes)
    ("cond.dim_differs", False), ("cond.literal_dim_differs", False), ("cond.concat_growth", False),
    ("cond.static_vs_dynamic_dim", False), ("cond.boolean_mask_both", False), ("autograph_if.dim_differs", False),
    ("autograph_if.concat_growth", False), ("switch_case.dim_differs", False), ("case.dim_differs", False),
    ("smart_cond.dim_differs", False),
    # dtype / structure / None differ: graph TF raises already, not an XLA-only failure
    ("cond.dtype_differs", False), ("cond.structure_differs", False), ("cond.none_vs_tensor", False),
    # loop carries: growth under relaxed shape_invariants fails under XLA only; without them TF raises
    ("while.concat_growth_invariant", True), ("while.concat_growth_from_empty_invariant", True),
    ("autograph_for.concat_growth_set_invariants", True), ("while.concat_growth", False),
    ("while.same_shape_invariant_relaxed", False), ("autograph_for.tensor_array_dynamic", False),
    # variables of unknown (or partly unknown) shape assigned a grown value
    ("variable.shape_none_assign_grown", True), ("variable.partial_shape_assign_grown", True),
    ("variable.shape_none_assign_same", False), ("variable.fixed_shape_assign_grown", False),
])
def test_loader_answers(key: str, xla_only: bool) -> None:
    assert tf_branch_carry.xla_only(key) is xla_only


def test_rank_mismatch_error_names_the_branch_ranks() -> None:
    assert "dimensions_size()" in (tf_branch_carry.xla_error("cond.rank_differs") or "")
    assert tf_branch_carry.xla_error("cond.dim_differs") is None


def test_unknown_probe_names_the_file() -> None:
    with pytest.raises(KeyError, match="tf_branch_carry.json"):
        tf_branch_carry.probe("cond.no_such_probe")


def test_every_probe_has_its_fields() -> None:
    probes = json.loads(TABLE.read_text(encoding="utf-8"))["probes"]
    sys.path.insert(0, str(ROOT / "tools"))
    import generate_tf_branch_carry_table as gen

    assert set(probes) == set(gen.PROBES)
    for key, p in probes.items():
        assert {"construct", "source", "xla_error", "graph_error", "eager_error", "xla_only"} <= set(p), key
        assert p["xla_only"] is (p["xla_error"] is not None and p["graph_error"] is None), key


@pytest.mark.tf
@pytest.mark.slow
def test_table_matches_tensorflow() -> None:
    pytest.importorskip("tensorflow")
    env = {**os.environ, "TF_USE_LEGACY_KERAS": "1", "TF_CPP_MIN_LOG_LEVEL": "3"}
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "generate_tf_branch_carry_table.py"), "--check"],
                          capture_output=True, text=True, timeout=900, check=False, env=env)
    assert proc.returncode == 0 and "agree" in proc.stdout, proc.stdout[-2000:] + proc.stderr[-2000:]
