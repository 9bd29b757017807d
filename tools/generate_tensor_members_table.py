"""Generate xlacheck/data/tensor_members.json: what each public attribute and no-argument method of
a traced tensor gives while the function is traced, measured on the installed TensorFlow and JAX.

    python tools/generate_tensor_members_table.py            # ~10 s, needs tensorflow and jax
    python tools/generate_tensor_members_table.py --check    # exit 1 when the file is out of date

Each probe builds one traced value inside the framework's compiler entry and reads every public
name of ``dir(value)`` there: a symbolic ``tf.Tensor``, ``tf.RaggedTensor`` and ``tf.SparseTensor``
(the arguments of a ``tf.function(jit_compile=True)``), a ``tf.Variable`` read in one, and a
``jax.Array`` tracer (the argument of a ``jax.jit`` function). A bound method is called with no
arguments; one that needs arguments is recorded as ``"needs_args"``. Each member gets a kind:

* ``"python"``: a Python value fixed at trace time: ``int``, ``float``, ``bool``, ``str``,
  ``bytes``, a ``TensorShape``, a ``DType``/NumPy dtype, an ``enum`` member, or a non-empty
  tuple/list of those (``x.shape``, ``rt.ragged_rank``, ``v.trainable``, ``x.ndim``);
* ``"reference"``: ``tf.Tensor.ref()``/``tf.Variable.ref()``, the hashable ``Reference`` wrapper
  TensorFlow documents for keying a dict or a set by a tensor (its hash is the tensor's id, its
  ``deref()`` the tensor itself): a Python object, compared and hashed by Python;
* ``"tensor"``: a tensor, a variable or a tracer (``rt.values``, ``x.T``);
* ``"none"``: ``None`` on this probe (``rt.uniform_row_length``: a tensor when the rows are
  uniform), so not a fact about the name;
* ``"object"``: anything else (``x.op``, ``x.graph``, JAX's ``x.at`` helper), which may hold or
  give tensors;
* ``"host_read"``: reading or calling it raised because it needs the concrete value, which a traced
  value does not have: JAX's ``ConcretizationTypeError`` (``x.item()``, ``x.tolist()``,
  ``x.delete()`` on a tracer) or TensorFlow's "only ... in eager mode" errors (``rt.numpy()``,
  ``rt.to_list()``, ``v.numpy()`` in a graph). Calling a bound method is recorded as
  ``"method:host_read"``; JAX's error is a ``TypeError`` that names "the argument", so it is told
  apart before the ``"needs_args"`` test;
* ``"error"``: reading or calling it raised while tracing for any other reason (``v.create()``,
  ``x.eval()`` without a session).

:mod:`xlacheck.api_table` answers :func:`~xlacheck.api_table.tensor_python_members` from it: the
names whose every measured kind is ``python`` or ``reference`` (a name that is a tensor on one
kind of value and a Python value on another is left out), which the value model
(:mod:`xlacheck.analysis.values`) takes as Python values when read off a tensor.
"""

from __future__ import annotations

import argparse
import enum
import json
import os
import re
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _table_check  # noqa: E402  (tools/ is not a package)

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "tensor_members.json"
SCHEMA_VERSION = 1
_PLAIN = (int, float, bool, str, bytes)


def _kind(value: Any, owner: Any, tf: Any, jax: Any, np: Any) -> str:
    if isinstance(value, tf.Variable) or tf.is_tensor(value) or isinstance(value, jax.Array) \
            or isinstance(value, jax.core.Tracer):
        return "tensor"
    if isinstance(value, _PLAIN + (tf.TensorShape, tf.dtypes.DType, np.dtype, enum.Enum)) \
            or (isinstance(value, type) and issubclass(value, np.generic)):
        return "python"
    if value is None:
        return "none"  # unset on this probe (`rt.uniform_row_length`, a tensor when the rows are uniform)
    if isinstance(value, (tuple, list)) and value and all(_kind(v, owner, tf, jax, np) == "python" for v in value):
        return "python"
    if type(value).__name__ == "Reference" and callable(getattr(value, "deref", None)) and value.deref() is owner:
        return "reference"
    return "object"


