"""benchmarks/retrace_coverage.py: every fact names rows of the measured tables, its generated files
parse, and on a sample the compiler counts what the fact says (a positive traces again, its near miss
once), counted by traces (or XLA compilations, for facts counted in compiles), never ``_cache_size()``."""

from __future__ import annotations

import ast
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _benchmark() -> Any:
    spec = importlib.util.spec_from_file_location("retrace_coverage", ROOT / "benchmarks" / "retrace_coverage.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["retrace_coverage"] = module
    spec.loader.exec_module(module)
    return module


def test_facts_name_measured_rows_and_files_parse() -> None:
    bench = _benchmark()
    jax_rows = json.loads((ROOT / "xlacheck" / "data" / "jax_cache_key.json").read_text())["probes"]
    tf_rows = {r["name"]: r for r in json.loads((ROOT / "xlacheck" / "data" / "tf_retrace.json").read_text())["rows"]}
    for fact in bench.FACTS:
        table, names = fact.table.split(":")
        rows = jax_rows if table == "jax_cache_key" else tf_rows
        for name in names.split(","):
            assert name in rows, (fact.name, name)
            row = rows[name]
            # the row measures a retrace (JAX: a recompile; TF: a retrace under jit_compile or without, or
            # for a fact counted in compiles, a recompile under jit_compile without a new trace)
            tf_hazard = "recompile" if fact.count == "compiles" else "retrace"
            assert row["recompiles"] if table == "jax_cache_key" else row["hazard"] == tf_hazard, (fact.name, name)
    assert set(bench.BOUNDED) <= {f.name for f in bench.FACTS}
    cells = bench.cells(bench.FACTS)
    assert len({c["id"] for c in cells}) == len(cells)
    for c in cells:
        ast.parse(c["source"])
        assert bench.COUNTER not in c["source"]  # the linter never sees the counter
        assert "_RC_TRACES.append(1)" in bench.instrument(c["source"], c["target"])


@pytest.mark.parametrize("framework,facts", [
    ("jax", ("static_int_loop_variable", "jit_new_lambda_per_step", "weak_int_then_float",
             "eager_while_loop_new_body")),
    ("tf", ("python_float_per_step", "function_created_per_step", "signature_none_dim_shape_per_step")),
])
def test_sample_against_the_compiler(framework: str, facts: tuple[str, ...]) -> None:
    pytest.importorskip("jax" if framework == "jax" else "tensorflow")
    bench = _benchmark()
    cells = bench.cells(tuple(f for f in bench.FACTS if f.name in facts))
    traces, compiles = bench.measure(cells, framework)
    counted = {f.name: f.count for f in bench.FACTS}
    for c in cells:
        n = traces[c["id"]]
        if counted[c["fact"]] == "compiles" and isinstance(n, int):
            n = compiles[c["id"]]  # XLA compilations (a None-dim signature traces once)
        assert isinstance(n, int), (c["id"], n)
        if c["near_miss"]:
            assert n == 1, (c["id"], n)
        else:
            assert n >= 2, (c["id"], n)
