"""Fix coverage: of the generated uses that fail under the compiler and that the rules flag, how many
does ``xlacheck --fix [--unsafe-fixes]`` really fix?

``benchmarks/api_coverage.py`` writes, from the API tables, the calls whose result has a shape that
depends on the data (JAX ``jax-shape``/``jax-literal``: ``jnp.nonzero``, ``jnp.unique``, segment
reductions without ``num_segments``, ...; TensorFlow ``shape``: ``tf.boolean_mask``, ``tf.unique``,
``tf.where``, ``tf.math.bincount``, ...) and counts what the rules flag. This script takes the same
calls (the table's probing arguments, canonical spelling) and writes each one as model code would
use its result, in a compiled function (``jax.jit``; ``tf.function(jit_compile=True)``):

- ``sum``: the result summed (a reduction: a count, a total);
- ``loss``: the mean of squares of the result minus a target (a loss);
- ``max``: its maximum (an extreme, a normaliser);
- ``concat``: concatenated with a fixed-size array, then summed;
- ``update``: a position-valued result (``nonzero``, ``where``, ``argwhere``, ``flatnonzero``) used as
  the index of an indexed update into a zeros array of the input's size;
- ``count`` (TensorFlow): the result's static length used as a number (``r.shape[0]``) to average it.

The consumers above read the result in the compiled function itself. The census of the failing
train cases (fixes25) found the data-dependent value read through model structure instead, so the
same calls are also written in these consumer SHAPES (each reduces the result as ``sum`` or
``loss`` does, so a miss is the structure's, not the reduction's):

- ``helper``: a module-level function returns the result; the compiled function reduces it;
- ``layer`` (TensorFlow): a Keras layer's ``call`` computes and sums it; the compiled function calls
  the layer; ``method`` (JAX): the same in a method of a plain model class;
- ``lossfn``: a loss function ``(y_true, y_pred)`` in the file, called by the compiled step;
- ``loop``: a Python loop over a static tuple of scales accumulates scaled sums of it;
- ``dot``: its dot product with itself (a squared norm, ``tf.tensordot``/``jnp.dot``);
- ``bounded_*`` (TensorFlow): each consumer that ``xlacheck/data/tf_bounded_dynamic.json`` measured
  rejected or wrong on a tensor of data-dependent length (``tf.squeeze`` without an axis,
  ``tf.ones_like``, ``tf.unique``, ``tf.linalg.diag``), applied to the result and summed.

Each use gets an oracle section (``ENTRY``, and ``RANDOM_ARGS`` drawing inputs of the same kinds:
floats, a boolean mask, sorted segment ids, counts) so that ``oracle.py check-fix`` can run it.
Inputs are made from the parameter names (``condition``/``mask``: booleans, ``segment_ids``: ids,
...); a call with a parameter no recipe knows is left out and counted (``no input recipe``).

Per use, in order (a use that stops at a stage is counted there):

1. it fails under the compiler (compiled once on ENTRY's arguments, in one process per framework:
   it raises, or it returns another value than the eager run, a ``wrong result``; a use that compiles
   and agrees is not a failing use and leaves the denominator);
2. the rules flag it (``xlacheck`` default rules, no ``--jit-compiled``: the function is compiled
   by its decorator);
3. a fix is offered, and of which applicability;
4. ``python -m xlacheck --fix [--unsafe-fixes]`` changes the file (``fix_score.prepare``);
5. the changed file compiles under XLA and its outputs equal the original's eager outputs on ENTRY
   and on several random draws (``oracle.py check-fix``, through ``fix_score.check_fix``);
6. ``static``: the fixed file compiles from shapes alone (check-fix's ``fixed_static_ok``). A fix
   that passes only by compiling once per input value (``num_segments`` read from the data) counts
   at stage 5 but is no real fix: ``static`` is the figure to quote.

Printed per family and wrapper, for each mode (``safe``: only SAFE fixes applied; ``unsafe``:
``--unsafe-fixes``): failing uses, flagged, fix offered, changed, compiles, really fixed; and the
number of uses where a SAFE fix changed outputs (target 0). Generated code is no held-out evidence:
it says which forms the rewrites cover, not how often real code has them.

    python benchmarks/fix_coverage.py [--framework jax|tf] [--mode safe|unsafe|both] [--list] [--json]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
REPO = HERE.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import api_coverage  # noqa: E402
import fix_score  # noqa: E402

from xlacheck.engine import check_source  # noqa: E402

# Input kinds, by parameter name (the table's parameter names are NumPy's/TensorFlow's).
FLOAT = "float"
BOOL = "bool"
IDS = "ids"  # sorted segment ids 0..3
COUNTS = "counts"  # non-negative integers 0..3 (bincount)
PARTS = "parts"  # partition numbers 0..1 (dynamic_partition with 2 partitions)
_KINDS = {
    **{p: FLOAT for p in ("a", "x", "ar", "ar1", "ar2", "arr", "filt", "p", "data", "data_", "tensor", "input",
                          "input_", "y", "values", "params")},
    **{p: BOOL for p in ("condition", "mask")},
    **{p: IDS for p in ("segment_ids", "obj", "indices")},
    "partitions": PARTS,
    "repeats": COUNTS,
}
_N = 6
_VALUES = {
    FLOAT: "[1.5, -2.0, 0.5, -0.25, 2.0, -1.0]",
    BOOL: "[True, False, True, True, False, True]",
    IDS: "[0, 0, 1, 1, 2, 3]",
    COUNTS: "[0, 1, 1, 3, 2, 0]",
    PARTS: "[0, 1, 0, 1, 1, 0]",
}
_OTHER = "[0.5, 1.0, 2.0, 0.25, 1.0, 0.5]"
# NumPy's return structure: these return a tuple (or named tuple) of arrays; model code reads [0]
_JAX_TUPLE = {"jax.numpy.nonzero", "jax.numpy.where", "jax.numpy.unique_all", "jax.numpy.unique_counts",
              "jax.numpy.unique_inverse"}
_TF_TUPLE = {"tf.unique", "tf.unique_with_counts"}
# the functions whose result holds positions: read as the index of an indexed update
_POSITIONS = {"nonzero", "where", "argwhere", "flatnonzero"}


@dataclass(frozen=True)
class Gen:
    framework: str  # "jax" | "tf"
    family: str
    entry: str
    wrapper: str
    name: str
    source: str  # user code and oracle section


def _kind(entry: str, param: str) -> str | None:
    if entry.endswith("bincount") and param in {"x", "arr"}:
        return COUNTS
    return _KINDS.get(param)


def _call_of(use: api_coverage.Use) -> tuple[list[str], str] | None:
    """(parameters, call text) of an api_coverage use: ``def step(PARAMS):`` and ``out = CALL``."""
    head = re.search(r"def step\(([^)]*)\):\n    out = (.+)\n", use.source)
    if head is None:
        return None
    return [p.strip() for p in head.group(1).split(",") if p.strip()], head.group(2)


def _oracle(framework: str, kinds: list[str]) -> str:
    if framework == "jax":
        make = {FLOAT: "jnp.array({}, dtype=jnp.float32)", BOOL: "jnp.array({})", IDS: "jnp.array({}, dtype=jnp.int32)",
                COUNTS: "jnp.array({}, dtype=jnp.int32)", PARTS: "jnp.array({}, dtype=jnp.int32)"}
        wrap = "jnp.asarray"
    else:
        make = {FLOAT: "tf.constant({}, dtype=tf.float32)", BOOL: "tf.constant({})",
                IDS: "tf.constant({}, dtype=tf.int32)", COUNTS: "tf.constant({}, dtype=tf.int32)",
                PARTS: "tf.constant({}, dtype=tf.int32)"}
        wrap = "tf.constant"
    draws = {FLOAT: "rng.uniform(-2.0, 2.0, size=6).astype(np.float32)", BOOL: "rng.random(6) < 0.5",
             IDS: "np.sort(rng.integers(0, 4, size=6)).astype(np.int32)",
             COUNTS: "rng.integers(0, 4, size=6).astype(np.int32)",
             PARTS: "rng.integers(0, 2, size=6).astype(np.int32)"}
    # a second float argument gets other values (set operations of two equal arrays are empty)
    values = [_VALUES[k] if k != FLOAT or kinds[:i].count(FLOAT) == 0 else _OTHER for i, k in enumerate(kinds)]
    args = ", ".join(make[k].format(v) for k, v in zip(kinds, values))
    rand = ", ".join(f"{wrap}({draws[k]})" for k in kinds)
    return (f'\n\n# --- oracle ---\nimport numpy as np\n\nCATEGORY = "shape"\n\n\ndef ENTRY():\n'
            f"    return step, ({args},)\n\n\ndef RANDOM_ARGS(rng):\n    return ({rand},)\n")


# A consumer shape: module-level lines before the compiled function (``@P`` stands for the call's
# parameters, ``@R`` for the line ``r = CALL``) and the compiled function's body.
_SHAPES = {
    "jax": {
        "helper": (["def select(@P):", "    @R", "    return r", "", ""],
                   ["r = select(@P)", "return jnp.sum(r)"]),
        "method": (["class Model:", "    def score(self, @P):", "        @R", "        return jnp.sum(r)", "", "",
                    "model = Model()", "", ""],
                   ["return model.score(@P)"]),
        "lossfn": (["def selected_loss(y_true, y_pred):", "    return jnp.mean(jnp.square(y_pred - y_true))", "", ""],
                   ["@R", "return selected_loss(1.0, r)"]),
        "loop": ([], ["@R", "total = 0.0", "for scale in (0.5, 1.0, 2.0):", "    total = total + scale * jnp.sum(r)",
                      "return total"]),
        "dot": ([], ["@R", "return jnp.dot(r, r)"]),
    },
    "tf": {
        "helper": (["def select(@P):", "    @R", "    return r", "", ""],
                   ["r = select(@P)", "return tf.reduce_sum(r)"]),
        "layer": (["class Consumer(tf.keras.layers.Layer):", "    def call(self, @P):", "        @R",
                   "        return tf.reduce_sum(r)", "", "", "consumer = Consumer()", "", ""],
                  ["return consumer(@P)"]),
        "lossfn": (["def selected_loss(y_true, y_pred):",
                    "    return tf.reduce_mean(tf.square(tf.cast(y_pred, tf.float32) - y_true))", "", ""],
                   ["@R", "return selected_loss(1.0, r)"]),
        "loop": ([], ["@R", "total = 0.0", "for scale in (0.5, 1.0, 2.0):",
                      "    total += scale * tf.reduce_sum(tf.cast(r, tf.float32))", "return total"]),
        "dot": ([], ["@R", "v = tf.cast(r, tf.float32)", "return tf.tensordot(v, v, 1)"]),
    },
}


def _bounded_consumers(positions: bool) -> dict[str, list[str]]:
    """TensorFlow consumers that ``xlacheck/data/tf_bounded_dynamic.json`` measured wrong or rejected
    on a tensor of data-dependent length (``v[m]``, or ``tf.where(m)`` for a position result): each
    row's input with ``r`` for that tensor, summed (a reduction of the row already is the use)."""
    rows = api_coverage._load("tf_bounded_dynamic.json")["entries"]
    out: dict[str, list[str]] = {}
    for name, probes in sorted(rows.items()):
        for probe in probes:
            text = probe["input"]
            hole = "tf.where(m)" if positions else "v[m]"
            if probe["outcome"] == "ok" or hole not in text or "m)" in text.replace(hole, "") \
                    or "v[m]" in text.replace(hole, "") or "x[" in text:
                continue
            expr = text.replace(hole, "r")
            if not expr.startswith("tf.reduce_"):
                expr = f"tf.reduce_sum(tf.cast({expr}, tf.float32))"
            key = "bounded_" + re.sub(r"\W+", "_", name.split(".")[-1] + "_" + text.split("(", 1)[-1]).strip("_")
            out[key[:40].rstrip("_")] = [f"return {expr}"]
    return out