# TensorFlow's messages for a read that needs an eager (concrete) value: "RaggedTensor.numpy() is
# only supported in eager mode.", "to_list can only be used in eager mode.", "numpy() is only
# available when eager execution is enabled."
_EAGER_ONLY = re.compile(r"only (?:be used|supported|available) (?:in|when) eager")


def _needs_concrete(exc: Exception, jax: Any) -> bool:
    """The read failed because a traced value has no concrete value (see ``"host_read"``)."""
    return isinstance(exc, jax.errors.ConcretizationTypeError) or bool(_EAGER_ONLY.search(str(exc)))


def _members(value: Any, tf: Any, jax: Any, np: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for name in sorted(dir(value)):
        if name.startswith("_"):
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                member = getattr(value, name)
        except Exception as exc:  # noqa: BLE001 - a property that fails while tracing is a fact
            out[name] = "host_read" if _needs_concrete(exc, jax) else "error"
            continue
        if callable(member) and not isinstance(member, type) and hasattr(member, "__self__"):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    result = member()
            except Exception as exc:  # noqa: BLE001 - a method that fails while tracing is a fact
                if _needs_concrete(exc, jax):
                    out[name] = "method:host_read"
                elif isinstance(exc, TypeError) and "argument" in str(exc):
                    out[name] = "needs_args"
                else:
                    out[name] = "error"
                continue
            out[name] = "method:" + _kind(result, value, tf, jax, np)
        else:
            out[name] = _kind(member, value, tf, jax, np)
    return out


def measure() -> dict[str, dict[str, str]]:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import jax
    import jax.numpy as jnp
    import numpy as np
    import tensorflow as tf

    probes: dict[str, dict[str, str]] = {}

    def traced_tf(key: str, spec: Any, make: Callable[[Any], Any]) -> None:
        @tf.function(jit_compile=True, input_signature=[spec], autograph=False)
        def f(x: Any) -> Any:
            probes[key] = _members(make(x), tf, jax, np)
            return tf.constant(0)

        f.get_concrete_function()

    traced_tf("tf.Tensor", tf.TensorSpec([2, 3], tf.float32), lambda x: x)
    traced_tf("tf.RaggedTensor", tf.RaggedTensorSpec([2, None], tf.float32, ragged_rank=1), lambda x: x)
    traced_tf("tf.SparseTensor", tf.SparseTensorSpec([2, 3], tf.float32), lambda x: x)
    variable = tf.Variable(tf.zeros([2, 3]))
    traced_tf("tf.Variable", tf.TensorSpec([2, 3], tf.float32), lambda x: variable)

    @jax.jit
    def g(x: Any) -> Any:
        probes["jax.Array"] = _members(x, tf, jax, np)
        return x

    g(jnp.zeros((2, 3)))
    return {k: probes[k] for k in sorted(probes)}


def build() -> dict[str, Any]:
    import jax
    import tensorflow as tf

    return {"schema": SCHEMA_VERSION, "command": "python tools/generate_tensor_members_table.py",
            "tensorflow_version": tf.__version__, "jax_version": jax.__version__, "probes": measure()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="re-measure every member and compare with the checked-in file; write nothing")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    tool = Path(__file__).name
    for module in ("tensorflow", "jax"):
        if (reason := _table_check.missing(module)) is not None:
            if args.check:
                return _table_check.skipped(tool, reason)
            print(f"{tool}: {reason}", file=sys.stderr)
            return 2
    table = build()
    if args.check:
        current = json.loads(args.out.read_text(encoding="utf-8"))["probes"]
        differences = [line for key in sorted(set(current) | set(table["probes"]))
                       if (line := _table_check.difference(key, current.get(key), table["probes"].get(key)))]
        versions = f"tensorflow {table['tensorflow_version']}, jax {table['jax_version']}"
        return _table_check.report(tool, sum(len(m) for m in table["probes"].values()), differences, versions)
    args.out.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
