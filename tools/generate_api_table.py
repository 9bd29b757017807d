"""Generate xlacheck/data/tf_api.json: what each public TensorFlow/Keras callable returns, which of
its arguments XLA needs as compile-time constants, and whether its gradient compiles, asked of the
frameworks themselves.

One command (needs TensorFlow, tf-keras and Keras 3; xlacheck itself never imports them):

    python tools/generate_api_table.py                # writes xlacheck/data/tf_api.json (~10 min)
    python tools/generate_api_table.py --limit 50     # a quick partial run, for development
    python tools/generate_api_table.py --check [--sample N]  # re-probes a sample, compares (exit 1: stale)

What it records per public name (``tf.*``, ``tf.compat.v1.*``, ``tf.raw_ops.*``, ``tf.keras.*``
(tf-keras), ``keras.*`` (Keras 3: ``keras.ops``, ``keras.backend``, ...)), and where each fact
comes from (the ``by`` fields say which source decided it, per entry):

* ``returns``: ``tensor`` / ``string_tensor`` / ``variable`` / ``static_shape`` / ``python`` /
  ``object`` / ``layer`` / ``none`` / ``unknown``.
  - ``call``: the function was called inside a ``tf.function`` graph on small symbolic inputs
    (the synthetic arguments of ``tools/generate_op_table.py``) and the result was inspected:
    what compiled code really gets back.
  - ``op_def``: ``tf.raw_ops.X``: the op's registered output types.
  - ``class``: a class; its instances (``variable`` for tf.Variable subclasses, ``layer`` for
    Keras layers, ``static_shape`` for TensorShape, else ``object``).
  - ``doc``: the "Returns:" section of the docstring (functions that were not called: they
    touch files, global state or the network, or no synthetic arguments fit).
* ``dynamic_shape``: the result has an unknown dimension although every input shape was fully
  known (a data-dependent shape: ``tf.where(x)``, ``tf.unique``); from the symbolic call.
* ``const_args``: arguments that must be compile-time constants under XLA: each integer-valued
  argument of a traced call is made a graph input (a ``TensorSpec``, so it has no value) and the
  function is compiled with ``jit_compile=True`` (``experimental_get_compiler_ir(...)(stage="hlo")``);
  ``must be a compile-time constant`` in the error marks the argument. ``py_args``: arguments that
  cannot be a tensor at all (tracing raises once they are one). ``tf.raw_ops`` entries get
  ``const_inputs`` from the same errors ("Input 1 to node `Reshape` with op Reshape ...").
* ``xla``: the forward compiles (``true``) or fails (``false``) with the traced arguments,
  ``grad_xla``: the gradient of the sum of its float outputs w.r.t. its float inputs compiles
  (``true``), fails (``false``, ``grad_unsupported`` names the ops; ``grad_const``: on a value it
  needs at compile time; ``grad_list_size``: "XLA compilation requires a fixed tensor list size", the
  TensorList a loop in the function accumulates for its gradient, ``tf.linalg.expm``), or there is no gradient
  (``null`` with ``grad: "none"``). An op whose forward compiles can have a backward without a
  kernel.
  The gradient is taken of the sum of the squared outputs, so the upstream gradient is not a
  constant that TensorFlow folds before XLA sees the gradient op. ``grad_conditions``: argument
  values (the op table's ``VALUE_PROBES``: ``method="nearest"``) under which the gradient compiles
  differently: ``[{"argument", "value", "grad_xla", "grad_unsupported"}]``. Keras layers in
  ``LAYER_GRAD_PROBES`` (``UpSampling2D``, ``Resizing``) are built, called and differentiated the
  same way (``by: "class"`` entries gain ``grad_xla`` and ``grad_conditions``).
  ``grad_dtypes`` (``--probe-grad-complex --only REGEX``): the gradient with the probing call's
  float32 inputs made complex64, where it differs from the float one: ``{"complex64": {"grad_xla",
  "grad_unsupported" | "grad_error"}}`` (``tf.linalg.eigh``: "Binary op add with different element
  types: f32 and c64"). Measured only where the complex call and its gradient run eagerly and the
  complex forward compiles; ``stats.grad_dtypes`` holds the run's counts, pattern and TF version.
* ``alias_of``: the canonical name when this name is the same Python object as another
  (``tf.compat.v1.reshape`` is ``tf.reshape``); its facts are the canonical entry's.

* ``params``: the positional parameter names in order (``inspect``/``tf_inspect``), for entries
  with ``const_args``/``py_args``/``dynamic_shape``, so that a linter can map ``tf.reshape(x, s)``'s
  second positional argument to ``shape``; ``called_with``: the arguments of the probing call (a
  fact measured on ``tf.sequence_mask(lengths)`` holds for that call only);
  ``data_dependent_shape``: for ``dynamic_shape`` entries, whether the result still has an unknown
  dimension once the constant arguments are Python values (``tf.unique``: true, ``tf.tile``: false).
* ``dtype: "bool"``: every tensor the probing call returns is boolean (``tf.equal``,
  ``tf.math.is_nan``); ``structure: "list"``: it returns a Python list of tensors (``tf.split``,
  ``tf.unstack``). For the entries decided by calling them; for those decided by their docstring,
  ``structure: "list"`` when its Returns section starts with "A list" (``tf.compat.v1.tpu.replicate``,
  which cannot be called without a TPU).
* ``elementwise``: ``"unary"``/``"binary"`` for the APIs TensorFlow registers as elementwise for
  dispatch (``tf.abs``, ``tf.math.add`` ...): a ragged input gives a ragged result.
* ``const_args`` also holds optional integer arguments the probing call leaves out (an int
  default, or a None default for names such as ``axis``, ``maxlen``, ``depth``, ``seed``): each is
  given as a value-less graph input and the call compiled (``probe_optional_const``); one whose
  tracing then raises goes to ``py_args`` (``tf.nn.dropout``'s and ``tf.random.uniform``'s ``seed``).
* ``const_unless``: ``{argument: [other, ...]}``: the argument had to be a compile-time constant in
  the probing call, but compiles as a tensor once ``other`` is given a Python value
  (``tf.sequence_mask``'s ``lengths`` only sizes the result when ``maxlen`` is omitted).

* ``xla_values``: for the seeded (``stateless``) random APIs, whose values are a function of the
  seed: whether XLA returns the same values as TensorFlow does without it, per variant of the
  probing call (``{"default": "differs", "alg=philox": "differs", "alg=philox+constant_seed":
  "matches", ...}``; ``constant_seed``: the seed a Python list instead of a tensor). Measured by
  running the probing call eagerly and under ``jit_compile=True`` on the same inputs.
  For the stateful random APIs of ``tf.random``/``tf.nn``/``tf.image`` that take a ``seed``
  (``tf.random.uniform``, ``tf.nn.dropout``): ``{"op_seed": ...}``, the probing call given
  ``seed=7`` after ``tf.random.set_seed(1234)``, each run (eager, compiled) after setting it again.

Cheap modes refresh those facts in the existing file without the hours of probes:

    python tools/generate_api_table.py --refresh-params        # params/called_with (no compiling)
    python tools/generate_api_table.py --probe-conditional     # const_unless (compiles ~1 min)
    python tools/generate_api_table.py --probe-optional-const  # optional int arguments into const_args
    python tools/generate_api_table.py --probe-xla-values      # xla_values (runs ~30 s)
    python tools/generate_api_table.py --probe-grad            # grad_xla, grad_conditions
    python tools/generate_api_table.py --probe-grad-complex --only REGEX   # grad_dtypes of a few entries
    python tools/generate_api_table.py --refresh-doc-structure # structure "list" of doc-decided entries
    python tools/generate_api_table.py --probe-numpy           # numpy_on_symbolic (~1 min)

``numpy_on_symbolic`` (top level): the public NumPy/SciPy functions (``tools/_numpy_probe.py``)
called on symbolic tensors inside a ``tf.function``: ``fails`` raise "Cannot convert a symbolic
tf.Tensor to a numpy array" (NotImplementedError) where the same call works on NumPy values;
``traceable`` work (``np.shape``, ``np.ndim``: the tensor's own attributes); ``called_with`` and
``stores`` (item assignments of symbolic tensors into NumPy arrays) as in the JAX table.

The output is deterministic apart from the ``generated`` date (set ``SOURCE_DATE_EPOCH``).
"""

from __future__ import annotations

import argparse
import inspect
import json
import logging
import os
import re
import signal
import sys
import time
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _numpy_probe  # noqa: E402
import _table_check  # noqa: E402
import generate_op_table as got  # noqa: E402  (the synthetic-argument machinery is shared)

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "tf_api.json"
COMMAND = "python tools/generate_api_table.py"
SCHEMA_VERSION = 1
logger = logging.getLogger("generate_api_table")