def _wrappers(framework: str, entry: str, first_param: str) -> dict[str, tuple[list[str], list[str]]]:
    """Consumers of ``r`` (the call's first array result): (module lines before the compiled function,
    its body), with ``@R`` for ``r = CALL`` (the first line of the body when no line names it) and
    ``@P`` for the call's parameters."""
    base = entry.rsplit(".", 1)[-1]
    if framework == "jax":
        out = {
            "sum": ["return jnp.sum(r)"],
            "loss": ["loss = jnp.mean(jnp.square(r - 1.0))", "return loss"],
            "max": ["return jnp.max(r)"],
            "concat": [f"h = jnp.concatenate([r, jnp.ravel({first_param})])", "return jnp.sum(h)"],
        }
        if base in _POSITIONS:
            out["update"] = [f"acc = jnp.zeros({_N})", "return acc.at[r].add(1.0)"]
        return {**{k: ([], ["@R", *v]) for k, v in out.items()}, **_SHAPES["jax"]}
    out = {
        "sum": ["return tf.reduce_sum(r)"],
        "loss": ["loss = tf.reduce_mean(tf.square(tf.cast(r, tf.float32) - 1.0))", "return loss"],
        "max": ["return tf.reduce_max(r)"],
        "concat": [f"h = tf.concat([tf.reshape(tf.cast(r, tf.float32), [-1]), tf.reshape({first_param}, [-1])], 0)",
                   "return tf.reduce_sum(h)"],
        "count": ["n = r.shape[0]", "return tf.reduce_sum(tf.cast(r, tf.float32)) / n"],
    }
    if base in _POSITIONS:
        out["update"] = [f"acc = tf.zeros([{_N}])",
                         "return tf.tensor_scatter_nd_add(acc, tf.reshape(tf.cast(r, tf.int32), [-1, 1]),"
                         " tf.ones_like(tf.reshape(tf.cast(r, tf.float32), [-1])))"]
    out.update(_bounded_consumers(base in _POSITIONS))
    return {**{k: ([], ["@R", *v]) for k, v in out.items()}, **_SHAPES["tf"]}


