"""Generate xlacheck/data/tf_bounded_dynamic.json: what XLA:CPU does with a tensor whose length depends on data.

One command (needs TensorFlow; xlacheck itself never imports it):

    python tools/generate_bounded_dynamic_table.py            # writes xlacheck/data/tf_bounded_dynamic.json
    python tools/generate_bounded_dynamic_table.py --check    # re-measures every probe and compares

``tf.boolean_mask(x, m)``, one-argument ``tf.where(m)`` and ``tf.unique(x)`` compile under
``tf.function(jit_compile=True)`` on XLA:CPU: their data-dependent length becomes a *bounded dynamic*
dimension (``f32[<=8,3]``). What the next op does with such a tensor is a property of that op's XLA
lowering, not of the code around it, so this generator measures it: every probe builds one bounded
dynamic tensor (the rows of an ``[8, 3]`` float tensor kept by a fixed mask of 4 Trues, the kept
entries of a length-8 vector, or the ``[<=8, 1]`` int64 indices ``tf.where`` returns for that mask),
applies one public function to it, and runs the same function eagerly and under
``tf.function(jit_compile=True)``. Each entry records

* ``outcome``: ``ok`` (same shape and values within the oracle's tolerance, rtol 1e-4 / atol 1e-5),
  ``xla_error`` (XLA raises, eager returns values), ``wrong_shape`` (XLA returns a tensor of another
  shape: the padded bound), ``differs`` (same shape, other values) or ``eager_error``;
* ``form``: which calls of the function the probe stands for (``"no_axis"``, ``"any"`` ...);
* ``input``: the probe in words, and ``eager``/``xla``: the shapes (or the error) each mode gave.

Not probed here: ``tf.cumsum``/``tf.math.cumprod``/``tf.scan`` of such a tensor crash the process
(SIGSEGV) on XLA:CPU (XLA202 holds that fact), and ``t[-1]`` reads the padding (XLA201). The output
is deterministic apart from the ``generated`` date (``SOURCE_DATE_EPOCH`` pins it).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tools"))

import _table_check  # noqa: E402  (tools/ is not a package)

DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "tf_bounded_dynamic.json"
COMMAND = "python tools/generate_bounded_dynamic_table.py"
SCHEMA_VERSION = 1
RTOL, ATOL = 1e-4, 1e-5  # the oracle's tolerance (../shared/eval/xla_cases/oracle.py)

# (api, form, input in words, probe source): the probe is a Python expression over ``rows()`` (f32[<=8,3]),
# ``vec()`` (f32[<=8]) and ``idx()`` (i64[<=8,1]), evaluated eagerly and inside the compiled function.
PROBES: tuple[tuple[str, str, str, str], ...] = (
    ("tf.squeeze", "no_axis", "tf.squeeze(tf.where(m))", "tf.squeeze(idx())"),
    ("tf.squeeze", "no_axis", "tf.squeeze(tf.expand_dims(v[m], 0))", "tf.squeeze(tf.expand_dims(vec(), 0))"),
    ("tf.squeeze", "axis", "tf.squeeze(tf.where(m), axis=1)", "tf.squeeze(idx(), axis=1)"),
    ("tf.squeeze", "axis", "tf.squeeze(tf.where(m), axis=-1)", "tf.squeeze(idx(), axis=-1)"),
    ("tf.ones_like", "any", "tf.ones_like(v[m])", "tf.ones_like(vec())"),
    ("tf.ones_like", "any", "tf.reduce_sum(tf.ones_like(v[m]))", "tf.reduce_sum(tf.ones_like(vec()))"),
    ("tf.zeros_like", "any", "tf.zeros_like(v[m])", "tf.zeros_like(vec())"),
    ("tf.zeros_like", "any", "tf.zeros_like(v[m]) + v[m]", "tf.zeros_like(vec()) + vec()"),
    ("tf.fill", "any", "tf.fill(tf.shape(v[m]), 1.0)", "tf.fill(tf.shape(vec()), 1.0)"),
    ("tf.unique", "any", "tf.unique(v[m]).y", "tf.unique(vec()).y"),
    ("tf.linalg.diag", "any", "tf.linalg.diag(v[m])", "tf.linalg.diag(vec())"),
    ("tf.image.resize", "any", "tf.image.resize(x[m][None, :, :, None], [4, 4])",
     "tf.image.resize(rows()[None, :, :, None], [4, 4])"),
    ("tf.reshape", "any", "tf.reshape(tf.where(m), [-1])", "tf.reshape(idx(), [-1])"),
    ("tf.expand_dims", "any", "tf.expand_dims(v[m], -1)", "tf.expand_dims(vec(), -1)"),
    ("tf.transpose", "any", "tf.transpose(x[m])", "tf.transpose(rows())"),
    ("tf.concat", "any", "tf.concat([v[m], v], 0)", "tf.concat([vec(), v], 0)"),
    ("tf.stack", "any", "tf.stack([v[m], v[m]], 0)", "tf.stack([vec(), vec()], 0)"),
    ("tf.tile", "any", "tf.tile(v[m], [2])", "tf.tile(vec(), [2])"),
    ("tf.pad", "any", "tf.pad(v[m], [[0, 2]])", "tf.pad(vec(), [[0, 2]])"),
    ("tf.reverse", "any", "tf.reverse(v[m], [0])", "tf.reverse(vec(), [0])"),
    ("tf.sort", "any", "tf.sort(v[m])", "tf.sort(vec())"),
    ("tf.argsort", "any", "tf.argsort(v[m])", "tf.argsort(vec())"),
    ("tf.math.top_k", "any", "tf.math.top_k(v[m], 2).values", "tf.math.top_k(vec(), 2).values"),
    ("tf.nn.softmax", "any", "tf.nn.softmax(v[m])", "tf.nn.softmax(vec())"),
    ("tf.reduce_sum", "any", "tf.reduce_sum(v[m])", "tf.reduce_sum(vec())"),
    ("tf.reduce_mean", "any", "tf.reduce_mean(v[m])", "tf.reduce_mean(vec())"),
    ("tf.reduce_max", "any", "tf.reduce_max(v[m])", "tf.reduce_max(vec())"),
    ("tf.math.argmax", "any", "tf.math.argmax(v[m])", "tf.math.argmax(vec())"),
    ("tf.gather", "any", "tf.gather(v, tf.where(m)[:, 0])", "tf.gather(v, idx()[:, 0])"),
    ("tf.one_hot", "any", "tf.one_hot(tf.cast(v[m], tf.int32), 8)", "tf.one_hot(tf.cast(vec(), tf.int32), 8)"),
    ("tf.linalg.matmul", "any", "tf.linalg.matmul(x[m], w)", "tf.linalg.matmul(rows(), tf.ones([3, 2]))"),
    ("tf.norm", "any", "tf.norm(x[m], axis=-1)", "tf.norm(rows(), axis=-1)"),
    ("tf.math.l2_normalize", "any", "tf.math.l2_normalize(x[m], axis=-1)", "tf.math.l2_normalize(rows(), axis=-1)"),
    ("tf.unstack", "any", "tf.unstack(x[m], axis=1)[0]", "tf.unstack(rows(), axis=1)[0]"),
    ("tf.math.unsorted_segment_sum", "any", "tf.math.unsorted_segment_sum(v[m], zeros, 2)",
     "tf.math.unsorted_segment_sum(vec(), tf.zeros_like(vec(), tf.int32), 2)"),
    ("tf.scatter_nd", "any", "tf.scatter_nd(tf.where(m), v[m], [8])", "tf.scatter_nd(idx(), vec(), [8])"),
    ("tf.where", "any", "tf.where(v[m] > 2, v[m], 0.0)", "tf.where(vec() > 2.0, vec(), 0.0)"),
    ("tf.nn.moments", "any", "tf.nn.moments(v[m], [0])[1]", "tf.nn.moments(vec(), [0])[1]"),
    ("tf.math.count_nonzero", "any", "tf.math.count_nonzero(v[m])", "tf.math.count_nonzero(vec())"),
)


def _measure(source: str) -> dict[str, Any]:
    import numpy as np
    import tensorflow as tf

    x = tf.reshape(tf.range(24, dtype=tf.float32), [8, 3]) / 7.0
    m = tf.constant([True, False, True, True, False, True, False, False])
    v = tf.range(8, dtype=tf.float32)
    scope = {"tf": tf, "v": v,
             "rows": lambda: tf.boolean_mask(x, m), "vec": lambda: tf.boolean_mask(v, m), "idx": lambda: tf.where(m)}

    def fn():
        return eval(source, scope)  # noqa: S307  (the probe sources are this file's constants)

    try:
        eager = np.asarray(fn())
    except Exception as error:  # noqa: BLE001
        return {"outcome": "eager_error", "eager": {"error": type(error).__name__}, "xla": None}
    try:
        xla = np.asarray(tf.function(fn, jit_compile=True)())
    except Exception as error:  # noqa: BLE001
        message = str(error).strip().splitlines()[0][:160]
        return {"outcome": "xla_error", "eager": {"shape": list(eager.shape)},
                "xla": {"error": type(error).__name__, "message": message}}
    record = {"eager": {"shape": list(eager.shape)}, "xla": {"shape": list(xla.shape)}}
    if eager.shape != xla.shape:
        return {"outcome": "wrong_shape", **record}
    same = np.allclose(eager.astype(np.float64), xla.astype(np.float64), rtol=RTOL, atol=ATOL, equal_nan=True)
    return {"outcome": "ok" if same else "differs", **record}


def measure() -> dict[str, Any]:
    os.environ.pop("XLA_FLAGS", None)  # flags such as fast min/max change XLA:CPU's answers
    import tensorflow as tf

    entries: dict[str, list[dict[str, Any]]] = {}
    for api, form, words, source in PROBES:
        entries.setdefault(api, []).append({"form": form, "input": words, **_measure(source)})
    return {
        "schema_version": SCHEMA_VERSION,
        "generated_by": COMMAND,
        "generated": _table_check.generated_date(),
        "tensorflow": tf.__version__,
        "backend": "XLA_CPU_JIT (tf.function(jit_compile=True) on CPU)",
        "input": "tf.boolean_mask(x, m) / tf.where(m) with x = f32[8, 3] or f32[8] and m keeping 4 of 8 rows",
        "tolerance": {"rtol": RTOL, "atol": ATOL},
        "outcomes": ["ok", "xla_error", "wrong_shape", "differs", "eager_error"],
        "entries": dict(sorted(entries.items())),
    }


def main(argv: list[str] | None = None) -> int:
    return _table_check.entries_table_main(argv, tool=Path(__file__).name, description=__doc__.splitlines()[0],
                                           default_out=DEFAULT_OUT, measure=measure)


if __name__ == "__main__":
    sys.exit(main())
