"""Generate xlacheck/data/tf_ragged.json: what XLA:CPU does with a tf.RaggedTensor in compiled code.

One command (needs TensorFlow; xlacheck itself never imports it):

    python tools/generate_ragged_table.py            # writes xlacheck/data/tf_ragged.json
    python tools/generate_ragged_table.py --check    # re-measures every probe and compares

A ``tf.RaggedTensor`` is a pair of dense tensors (``flat_values`` and a row partition), so whether a
compiled function that builds or receives one compiles depends on which op then reads it: some
read only the dense parts, others lower to kernels XLA does not have (``RaggedTensorToTensor``) or
to a ``tf.range`` whose length comes from the row partition. This generator measures it: each
probe builds a 2-D ragged tensor *inside* a function from that function's dense arguments (values
``f32[6, 3]`` with rows of 1, 3 and 2, or the int32 ids ``[6]`` with the same rows, or a padded
``f32[2, 3]``) with one constructor (the probe's ``form``), applies one consumer, and runs the
function eagerly and under ``tf.function(jit_compile=True)``; it then asks XLA for the HLO with
shapes and dtypes only (``experimental_get_compiler_ir`` with ``tf.TensorSpec`` arguments), as the
case oracle does, because ``jit_compile`` turns argument values into compile-time constants when
an op needs one. The form ``argument`` passes the ragged tensor itself as the function's argument.
Each entry records

* ``outcome``: ``ok`` (compiles with shapes only, same values as eager within the oracle's
  tolerance), ``xla_error`` (XLA raises, eager returns values), ``value_specialized`` (compiles only
  with the argument values: the shapes-only HLO needs "a compile-time constant"), ``differs`` or
  ``eager_error``;
* ``form``: the constructor (``from_row_lengths`` ...), ``call``: which calls of the consumer the
  probe stands for (``any``; ``axis1``, ``axis0`` or ``no_axis`` for a reduction), ``input``: the
  probe in words, and
  ``eager``/``xla``: the shapes (or the error) each mode gave.

The output is deterministic apart from the ``generated`` date (``SOURCE_DATE_EPOCH`` pins it).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tools"))

import _table_check  # noqa: E402  (tools/ is not a package)

DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "tf_ragged.json"
COMMAND = "python tools/generate_ragged_table.py"
SCHEMA_VERSION = 1
RTOL, ATOL = 1e-4, 1e-5  # the oracle's tolerance (../shared/eval/xla_cases/oracle.py)

# form -> (the constructor call in words, its source over the arguments ``vals`` f32[6,3], ``lens``,
# ``splits``, ``rowids`` (int32) and ``dense`` f32[2,3]); ``argument`` receives the ragged tensor itself.
CONSTRUCTORS: dict[str, str] = {
    "from_row_lengths": "tf.RaggedTensor.from_row_lengths(vals, lens)",
    "from_row_splits": "tf.RaggedTensor.from_row_splits(vals, splits)",
    "from_value_rowids": "tf.RaggedTensor.from_value_rowids(vals, rowids)",
    "from_tensor_padding": "tf.RaggedTensor.from_tensor(dense, padding=0.0)",
    "from_tensor_lengths": "tf.RaggedTensor.from_tensor(dense, lengths=lens[:2])",
}
# (consumer api, call form, words, source over the ragged tensor ``r`` and ``table`` f32[10, 4]); the call
# form says which calls of the consumer the probe stands for ("any", or a reduction's "axis1" ...).
CONSUMERS: tuple[tuple[str, str, str, str], ...] = (
    ("RaggedTensor.to_tensor", "any", "r.to_tensor()", "r.to_tensor()"),
    ("RaggedTensor.to_tensor", "any", "(r * 2.0).to_tensor()", "(r * 2.0).to_tensor()"),
    ("tf.map_fn", "any", "tf.map_fn(lambda row: tf.reduce_max(row, 0), r)",
     "tf.map_fn(lambda row: tf.reduce_max(row, 0), r, fn_output_signature=tf.TensorSpec([None], r.dtype))"),
    ("tf.reduce_sum", "axis1", "tf.reduce_sum(r, axis=1)", "tf.reduce_sum(r, axis=1)"),
    ("tf.reduce_sum", "axis0", "tf.reduce_sum(r, axis=0)", "tf.reduce_sum(r, axis=0)"),
    ("tf.reduce_sum", "no_axis", "tf.reduce_sum(r)", "tf.reduce_sum(r)"),
    ("tf.reduce_mean", "axis1", "tf.reduce_mean(r, axis=1)", "tf.reduce_mean(r, axis=1)"),
    ("tf.reduce_mean", "no_axis", "tf.reduce_mean(r)", "tf.reduce_mean(r)"),
    ("tf.reduce_max", "axis1", "tf.reduce_max(r, axis=1)", "tf.reduce_max(r, axis=1)"),
    ("tf.reduce_max", "no_axis", "tf.reduce_max(r)", "tf.reduce_max(r)"),
    ("tf.reduce_mean", "axis1", "tf.reduce_mean(tf.gather(table, ids_r), axis=1)",
     "tf.reduce_mean(tf.gather(table, tf.cast(r.with_flat_values(tf.cast(r.flat_values[:, 0] * 10.0, tf.int32) % 10), "
     "tf.int32)), axis=1)"),
    ("RaggedTensor.flat_values", "any", "r.flat_values * 2.0", "r.flat_values * 2.0"),
    ("RaggedTensor.row_lengths", "any", "r.row_lengths()", "r.row_lengths()"),
    ("RaggedTensor.nrows", "any", "r.nrows()", "r.nrows()"),
)
FORMS = (*CONSTRUCTORS, "argument")


def _args() -> dict[str, Any]:
    import tensorflow as tf

    return {"vals": tf.reshape(tf.range(18, dtype=tf.float32), [6, 3]) / 10.0,
            "lens": tf.constant([1, 3, 2]), "splits": tf.constant([0, 1, 4, 6]),
            "rowids": tf.constant([0, 1, 1, 1, 2, 2]), "dense": tf.constant([[1.0, 2.0, 0.0], [3.0, 0.0, 0.0]])}


def _measure(form: str, consumer: str) -> dict[str, Any]:
    import numpy as np
    import tensorflow as tf

    table = tf.reshape(tf.range(40, dtype=tf.float32), [10, 4]) / 40.0
    args = _args()
    if form == "argument":
        names = ["r"]
        values = [tf.RaggedTensor.from_row_lengths(args["vals"], args["lens"])]

        def fn(r):  # type: ignore[no-untyped-def]
            return eval(consumer, {"tf": tf, "r": r, "table": table})  # noqa: S307  (this file's constants)
        specs = [tf.RaggedTensorSpec([3, None, 3], tf.float32)]
    else:
        names = sorted(args)
        values = [args[n] for n in names]

        def fn(*xs):  # type: ignore[no-untyped-def]
            scope = {"tf": tf, "table": table, **dict(zip(names, xs))}
            scope["r"] = eval(CONSTRUCTORS[form], scope)  # noqa: S307
            return eval(consumer, scope)  # noqa: S307
        specs = [tf.TensorSpec(v.shape, v.dtype) for v in values]

    def dense(t: Any) -> Any:
        return np.asarray(t.to_tensor() if isinstance(t, tf.RaggedTensor) else t)

    try:
        eager = dense(fn(*values))
    except Exception as error:  # noqa: BLE001
        return {"outcome": "eager_error", "eager": {"error": type(error).__name__}, "xla": None}
    compiled = tf.function(fn, jit_compile=True)
    try:
        xla = dense(compiled(*values))
    except Exception as error:  # noqa: BLE001
        message = str(error).strip().splitlines()[0][:160]
        return {"outcome": "xla_error", "eager": {"shape": list(eager.shape)},
                "xla": {"error": type(error).__name__, "message": message}}
    record = {"eager": {"shape": list(eager.shape)}, "xla": {"shape": list(xla.shape)}}
    try:
        tf.function(fn, jit_compile=True).experimental_get_compiler_ir(*specs)(stage="hlo")
    except Exception as error:  # noqa: BLE001
        if "compile-time constant" in str(error):
            message = str(error).strip().splitlines()[0][:160]
            return {"outcome": "value_specialized", **record, "static": {"message": message}}
    if eager.shape != xla.shape:
        return {"outcome": "differs", **record}
    same = np.allclose(eager.astype(np.float64), xla.astype(np.float64), rtol=RTOL, atol=ATOL, equal_nan=True)
    return {"outcome": "ok" if same else "differs", **record}


def measure() -> dict[str, Any]:
    os.environ.pop("XLA_FLAGS", None)  # flags such as fast min/max change XLA:CPU's answers
    import tensorflow as tf

    entries: dict[str, list[dict[str, Any]]] = {}
    for api, call, words, source in CONSUMERS:
        for form in FORMS:
            if api == "tf.map_fn" and form.startswith("from_tensor"):
                continue  # rows of a padded [2, 3] tensor: the probe's signature is the [6, 3] values'
            ctor = "the ragged argument r" if form == "argument" else CONSTRUCTORS[form]
            entries.setdefault(api, []).append(
                {"form": form, "call": call, "input": f"r = {ctor}; {words}", **_measure(form, source)})
    return {
        "schema_version": SCHEMA_VERSION,
        "generated_by": COMMAND,
        "generated": _table_check.generated_date(),
        "tensorflow": tf.__version__,
        "backend": "XLA_CPU_JIT (tf.function(jit_compile=True) on CPU); shapes-only HLO as the case oracle",
        "input": "a 2-D tf.RaggedTensor of f32[6, 3] values in rows of 1, 3, 2 built inside the compiled "
                 "function from its dense arguments (form = constructor), or passed in (form argument)",
        "tolerance": {"rtol": RTOL, "atol": ATOL},
        "outcomes": ["ok", "xla_error", "value_specialized", "differs", "eager_error"],
        "entries": dict(sorted(entries.items())),
    }


def main(argv: list[str] | None = None) -> int:
    return _table_check.entries_table_main(argv, tool=Path(__file__).name, description=__doc__.splitlines()[0],
                                           default_out=DEFAULT_OUT, measure=measure)


if __name__ == "__main__":
    sys.exit(main())