_HEAD = {
    "jax": "import jax\nimport jax.numpy as jnp\nfrom jax import lax\n\n\n@jax.jit\n",
    "tf": "import tensorflow as tf\n\n\n@tf.function(jit_compile=True)\n",
}


def generate(frameworks: tuple[str, ...] = ("jax", "tf")) -> tuple[list[Gen], list[str]]:
    """The generated uses, and the entries left out for want of an input recipe."""
    api_coverage._ACTIVE_CONTEXTS.clear()
    api_coverage._ACTIVE_CONTEXTS.add("tf.function")
    uses: list[api_coverage.Use] = []
    if "jax" in frameworks:
        uses += [u for u in api_coverage.jax_uses() if u.family in {"jax-shape", "jax-literal"}]
    if "tf" in frameworks:
        # the canonical spelling only (the rewrites read the table, not the alias), once per entry
        uses += [u for u in api_coverage.tf_uses() if u.family == "shape" and u.form == "static dim"
                 and u.spelling == u.entry and u.context == "tf.function"
                 and not u.entry.startswith("tf.compat.v1.")]
    gens: list[Gen] = []
    skipped: list[str] = []
    seen: set[str] = set()
    for use in uses:
        framework = "jax" if use.family.startswith("jax") else "tf"
        parsed = _call_of(use)
        if parsed is None:
            continue
        params, call = parsed
        if framework == "tf":  # api_coverage's static-dim form reads [0] of list results already
            call = re.sub(r"\[0\]$", "", call)
        kinds = [_kind(use.entry, p.rstrip("_") if p.rstrip("_") in _KINDS else p) for p in params]
        if any(k is None for k in kinds) or not params:
            skipped.append(f"{use.family}\t{use.entry}\t{use.form}\t{','.join(params)}")
            continue
        tuple_result = use.entry in (_JAX_TUPLE if framework == "jax" else _TF_TUPLE) or (
            framework == "tf" and (api_coverage._load("tf_api.json")["entries"].get(use.entry, {}).get("structure")
                                   == "list"))
        first = next((p for p, k in zip(params, kinds) if k == FLOAT), params[0])
        short = re.sub(r"\W+", "_", use.entry.split(".", 1)[-1]).strip("_").lower()
        form = re.sub(r"\W+", "_", use.form).strip("_").lower() if use.family == "jax-literal" else ""
        for wrapper, (pre, body) in _wrappers(framework, use.entry, first).items():
            name = f"fixcov_{framework}_{short}{'_' + form if form else ''}_{wrapper}"
            if name in seen:
                continue
            seen.add(name)
            assign = f"r = {call}[0]" if tuple_result else f"r = {call}"

            def fill(line: str, assign: str = assign) -> str:
                return line.replace("@R", assign).replace("@P", ", ".join(params))

            imports, decorator = _HEAD[framework].rsplit("\n\n\n", 1)
            if call.startswith("keras."):
                imports = imports.replace("import tensorflow as tf", "import keras\nimport tensorflow as tf")
            src = (f'"""Generated by benchmarks/fix_coverage.py: {use.entry} ({use.family}) in a `{wrapper}` use."""\n'
                   + imports + "\n\n\n" + "".join(f"{fill(x)}\n" for x in pre) + decorator
                   + f"def step({', '.join(params)}):\n" + "".join(f"    {fill(x)}\n" for x in body)
                   + _oracle(framework, [k for k in kinds if k is not None]))
            gens.append(Gen(framework, use.family, use.entry, wrapper, name, src))
    return gens, skipped


