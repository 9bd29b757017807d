"""Generate xlacheck/data/tf_sparse.json: what XLA:CPU does with a tf.SparseTensor in compiled code.

One command (needs TensorFlow; xlacheck itself never imports it):

    python tools/generate_sparse_table.py            # writes xlacheck/data/tf_sparse.json
    python tools/generate_sparse_table.py --check    # re-measures every probe and compares

A ``tf.SparseTensor`` is three dense tensors (``indices``, ``values``, ``dense_shape``), so whether a
compiled function that builds or receives one compiles depends on which op then reads it: the
``tf.sparse.*`` functions and the sparse forms of ``tf.nn.ctc_loss`` and the embedding lookups lower
to raw ops of their own (``SparseToDense``, ``SparseReduceSum``, ``SparseTensorDenseMatMul``,
``CTCLoss`` ...), and the API table, which probes each callable with dense tensors, never measured
them. This generator does: each probe builds a 3 x 4 sparse matrix (5 stored values, each row
non-empty) *inside* a function from that function's dense arguments with one constructor (the
probe's ``form``: ``tf.sparse.from_dense`` of ``f32[3, 4]``, or ``tf.SparseTensor(indices, values,
dense_shape)`` from an ``int64[5, 2]`` and an ``f32[5]`` argument), or receives it as the argument
(form ``argument``), applies one consumer, and runs the function eagerly and under
``tf.function(jit_compile=True)``; it then asks XLA for the HLO with shapes and dtypes only
(``experimental_get_compiler_ir`` with specs), as the case oracle does. A consumer that returns a
sparse tensor is compared on its ``values``. Each entry records

* ``outcome``: ``ok`` (compiles, same values as eager within the oracle's tolerance, and the
  shapes-only HLO needs no argument value), ``xla_error`` (XLA raises, eager returns values),
  ``value_specialized`` (the shapes-only HLO needs "a compile-time constant"), ``differs`` or
  ``eager_error``;
* ``returns``: ``sparse`` when the consumer returned a ``tf.SparseTensor`` eagerly, else ``dense``;
* ``form`` and ``constructor`` (the API that made the sparse tensor; null for ``argument``), ``call``
  (``any``, or ``axis1`` / ``no_axis`` for a reduction, ``dense_rhs`` /
  ``sparse_rhs`` for ``tf.sparse.add``), ``input`` (the probe in words), ``ops`` (the raw ops
  XLA reported without a kernel, when it did) and ``eager``/``xla`` (the shapes, or the error).

Not probed: ``tf.sparse.retain`` of the Keras helper's result (its values have a bounded dynamic
size): under ``jit_compile`` it returned the eager values in one of three runs and aborted the
process in the other two (``literal.cc: Check failed: subshape->dimensions(dim_index) >= size (12 vs.
21952)``, TF 2.21 XLA:CPU), so it has no stable outcome to record.

The output is deterministic apart from the ``generated`` date (``SOURCE_DATE_EPOCH`` pins it).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tools"))

import _table_check  # noqa: E402  (tools/ is not a package)

DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "tf_sparse.json"
COMMAND = "python tools/generate_sparse_table.py"
SCHEMA_VERSION = 1
RTOL, ATOL = 1e-4, 1e-5  # the oracle's tolerance (../shared/eval/xla_cases/oracle.py)

# form -> the constructor over the arguments ``dense`` f32[3, 4], ``indices`` int64[5, 2], ``values`` f32[5],
# ``labels`` f32[3, 4] and ``lengths`` int32[3] (the Keras CTC helper keeps the first ``lengths`` labels of
# each row: 6 stored values); ``argument`` receives the sparse tensor itself.
CONSTRUCTORS: dict[str, str] = {
    "from_dense": "tf.sparse.from_dense(dense)",
    "constructor": "tf.SparseTensor(indices, values, dense_shape=[3, 4])",
    "ctc_label_dense_to_sparse": "tf.keras.backend.ctc_label_dense_to_sparse(labels, lengths)",
}
# form -> the API that made the sparse tensor (what a rule looks for in user code)
CONSTRUCTOR_APIS: dict[str, str] = {
    "from_dense": "tf.sparse.from_dense",
    "constructor": "tf.SparseTensor",
    "ctc_label_dense_to_sparse": "tf.keras.backend.ctc_label_dense_to_sparse",
}
# (consumer api, call form, source over the sparse tensor ``s``, ``w`` f32[4, 2], ``emb`` f32[6, 3] and
# ``logits`` f32[6, 3, 5]); the call form says which calls of the consumer the probe stands for.
CONSUMERS: tuple[tuple[str, str, str], ...] = (
    ("tf.sparse.to_dense", "any", "tf.sparse.to_dense(s)"),
    ("tf.sparse.reduce_sum", "axis1", "tf.sparse.reduce_sum(s, axis=1)"),
    ("tf.sparse.reduce_sum", "no_axis", "tf.sparse.reduce_sum(s)"),
    ("tf.sparse.reduce_max", "axis1", "tf.sparse.reduce_max(s, axis=1)"),
    ("tf.sparse.sparse_dense_matmul", "any", "tf.sparse.sparse_dense_matmul(s, w)"),
    ("tf.sparse.add", "dense_rhs", "tf.sparse.add(s, tf.ones([3, 4]))"),
    ("tf.sparse.add", "sparse_rhs", "tf.sparse.add(s, s)"),
    ("tf.sparse.minimum", "any", "tf.sparse.minimum(s, s)"),
    ("tf.sparse.maximum", "any", "tf.sparse.maximum(s, s)"),
    ("tf.sparse.reorder", "any", "tf.sparse.reorder(s)"),
    ("tf.sparse.reshape", "any", "tf.sparse.reshape(s, [4, 3])"),
    ("tf.sparse.transpose", "any", "tf.sparse.transpose(s)"),
    ("tf.sparse.softmax", "any", "tf.sparse.softmax(s)"),
    ("tf.sparse.slice", "any", "tf.sparse.slice(s, [0, 0], [2, 4])"),
    ("tf.sparse.retain", "any", "tf.sparse.retain(s, s.values > 1.5)"),
    ("tf.sparse.fill_empty_rows", "any", "tf.sparse.fill_empty_rows(s, 0.0)[0]"),
    ("tf.sparse.concat", "any", "tf.sparse.concat(0, [s, s])"),
    ("tf.sparse.expand_dims", "any", "tf.sparse.expand_dims(s, 0)"),
    ("tf.sparse.map_values", "any", "tf.sparse.map_values(tf.multiply, s, 2.0)"),
    ("tf.sparse.to_indicator", "any", "tf.sparse.to_indicator(tf.cast(s, tf.int64), 6)"),
    ("tf.sparse.bincount", "any", "tf.sparse.bincount(tf.cast(s, tf.int64), minlength=6, maxlength=6)"),
    ("SparseTensor.values", "any", "s.values * 2.0"),
    ("SparseTensor.indices", "any", "s.indices"),
    ("tf.cast", "any", "tf.cast(s, tf.int32).values"),
    ("tf.nn.ctc_loss", "any",
     "tf.nn.ctc_loss(tf.cast(s, tf.int32), logits, None, tf.fill([3], 6), blank_index=0)"),
    ("tf.nn.embedding_lookup_sparse", "any", "tf.nn.embedding_lookup_sparse(emb, tf.cast(s, tf.int64), None)"),
    ("tf.nn.safe_embedding_lookup_sparse", "any",
     "tf.nn.safe_embedding_lookup_sparse(emb, tf.cast(s, tf.int64))"),
)
FORMS = (*CONSTRUCTORS, "argument")
_NO_KERNEL = re.compile(r"No registered '(\w+)' OpKernel")


def _args() -> dict[str, Any]:
    import tensorflow as tf

    return {"dense": tf.constant([[1.0, 0.0, 2.0, 0.0], [0.0, 3.0, 0.0, 0.0], [2.0, 0.0, 0.0, 1.0]]),
            "indices": tf.constant([[0, 0], [0, 2], [1, 1], [2, 0], [2, 3]], tf.int64),
            "values": tf.constant([1.0, 2.0, 3.0, 2.0, 1.0]),
            "labels": tf.constant([[1.0, 2.0, 0.0, 0.0], [3.0, 0.0, 0.0, 0.0], [2.0, 2.0, 1.0, 0.0]]),
            "lengths": tf.constant([2, 1, 3])}


def _measure(form: str, consumer: str) -> dict[str, Any]:
    import numpy as np
    import tensorflow as tf

    consts = {"w": tf.reshape(tf.range(8, dtype=tf.float32), [4, 2]) / 8.0,
              "emb": tf.reshape(tf.range(18, dtype=tf.float32), [6, 3]) / 18.0,
              "logits": tf.reshape(tf.range(90, dtype=tf.float32), [6, 3, 5]) / 90.0}
    args = _args()
    if form == "argument":
        values = [tf.sparse.from_dense(args["dense"])]

        def fn(s):  # type: ignore[no-untyped-def]
            return eval(consumer, {"tf": tf, "s": s, **consts})  # noqa: S307  (this file's constants)
        specs = [tf.SparseTensorSpec([3, 4], tf.float32)]
    else:
        names = sorted(args)
        values = [args[n] for n in names]

        def fn(*xs):  # type: ignore[no-untyped-def]
            scope = {"tf": tf, **consts, **dict(zip(names, xs))}
            scope["s"] = eval(CONSTRUCTORS[form], scope)  # noqa: S307
            return eval(consumer, scope)  # noqa: S307
        specs = [tf.TensorSpec(v.shape, v.dtype) for v in values]

    def dense(t: Any) -> Any:
        return np.asarray(t.values if isinstance(t, tf.SparseTensor) else t)

    try:
        result = fn(*values)
    except Exception as error:  # noqa: BLE001
        return {"outcome": "eager_error", "eager": {"error": type(error).__name__}, "xla": None}
    returns = "sparse" if isinstance(result, tf.SparseTensor) else "dense"
    eager = dense(result)
    compiled = tf.function(fn, jit_compile=True)
    try:
        xla = dense(compiled(*values))
    except Exception as error:  # noqa: BLE001
        text = str(error)
        message = re.sub(r"__inference_\w+?_\d+\S*", "__inference_fn", text.strip().splitlines()[0])[:160]
        return {"outcome": "xla_error", "returns": returns, "ops": sorted(set(_NO_KERNEL.findall(text))),
                "eager": {"shape": list(eager.shape)}, "xla": {"error": type(error).__name__, "message": message}}
    record = {"returns": returns, "eager": {"shape": list(eager.shape)}, "xla": {"shape": list(xla.shape)}}
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
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf.keras.backend is tf-keras's (the case oracle's)
    import tensorflow as tf

    entries: dict[str, list[dict[str, Any]]] = {}
    for api, call, source in CONSUMERS:
        for form in FORMS:
            if api == "tf.sparse.retain" and form == "ctc_label_dense_to_sparse":
                continue  # aborts the process now and then (XLA literal.cc CHECK on a bounded-dynamic size): see below
            ctor = "the sparse argument s" if form == "argument" else CONSTRUCTORS[form]
            entries.setdefault(api, []).append(
                {"form": form, "constructor": CONSTRUCTOR_APIS.get(form), "call": call,
                 "input": f"s = {ctor}; {source}", **_measure(form, source)})
    return {
        "schema_version": SCHEMA_VERSION,
        "generated_by": COMMAND,
        "generated": _table_check.generated_date(),
        "tensorflow": tf.__version__,
        "backend": "XLA_CPU_JIT (tf.function(jit_compile=True) on CPU); shapes-only HLO as the case oracle",
        "input": "a 3 x 4 tf.SparseTensor of f32 values (every row non-empty) built inside the compiled function "
                 "from its dense arguments (form = constructor), or passed in (form argument)",
        "tolerance": {"rtol": RTOL, "atol": ATOL},
        "outcomes": ["ok", "xla_error", "value_specialized", "differs", "eager_error"],
        "entries": dict(sorted(entries.items())),
    }


def main(argv: list[str] | None = None) -> int:
    return _table_check.entries_table_main(argv, tool=Path(__file__).name, description=__doc__.splitlines()[0],
                                           default_out=DEFAULT_OUT, measure=measure)


if __name__ == "__main__":
    sys.exit(main())
