"""Generate xlacheck/data/tf_branch_carry.json: which differences between the outputs of ``tf.cond``/
``tf.case``/``tf.switch_case`` branches, between a ``tf.while_loop``'s loop variables and what its body
returns, and between a variable's shape and a value assigned to it, make a function raise under
``tf.function(jit_compile=True)`` (XLA:CPU), in a plain ``tf.function`` (graph) and eagerly.

    python tools/generate_tf_branch_carry_table.py            # about a minute, needs tensorflow
    python tools/generate_tf_branch_carry_table.py --check    # exit 1 when the file is out of date

Graph TF accepts branches of different static shapes (it merges them to a less specific shape) and
``shape_invariants`` that relax a loop variable; XLA needs one static shape per value. Each probe is
one small function ``f(x)`` of a float32[4, 3] tensor ``x`` (and a scalar bool ``p`` / int32 ``k`` made
from it, so that the predicate is a tensor); it changes the branch output, the carry or the assigned
value in one respect (rank, one dim, static vs unknown dim, dtype, None vs tensor, nesting, a
``tf.concat`` growth, a ``tf.boolean_mask``), written once with the TF API and, where AutoGraph has a
spelling for it, once as a Python ``if``/``while`` on a tensor. Each row records:

* ``construct``: tf.cond, tf.case, tf.switch_case, smart_cond, autograph_if, tf.while_loop,
  autograph_while, variable, tensor_array;
* ``source``: the body of ``f`` as source text;
* ``xla_error`` / ``graph_error`` / ``eager_error``: the exception class and first line under
  ``jit_compile=True`` / a plain ``tf.function`` / eagerly, else null;
* ``xla_only``: raises under XLA and not in the plain ``tf.function``: the failures a rule can blame
  on XLA alone (the other failures are TF's own and show on CPU/GPU already).

xlacheck reads the file through :mod:`xlacheck.tf_branch_carry` (no TF import there).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "tf_branch_carry.json"
SCHEMA_VERSION = 1
TOOL = "generate_tf_branch_carry_table.py"

_PRELUDE = (
    "    p = tf.reduce_sum(x) > 0.0\n"
    "    k = tf.cast(tf.reduce_sum(x) > 0.0, tf.int32)\n"
    "    n = tf.cast(tf.reduce_sum(x), tf.int32) % 3 + 1\n"
)

# key -> (construct, body of f after the prelude). Every body returns something; x is float32[4, 3].
PROBES: dict[str, tuple[str, str]] = {
    # --- tf.cond ---------------------------------------------------------------------------------
    "cond.same_shape": ("tf.cond", "return tf.cond(p, lambda: x * 2.0, lambda: x - 1.0)"),
    "cond.rank_differs": ("tf.cond", "return tf.cond(p, lambda: x, lambda: tf.reduce_sum(x, axis=1))"),
    "cond.dim_differs": ("tf.cond", "return tf.cond(p, lambda: x, lambda: x[:, :2])"),
    "cond.literal_dim_differs": ("tf.cond", "return tf.cond(p, lambda: tf.zeros([4, 3]), lambda: tf.zeros([4, 5]))"),
    "cond.concat_growth": ("tf.cond", "return tf.cond(p, lambda: x, lambda: tf.concat([x, x[:1]], axis=0))"),
    "cond.boolean_mask": ("tf.cond", "return tf.cond(p, lambda: x, lambda: tf.boolean_mask(x, x > 0.5))"),
    "cond.boolean_mask_both": ("tf.cond", "return tf.cond(p, lambda: tf.boolean_mask(x, x > 0.5), "
                                          "lambda: tf.boolean_mask(x, x > 0.2))"),
    "cond.dynamic_dim_both_same_op": ("tf.cond", "return tf.cond(p, lambda: x[:n], lambda: x[:n] * 2.0)"),
    "cond.static_vs_dynamic_dim": ("tf.cond", "return tf.cond(p, lambda: x, lambda: x[:n])"),
    "cond.dtype_differs": ("tf.cond", "return tf.cond(p, lambda: x, lambda: tf.cast(x, tf.int32))"),
    "cond.none_vs_tensor": ("tf.cond", "return tf.cond(p, lambda: (x, None), lambda: (x, x))"),
    "cond.structure_differs": ("tf.cond", "return tf.cond(p, lambda: (x, x), lambda: x)"),
    "cond.broadcast_scalar_vs_matrix": ("tf.cond", "return tf.cond(p, lambda: x, lambda: tf.constant(0.0))"),
    "cond.reshape_same_size": ("tf.cond", "return tf.cond(p, lambda: x, lambda: tf.reshape(x, [3, 4]))"),
    # --- smart_cond / case / switch_case ----------------------------------------------------------
    "smart_cond.dim_differs": ("smart_cond", "return smart_cond.smart_cond(p, lambda: x, lambda: x[:, :2])"),
    "case.same_shape": ("tf.case", "return tf.case([(p, lambda: x * 2.0)], default=lambda: x)"),
    "case.dim_differs": ("tf.case", "return tf.case([(p, lambda: x[:2])], default=lambda: x)"),
    "switch_case.same_shape": ("tf.switch_case", "return tf.switch_case(k, [lambda: x, lambda: x * 2.0])"),
    "switch_case.dim_differs": ("tf.switch_case", "return tf.switch_case(k, [lambda: x, lambda: x[1:]])"),
    "switch_case.rank_differs": ("tf.switch_case",
                                 "return tf.switch_case(k, [lambda: x, lambda: tf.reshape(x, [-1])])"),
    # --- AutoGraph `if` on a tensor predicate ----------------------------------------------------
    "autograph_if.same_shape": ("autograph_if", "y = x\n    if p:\n        y = x * 2.0\n    return y"),
    "autograph_if.dim_differs": ("autograph_if", "y = x\n    if p:\n        y = x[:, :2]\n    return y"),
    "autograph_if.concat_growth": ("autograph_if",
                                   "y = x\n    if p:\n        y = tf.concat([y, x[:1]], axis=0)\n    return y"),
    "autograph_if.rank_differs": ("autograph_if",
                                  "y = x\n    if p:\n        y = tf.reduce_mean(x, axis=0)\n    return y"),
    "autograph_if.dtype_differs": ("autograph_if", "y = x\n    if p:\n        y = tf.cast(x, tf.int32)\n    return y"),
    "autograph_if.else_dim_differs": ("autograph_if",
                                      "if p:\n        y = x\n    else:\n        y = tf.zeros([4, 5])\n    return y"),
    "autograph_if.boolean_mask": ("autograph_if",
                                  "y = tf.reshape(x, [-1])\n    if p:\n        y = tf.boolean_mask(y, y > 0.5)\n"
                                  "    return y"),
    # --- tf.while_loop ---------------------------------------------------------------------------
    "while.same_shape": ("tf.while_loop",
                         "return tf.while_loop(lambda i, c: i < 3, lambda i, c: (i + 1, c * 2.0), (0, x))[1]"),
    "while.concat_growth": ("tf.while_loop", "return tf.while_loop(lambda i, c: i < 3, "
                                             "lambda i, c: (i + 1, tf.concat([c, x[:1]], axis=0)), (0, x))[1]"),
    "while.concat_growth_invariant": (
        "tf.while_loop", "return tf.while_loop(lambda i, c: i < 3, "
                         "lambda i, c: (i + 1, tf.concat([c, x[:1]], axis=0)), (0, x),\n"
                         "        shape_invariants=(tf.TensorShape([]), tf.TensorShape([None, 3])))[1]"),
    "while.same_shape_invariant_relaxed": (
        "tf.while_loop", "return tf.while_loop(lambda i, c: i < 3, lambda i, c: (i + 1, c * 2.0), (0, x),\n"
                         "        shape_invariants=(tf.TensorShape([]), tf.TensorShape([None, 3])))[1]"),
    "while.concat_growth_from_empty_invariant": (
        "tf.while_loop", "return tf.while_loop(lambda i, c: i < 3, "
                         "lambda i, c: (i + 1, tf.concat([c, x[i:i + 1]], axis=0)), (0, tf.zeros([0, 3])),\n"
                         "        shape_invariants=(tf.TensorShape([]), tf.TensorShape([None, 3])))[1]"),
    "while.rank_differs": ("tf.while_loop", "return tf.while_loop(lambda i, c: i < 3, "
                                            "lambda i, c: (i + 1, tf.reduce_sum(c, axis=0)), (0, x))[1]"),
    "while.dtype_differs": ("tf.while_loop", "return tf.while_loop(lambda i, c: i < 3, "
                                             "lambda i, c: (i + 1, tf.cast(c, tf.float64)), (0, x))[1]"),
    "while.structure_differs": ("tf.while_loop", "return tf.while_loop(lambda i, c: i < 3, "
                                                 "lambda i, c: (i + 1, (c, c)), (0, x))[1]"),
    "while.tensor_array_write": (
        "tf.while_loop", "ta = tf.TensorArray(tf.float32, size=3)\n"
                         "    return tf.while_loop(lambda i, t: i < 3, lambda i, t: (i + 1, t.write(i, x[i])), "
                         "(0, ta))[1].stack()"),
    # --- AutoGraph `while` / `for` over a tensor -------------------------------------------------
    "autograph_while.same_shape": ("autograph_while",
                                   "y = x\n    i = tf.constant(0)\n    while i < n:\n        y = y * 2.0\n"
                                   "        i += 1\n    return y"),
    "autograph_while.concat_growth": ("autograph_while",
                                      "y = x\n    i = tf.constant(0)\n    while i < n:\n"
                                      "        y = tf.concat([y, x[:1]], axis=0)\n        i += 1\n    return y"),
    "autograph_for.concat_growth": ("autograph_while",
                                    "y = x\n    for _ in tf.range(n):\n        y = tf.concat([y, x[:1]], axis=0)\n"
                                    "    return y"),
    "autograph_for.concat_growth_set_invariants": (
        "autograph_while", "y = x\n    for _ in tf.range(n):\n"
                           "        tf.autograph.experimental.set_loop_options("
                           "shape_invariants=[(y, tf.TensorShape([None, 3]))])\n"
                           "        y = tf.concat([y, x[:1]], axis=0)\n    return y"),
    "autograph_for.rank_differs": ("autograph_while",
                                   "y = x\n    for _ in tf.range(n):\n        y = tf.reduce_sum(y, axis=0)\n"
                                   "    return y"),
    "autograph_for.python_range_concat": ("autograph_while",
                                          "y = x\n    for _ in range(2):\n        y = tf.concat([y, x[:1]], axis=0)\n"
                                          "    return y"),
    "autograph_for.tensor_array_dynamic": (
        "tensor_array", "ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)\n"
                        "    for i in tf.range(n):\n        ta = ta.write(i, x[i])\n    return ta.stack()"),
    "autograph_for.tensor_array_fixed": (
        "tensor_array", "ta = tf.TensorArray(tf.float32, size=3, element_shape=[3])\n"
                        "    for i in tf.range(3):\n        ta = ta.write(i, x[i])\n    return ta.stack()"),
    "autograph_for.tensor_array_element_shape_differs": (
        "tensor_array", "ta = tf.TensorArray(tf.float32, size=2, element_shape=[3])\n"
                        "    ta = ta.write(0, x[0])\n    ta = ta.write(1, x[1, :2])\n    return ta.stack()"),
    "autograph_for.tensor_array_mixed_shapes": (
        "tensor_array", "ta = tf.TensorArray(tf.float32, size=2)\n"
                        "    ta = ta.write(0, x[0])\n    ta = ta.write(1, x[1, :2])\n    return ta.stack()"),
    # --- variables ---------------------------------------------------------------------------------
    "variable.same_shape_assign": ("variable", "V.assign(x * 2.0)\n    return V.read_value()"),
    "variable.shape_none_assign_grown": (
        "variable", "VN.assign(tf.concat([VN, x[:1]], axis=0))\n    return VN.read_value()"),
    "variable.shape_none_assign_same": ("variable", "VN.assign(VN * 2.0)\n    return VN.read_value()"),
    "variable.validate_shape_false_assign_grown": (
        "variable", "VF.assign(tf.concat([VF, x[:1]], axis=0))\n    return VF.read_value()"),
    "variable.fixed_shape_assign_grown": (
        "variable", "V.assign(tf.concat([V, x[:1]], axis=0))\n    return V.read_value()"),
    "variable.partial_shape_assign_grown": (
        "variable", "VP.assign(tf.concat([VP, x[:1]], axis=0))\n    return VP.read_value()"),
}


def _variables(tf: Any) -> dict[str, Any]:
    x0 = tf.ones([4, 3])
    return {"V": tf.Variable(x0), "VN": tf.Variable(x0, shape=tf.TensorShape(None)),
            "VF": tf.Variable(x0, validate_shape=False), "VP": tf.Variable(x0, shape=tf.TensorShape([None, 3]))}


def _run(call: Any) -> tuple[str | None, list[Any] | None]:
    """(error, shapes of the outputs): the exception class and first line, or None and the shapes."""
    try:
        out = call()
        import tensorflow as tf
        shapes = [list(t.shape) for t in tf.nest.flatten(out) if hasattr(t, "shape")]
    except Exception as e:  # noqa: BLE001 - the table records whatever the function raises
        lines = [ln.strip() for ln in str(e).strip().splitlines() if ln.strip()]
        # AutoGraph wraps the error as "in user code: <traceback> <Class>: <message>": keep the message
        first = lines[-1] if lines and lines[0] == "in user code:" else (lines[0] if lines else "")
        first = re.sub(r"Variable/\d+", "Variable/N", first)  # a per-process resource counter
        first = first.split(" (defined @ ")[0]  # where the variable was made: this checkout's path, not TF's fact
        if re.match(r"\w+(Error|Exception): ", first):  # the wrapped message names its class already
            return first[:200], None
        return f"{type(e).__name__}: {first}"[:200], None
    return None, shapes


def _module(key: str, workdir: Path) -> Path:
    """The probe as a module file: AutoGraph converts only functions whose source it can read."""
    construct, body = PROBES[key]
    path = workdir / ("probe_" + key.replace(".", "__") + ".py")
    path.write_text("import tensorflow as tf\nfrom tensorflow.python.framework import smart_cond\n\n\n"
                    "def f(x):\n" + _PRELUDE + "    " + body + "\n", encoding="utf-8")
    return path


def measure_one(tf: Any, key: str, workdir: Path, part: Any = None) -> dict[str, Any]:
    import importlib.util

    construct, body = PROBES[key]
    path = _module(key, workdir)
    results: dict[str, tuple[str | None, list[Any] | None]] = {}
    for mode in ("graph", "eager", "xla"):  # XLA last: a CHECK failure aborts the process
        spec = importlib.util.spec_from_file_location(f"{path.stem}_{mode}", path)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        for name, value in _variables(tf).items():
            setattr(mod, name, value)
        fn = mod.f
        if mode == "xla":
            fn = tf.function(fn, jit_compile=True)
        elif mode == "graph":
            fn = tf.function(fn)
        x = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3]) / 10.0
        results[mode] = _run(lambda fn=fn, x=x: fn(x))
        if part is not None:
            part(mode, results[mode][0])
    return _row(construct, body, results["xla"][0], results["graph"][0], results["eager"][0],
                results["xla"][1] is not None and results["xla"][1] == results["graph"][1])


def _row(construct: str, body: str, xla: str | None, graph: str | None, eager: str | None,
         same_shapes: bool) -> dict[str, Any]:
    return {"construct": construct, "source": body, "xla_error": xla, "graph_error": graph, "eager_error": eager,
            "xla_only": xla is not None and graph is None,
            "xla_output_shapes_match_graph": same_shapes if xla is None and graph is None else None}


def _worker(keys: list[str]) -> None:
    """Measure ``keys`` in this process, one JSON line per probe (a probe that aborts the process,
    as an XLA CHECK failure does, leaves its START line without a row)."""
    import tempfile

    import tensorflow as tf

    tf.get_logger().setLevel("ERROR")
    with tempfile.TemporaryDirectory() as tmp:
        for key in keys:
            print("START " + key, flush=True)
            row = measure_one(tf, key, Path(tmp),
                              lambda mode, err: print("PART " + json.dumps([mode, err]), flush=True))
            print("ROW " + json.dumps({"key": key, "row": row}), flush=True)


def measure(keys: list[str] | None = None) -> dict[str, Any]:
    import subprocess

    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    todo = sorted(keys or PROBES)
    rows: dict[str, Any] = {}
    while todo:
        proc = subprocess.run([sys.executable, __file__, "--worker", *todo], capture_output=True, text=True,
                              timeout=1800, check=False)
        started = None
        parts: dict[str, str | None] = {}
        for line in proc.stdout.splitlines():
            if line.startswith("START "):
                started, parts = line[6:], {}
            elif line.startswith("PART "):
                mode, err = json.loads(line[5:])
                parts[mode] = err
            elif line.startswith("ROW "):
                item = json.loads(line[4:])
                rows[item["key"]] = item["row"]
                started = None
        if started is None:
            if proc.returncode:
                raise RuntimeError(f"worker failed before any probe: {proc.stderr[-2000:]}")
            break
        # the process died in probe `started` (XLA aborts on a failed CHECK): record the abort
        fatal = [ln for ln in proc.stderr.splitlines() if "Check failed" in ln]
        head = fatal[0].split("] ", 1)[-1] if fatal else f"exit status {proc.returncode}"
        construct, body = PROBES[started]
        rows[started] = _row(construct, body, f"ProcessAbort: {head}"[:200], parts.get("graph"), parts.get("eager"),
                             False)
        todo = todo[todo.index(started) + 1:]
    import tensorflow as tf

    return {"schema_version": SCHEMA_VERSION, "tensorflow": tf.__version__, "device": "XLA:CPU", "probes": rows}


def _check(out: Path, sample: int) -> int:
    import _table_check

    table = json.loads(out.read_text(encoding="utf-8"))
    old = table["probes"]
    groups: dict[str, list[str]] = {}
    for key, row in old.items():
        verdict = "xla_only" if row["xla_only"] else ("raises" if row["xla_error"] else "passes")
        groups.setdefault(verdict, []).append(key)
    keys = _table_check.spread_sample(groups, sample) if sample else sorted(old)
    missing_keys = sorted(set(PROBES) ^ set(old))
    fresh = measure([k for k in keys if k in PROBES])
    diffs = [f"{k}: probe and table disagree on its existence" for k in missing_keys]
    for key, row in fresh["probes"].items():
        want = {f: old[key][f] for f in ("xla_only", "xla_error", "graph_error", "eager_error")}
        got = {f: row[f] for f in want}
        line = _table_check.difference(key, want, got)
        if line:
            diffs.append(line)
    return _table_check.report(TOOL, len(fresh["probes"]), diffs, f"tensorflow {fresh['tensorflow']}")


def main(argv: list[str] | None = None) -> int:
    import _table_check

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true", help="re-measure probes and compare with --out")
    parser.add_argument("--sample", type=int, default=0, help="with --check: re-measure only N probes (0: all)")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        _worker(args.worker)
        return 0
    status = _table_check.gate(TOOL, "tensorflow", sys.executable, args.check,
                               lambda: _check(args.out, args.sample))
    if status is not None:
        return status
    text = json.dumps(measure(), indent=1, sort_keys=True) + "\n"
    args.out.write_text(text, encoding="utf-8")
    rows = json.loads(text)["probes"]
    print(f"wrote {args.out}: {len(rows)} probes, {sum(r['xla_only'] for r in rows.values())} fail under XLA only")
    return 0


if __name__ == "__main__":
    sys.exit(main())