_PROBE = r'''
import importlib.util, json, sys, os
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("JAX_PLATFORMS", "cpu")
out = {}
for path in sys.argv[2:]:
    name = os.path.basename(path)[:-3]
    try:
        spec = importlib.util.spec_from_file_location("gen_" + name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        fn, args = mod.ENTRY()
    except Exception as error:  # noqa: BLE001
        out[name] = "harness " + type(error).__name__
        continue
    import numpy as np
    try:  # eagerly first: a use the framework rejects without XLA is not a compiler failure
        if sys.argv[1] == "jax":
            import jax
            with jax.disable_jit():
                want = np.asarray(jax.block_until_ready(fn(*args)))
        else:
            import tensorflow as tf
            tf.config.run_functions_eagerly(True)
            try:
                want = np.asarray(fn(*args))
            finally:
                tf.config.run_functions_eagerly(False)
    except Exception as error:  # noqa: BLE001
        out[name] = "eager " + type(error).__name__
        continue
    try:
        res = fn(*args)
        if sys.argv[1] == "jax":
            jax.block_until_ready(res)
        got = np.asarray(res)
        same = got.shape == want.shape and np.allclose(got, want, rtol=1e-4, atol=1e-5, equal_nan=True)
        out[name] = "" if same else "wrong result"
    except Exception as error:  # noqa: BLE001 - the class is the verdict
        out[name] = type(error).__name__
print(json.dumps(out))
'''