# Namespaces that are walked but never called: they read or write files, start servers, change
# global configuration, download data or weights, or build whole programs.
NO_CALL_SEGMENTS = frozenset({
    "config", "data", "distribute", "saved_model", "gfile", "summary", "tpu", "profiler", "train",
    "lite", "dtensor", "dlpack", "feature_column", "estimator", "app", "flags", "logging", "sysconfig",
    "test", "version", "errors", "autograph", "utils", "datasets", "applications", "callbacks", "models",
    "saving", "preprocessing", "export", "mixed_precision", "distribution", "optimizers", "tree",
    "visualization", "wrappers", "quantizers", "experimental", "layers", "metrics", "losses", "rnn_cell",
    "io", "user_ops", "queue", "tools", "legacy", "checkpoint", "initializers", "regularizers",
    "constraints", "file_io", "image_dataset", "python_io", "resource_loader", "nest", "types",
})
NO_CALL_FUNCS = re.compile(
    r"^(Session|InteractiveSession|disable_|enable_|reset_default_graph|set_|py_func|numpy_function|"
    r"py_function|while_loop|cond|switch_case|case|map_fn|scan|foldl|foldr|vectorized_map|function|"
    r"Graph|Module|recompute_grad|custom_gradient|print|Print|load|save|write|read|make_|get_|"
    r"add_to_collection|clear_session|device|name_scope|variable_scope|init_scope|control_dependencies|"
    r"executing_eagerly|run_functions_eagerly|placeholder|import_graph_def|register)"
)


# Where the symbolic call is tried (tensor functions); elsewhere the docstring decides.
CALL_ROOTS = ("tf", "tf.compat.v1", "keras.ops", "keras.backend", "keras.activations", "keras.random",
              "tf.keras.backend", "tf.keras.activations", "tf.compat.v1.keras.backend")
CALL_NAMESPACES = ("math", "nn", "linalg", "image", "signal", "random", "strings", "sparse", "ragged", "sets",
                   "bitwise", "debugging", "audio", "quantization", "dtypes")


def no_call(name: str) -> bool:
    """Names that are not called: outside the tensor namespaces, or they read or write files,
    start servers, change global configuration, download data or weights, or build programs."""
    segments = name.split(".")
    parent = ".".join(segments[:-1])
    in_scope = parent in CALL_ROOTS or any(
        parent == f"{root}.{ns}" for root in ("tf", "tf.compat.v1") for ns in CALL_NAMESPACES)
    return not in_scope or bool(NO_CALL_FUNCS.search(segments[-1]) or NO_CALL_SEGMENTS.intersection(segments[1:-1]))


# Keras 3 submodules that hold tensor functions or objects model code uses.
KERAS_MODULES = ("keras", "keras.ops", "keras.backend", "keras.layers", "keras.losses", "keras.activations",
                 "keras.random", "keras.metrics", "keras.initializers", "keras.regularizers")
MAX_DEPTH = 4
CALL_TIMEOUT_S = 15

CONST_ERROR = re.compile(r"must be a compile-time constant")
# tf2xla cannot size the TensorList a while loop accumulates for its gradient (tf.linalg.expm's
# squaring loop): "XLA compilation requires a fixed tensor list size. Set the max number of elements."
LIST_SIZE_ERROR = re.compile(r"requires a fixed tensor list size")
CONST_NODE = re.compile(r"Input (\d+) to node `[^`]*` with op (\w+) must be a compile-time constant")
UNSUPPORTED_RE = got.UNSUPPORTED_RE


# --------------------------------------------------------------------------------------------
# Walking the public API


def walk(root: Any, prefix: str, depth: int, found: dict[str, Any], seen_modules: set[int],
         skip: tuple[str, ...] = ()) -> None:
    """Public callables under ``root`` (functions, classes, builtins), recursively through modules."""
    if id(root) in seen_modules and depth > 0:
        return
    seen_modules.add(id(root))
    try:
        names = sorted(dir(root))
    except Exception:  # noqa: BLE001 - lazy loaders
        return
    for attr in names:
        if attr.startswith("_"):
            continue
        name = f"{prefix}.{attr}"
        if name in skip:
            continue
        try:
            value = getattr(root, attr)
        except Exception:  # noqa: BLE001 - optional parts that fail to import
            continue
        if isinstance(value, types.ModuleType):
            module_name = getattr(value, "__name__", "")
            if depth < MAX_DEPTH and module_name.startswith(("tensorflow", "tf_keras", "keras")):
                walk(value, name, depth + 1, found, seen_modules, skip)
        elif callable(value):
            found[name] = value


