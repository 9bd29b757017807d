"""benchmarks/api_coverage.py on a sample: the uses it writes parse, uses of entries that compile get
no finding, and the failing families are flagged; plus the compiler fact the benchmark's ``shape``
family rests on (a data-dependent length fed to a size as a tensor compiles)."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _benchmark() -> Any:
    spec = importlib.util.spec_from_file_location("api_coverage", ROOT / "benchmarks" / "api_coverage.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["api_coverage"] = module
    spec.loader.exec_module(module)
    return module


def test_sample_of_uses() -> None:
    bench = _benchmark()
    uses = bench.all_uses()
    families = {u.family for u in uses}
    assert {"kernel", "grad", "const", "shape", "divergence", "clean", "jax-const", "jax-clean"} <= families
    sample = uses[::40]
    outcomes = [bench.lint(u) for u in sample]
    assert not [o for o in outcomes if o.error], "every synthesized use parses"
    false = [o for o in outcomes if not o.use.expect_flag and o.flagged]
    assert not false, [(o.use.spelling, o.use.context, o.codes) for o in false]
    rows = {r["family"]: r for r in bench.summarize(outcomes)}
    for family in ("kernel", "const"):
        assert rows[family]["flagged"] >= 0.8 * rows[family]["uses"], rows[family]
    # the summary counts every use once
    assert sum(r["uses"] for r in rows.values()) == len(sample)


def test_spellings_include_aliases() -> None:
    bench = _benchmark()
    spell = {(u.entry, u.spelling) for u in bench.tf_uses() if u.family == "kernel"}
    assert ("tf.print", "tf.compat.v1.print") in spell
    assert ("keras.ops.det", "keras.ops.linalg.det") in spell
    assert not [s for _, s in spell if ".python." in s or ".raw_ops." in s]


@pytest.mark.slow
def test_dynamic_size_of_data_dependent_length_compiles() -> None:
    """XLA:CPU compiles a size computed with tf.shape from a data-dependent length (a bounded
    dynamic shape), so the benchmark's shape family writes only the static-dimension form."""
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    tf = pytest.importorskip("tensorflow")
    x = tf.constant([1.0, 2.0, 3.0, 4.0])
    m = tf.constant([True, False, True, True])
    zeros = tf.function(lambda x, m: tf.zeros(tf.shape(tf.boolean_mask(x, m))[0]), jit_compile=True)(x, m)
    assert zeros.shape == (3,)
    ids = tf.function(lambda m: tf.range(tf.shape(tf.where(m))[0]), jit_compile=True)(m)
    assert ids.numpy().tolist() == [0, 1, 2]
