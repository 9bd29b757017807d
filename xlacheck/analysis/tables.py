"""Hand-kept API name tables that the analysis and the rules share (one home per table).

Generated tables live elsewhere and are read, never copied:
- which TensorFlow ops have an XLA kernel: ``xlacheck/data/tf_xla_ops.json`` (``tools/generate_op_table.py``,
  read through :mod:`xlacheck.op_table`);
- AutoGraph's do-not-convert module list: ``xlacheck/data/autograph_do_not_convert.json``
  (``tools/generate_autograph_table.py``, read through :func:`autograph_skip_modules`).

Tables kept here (canonical names, see :mod:`xlacheck.analysis.imports`):
- :data:`TF_FUNCTION_NAMES`, :data:`JAX_JIT_NAMES`: the spellings of the tracers;
- :data:`BOOL_FUNCS`: ops that return boolean tensors (masks);
- :data:`GROWING_OPS`: ops that make a tensor longer than its input (concat/stack/pad/append).
Value-kind tables (shape functions, Python-valued APIs) live in :mod:`xlacheck.analysis.values`.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

TF_FUNCTION_NAMES = frozenset({"tf.function", "tf.compat.v1.function", "tf.compat.v2.function"})
JAX_JIT_NAMES = frozenset({"jax.jit", "jax.pmap"})

BOOL_FUNCS = frozenset({
    "tf.math.is_finite", "tf.math.is_nan", "tf.math.is_inf", "tf.logical_and", "tf.logical_or",
    "tf.logical_not", "tf.math.logical_and", "tf.math.logical_or", "tf.math.logical_not", "tf.math.logical_xor",
    "tf.equal", "tf.not_equal", "tf.greater", "tf.less", "tf.greater_equal", "tf.less_equal",
    "tf.math.equal", "tf.math.not_equal", "tf.math.greater", "tf.math.less", "tf.math.greater_equal",
    "tf.math.less_equal", "tf.reduce_any", "tf.reduce_all", "tf.math.reduce_any", "tf.math.reduce_all",
    "tf.sequence_mask", "tf.math.in_top_k", "tf.debugging.is_numeric_tensor",
})

GROWING_OPS = frozenset({"tf.concat", "tf.stack", "tf.pad", "tf.experimental.numpy.append", "tnp.concatenate",
                         "tnp.append", "tnp.hstack", "tnp.vstack", "tf.experimental.numpy.concatenate"})


@cache
def autograph_skip_modules() -> tuple[str, ...]:
    """Module prefixes AutoGraph never converts (its do-not-convert list, read from TensorFlow by
    ``tools/generate_autograph_table.py``). Empty if the table is missing."""
    try:
        text = resources.files("xlacheck").joinpath("data", "autograph_do_not_convert.json").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return ()
    return tuple(json.loads(text)["modules"])