def public_callables(tf: Any, keras: Any | None, limit: int | None) -> dict[str, Any]:
    found: dict[str, Any] = {}
    walk(tf, "tf", 0, found, set(), skip=("tf.compat", "tf.raw_ops"))
    walk(tf.compat.v1, "tf.compat.v1", 1, found, set(), skip=("tf.compat.v1.compat",))
    if keras is not None:
        for module_name in KERAS_MODULES:
            module = sys.modules.get(module_name) or __import__(module_name, fromlist=["_"])
            walk(module, module_name, MAX_DEPTH - 1, found, set())
    names = sorted(found)
    if limit:
        # a spread-out sample, so that --limit still touches every namespace
        step = max(1, len(names) // limit)
        names = names[::step][:limit]
    return {n: found[n] for n in names}


def identity_key(obj: Any) -> int:
    try:
        return id(got.unwrap(obj))
    except Exception:  # noqa: BLE001
        return id(obj)


# --------------------------------------------------------------------------------------------
# What a value is


def value_kind(tf: Any, value: Any) -> str:
    """The kind of a value as compiled code sees it."""
    import numpy as np

    if value is None:
        return "none"
    if isinstance(value, tf.Variable) or type(value).__name__ in {"Variable", "KerasVariable", "AutoCastVariable"}:
        return "variable"
    if isinstance(value, tf.TensorShape):
        return "static_shape"
    if tf.is_tensor(value) or isinstance(value, (tf.SparseTensor, tf.RaggedTensor)):
        dtype = getattr(value, "dtype", None)
        return "string_tensor" if dtype == tf.string else "tensor"
    if isinstance(value, (bool, int, float, complex, str, bytes, np.generic, np.ndarray, tf.DType)):
        return "python"
    if isinstance(value, (tuple, list)):
        if value and all(isinstance(v, (int, type(None))) and not isinstance(v, bool) for v in value) \
                and any(isinstance(v, int) for v in value):
            return "static_shape"  # ints, None for unknown dims; a list of only None is not a shape
        kinds = {value_kind(tf, v) for v in value}
        if len(kinds) == 1:
            return kinds.pop()
        if kinds <= {"tensor", "string_tensor", "none"}:
            return "tensor"
        return "object" if not kinds else sorted(kinds)[0]
    if isinstance(value, dict):
        kinds = {value_kind(tf, v) for v in value.values()}
        return kinds.pop() if len(kinds) == 1 else "object"
    return "object"


def class_kind(tf: Any, cls: type) -> str:
    try:
        if issubclass(cls, tf.Variable):
            return "variable"
        if issubclass(cls, tf.TensorShape):
            return "static_shape"
        if issubclass(cls, tf.keras.layers.Layer):
            return "layer"
    except TypeError:
        return "object"
    if cls.__module__.startswith("keras") and any(base.__name__ == "Layer" for base in cls.__mro__):
        return "layer"
    if any(base.__name__ in {"Variable", "KerasVariable"} for base in cls.__mro__):
        return "variable"
    return "object"


DOC_RULES = (
    (re.compile(r"\bnumpy\b|\bndarray\b|\bPython (bool|int|float|scalar|list|value|object)", re.I), "python"),
    (re.compile(r"\bstring\b.{0,20}`?Tensor`?|`Tensor` of type `?string", re.I), "string_tensor"),
    (re.compile(r"\bTensorShape\b|\bstatic shape\b|tuple of integers|tuple of ints", re.I), "static_shape"),
    (re.compile(r"\bVariable\b", re.I), "variable"),
    (re.compile(r"`?(Tensor|SparseTensor|RaggedTensor)`?|\btensor\b", re.I), "tensor"),
    (re.compile(r"\b(Python|bool|boolean|int|integer|float|string|str|list|dict|NumPy|numpy|ndarray)\b", re.I),
     "python"),
)
RETURNS_SECTION = re.compile(r"\n\s*Returns?:\s*\n(.*?)(\n\s*\n\s*[A-Z][A-Za-z ]+:\s*\n|\Z)", re.S)


def returns_text(obj: Any) -> str | None:
    """The docstring's Returns section on one line, or None when it has none."""
    match = RETURNS_SECTION.search("\n" + (inspect.getdoc(obj) or ""))
    return " ".join(match.group(1).split()) if match else None


def doc_kind(obj: Any) -> str | None:
    returns = returns_text(obj)
    if returns is None:
        return None
    text = returns[:300]
    for pattern, kind in DOC_RULES:
        if pattern.search(text):
            return kind
    return None


# "Returns: A list of outputs, indexed by `[replica_num]` ..." (tf.compat.v1.tpu.replicate): a Python
# list, for the entries decided by their docstring (nothing was called to see it).
DOC_LIST = re.compile(r"^(?:A|The)?\s*(?:Python\s+)?list\b", re.I)


def doc_structure(obj: Any) -> str | None:
    """``"list"`` when the docstring's Returns section starts with "A list ..." (else None)."""
    returns = returns_text(obj)
    return "list" if returns is not None and DOC_LIST.match(returns) else None


def refresh_doc_structure(tf: Any, keras: Any | None, table: dict[str, Any]) -> dict[str, int]:
    """Fill ``structure: "list"`` into the entries decided by their docstring (``by: "doc"``) whose
    Returns section says they return a list (no calling, no compiling)."""
    callables = public_callables(tf, keras, None)
    stats = {"doc": 0, "list": 0}
    for name, entry in table["entries"].items():
        if "alias_of" in entry or entry.get("by") != "doc":
            continue
        obj = callables.get(name)
        if obj is None:
            continue
        stats["doc"] += 1
        entry.pop("structure", None)
        if doc_structure(obj) == "list":
            entry["structure"] = "list"
            stats["list"] += 1
    return stats


# --------------------------------------------------------------------------------------------
# Calling, compiling


def _alarm(seconds: int) -> None:
    signal.alarm(seconds)


def _trace_symbolically(tf: Any, call: Callable[..., Any], inputs: list[Any]) -> None:
    """Trace ``call`` once on symbolic ``inputs`` (their specs; no AutoGraph, under the alarm)."""
    _alarm(CALL_TIMEOUT_S)
    try:
        tf.function(call, autograph=False).get_concrete_function(*[t.spec(tf) for t in inputs])
    finally:
        signal.alarm(0)


def symbolic_call(tf: Any, fn: Callable[..., Any], args: dict[str, Any]) -> tuple[str, bool]:
    """Call ``fn(**args)`` inside a tf.function graph on symbolic inputs; (kind, dynamic_shape)."""
    captured: dict[str, Any] = {}

    def spy(*a: Any, **k: Any) -> Any:
        out = fn(*a, **k)
        captured["kind"] = value_kind(tf, out)
        static_inputs = all(t.kind == "dense" and None not in t.shape for t in inputs)
        dynamic = False
        if static_inputs:
            for t in tf.nest.flatten(out, expand_composites=False):
                if tf.is_tensor(t) and t.shape.rank is not None and None in t.shape.as_list():
                    dynamic = True
        captured["dynamic"] = dynamic
        return out

    inputs, call = got.bind(tf, spy, args)
    _trace_symbolically(tf, call, inputs)
    return captured["kind"], captured["dynamic"]


def compile_outcome(tf: Any, fn: Callable[..., Any], args: dict[str, Any], grad: bool = False) -> tuple[str, str]:
    """Compile ``fn(**args)`` (or its gradient) with XLA:CPU from TensorSpecs.

    Returns (outcome, detail): ``compiled``, ``const`` (detail: the error line), ``no_kernel``
    (detail: comma-separated ops), ``list_size`` (a loop's TensorList XLA cannot size), ``no_grad``,
    ``trace`` (tracing raised before XLA) or ``other``.
    """
    inputs, call = got.bind(tf, fn, args)
    float_slots = [i for i, t in enumerate(inputs) if t.dtype.startswith("float") and t.kind == "dense"]
    if grad and not float_slots:
        return "no_grad", ""

    def body(*tensors: Any) -> Any:
        if not grad:
            return call(*tensors)
        watched = [tensors[i] for i in float_slots]
        with tf.GradientTape() as tape:
            tape.watch(watched)
            out = call(*tensors)
            floats = [t for t in tf.nest.flatten(out) if tf.is_tensor(t) and t.dtype.is_floating]
            if not floats:
                raise LookupError("no float output")
            # sum of squares, not a plain sum: the plain sum's upstream gradient is a constant
            # (ones), and TensorFlow folds a linear op's gradient of a constant before XLA sees
            # it (ResizeNearestNeighborGrad of ones compiled; of a real upstream it has no kernel)
            total = tf.add_n([tf.reduce_sum(tf.square(t)) for t in floats])
        grads = tape.gradient(total, watched)
        kept = [g for g in grads if g is not None]
        if not kept:
            raise LookupError("no gradient")
        return kept

    if not all(t.kind == "dense" for t in inputs):
        return "other", "composite inputs"
    jitted = tf.function(body, jit_compile=True, autograph=False)
    _alarm(CALL_TIMEOUT_S)
    try:
        jitted.experimental_get_compiler_ir(*[t.spec(tf) for t in inputs])(stage="hlo")
        return "compiled", ""
    except LookupError:
        return "no_grad", ""
    except (Exception, got.TraceTimeout) as error:  # noqa: BLE001 - the compiler's verdict
        message = str(error)
        if CONST_ERROR.search(message):
            match = CONST_NODE.search(message)
            return "const", f"{match.group(2)}:{match.group(1)}" if match else ""
        if LIST_SIZE_ERROR.search(message):
            return "list_size", ""
        ops = sorted(set(UNSUPPORTED_RE.findall(message)) - got.BOUNDARY_OPS)
        if ops:
            return "no_kernel", ",".join(ops)
        if "XLA" in message or "xla" in message or "compil" in message:
            return "other", message.splitlines()[0][:120]
        return "trace", f"{type(error).__name__}"
    finally:
        signal.alarm(0)


def integer_params(args: dict[str, Any]) -> list[str]:
    """Arguments of a traced call that carry integers: candidates for compile-time constants."""
    out = []
    for key, value in args.items():
        if key.startswith("*"):
            continue
        if isinstance(value, bool):
            continue
        if isinstance(value, int) or (isinstance(value, list) and value and all(
                isinstance(v, int) and not isinstance(v, bool) for v in value)):
            out.append(key)
        elif isinstance(value, got.TensorArg) and value.dtype.startswith("int") and value.kind == "dense":
            out.append(key)
    return out


def as_graph_input(value: Any) -> got.TensorArg:
    if isinstance(value, got.TensorArg):
        return value
    if isinstance(value, int):
        return got.TensorArg("int32", ())
    return got.TensorArg("int32", (len(value),))


def python_value_for(value: got.TensorArg) -> Any:
    one: Any = 2.0 if value.dtype.startswith(("float", "bfloat")) else 2
    if not value.shape:
        return one
    return [one // 2 if isinstance(one, int) else 1.0] * (value.shape[0] or 1)


def const_tensor_params(tf: Any, fn: Callable[..., Any], args: dict[str, Any]) -> list[str]:
    """Scalar or vector numeric tensor arguments of a call that fails with "must be a compile-time
    constant" and compiles once that argument (alone) is a Python value."""
    found = []
    for param, value in args.items():
        if not (isinstance(value, got.TensorArg) and value.kind == "dense" and len(value.shape) <= 1
                and value.dtype.startswith(("int", "float", "bfloat"))):
            continue
        trial = dict(args)
        trial[param] = python_value_for(value)
        if compile_outcome(tf, fn, trial)[0] == "compiled":
            found.append(param)
    return found


def probe_const_args(tf: Any, fn: Callable[..., Any], args: dict[str, Any],
                     raw_const: dict[str, set[str]]) -> tuple[list[str], list[str]]:
    """(const_args, py_args) of a call whose baseline compiles."""
    const, python_only = [], []
    for param in integer_params(args):
        trial = dict(args)
        trial[param] = as_graph_input(args[param])
        if isinstance(args[param], got.TensorArg):
            # already a graph input in the baseline, which compiled: not a constant
            continue
        outcome, detail = compile_outcome(tf, fn, trial)
        if outcome == "const":
            const.append(param)
            if detail:
                op, index = detail.split(":")
                raw_const.setdefault(op, set()).add(index)
        elif outcome == "trace":
            python_only.append(param)
    return const, python_only


# --------------------------------------------------------------------------------------------
# Building the table


def raw_op_entries(tf: Any) -> dict[str, dict[str, Any]]:
    from tensorflow.python.framework import op_def_registry

    out: dict[str, dict[str, Any]] = {}
    for attr in sorted(dir(tf.raw_ops)):
        if attr.startswith("_"):
            continue
        op_def = op_def_registry.get(attr)
        if op_def is None:
            continue
        kinds = set()
        for arg in op_def.output_arg:
            if arg.type == 7:  # DT_STRING
                kinds.add("string_tensor")
            elif arg.type == 20:  # DT_RESOURCE
                kinds.add("variable")
            else:
                kinds.add("tensor")
        returns = "none" if not op_def.output_arg else ("tensor" if len(kinds) > 1 else kinds.pop())
        out[f"tf.raw_ops.{attr}"] = {"returns": returns, "by": "op_def"}
    return out


def build_table(tf: Any, keras: Any | None, limit: int | None, skip_compile: bool) -> dict[str, Any]:
    from tensorflow.python.framework import op_def_registry

    callables = public_callables(tf, keras, limit)
    entries: dict[str, dict[str, Any]] = {}
    canonical_by_id: dict[int, str] = {}
    raw_const: dict[str, set[str]] = {}
    stats = {"walked": len(callables), "called": 0, "doc": 0, "class": 0, "unknown": 0, "compiled": 0,
             "const_probed": 0, "grad_probed": 0}
    started = time.time()
    # canonical = the shortest name (tf.reshape before tf.compat.v1.reshape)
    for name in sorted(callables, key=lambda n: (n.count("."), len(n), n)):
        obj = callables[name]
        key = identity_key(obj)
        if key in canonical_by_id:
            entries[name] = {"alias_of": canonical_by_id[key]}
            continue
        canonical_by_id[key] = name
        entry: dict[str, Any] = {}
        if isinstance(obj, type):
            entry.update(returns=class_kind(tf, obj), by="class")
            stats["class"] += 1
            entries[name] = entry
            continue
        traced = None if no_call(name) else _try_trace(tf, name, obj)
        if traced is not None:
            try:
                kind, dynamic = symbolic_call(tf, obj, traced.args)
                entry.update(returns=kind, by="call")
                if dynamic:
                    entry["dynamic_shape"] = True
                stats["called"] += 1
            except (Exception, got.TraceTimeout):  # noqa: BLE001
                traced = None
        if traced is None:
            kind = doc_kind(obj)
            if kind:
                entry.update(returns=kind, by="doc")
                stats["doc"] += 1
            else:
                entry.update(returns="unknown", by="none")
                stats["unknown"] += 1
        elif not skip_compile and entry.get("returns") in {"tensor", "variable"}:
            outcome, detail = compile_outcome(tf, obj, traced.args)
            stats["compiled"] += 1
            if outcome == "compiled":
                entry["xla"] = True
                const, python_only = probe_const_args(tf, obj, traced.args, raw_const)
                stats["const_probed"] += 1
                if const:
                    entry["const_args"] = const
                if python_only:
                    entry["py_args"] = python_only
                g_outcome, g_detail = compile_outcome(tf, obj, traced.args, grad=True)
                stats["grad_probed"] += 1
                if g_outcome == "compiled":
                    entry["grad_xla"] = True
                elif g_outcome == "no_kernel":
                    entry["grad_xla"] = False
                    entry["grad_unsupported"] = g_detail.split(",")
                elif g_outcome == "no_grad":
                    entry["grad"] = "none"
                elif g_outcome == "const":
                    entry["grad_xla"] = False
                    entry["grad_const"] = True
                elif g_outcome == "list_size":
                    entry["grad_xla"] = False
                    entry["grad_list_size"] = True
            elif outcome == "no_kernel":
                entry["xla"] = False
                entry["unsupported"] = detail.split(",")
            elif outcome == "const":
                # An integer argument the synthetic call made a tensor must be a constant: find
                # which by giving each one a Python value instead.
                const = const_tensor_params(tf, obj, traced.args)
                if const:
                    entry["xla"] = True
                    entry["const_args"] = const
                else:
                    entry["xla"] = False
                    entry["const_in_default_call"] = True
        entries[name] = entry
        if len(entries) % 200 == 0:
            logger.info("%d/%d entries, %.0fs", len(entries), len(callables), time.time() - started)

    raw = raw_op_entries(tf)
    for op, indices in sorted(raw_const.items()):
        op_def = op_def_registry.get(op)
        key = f"tf.raw_ops.{op}"
        if op_def is None or key not in raw:
            continue
        names = [op_def.input_arg[int(i)].name for i in sorted(indices, key=int) if int(i) < len(op_def.input_arg)]
        raw[key]["const_inputs"] = names
    entries.update(raw)

    import tf_keras  # noqa: F401 - version only

    counts: dict[str, int] = {}
    for entry in entries.values():
        if "alias_of" in entry:
            counts["alias"] = counts.get("alias", 0) + 1
        else:
            counts[entry["returns"]] = counts.get(entry["returns"], 0) + 1
    return {
        "schema": SCHEMA_VERSION,
        "command": COMMAND,
        "generated": _table_check.generated_date(),
        "tensorflow_version": tf.__version__,
        "tf_keras_version": sys.modules["tf_keras"].__version__,
        "keras_version": getattr(keras, "__version__", None),
        "backend": "XLA_CPU_JIT",
        "stats": {**stats, "entries": len(entries), "returns": dict(sorted(counts.items()))},
        "entries": dict(sorted(entries.items())),
    }


def positional_params(fn: Callable[..., Any]) -> list[str] | None:
    """The names a call can fill by position, in order (``self`` of a bound method excluded)."""
    from tensorflow.python.util import tf_inspect

    try:
        spec = tf_inspect.getfullargspec(fn)
    except (TypeError, ValueError):
        return None
    params = list(spec.args)
    if params and params[0] in ("self", "cls") and inspect.ismethod(fn):
        params = params[1:]
    return params


def needs_params(entry: dict[str, Any]) -> bool:
    return bool(entry.get("const_args") or entry.get("py_args") or entry.get("dynamic_shape")
                or entry.get("const_in_default_call"))


def refresh_params(tf: Any, keras: Any | None, table: dict[str, Any]) -> dict[str, int]:
    """Fill ``params`` (and ``called_with`` for called entries) into ``table`` in place: a walk of
    the public callables and one synthetic trace per entry that needs it, no compiling."""
    callables = public_callables(tf, keras, None)
    stats = {"params": 0, "called_with": 0, "missing": 0}
    for name, entry in table["entries"].items():
        if "alias_of" in entry or not needs_params(entry):
            continue
        obj = callables.get(name)
        if obj is None or isinstance(obj, type):
            stats["missing"] += 1
            continue
        params = positional_params(obj)
        if params is None:
            stats["missing"] += 1
            continue
        entry["params"] = params
        stats["params"] += 1
        if entry.get("by") == "call" and not no_call(name):
            traced = _try_trace(tf, name, obj)
            if traced is not None:
                entry["called_with"] = [p for p in traced.args if not p.startswith("*")]
                stats["called_with"] += 1
                if entry.get("dynamic_shape"):
                    data_dependent = shape_depends_on_data(tf, obj, traced.args, entry)
                    if data_dependent is not None:
                        entry["data_dependent_shape"] = data_dependent
                        stats["data_dependent"] = stats.get("data_dependent", 0) + int(data_dependent)
    return stats


def refresh_elementwise(tf: Any, keras: Any | None, table: dict[str, Any]) -> dict[str, int]:
    """Fill ``elementwise`` (``"unary"``/``"binary"``) into ``table`` in place: the APIs TensorFlow
    itself registers as elementwise for dispatch (``dispatch.unary_elementwise_apis()`` /
    ``binary_elementwise_apis()``: the ones RaggedTensor and other extension types override
    value by value, so a ragged input gives a ragged result)."""
    from tensorflow.python.util import dispatch

    kinds = {identity_key(f): "unary" for f in dispatch.unary_elementwise_apis()}
    kinds.update({identity_key(f): "binary" for f in dispatch.binary_elementwise_apis()})
    callables = public_callables(tf, keras, None)
    stats = {"unary": 0, "binary": 0}
    for name, entry in table["entries"].items():
        entry.pop("elementwise", None)
        obj = callables.get(name)
        if "alias_of" in entry or obj is None or isinstance(obj, type):
            continue
        kind = kinds.get(identity_key(obj))
        if kind is not None:
            entry["elementwise"] = kind
            stats[kind] += 1
    return stats


def output_facts(tf: Any, fn: Callable[..., Any], args: dict[str, Any]) -> dict[str, str]:
    """``{"dtype": "bool"}`` when every tensor the probing call returns is boolean (a mask),
    ``{"structure": "list"}`` when it returns a Python list of tensors (``tf.split``; an empty list
    too), and the
    ``returns`` kind of the result."""
    captured: dict[str, str] = {}

    def spy(*a: Any, **k: Any) -> Any:
        out = fn(*a, **k)
        captured["returns"] = value_kind(tf, out)
        tensors = [t for t in tf.nest.flatten(out, expand_composites=False) if tf.is_tensor(t)]
        if tensors and all(t.dtype == tf.bool for t in tensors):
            captured["dtype"] = "bool"
        if isinstance(out, list) and all(tf.is_tensor(t) for t in out):
            # a Python list, also an empty one (tf.compat.v1.trainable_variables() in the probe's fresh
            # graph, tf.meshgrid() of no input): its truth and len() are Python's, never a tensor's
            captured["structure"] = "list"
        return out

    inputs, call = got.bind(tf, spy, args)
    _trace_symbolically(tf, call, inputs)
    return captured


def refresh_outputs(tf: Any, keras: Any | None, table: dict[str, Any]) -> dict[str, int]:
    """Re-decide ``returns`` of every entry decided by calling it, and fill ``dtype``/``structure``
    of the tensor-returning ones (one synthetic trace each, no compiling)."""
    callables = public_callables(tf, keras, None)
    stats = {"traced": 0, "bool": 0, "list": 0}
    for name, entry in table["entries"].items():
        if "alias_of" in entry or entry.get("by") != "call" or no_call(name):
            continue
        obj = callables.get(name)
        if obj is None or isinstance(obj, type):
            continue
        try:
            traced = got.trace_default(tf, name, obj)
            facts = output_facts(tf, obj, traced.args) if traced is not None else None
        except (Exception, got.TraceTimeout):  # noqa: BLE001
            facts = None
        entry.pop("dtype", None)
        entry.pop("structure", None)
        if facts is None:
            continue
        kind = facts.pop("returns")
        if kind != entry["returns"]:
            logger.warning("%s: returns %s -> %s", name, entry["returns"], kind)
            entry["returns"] = kind
            stats["returns_changed"] = stats.get("returns_changed", 0) + 1
        if kind != "tensor":
            continue
        stats["traced"] += 1
        entry.update(facts)
        stats["bool"] += facts.get("dtype") == "bool"
        stats["list"] += facts.get("structure") == "list"
    return stats


def shape_depends_on_data(tf: Any, fn: Callable[..., Any], args: dict[str, Any], entry: dict[str, Any]) -> bool | None:
    """Whether the result of the probing call still has an unknown dimension once every argument
    XLA needs as a constant is a Python value (``tf.unique``: yes; ``tf.tile`` with Python
    multiples: no). None when that call cannot be traced."""
    static = dict(args)
    for param, value in args.items():
        small_int = (isinstance(value, got.TensorArg) and value.kind == "dense" and len(value.shape) <= 1
                     and value.dtype.startswith("int"))
        if param in entry.get("const_args", ()) or (entry.get("const_in_default_call") and small_int):
            if isinstance(value, got.TensorArg):
                static[param] = python_value_for(value)
    try:
        return symbolic_call(tf, fn, static)[1]
    except (Exception, got.TraceTimeout):  # noqa: BLE001
        return None


CONDITIONAL_VALUE = 3  # the Python value given to an omitted optional argument (a size, a count)


def probe_conditional(tf: Any, keras: Any | None, table: dict[str, Any]) -> dict[str, int]:
    """``const_unless``: for each constant argument of a probing call, the omitted optional
    arguments (default ``None``) that, given a Python int, let the same call compile with that
    argument as a value-less tensor (``tf.sequence_mask(lengths, maxlen=3)``)."""
    callables = public_callables(tf, keras, None)
    stats = {"probed": 0, "conditional": 0}
    for name, entry in table["entries"].items():
        if "alias_of" in entry or not entry.get("const_args") or entry.get("by") != "call":
            continue
        obj = callables.get(name)
        if obj is None or isinstance(obj, type) or no_call(name):
            continue
        traced = _try_trace(tf, name, obj)
        if traced is None:
            continue
        found = measure_const_unless(tf, obj, traced.args, entry["const_args"], stats)
        if found:
            entry["const_unless"] = found
            stats["conditional"] += 1
        else:
            entry.pop("const_unless", None)
    return stats


def measure_const_unless(tf: Any, fn: Callable[..., Any], args: dict[str, Any], const_args: Sequence[str],
                         stats: dict[str, int] | None = None) -> dict[str, list[str]]:
    """``const_unless`` of one probing call ``args``: for each of ``const_args`` it passes, the
    omitted optional arguments (default ``None``) that, given a Python int, let the call compile
    with that argument as a value-less tensor. ``stats["probed"]`` counts the compiles."""
    optional = [p for p, d in got.default_values(fn).items() if d is None and p not in args]
    found: dict[str, list[str]] = {}
    for arg in const_args:
        if arg not in args:
            continue
        for other in optional:
            trial = dict(args)
            trial[arg] = as_graph_input(args[arg])
            trial[other] = CONDITIONAL_VALUE
            if stats is not None:
                stats["probed"] += 1
            if compile_outcome(tf, fn, trial)[0] == "compiled":
                found.setdefault(arg, []).append(other)
    return found


# Optional parameters whose default is None but which take an integer (or integers) when given:
# candidates for compile-time constants that the default probing call leaves out.
OPTIONAL_INT_PARAMS = frozenset({
    "axis", "k", "depth", "num", "num_segments", "maxlen", "minlength", "maxlength", "num_columns", "batch_dims",
    "num_rows", "size", "length", "fft_length", "frame_length", "frame_step", "num_classes", "num_or_size_splits",
    "shift", "multiples", "seq_axis", "batch_axis", "lower", "upper", "num_lower", "num_upper", "block_size",
    "target_height", "target_width", "offset_height", "offset_width", "n", "ord", "dim", "dims", "perm",
    "seed",  # an op-level random seed: random_seed.get_seed reads it in Python while tracing (py_args)
})


def optional_int_params(fn: Callable[..., Any], args: dict[str, Any]) -> dict[str, got.TensorArg]:
    """Optional parameters the probing call ``args`` leaves out that take integers: an int default
    (a flat int list/tuple default: a vector), or a None default for the names in
    :data:`OPTIONAL_INT_PARAMS`; each with the value-less graph input that stands for it."""
    out: dict[str, got.TensorArg] = {}
    for param, default in sorted(got.default_values(fn).items()):
        if param in args or param.startswith("_") or isinstance(default, bool):
            continue
        if isinstance(default, int) or (default is None and param in OPTIONAL_INT_PARAMS):
            out[param] = got.TensorArg("int32", ())
        elif isinstance(default, (list, tuple)) and default and all(
                isinstance(v, int) and not isinstance(v, bool) for v in default):
            out[param] = got.TensorArg("int32", (len(default),))
    return out


def probe_optional_const(tf: Any, keras: Any | None, table: dict[str, Any],
                         only: re.Pattern[str] | None = None) -> dict[str, int]:
    """Add to ``const_args`` the optional integer arguments (:func:`optional_int_params`) that
    XLA needs as compile-time constants: each is given to the probing call as a value-less graph
    input (as a value computed inside the compiled function from a reduction would be) and the
    call is compiled; "must be a compile-time constant" marks it (``tf.reduce_sum(x, axis=a)``,
    ``tf.sequence_mask(l, maxlen=m)``). ``only``: the names this expression finds."""
    callables = public_callables(tf, keras, None)
    stats = {"entries": 0, "probed": 0, "const": 0}
    for name, entry in sorted(table["entries"].items()):
        if "alias_of" in entry or entry.get("by") != "call" or not entry.get("xla"):
            continue
        if only is not None and not only.search(name):
            continue
        obj = callables.get(name)
        if obj is None or isinstance(obj, type) or no_call(name):
            continue
        traced = _try_trace(tf, name, obj)
        if traced is None:
            continue
        candidates = optional_int_params(obj, traced.args)
        if not candidates or compile_outcome(tf, obj, traced.args)[0] != "compiled":
            continue
        stats["entries"] += 1
        found, python_only = [], []
        defaults = got.default_values(obj)
        for param, graph_input in candidates.items():
            stats["probed"] += 1
            outcome = compile_outcome(tf, obj, {**traced.args, param: graph_input})[0]
            if outcome == "const":
                found.append(param)
            elif outcome == "trace" and defaults.get(param) is None:
                # tracing raises once it is a tensor (tf.nn.dropout's seed); not for an int default
                # (tf.random.uniform's minval=0 as an int32 input fails on its dtype, not for being a tensor)
                python_only.append(param)
        if found:
            entry["const_args"] = list(dict.fromkeys([*entry.get("const_args", ()), *found]))
        if python_only:
            entry["py_args"] = list(dict.fromkeys([*entry.get("py_args", ()), *python_only]))
            stats["py"] = stats.get("py", 0) + len(python_only)
        if found or python_only:
            params = positional_params(obj)
            if params is not None:
                entry["params"] = params
            entry.setdefault("called_with", [p for p in traced.args if not p.startswith("*")])
            stats["const"] += len(found)
    return stats


def write_compact(table: dict[str, Any], path: Path) -> None:
    """One line per entry: small diffs, fast to load."""
    head = {k: v for k, v in table.items() if k != "entries"}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f" {json.dumps(key)}: {json.dumps(value, sort_keys=True)},")
    lines.append(' "entries": {')
    items = list(table["entries"].items())
    for i, (name, entry) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        lines.append(f"  {json.dumps(name)}: {json.dumps(entry, sort_keys=True, separators=(',', ':'))}{comma}")
    lines.append(" }")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n")


RNG_ALGS = ("philox", "auto_select", "threefry")

# Keras layers whose gradient is probed (tf-keras, TF_USE_LEGACY_KERAS=1): constructor arguments,
# input, and the argument values to try (their forward is in the op table's Keras entries).
LAYER_GRAD_PROBES: dict[str, tuple[dict[str, Any], Any, dict[str, tuple[Any, ...]]]] = {
    "UpSampling1D": ({"size": 2}, got.TensorArg("float32", (1, 4, 3)), {}),
    "UpSampling2D": ({"size": 2}, got.IMAGE, {"interpolation": got.RESIZE_METHODS}),
    "UpSampling3D": ({"size": 2}, got.TensorArg("float32", (1, 4, 4, 4, 3)), {}),
    "Resizing": ({"height": 8, "width": 8}, got.IMAGE, {"interpolation": got.RESIZE_METHODS}),
}


def _grad_verdict(outcome: str, detail: str) -> dict[str, Any] | None:
    if outcome == "compiled":
        return {"grad_xla": True}
    if outcome == "no_kernel":
        return {"grad_xla": False, "grad_unsupported": detail.split(",")}
    return None


def _try_trace(tf: Any, name: str, obj: Any) -> got.TraceResult | None:
    """``got.trace_default`` for a probe that goes on without the entry when tracing fails or
    times out (None then)."""
    try:
        return got.trace_default(tf, name, obj)
    except (Exception, got.TraceTimeout):  # noqa: BLE001
        return None


def measure_grad_conditions(tf: Any, name: str, fn: Callable[..., Any], args: dict[str, Any],
                            grad_xla: bool | None) -> list[dict[str, Any]]:
    """``grad_conditions`` of a function entry: the op table's argument-value probes
    (``VALUE_PROBES``) under which the gradient of the probing call ``args`` compiles otherwise
    than ``grad_xla`` says."""
    conditions = []
    for param, values in sorted(got.VALUE_PROBES.get(name, {}).items()):
        for value in values:
            verdict = _grad_verdict(*compile_outcome(tf, fn, {**args, param: value}, grad=True))
            if verdict is not None and verdict.get("grad_xla") != grad_xla:
                conditions.append({"argument": param, "value": value, **verdict})
    return conditions


# The dtypes the complex gradient probe gives an entry's float inputs (``grad_dtypes``).
COMPLEX_GRAD_DTYPES = ("complex64",)


def complex_grad_outcome(tf: Any, fn: Callable[..., Any], args: dict[str, Any], dtype: str) -> tuple[str, str]:
    """The gradient of ``fn(**args)`` with its float32 dense inputs made ``dtype`` (complex64),
    differentiated with respect to them: sum of ``|out|^2`` over the float and complex outputs.
    ("compiled", ""), ("no_kernel", ops), ("xla", the compiler's first line) when the gradient
    runs eagerly and traces in a plain tf.function but fails under ``jit_compile=True``, or
    ("skip", why) when the complex call or its gradient does not run eagerly, or the complex
    forward pass does not compile (the op table's ``dtypes`` hold that fact): no gradient fact."""
    variant = got.with_dtype(args, "float32", dtype)
    inputs, call = got.bind(tf, fn, variant)
    slots = [i for i, t in enumerate(inputs) if t.kind == "dense" and t.dtype == dtype]
    if not slots or not all(t.kind == "dense" for t in inputs):
        return "skip", "no dense complex input"

    def body(*tensors: Any) -> Any:
        watched = [tensors[i] for i in slots]
        with tf.GradientTape() as tape:
            tape.watch(watched)
            out = [t for t in tf.nest.flatten(call(*tensors)) if tf.is_tensor(t) and (t.dtype.is_floating
                                                                                   or t.dtype.is_complex)]
            if not out:
                raise LookupError("no float or complex output")
            total = tf.add_n([tf.reduce_sum(tf.math.real(t * tf.math.conj(t))) if t.dtype.is_complex
                              else tf.reduce_sum(tf.square(t)) for t in out])
        kept = [g for g in tape.gradient(total, watched) if g is not None]
        if not kept:
            raise LookupError("no gradient")
        return kept

    _alarm(CALL_TIMEOUT_S)
    try:
        body(*[t.example(tf) for t in inputs])  # eagerly: the synthetic complex call is valid
        tf.function(body, autograph=False).get_concrete_function(*[t.spec(tf) for t in inputs])
    except (Exception, got.TraceTimeout) as error:  # noqa: BLE001 - not a fact about XLA
        return "skip", type(error).__name__
    finally:
        signal.alarm(0)
    if got.compile_verdict(tf, fn, variant)[0] != "compiled":
        return "skip", "the complex forward pass does not compile"
    _alarm(CALL_TIMEOUT_S)
    try:
        tf.function(body, jit_compile=True, autograph=False).experimental_get_compiler_ir(
            *[t.spec(tf) for t in inputs])(stage="hlo")
        return "compiled", ""
    except (Exception, got.TraceTimeout) as error:  # noqa: BLE001 - the compiler's verdict
        message = str(error)
        ops = sorted(set(UNSUPPORTED_RE.findall(message)) - got.BOUNDARY_OPS)
        if ops:
            return "no_kernel", ",".join(ops)
        lines = [line.strip() for line in message.splitlines() if line.strip()]
        if not lines:
            return "skip", type(error).__name__
        line = re.sub(r"^Failed getting HLO text: '|\.$", "", re.sub(r"\s+", " ", lines[0]))
        return "xla", re.sub(r"\b([a-z]+\d+)\[[\d,]*\]", r"\1", line)[:160]  # f32[2,2]: the probe's shape, not a fact
    finally:
        signal.alarm(0)


def probe_complex_gradients(tf: Any, keras: Any | None, table: dict[str, Any],
                            only: re.Pattern[str] | None) -> dict[str, int]:
    """``grad_dtypes`` of the function entries ``only`` finds whose forward compiles: the gradient
    with complex inputs (:func:`complex_grad_outcome`), recorded where it differs from the float
    gradient's ``grad_xla`` (``tf.linalg.eigh`` of a complex Hermitian matrix: "Binary op add with
    different element types: f32 and c64")."""
    callables = public_callables(tf, keras, None)
    counts = {"probed": 0, "differs": 0, "skipped": 0}
    for name, entry in sorted(table["entries"].items()):
        if "alias_of" in entry or not entry.get("xla") or name not in callables:
            continue
        if only is not None and not only.search(name):
            continue
        fn = callables[name]
        traced = got.trace_default(tf, name, fn)
        if traced is None:
            continue
        entry.pop("grad_dtypes", None)
        facts: dict[str, Any] = {}
        for dtype in COMPLEX_GRAD_DTYPES:
            outcome, detail = complex_grad_outcome(tf, fn, traced.args, dtype)
            if outcome == "skip":
                counts["skipped"] += 1
                continue
            counts["probed"] += 1
            fact: dict[str, Any] = {"grad_xla": outcome == "compiled"}
            if outcome == "no_kernel":
                fact["grad_unsupported"] = detail.split(",")
            elif outcome == "xla":
                fact["grad_error"] = detail
            if fact["grad_xla"] != entry.get("grad_xla", fact["grad_xla"]) or "grad_xla" not in entry:
                facts[dtype] = fact
        if facts:
            entry["grad_dtypes"] = facts
            counts["differs"] += 1
    return counts


def probe_gradients(tf: Any, keras: Any | None, table: dict[str, Any],
                    only: re.Pattern[str] | None = None) -> dict[str, int]:
    """Re-probe ``grad_xla`` of every entry whose forward compiles (the probing call), plus
    ``grad_conditions`` for the op table's argument-value probes and the Keras layers of
    :data:`LAYER_GRAD_PROBES` (see the module docstring). ``only``: just the function names it
    finds (no layers), for a refresh of a few entries."""
    callables = public_callables(tf, keras, None)
    counts = {"probed": 0, "no_kernel": 0, "conditions": 0, "layers": 0}
    for name, entry in table["entries"].items():
        if "alias_of" in entry or not entry.get("xla") or name not in callables:
            continue
        if only is not None and not only.search(name):
            continue
        fn = callables[name]
        traced = got.trace_default(tf, name, fn)
        # as in build_table: the gradient is probed where the probing call's forward compiles
        if traced is None or compile_outcome(tf, fn, traced.args)[0] != "compiled":
            continue
        outcome, detail = compile_outcome(tf, fn, traced.args, grad=True)
        if outcome not in ("compiled", "no_kernel", "no_grad", "const", "list_size"):
            continue  # a timeout or another failure: keep what the table had
        for key in ("grad_xla", "grad_unsupported", "grad", "grad_const", "grad_list_size", "grad_conditions"):
            entry.pop(key, None)
        counts["probed"] += 1
        if outcome == "compiled":
            entry["grad_xla"] = True
        elif outcome == "no_kernel":
            entry["grad_xla"] = False
            entry["grad_unsupported"] = detail.split(",")
            counts["no_kernel"] += 1
        elif outcome == "no_grad":
            entry["grad"] = "none"
        elif outcome == "const":
            entry["grad_xla"] = False
            entry["grad_const"] = True
        elif outcome == "list_size":
            entry["grad_xla"] = False
            entry["grad_list_size"] = True
            counts["list_size"] = counts.get("list_size", 0) + 1
        conditions = measure_grad_conditions(tf, name, fn, traced.args, entry.get("grad_xla"))
        if conditions:
            entry["grad_conditions"] = conditions
            counts["conditions"] += len(conditions)
    if only is not None:
        return counts
    import tf_keras

    for short, (kwargs, example, variants) in sorted(LAYER_GRAD_PROBES.items()):
        entry = table["entries"].get(f"tf.keras.layers.{short}")
        if entry is None or "alias_of" in entry:
            continue
        cls = getattr(tf_keras.layers, short)

        def layer_call(x: Any, _cls: Any = cls, _kwargs: dict[str, Any] = kwargs, **extra: Any) -> Any:
            return _cls(**_kwargs, **extra)(x)

        verdict = _grad_verdict(*compile_outcome(tf, layer_call, {"x": example}, grad=True))
        if verdict is None:
            continue
        entry.pop("grad_conditions", None)
        entry.update(verdict)
        counts["layers"] += 1
        conditions = []
        for param, values in sorted(variants.items()):
            for value in values:
                v = _grad_verdict(*compile_outcome(tf, layer_call, {"x": example, param: value}, grad=True))
                if v is not None and v.get("grad_xla") != verdict.get("grad_xla"):
                    conditions.append({"argument": param, "value": value, **v})
        if conditions:
            entry["grad_conditions"] = conditions
            counts["conditions"] += len(conditions)
    return counts


def _same_values(tf: Any, fn: Callable[..., Any], args: dict[str, Any], global_seed: int | None = None) -> str | None:
    """Run ``fn(**args)`` eagerly and under ``jit_compile=True`` on the same concrete inputs:
    "matches" / "differs", or None when either run fails (the variant is not supported).
    ``global_seed``: ``tf.random.set_seed`` before each run (a stateful op's seeds are then fixed)."""
    import numpy as np

    inputs, call = got.bind(tf, fn, args)
    if not all(t.kind == "dense" for t in inputs):
        return None
    values = [t.example(tf) for t in inputs]
    _alarm(CALL_TIMEOUT_S)
    try:
        if global_seed is not None:
            tf.random.set_seed(global_seed)
        eager = [np.asarray(t) for t in tf.nest.flatten(call(*values))]
        if global_seed is not None:
            tf.random.set_seed(global_seed)
        compiled = [np.asarray(t) for t in tf.nest.flatten(
            tf.function(call, jit_compile=True, autograph=False)(*values))]  # xlacheck: ignore[XLA404]
    except (Exception, got.TraceTimeout):  # noqa: BLE001 - a variant this API or XLA rejects
        return None
    finally:
        signal.alarm(0)
    same = len(eager) == len(compiled) and all(
        a.shape == b.shape and np.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True) for a, b in zip(eager, compiled))
    return "matches" if same else "differs"


