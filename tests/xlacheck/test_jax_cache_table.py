"""xlacheck/data/jax_cache_key.json against JAX: the generator re-measures every probe and the
file must match; the loader answers what the rules ask. Skipped without JAX."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from xlacheck import jax_cache

ROOT = Path(__file__).resolve().parents[2]


def test_table_matches_jax():
    pytest.importorskip("jax")
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "generate_jax_cache_table.py"), "--check"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]


@pytest.mark.parametrize(("key", "recompiles"), [
    # what the rules rely on, and the recommended patterns they must leave alone
    ("static.new_lambda", True), ("static.new_partial", True), ("static.new_local_def", True),
    ("static.bound_method_new_instance", True), ("static.same_function", False),
    ("static.bound_method_same_instance", False), ("static.equal_frozen_dataclass_new_object", False),
    ("static.int_same_value", False), ("static.int_new_value", True),
    ("weak.python_float_new_value", False), ("weak.python_float_then_float32_scalar", True),
    ("weak.python_float_then_jitted_result", False), ("pytree.none_then_array", True),
    ("pytree.dict_keys_other_order", False), ("wrap.same_function_rewrapped", False),
    ("wrap.new_lambda", True), ("loop.fori_loop_traced_upper", False), ("index.python_int_traced_index", False),
    # the retrace facts the open train misses need (docs in the generator): a weak leaf rebuilt strong by a
    # jitted update, a weak gradient of a weak input, an optax-style NamedTuple of new closures
    ("pytree.python_float_leaf_then_strong_update", True), ("weak.python_float_then_jitted_grad", False),
    ("static.namedtuple_of_new_closures", True),
])
def test_loader_answers(key: str, recompiles: bool):
    assert jax_cache.recompiles(key) is recompiles


def test_unhashable_and_stale():
    assert jax_cache.raises("static.list") and jax_cache.raises("static.eq_dataclass")
    assert not jax_cache.raises("static.new_lambda")
    assert jax_cache.stale("static.self_attribute_mutated")
    assert jax_cache.stale("wrap.closure_global_changes")
    assert jax_cache.stale("wrap.stored_bound_method_attribute_changes")
    assert jax_cache.recompiles("eager.power_concrete_int_exponent_new_value")


def test_unknown_probe_names_the_file():
    with pytest.raises(KeyError, match="jax_cache_key.json"):
        jax_cache.probe("static.no_such_probe")


def test_every_probe_has_its_fields():
    probes = json.loads((ROOT / "xlacheck" / "data" / "jax_cache_key.json").read_text())["probes"]
    assert len(probes) >= 60
    for key, p in probes.items():
        assert {"first", "then", "traces", "compiles", "recompiles", "error"} <= set(p), key
        assert p["recompiles"] == (p["error"] is None and (p["traces"] > 0 or p["compiles"] > 0)), key
