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

Each use gets an oracle section (``ENTRY``, and ``RANDOM_ARGS`` drawing inputs of the same kinds:
floats, a boolean mask, sorted segment ids, counts) so that ``oracle.py check-fix`` can run it.
Inputs are made from the parameter names (``condition``/``mask``: booleans, ``segment_ids``: ids,
...); a call with a parameter no recipe knows is left out and counted (``no input recipe``).

Per use, in order (a use that stops at a stage is counted there):

1. it fails under the compiler (compiled once on ENTRY's arguments, in one process per framework;
   a use that compiles is not a failing use and leaves the denominator);
2. the rules flag it (``xlacheck`` default rules, no ``--jit-compiled``: the function is compiled
   by its decorator);
3. a fix is offered, and of which applicability;
4. ``python -m xlacheck --fix [--unsafe-fixes]`` changes the file (``fix_score.prepare``);
5. the changed file compiles under XLA and its outputs equal the original's eager outputs on ENTRY
   and on several random draws (``oracle.py check-fix``, through ``fix_score.check_fix``).

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


def _wrappers(framework: str, entry: str, first_param: str) -> dict[str, list[str]]:
    """Consumer bodies of ``r`` (the call's first array result)."""
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
        return out
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
    return out


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
        for wrapper, body in _wrappers(framework, use.entry, first).items():
            name = f"fixcov_{framework}_{short}{'_' + form if form else ''}_{wrapper}"
            if name in seen:
                continue
            seen.add(name)
            lines = [f"r = {call}[0]" if tuple_result else f"r = {call}", *body]
            head = _HEAD[framework].replace("import tensorflow as tf\n", "import keras\nimport tensorflow as tf\n") \
                if call.startswith("keras.") else _HEAD[framework]
            src = (f'"""Generated by benchmarks/fix_coverage.py: {use.entry} ({use.family}) in a `{wrapper}` use."""\n'
                   + head + f"def step({', '.join(params)}):\n" + "".join(f"    {x}\n" for x in lines)
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
    try:  # eagerly first: a use the framework rejects without XLA is not a compiler failure
        if sys.argv[1] == "jax":
            import jax
            with jax.disable_jit():
                jax.block_until_ready(fn(*args))
        else:
            import tensorflow as tf
            tf.config.run_functions_eagerly(True)
            try:
                fn(*args)
            finally:
                tf.config.run_functions_eagerly(False)
    except Exception as error:  # noqa: BLE001
        out[name] = "eager " + type(error).__name__
        continue
    try:
        res = fn(*args)
        if sys.argv[1] == "jax":
            jax.block_until_ready(res)
        out[name] = ""
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


STAGES = ("failing", "flagged", "offered", "changed", "compiles", "fixed")


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
                 r.get("safe_changed_outputs", False)]
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