def probe_xla_values(tf: Any, keras: Any | None, table: dict[str, Any]) -> dict[str, int]:
    """Fill ``xla_values`` for the seeded random APIs that compile (see the module docstring)."""
    callables = public_callables(tf, keras, None)
    counts = {"probed": 0, "differs": 0}
    for name, entry in table["entries"].items():
        if "alias_of" in entry or not entry.get("xla") or name not in callables:
            continue
        if "stateless" not in name:
            if "seed" in (entry.get("params") or []) and name.startswith(("tf.random.", "tf.nn.", "tf.image.")):
                entry.pop("xla_values", None)
                _probe_op_seed(tf, name, callables[name], entry, counts)
            continue
        entry.pop("xla_values", None)
        fn = callables[name]
        traced = got.trace_default(tf, name, fn)
        if traced is None or "seed" not in traced.args:
            continue
        params = entry.get("params") or []
        variants: dict[str, dict[str, Any]] = {"default": dict(traced.args),
                                               "constant_seed": {**traced.args, "seed": [1, 2]}}
        if "alg" in params:
            for alg in RNG_ALGS:
                variants[f"alg={alg}"] = {**traced.args, "alg": alg}
                variants[f"alg={alg}+constant_seed"] = {**traced.args, "alg": alg, "seed": [1, 2]}
        verdicts = {key: v for key, args in variants.items() if (v := _same_values(tf, fn, args)) is not None}
        if verdicts:
            entry["xla_values"] = verdicts
            counts["probed"] += 1
            counts["differs"] += any(v == "differs" for v in verdicts.values())
    return counts