def compile_check(framework: str, paths: list[Path]) -> dict[str, str]:
    """name -> '' when the use compiles under XLA on ENTRY's arguments, else the error class (one process)."""
    if not paths:
        return {}
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", TF_USE_LEGACY_KERAS="1", JAX_PLATFORMS="cpu")
    done = subprocess.run(["nice", "-n", "5", sys.executable, "-c", _PROBE, framework, *map(str, paths)],
                          capture_output=True, text=True, env=env, check=False)
    lines = [x for x in done.stdout.splitlines() if x.startswith("{")]
    if not lines:
        raise SystemExit(f"fix_coverage: compile check failed: {done.stderr[-800:]}")
    return json.loads(lines[-1])


STAGES = ("failing", "flagged", "offered", "changed", "compiles", "fixed", "static")


def run(gens: list[Gen], modes: list[str], jobs: int, out: Path) -> dict:
    corpus = out / "corpus"
    for fw in ("jax", "tf"):
        (corpus / fw).mkdir(parents=True, exist_ok=True)
    for g in gens:
        (corpus / g.framework / f"{g.name}.py").write_text(g.source, encoding="utf-8")
    verdicts: dict[str, str] = {}
    for fw in ("jax", "tf"):
        verdicts.update(compile_check(fw, [corpus / fw / f"{g.name}.py" for g in gens if g.framework == fw]))
    oracle = fix_score.load_oracle(fix_score.find_corpus() or corpus)
    failing = [g for g in gens if verdicts.get(g.name) and not verdicts[g.name].startswith(("eager ", "harness "))]
    flagged = {g.name for g in failing
               if check_source(oracle.strip_case_source(g.source), f"{g.name}.py").diagnostics}
    results: dict = {"generated": len(gens), "compile_verdicts": verdicts, "modes": {}}
    for mode in modes:
        rows: dict[str, dict] = {}
        for fw in ("jax", "tf"):
            todo = [g for g in failing if g.framework == fw and g.name in flagged]
            if not todo:
                continue
            cases = [{"file": f"{fw}/{g.name}.py", "case": g.name, "label": "compile_error", "xla_fail": True}
                     for g in todo]
            fixed_dir = out / f"fixed_{mode}_{fw}"
            records = fix_score.prepare(corpus, oracle, cases, fixed_dir, mode == "unsafe")
            for r in records:
                if not r.changed:
                    (fixed_dir / f"{r.case}.py").unlink()
            report = ({"cases": []} if not any(r.changed for r in records) else
                      fix_score.check_fix(corpus, fixed_dir, out / f"report_{mode}_{fw}.json", jobs, fw))
            checks = {c["case"]: c for c in report["cases"]}
            for r in records:
                c = checks.get(r.case, {})
                rows[r.case] = {"offered": sorted(set(r.offered)), "applied": sorted(set(r.applied)),
                                "changed": r.changed, "compiles": bool(r.changed and c.get("xla_ok")),
                                "fixed": bool(r.changed and c.get("status") == "PASS"),
                                # compiles from shapes alone: a pass that recompiles per value is no real fix
                                "static": bool(r.changed and c.get("status") == "PASS"
                                               and c.get("fixed_static_ok") is True),
                                "safe_changed_outputs": bool(r.changed and set(r.applied) == {"safe"}
                                                             and c.get("xla_ok")
                                                             and c.get("n_match") != c.get("n_checked")),
                                "stage": fix_score.stage_of(r, c, mode == "unsafe"),
                                "reason": (c.get("reason") or "")[:160]}
        results["modes"][mode] = rows
    results["uses"] = [{"name": g.name, "framework": g.framework, "family": g.family, "entry": g.entry,
                        "wrapper": g.wrapper, "failing": g.name in {f.name for f in failing},
                        "error": verdicts.get(g.name, "?"), "flagged": g.name in flagged} for g in gens]
    return results


