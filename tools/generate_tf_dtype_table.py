"""Generate xlacheck/data/tf_dtypes.json: dtype facts of TensorFlow calls that the value model and
the rules read, measured by calling each public function eagerly and tracing it.

One command (needs TensorFlow; xlacheck itself never imports it):

    python tools/generate_tf_dtype_table.py
    python tools/generate_tf_dtype_table.py --check   # exit 1 when the committed table is stale

Candidates are the public functions of the API table (``xlacheck/data/tf_api.json``: ``tf.*``
entries called as functions, not aliases, outside the modules in SKIPPED_PREFIXES that write files,
print or touch devices). Two sections:

``keeps_real_float``: the functions the API table records as elementwise unary (``elementwise:
"unary"``) that return a tensor of their input's dtype for a float16, a float32 and a float64 input
(``tf.abs``, ``tf.nn.relu``, ``tf.exp``; not the casts ``tf.compat.v1.to_int32`` nor ``tf.as_string``).
The dtype model (:mod:`xlacheck.analysis.dtypes`) gives their call the dtype of a real float input.

``same_dtype_binary``: functions whose first two parameters take tensors that must share one dtype
and whose result has it: called with two float16, float32 and float64 tensors they return that dtype,
and called with a float32 and a float64 tensor they raise (``tf.matmul``, ``tf.maximum``,
``tf.nn.conv2d``). The dtype model gives their call the real float dtype proven for either argument.

``literal_operand``: which functions, given a Python int before a tensor of another dtype, run
eagerly but raise at trace time in every graph. In graph mode TensorFlow converts a call's inputs in
order: a Python int met before any tensor that shares its dtype attribute becomes an int32 constant,
and the tensor that follows must then be int32 ("Input 'y' of 'Maximum' Op has type float32 that
does not match type int32 of argument 'x'"). Eagerly the inputs are matched together, so
``tf.maximum(0, x)`` works on a float ``x`` and the same line raises ``TypeError`` inside
``tf.function`` (``jit_compile`` or not). ``1 - x``, ``tf.divide(1, x)`` and ``tf.clip_by_value(x, 0,
1)`` convert the literal to the tensor's dtype and work everywhere. Each candidate is called in each
FORM (the int 0 at one position, a tensor at the next, a bool tensor before them for a three-argument
form such as ``tf.where(c, 0, x)``), with a float32 tensor and with an int64 tensor: eagerly, then
traced by ``tf.function``. A row is written when the eager call works and a trace raised that
conflict; for each dtype, ``graph`` holds the exception class and the line naming the conflict, or
null. The rule XLA331 reads it.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import sys
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _table_check  # noqa: E402  (tools/ is not a package)

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "tf_dtypes.json"
API_TABLE = REPO_ROOT / "xlacheck" / "data" / "tf_api.json"
COMMAND = "python tools/generate_tf_dtype_table.py"
# Modules whose functions write files, print, block, touch devices or build host-side objects: not called.
SKIPPED_PREFIXES = ("tf.io.", "tf.summary.", "tf.print", "tf.py_function", "tf.numpy_function", "tf.data.",
                    "tf.saved_model.", "tf.config.", "tf.distribute.", "tf.test.", "tf.queue.", "tf.lookup.",
                    "tf.train.", "tf.compat.", "tf.raw_ops.", "tf.tpu.", "tf.profiler.", "tf.debugging.",
                    "tf.experimental.dtensor.", "tf.autograph.", "tf.sysconfig.", "tf.keras.utils.",
                    "tf.keras.callbacks.", "tf.keras.models.", "tf.keras.preprocessing.", "tf.keras.datasets.",
                    "tf.keras.applications.", "tf.keras.mixed_precision.", "tf.keras.saving.", "tf.keras.export.",
                    "tf.keras.backend.set_", "tf.keras.backend.clear_session", "tf.keras.config.", "tf.audio.",
                    "tf.strings.", "tf.image.decode", "tf.image.encode", "tf.security.", "tf.tools.", "tf.types.",
                    "tf.Module", "tf.estimator.", "tf.feature_column.", "tf.xla.", "tf.mlir.", "tf.dtypes.",
                    "tf.errors.", "tf.version.", "tf.nest.", "tf.function", "tf.GradientTape", "tf.Variable")
# (positions, what each holds): "int" the literal 0, "tensor" the probed tensor, "bool" a bool
# tensor of its shape. The literal is always followed by the tensor.
FORMS: dict[str, tuple[str, ...]] = {"int,tensor": ("int", "tensor"), "bool,int,tensor": ("bool", "int", "tensor")}
DTYPES = ("float32", "int64")
# What the trace says when the literal became int32 first: only such failures make a row.
MISMATCH = "does not match type int32"


def _candidates(unary: bool = False) -> list[str]:
    """The probed functions; ``unary``: only those the API table records as elementwise unary."""
    entries = json.loads(API_TABLE.read_text())["entries"]
    return sorted(name for name, e in entries.items()
                  if name.startswith("tf.") and isinstance(e, dict) and "alias_of" not in e
                  and e.get("by") == "call" and not e.get("class") and not name.startswith(SKIPPED_PREFIXES)
                  and (not unary or e.get("elementwise") == "unary"))


def _keeps_real_float(tf: Any, fn: Any) -> bool:
    """``fn`` of a float16, float32 and float64 tensor returns a tensor of the same dtype."""
    for dtype in ("float16", "float32", "float64"):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = fn(tf.constant([0.25, 0.5], getattr(tf, dtype)))
        except Exception:  # noqa: BLE001 - a function that refuses a float input keeps nothing
            return False
        if getattr(out, "dtype", None) != getattr(tf, dtype):
            return False
    return True


def _resolve(tf: Any, name: str) -> Any:
    obj = tf
    for part in name.split(".")[1:]:
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def _positional(fn: Any) -> list[str] | None:
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None
    return [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def _head(e: BaseException) -> str:
    """The exception class and the line that says what failed: a type conflict's line when there is
    one (AutoGraph puts the user's traceback first), else the message's last line."""
    lines = [line.strip() for line in str(e).splitlines() if line.strip()] or [""]
    line = next((line for line in lines if MISMATCH in line), lines[-1])
    head = f"{type(e).__name__}: "
    return (line if line.startswith(head) else head + line)[:200]


def _probe(tf: Any, fn: Any, form: tuple[str, ...], dtype: str) -> tuple[bool, str | None]:
    """(the eager call worked, the graph trace's error or None)."""
    value = tf.constant([1.5, 2.5]) if dtype == "float32" else tf.constant([1, 2], tf.int64)
    cond = tf.constant([True, False])

    def args(x: Any) -> list[Any]:
        return [0 if kind == "int" else cond if kind == "bool" else x for kind in form]

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn(*args(value))
    except Exception:  # noqa: BLE001 - the form does not fit the function eagerly: no graph-only failure
        return False, None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tf.function(lambda x: fn(*args(x))).get_concrete_function(tf.TensorSpec([2], getattr(tf, dtype)))
    except Exception as e:  # noqa: BLE001 - what the trace raised is the fact recorded
        return True, _head(e)
    return True, None


def _same_dtype_binary(tf: Any, fn: Any) -> bool:
    """``fn(a, b)`` of two float16, float32 or float64 tensors has their dtype, and of a float32 and a
    float64 tensor raises."""
    def call(first: str, second: str) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(tf.constant([[0.25, 0.5], [0.75, 1.0]], getattr(tf, first)),
                      tf.constant([[0.5, 0.25], [1.0, 0.75]], getattr(tf, second)))

    try:
        if any(getattr(call(d, d), "dtype", None) != getattr(tf, d) for d in ("float16", "float32", "float64")):
            return False
    except Exception:  # noqa: BLE001 - two tensors of one float dtype do not fit it
        return False
    try:
        call("float32", "float64")
    except Exception:  # noqa: BLE001 - refusing two dtypes is the fact
        return True
    return False


def generate(names: list[str] | None = None, unary: list[str] | None = None,
             binary: list[str] | None = None) -> dict[str, Any]:
    """The table; ``names``/``unary``/``binary``: probe only these (``--check``), else every candidate."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    tf.get_logger().setLevel("ERROR")
    keeps = [name for name in (unary if unary is not None else _candidates(unary=True))
             if callable(fn := _resolve(tf, name)) and not inspect.isclass(fn) and _keeps_real_float(tf, fn)]
    same = [name for name in (binary if binary is not None else _candidates())
            if callable(fn := _resolve(tf, name)) and not inspect.isclass(fn) and len(_positional(fn) or []) >= 2
            and _same_dtype_binary(tf, fn)]
    rows: dict[str, Any] = {}
    for name in names if names is not None else _candidates():
        fn = _resolve(tf, name)
        params = _positional(fn) if callable(fn) and not inspect.isclass(fn) else None
        if not params:
            continue
        for key, form in FORMS.items():
            if len(params) < len(form):
                continue
            graph: dict[str, str | None] = {}
            for dtype in DTYPES:
                probed = _probe(tf, fn, form, dtype)
                if probed[0]:
                    graph[dtype] = probed[1]
            if any(error is not None and error.startswith("TypeError") and MISMATCH in error
                   for error in graph.values()):
                literal = form.index("int")
                rows.setdefault(name, {})[key] = {"literal": params[literal], "tensor": params[literal + 1],
                                                  "position": literal, "graph": graph}
    return {"command": COMMAND, "tensorflow_version": tf.__version__, "schema": 1,
            "generated": _table_check.generated_date(), "forms": {k: list(v) for k, v in FORMS.items()},
            "dtypes": list(DTYPES), "keeps_real_float": keeps, "same_dtype_binary": same,
            "literal_operand": rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true", help="re-measure the committed rows (exit 1: stale)")
    args = ap.parse_args(argv)
    tool = "generate_tf_dtype_table.py"
    if args.check and (reason := _table_check.missing("tensorflow")):
        return _table_check.skipped(tool, reason)
    if args.check:
        old = json.loads(args.out.read_text())
        table = generate(sorted(old["literal_operand"]), sorted(old["keeps_real_float"]),
                         sorted(old["same_dtype_binary"]))
        rows, measured = old["literal_operand"], table["literal_operand"]
        differences = [d for n in sorted(rows) if (d := _table_check.difference(n, rows.get(n), measured.get(n)))]
        for key in ("keeps_real_float", "same_dtype_binary"):
            if (d := _table_check.difference(key, old[key], table[key])):
                differences.append(d)
        checked = len(old["literal_operand"]) + len(old["keeps_real_float"]) + len(old["same_dtype_binary"])
        return _table_check.report(tool, checked, differences,
                                   f"TensorFlow {table['tensorflow_version']}")
    table = generate()
    args.out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    print(f"wrote {args.out} ({len(table['keeps_real_float'])} unary functions that keep a real float dtype, "
          f"{len(table['same_dtype_binary'])} binary functions of one dtype, "
          f"{len(table['literal_operand'])} functions that fail on a leading Python int)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