def _probe_op_seed(tf: Any, name: str, fn: Callable[..., Any], entry: dict[str, Any], counts: dict[str, int]) -> None:
    """``xla_values["op_seed"]`` of a stateful random API that takes ``seed`` (``tf.random.uniform``):
    with the global seed set and an integer op seed, whether the compiled call draws the values the
    eager call draws (TensorFlow logs that XLA ignores the seeds of these ops)."""
    traced = got.trace_default(tf, name, fn)
    if traced is None:
        return
    verdict = _same_values(tf, fn, {**traced.args, "seed": 7}, global_seed=1234)
    if verdict is not None:
        entry["xla_values"] = {"op_seed": verdict}
        counts["probed"] += 1
        counts["differs"] += verdict == "differs"


_GRAD_FACTS = ("grad_xla", "grad_unsupported", "grad", "grad_const", "grad_list_size")


def _grad_facts(outcome: str, detail: str) -> dict[str, Any]:
    """The gradient facts of one compile outcome, as ``build_table`` and ``probe_gradients`` record them."""
    return {"compiled": {"grad_xla": True}, "no_grad": {"grad": "none"},
            "no_kernel": {"grad_xla": False, "grad_unsupported": detail.split(",")},
            "const": {"grad_xla": False, "grad_const": True},
            "list_size": {"grad_xla": False, "grad_list_size": True}}.get(outcome, {})