def table(results: dict, mode: str, by: str) -> list[tuple[str, list[int]]]:
    rows = results["modes"].get(mode, {})
    counts: dict[str, list[int]] = collections.defaultdict(lambda: [0] * (len(STAGES) + 1))
    for u in results["uses"]:
        if not u["failing"]:
            continue
        key = f"{u['framework']} {u[by]}" if by != "all" else u["framework"]
        r = rows.get(u["name"], {})
        flags = [True, u["flagged"], bool(r.get("offered") and set(r["offered"]) & ({"safe", "unsafe"}
                                                                                    if mode == "unsafe" else {"safe"})),
                 r.get("changed", False), r.get("compiles", False), r.get("fixed", False),
                 r.get("static", False), r.get("safe_changed_outputs", False)]
        for i, f in enumerate(flags):
            counts[key][i] += bool(f)
    return sorted(counts.items())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--framework", action="append", choices=["jax", "tf"], help="only this framework (repeatable)")
    ap.add_argument("--mode", choices=["safe", "unsafe", "both"], default="both")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, default=None, help="folder for the generated and fixed files")
    ap.add_argument("-k", default=None, help="only uses whose name contains this")
    ap.add_argument("--list", action="store_true", help="one line per failing use: its stage in each mode")
    ap.add_argument("--show", help="print the generated source of the uses whose name contains this")
    ap.add_argument("--json", type=Path, default=None, help="write the results here")
    a = ap.parse_args(argv)
    gens, skipped = generate(tuple(a.framework or ("jax", "tf")))
    if a.k:
        gens = [g for g in gens if a.k in g.name]
    if a.show:
        for g in gens:
            if a.show in g.name:
                print(f"# {g.name}\n{g.source}")
        return 0
    out = a.out or Path(tempfile.mkdtemp(prefix="fix_coverage_"))
    modes = ["safe", "unsafe"] if a.mode == "both" else [a.mode]
    results = run(gens, modes, a.jobs, out)
    print(f"\ngenerated uses: {len(gens)}; left out for want of an input recipe: {len(skipped)} calls")
    compiles = sum(1 for u in results["uses"] if not u["error"])
    eager = sum(1 for u in results["uses"] if u["error"].startswith(("eager ", "harness ")))
    print(f"left out of the counts below: {compiles} uses that compile under XLA on ENTRY's arguments, {eager} that "
          "fail eagerly too (the inputs do not fit the call)")
    for mode in modes:
        print(f"\n== mode: {mode} ({'--fix --unsafe-fixes' if mode == 'unsafe' else '--fix'}) ==")
        for by in ("all", "wrapper", "family"):
            print(f"{'':24s} " + " ".join(f"{s:>8s}" for s in STAGES) + "  safe-changed-outputs")
            for key, n in table(results, mode, by):
                print(f"{key:24s} " + " ".join(f"{v:8d}" for v in n[:-1]) + f"  {n[-1]}")
            print()
    if a.list:
        for u in results["uses"]:
            if not u["failing"]:
                continue
            stages = []
            for mode in modes:
                r = results["modes"][mode].get(u["name"])
                stage = "-" if r is None else "".join(r["stage"][0]) + (f" ({r['stage'][1]})" if r["stage"][1] else "")
                stages.append(f"{mode}:{stage if u['flagged'] else 'a'}")
            print(f"{u['name']:60s} {u['error']:28s} {' '.join(stages)}")
    if skipped and a.list:
        print("\nleft out (no input recipe):", *skipped, sep="\n  ")
    if a.json:
        a.json.write_text(json.dumps(results, indent=1, default=list))
    print(f"\nfiles under {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