def measure_call_entry(tf: Any, name: str, fn: Callable[..., Any]) -> dict[str, Any] | None:
    """The facts of a ``by: "call"`` entry, probed again the way the full run probes them
    (``build_table``, then ``probe_optional_const`` and ``probe_gradients``); None when the
    synthetic arguments no longer trace."""
    traced = got.trace_default(tf, name, fn)
    if traced is None:
        return None
    kind, dynamic = symbolic_call(tf, fn, traced.args)
    facts: dict[str, Any] = {"returns": kind, "dynamic_shape": dynamic}
    if kind not in {"tensor", "variable"}:
        return facts
    outcome, detail = compile_outcome(tf, fn, traced.args)
    if outcome == "compiled":
        const, python_only = probe_const_args(tf, fn, traced.args, {})
        const += [param for param, graph_input in optional_int_params(fn, traced.args).items()
                  if compile_outcome(tf, fn, {**traced.args, param: graph_input})[0] == "const"]
        facts.update(xla=True, const_args=sorted(set(const)), py_args=python_only,
                     **_grad_facts(*compile_outcome(tf, fn, traced.args, grad=True)))
    elif outcome == "no_kernel":
        facts.update(xla=False, unsupported=detail.split(","))
    elif outcome == "const":
        const = const_tensor_params(tf, fn, traced.args)
        facts.update(xla=bool(const), const_args=sorted(const))
    return facts


def probe_numpy_on_symbolic(tf: Any, only: list[str] | None = None) -> dict[str, Any]:
    """Which public NumPy/SciPy functions accept a symbolic tensor inside a ``tf.function`` (see the
    module doc); ``only``: just these names."""

    def run(fn: Callable[..., Any], values: tuple[Any, ...]) -> None:
        # one graph per function: the verdict is whether tracing it raises
        tf.function(lambda *v: (fn(*v), tf.constant(0.0))[1]).get_concrete_function(
            *(tf.TensorSpec(getattr(v, "shape", ()), tf.as_dtype(getattr(v, "dtype", "float32"))) for v in values))

    def fails(error: BaseException) -> bool:
        return isinstance(error, NotImplementedError) or "symbolic" in str(error)

    return _numpy_probe.probe(run, fails, only)


def check_table(tf: Any, keras: Any | None, path: Path, sample: int) -> int:
    """Probe a sample of the called entries again (spread over: has no kernel, needs a constant
    argument, gradient fails, compiles plainly, not compiled) and compare with the file; and the
    argument conditions of every entry that has them (``const_unless``, the functions'
    ``grad_conditions``: a handful, seconds). Exit status 1 when stale."""
    table = json.loads(path.read_text())
    callables = public_callables(tf, keras, None)
    groups: dict[str, list[str]] = {}
    for name, entry in table["entries"].items():
        fn = callables.get(name)
        if entry.get("by") != "call" or fn is None or isinstance(fn, type):
            continue
        verdict = ("no_xla" if entry.get("xla") is False else "grad_fails" if entry.get("grad_xla") is False
                   else "const_args" if entry.get("const_args") else "compiles" if entry.get("xla") else "not_compiled")
        groups.setdefault(verdict, []).append(name)
    differences = [line for key, version in (("tensorflow_version", tf.__version__),
                                             ("keras_version", getattr(keras, "__version__", None)))
                   if (line := _table_check.difference(key, table[key], version))]
    names = _table_check.spread_sample(groups, sample)
    for name in names:
        entry = table["entries"][name]
        measured = measure_call_entry(tf, name, callables[name])
        if measured is None:
            differences.append(f"{name}: the file has a call, the synthetic arguments no longer trace")
            continue
        recorded = {"returns": entry["returns"], "dynamic_shape": bool(entry.get("dynamic_shape"))}
        if "xla" in entry or "xla" in measured:
            recorded["xla"] = entry.get("xla")
            recorded["const_args"] = sorted(entry.get("const_args", ()))
            measured.setdefault("const_args", [])
            if "py_args" in measured:
                recorded["py_args"] = entry.get("py_args", [])
            if "unsupported" in entry or "unsupported" in measured:
                recorded["unsupported"] = entry.get("unsupported")
            if entry.get("xla") and measured.get("xla"):
                recorded.update({k: entry[k] for k in _GRAD_FACTS if k in entry})
        if (line := _table_check.difference(name, recorded, measured)):
            differences.append(line)
    # const_unless (`tf.sequence_mask`'s `lengths` need not be a constant once `maxlen` is given): an
    # argument condition a rule reads per call, measured again for every entry that has one (one today)
    conditional = [name for name, entry in table["entries"].items() if entry.get("const_unless")]
    for name in conditional:
        entry, fn = table["entries"][name], callables.get(name)
        traced = _try_trace(tf, name, fn) if fn is not None else None
        if fn is None or traced is None:
            differences.append(f"{name}: the file has const_unless, the synthetic arguments no longer trace")
            continue
        found = measure_const_unless(tf, fn, traced.args, entry.get("const_args", ()))
        if (line := _table_check.difference(f"{name} const_unless", entry["const_unless"], found)):
            differences.append(line)
    # grad_conditions of functions (tf.image.resize(method="bicubic") has no gradient kernel): measured
    # again for every function entry that has them (two today; the layers' come from LAYER_GRAD_PROBES)
    graded = [name for name, entry in table["entries"].items() if entry.get("grad_conditions")
              and entry.get("by") == "call" and name in callables and not isinstance(callables[name], type)]
    for name in graded:
        entry, fn = table["entries"][name], callables[name]
        traced = got.trace_default(tf, name, fn)
        if traced is None:
            differences.append(f"{name}: the file has grad_conditions, the synthetic arguments no longer trace")
            continue
        measured_conditions = measure_grad_conditions(tf, name, fn, traced.args, entry.get("grad_xla"))
        if (line := _table_check.difference(f"{name} grad_conditions", entry["grad_conditions"], measured_conditions)):
            differences.append(line)
    # numpy_on_symbolic: a sample of each verdict measured again
    recorded_numpy = table.get("numpy_on_symbolic", {"traceable": [], "fails": []})
    numpy_verdicts = {n: v for v in ("traceable", "fails") for n in recorded_numpy[v]}
    numpy_names = _table_check.spread_sample({v: [n for n, w in numpy_verdicts.items() if w == v]
                                              for v in ("traceable", "fails")}, sample)
    got_numpy = probe_numpy_on_symbolic(tf, numpy_names)
    measured_numpy = {n: v for v in ("traceable", "fails") for n in got_numpy[v]}
    for name in numpy_names:
        if (line := _table_check.difference(f"numpy_on_symbolic {name}", numpy_verdicts[name],
                                            measured_numpy.get(name))):
            differences.append(line)
    if (line := _table_check.difference("numpy_on_symbolic stores", recorded_numpy.get("stores"), got_numpy["stores"])):
        differences.append(line)
    return _table_check.report("generate_api_table", 3 + len(names) + len(conditional) + len(graded)
                               + len(numpy_names), differences,
                               f"TensorFlow {tf.__version__}, Keras {getattr(keras, '__version__', None)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--limit", type=int, default=None, help="probe only a spread-out sample of N names")
    ap.add_argument("--no-compile", action="store_true", help="skip the XLA compile probes (returns only)")
    ap.add_argument("--refresh-params", action="store_true",
                    help="fill params/called_with into the existing --out file (no compile probes)")
    ap.add_argument("--probe-conditional", action="store_true",
                    help="fill const_unless into the existing --out file (compiles the constant arguments only)")
    ap.add_argument("--probe-grad", action="store_true",
                    help="re-probe grad_xla/grad_conditions in the existing --out file (compiles ~10 min)")
    ap.add_argument("--probe-grad-complex", action="store_true",
                    help="with --only: the gradient with complex64 inputs (grad_dtypes, where it differs)")
    ap.add_argument("--probe-xla-values", action="store_true",
                    help="fill xla_values into the existing --out file (runs the seeded random APIs)")
    ap.add_argument("--probe-optional-const", action="store_true",
                    help="add the optional integer arguments that must be compile-time constants to const_args "
                         "in the existing --out file (compiles each as a value-less tensor)")
    ap.add_argument("--only", type=re.compile, default=None, metavar="REGEX",
                    help="with --probe-optional-const or --probe-grad: only the names this regular expression finds")
    ap.add_argument("--check", action="store_true",
                    help="probe a sample of the called entries again and compare with --out (writes nothing)")
    ap.add_argument("--sample", type=int, default=10, help="with --check: how many entries")
    ap.add_argument("--refresh-doc-structure", action="store_true",
                    help="refresh structure: list of the entries decided by their docstring (no calling)")
    ap.add_argument("--probe-numpy", action="store_true",
                    help="probe only numpy_on_symbolic (NumPy/SciPy on symbolic tensors) into the existing --out file")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    logging.getLogger("generate_op_table").setLevel(logging.ERROR)
    signal.signal(signal.SIGALRM, got._on_alarm)

    try:
        import tensorflow as tf
    except ImportError:
        if args.check:
            return _table_check.skipped("generate_api_table", "TensorFlow is not installed")
        raise

    tf.get_logger().setLevel("ERROR")
    try:
        import keras
    except ImportError:  # pragma: no cover - Keras 3 is optional
        keras = None
    if args.check:
        return check_table(tf, keras, args.out, args.sample)
    if args.probe_numpy:
        table = json.loads(args.out.read_text())
        table["numpy_on_symbolic"] = probe_numpy_on_symbolic(tf)
        print(f"numpy_on_symbolic: {len(table['numpy_on_symbolic']['traceable'])} traceable, "
              f"{len(table['numpy_on_symbolic']['fails'])} fail")
        write_compact(table, args.out)
        return 0
    if args.refresh_params or args.probe_conditional or args.probe_xla_values or args.probe_grad \
            or args.probe_grad_complex or args.probe_optional_const or args.refresh_doc_structure:
        table = json.loads(args.out.read_text())
        if args.refresh_doc_structure:
            table["stats"]["doc_structure"] = refresh_doc_structure(tf, keras, table)
            print("doc structure:", json.dumps(table["stats"]["doc_structure"]))
        if args.probe_optional_const:
            cpu = time.process_time()
            stats = probe_optional_const(tf, keras, table, args.only)
            print("optional constants:", json.dumps(stats), f"{time.process_time() - cpu:.0f} s CPU")
        if args.refresh_params:
            print("params:", json.dumps(refresh_params(tf, keras, table)))
            print("outputs:", json.dumps(refresh_outputs(tf, keras, table)))
            print("elementwise:", json.dumps(refresh_elementwise(tf, keras, table)))
        if args.probe_conditional:
            print("conditional:", json.dumps(probe_conditional(tf, keras, table)))
        if args.probe_grad:
            print("gradients:", json.dumps(probe_gradients(tf, keras, table, args.only)))
        if args.probe_grad_complex:
            counts = probe_complex_gradients(tf, keras, table, args.only)
            table["stats"]["grad_dtypes"] = {**counts, "only": args.only.pattern if args.only else None,
                                             "tensorflow_version": tf.__version__}
            print("complex gradients:", json.dumps(counts))
        if args.probe_xla_values:
            print("xla_values:", json.dumps(probe_xla_values(tf, keras, table)))
        write_compact(table, args.out)
        return 0
    table = build_table(tf, keras, args.limit, args.no_compile)
    # the facts the cheap modes refresh are part of every full build too
    table["stats"]["params"] = refresh_params(tf, keras, table)
    table["stats"]["outputs"] = refresh_outputs(tf, keras, table)
    table["stats"]["elementwise"] = refresh_elementwise(tf, keras, table)
    table["stats"]["doc_structure"] = refresh_doc_structure(tf, keras, table)
    if not args.no_compile:
        table["stats"]["optional_const"] = probe_optional_const(tf, keras, table)
        table["stats"]["conditional"] = probe_conditional(tf, keras, table)
        table["stats"]["xla_values"] = probe_xla_values(tf, keras, table)
        table["stats"]["gradients"] = probe_gradients(tf, keras, table)
    table["numpy_on_symbolic"] = probe_numpy_on_symbolic(tf)
    write_compact(table, args.out)
    print(f"wrote {args.out}: {json.dumps(table['stats'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
