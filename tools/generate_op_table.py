"""Generate xlacheck/data/tf_xla_ops.json: which TensorFlow ops have no XLA kernel, asked of TensorFlow.

One command (needs TensorFlow; xlacheck itself never imports it):

    python tools/generate_op_table.py            # writes xlacheck/data/tf_xla_ops.json
    python tools/generate_op_table.py --check [--sample N]   # re-measures a sample, compares (exit 1: stale)
    #   [--conditions-sample M]: and the argument conditions of M entries (default 2)

What it records, and where each fact comes from:

* ``raw_ops``: every name in ``dir(tf.raw_ops)`` plus every op that has an XLA kernel, with
  whether TensorFlow's kernel registry holds an ``XLA_CPU_JIT`` / ``XLA_GPU_JIT`` kernel for it
  (``pywrap_xla_ops.get_cpu_kernel_names``; the same list ``KernelList`` gives once the XLA
  devices are registered). An op is unsupported exactly when it has no ``XLA_CPU_JIT`` kernel:
  even graph plumbing such as ``Placeholder`` or TF1 ``Switch`` fails inside a compiled function
  (the cross-check compiles both).
* ``raw_ops[op]["xla_tpu_jit"]``: the XLA kernels that only TensorFlow's TPU build links
  (``TPU_BUILD_XLA_KERNELS``: ``AllToAll``, ``CollectivePermute``, ``CrossReplicaSum``, infeed/outfeed,
  from the REGISTER_XLA_OP lines of ``tensorflow/core/tpu/kernels/``), with ``kernel_devices``: the
  devices of the op's ordinary kernels in this build, measured. An op with a TPU XLA kernel and no
  kernel at all here runs only on a TPU, where it compiles: it is not counted as unsupported.
  ``--tpu-kernels-only`` refreshes just these fields.
* ``api``: public functions (``tf.linalg.det``, ``tf.image.resize`` ...) mapped to the raw ops
  they create. Each function is traced into a ``tf.function`` graph with small synthetic
  arguments and the ops of the graph (nested functions included) are read back. Functions that
  cannot be traced with synthetic arguments fall back to a static scan of their source for
  ``gen_*_ops`` calls (``"source": "static"``: ops the function *may* create).
  Argument variants (``variants``): bool arguments are flipped; string arguments (a string
  default, or None for ``method=``, ``padding=``, ``data_format=``, ``interpolation=``, ...) take
  the choices TensorFlow's own validation lists when traced with a value it does not accept (the
  quoted words of the ValueError), plus ``VALUE_PROBES``; numeric flags (``dilations``,
  ``dilation_rate``, ``depth_multiplier``) take 2. Where a variant changes the set of ops without
  an XLA kernel, or (both calls creating only ops with a kernel) the compiler's verdict on the
  variant's forward or gradient differs from the default call's, the entry gets ``conditions``
  (with the parameter's ``position``, ``compiles: false`` + ``compile_error``, ``grad_unsupported``).
  ``--variants-only [--only REGEX]`` measures just these again in the existing table. A few classes
  (lookup tables, ``tf.random.Generator``) and Keras preprocessing layers are probed with
  explicit code.
* ``switches``: global switches (``tf.debugging.enable_check_numerics``) and the ops every
  function traced after them gains (``DebugNumericSummaryV2`` ...), probed by switching them on.
* ``under_vectorized_map``: loop APIs (``tf.scan``, ``tf.map_fn`` ...) run inside a function given
  to ``tf.vectorized_map``, compiled with ``jit_compile=True``: whether that compiles and the ops
  the compiler named.
* ``raw_ops[op]["xla_cpu_jit_types"]``: the dtype constraints of the op's ``XLA_CPU_JIT`` kernel
  (type attribute -> allowed dtypes), from ``kernels.get_registered_kernels_for_op``. An op that
  has a kernel still fails for a dtype outside them ("OpKernel was found, but attributes didn't
  match ... Requested Attributes: T=DT_INT8"): ``Cumsum`` has no int8/uint8/int16/complex kernel.
* ``api[name]["dtypes"]``: which input dtypes compile. Every traced entry is called again with
  its first tensor argument (and the other tensor arguments of the same dtype) in each of
  ``PROBE_DTYPES``; a dtype the function accepts eagerly is then compiled with
  ``jit_compile=True`` on XLA:CPU. Recorded where some accepted dtypes compile and others fail on
  an op the compiler names (``fail``: dtype -> ops); ``dtype_probe`` counts what was probed. The
  compiler decides; the kernel constraints above explain. ``api[name]["dtype_arguments"]``: the
  same for the function's dtype argument (``dtype=``, ``out_type=``, ``output_type=``, then any
  other parameter traced with or defaulting to a dtype: ``type=`` of ``tf.bitcast``). A dtype
  fails when the compiler names an op with no kernel for it, or when tf2xla rejects the element
  type in the op ("Complex types not supported." for ``Bitcast`` to complex64): then
  ``rejected`` (dtype -> the compiler's sentence) says so. ``--dtypes-only --only REGEX``
  re-probes only the matching entries.
* ``crosscheck``: a sample of calls compiled for real with ``jit_compile=True`` on XLA:CPU, and
  whether the compiler agreed with the table; ``api_compile_check``: every traced entry compiled
  with its synthetic inputs, with the agreements, disagreements and inconclusive failures.

The output is deterministic apart from the ``generated`` date (set ``SOURCE_DATE_EPOCH`` to pin it).
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import logging
import math
import os
import re
import signal
import sys
import textwrap
import time
import types
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

logger = logging.getLogger("generate_op_table")

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _table_check  # noqa: E402  (tools/ is not a package)

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "tf_xla_ops.json"
COMMAND = "python tools/generate_op_table.py"
SCHEMA_VERSION = 1

# Namespaces of the public API that hold ops a model, loss or train step calls. tf.io.gfile,
# tf.summary, tf.data, tf.config, tf.saved_model... are Python-side or host-side APIs that do not
# trace into graph ops (or touch the file system when called), so they are not walked.
API_NAMESPACES = (
    "audio", "bitwise", "debugging", "image", "io", "linalg", "lookup", "math", "nn",
    "quantization", "ragged", "random", "sets", "signal", "sparse", "strings",
)
SKIP_SUBMODULES = {"gfile"}
# Public callables that are not ops: they run Python, build objects, write files or change global state.
SKIP_NAMES = {
    "tf.function", "tf.py_func", "tf.autograph", "tf.device", "tf.name_scope", "tf.init_scope",
    "tf.control_dependencies", "tf.get_logger", "tf.executing_eagerly", "tf.inside_function",
    "tf.get_current_name_scope", "tf.get_static_value", "tf.is_tensor", "tf.is_symbolic_tensor",
    "tf.make_tensor_proto", "tf.make_ndarray", "tf.import_graph_def", "tf.load_library",
    "tf.load_op_library", "tf.register_tensor_conversion_function", "tf.group",
    "tf.no_gradient", "tf.recompute_grad", "tf.custom_gradient", "tf.grad_pass_through",
    "tf.type_spec_from_value", "tf.convert_to_tensor", "tf.as_dtype", "tf.io.write_graph",
    "tf.quantization.experimental.quantize_saved_model", "tf.debugging.assert_proper_iterable",
}
# Switches of global state (tf.debugging.enable_check_numerics would add ops to every later trace)
# and accessors of Python-side state: not ops.
NOT_AN_OP = re.compile(r"\.(enable_|disable_|set_(?!diag)|get_)\w*$")

# Argument values enumerated beyond bool flips: arguments whose value may pick a different
# kernel. Keys are canonical API names (and Keras layer names, for constructor arguments).
RESIZE_METHODS = ("area", "bicubic", "bilinear", "gaussian", "lanczos3", "lanczos5", "mitchellcubic", "nearest")
VALUE_PROBES: dict[str, dict[str, tuple[Any, ...]]] = {
    "tf.image.resize": {"method": RESIZE_METHODS},
    "tf.image.resize_with_pad": {"method": RESIZE_METHODS},
    "tf.image.crop_and_resize": {"method": ("bilinear", "nearest")},
    "tf.image.extract_glimpse": {"noise": ("uniform", "gaussian", "zero")},
    "tf.keras.layers.Resizing": {"interpolation": RESIZE_METHODS},
    "tf.keras.layers.RandomRotation": {"interpolation": ("bilinear", "nearest")},
    "tf.keras.layers.RandomZoom": {"interpolation": ("bilinear", "nearest")},
    "tf.random.stateless_uniform": {"alg": ("philox", "threefry", "auto_select")},
    "tf.random.stateless_normal": {"alg": ("philox", "threefry", "auto_select")},
    "tf.norm": {"ord": ("euclidean", "fro", 1, 2, "inf")},
    "tf.linalg.norm": {"ord": ("euclidean", "fro", 1, 2, "inf")},
}

TRACE_TIMEOUT_S = 20
# The dtypes the dtype probe tries on every traced entry's first tensor argument.
PROBE_DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "uint8", "int16", "int32", "int64", "bool",
                "complex64")


# --------------------------------------------------------------------------------------------
# Raw ops and the kernel registry


def xla_kernel_ops(tf: Any) -> dict[str, frozenset[str]]:
    """Ops with an XLA kernel, per XLA JIT device type, from TensorFlow's kernel registry."""
    from tensorflow.python.framework import kernels

    # XLA JIT devices register their kernels lazily, on the first compilation.
    tf.function(lambda x: x + 1.0, jit_compile=True)(tf.constant(1.0))
    by_device: dict[str, set[str]] = {}
    for kernel in kernels.get_all_registered_kernels().kernel:
        if kernel.device_type.startswith("XLA_") and kernel.device_type.endswith("_JIT"):
            by_device.setdefault(kernel.device_type, set()).add(kernel.op)
    # Second source of the same fact: the tf2xla bindings. They must agree with the registry.
    from tensorflow.python.util import pywrap_xla_ops

    cpu = set(pywrap_xla_ops.get_cpu_kernel_names())
    if cpu != by_device.get("XLA_CPU_JIT", set()):
        raise RuntimeError(
            "pywrap_xla_ops.get_cpu_kernel_names() and the KernelList disagree on XLA_CPU_JIT: "
            f"{sorted(cpu ^ by_device.get('XLA_CPU_JIT', set()))[:10]}"
        )
    return {device: frozenset(ops) for device, ops in by_device.items()}


# Ops whose XLA kernel only TensorFlow's TPU build registers: REGISTER_XLA_OP in these files, which only
# the TPU build links (the CPU/GPU wheel this generator runs in has no XLA_TPU_JIT device to ask). Where the
# registry has no XLA_TPU_JIT kernels, these ops get ``xla_tpu_jit: true`` with ``xla_tpu_jit_source`` (the
# file), and ``kernel_devices``: the devices of their ordinary kernels in this build, measured.
TPU_BUILD_XLA_KERNELS: dict[str, str] = {
    "AllToAll": "tensorflow/core/tpu/kernels/cross_replica_ops.cc",
    "CollectivePermute": "tensorflow/core/tpu/kernels/cross_replica_ops.cc",
    "CrossReplicaSum": "tensorflow/core/tpu/kernels/cross_replica_ops.cc",
    "InfeedDequeue": "tensorflow/core/tpu/kernels/xla/infeed_op.cc",
    "InfeedDequeueTuple": "tensorflow/core/tpu/kernels/xla/infeed_op.cc",
    "InplaceAdd": "tensorflow/core/tpu/kernels/xla/inplace_ops.cc",
    "InplaceUpdate": "tensorflow/core/tpu/kernels/xla/inplace_ops.cc",
    "OutfeedEnqueue": "tensorflow/core/tpu/kernels/xla/outfeed_ops.cc",
    "OutfeedEnqueueTuple": "tensorflow/core/tpu/kernels/xla/outfeed_ops.cc",
}


def runs_only_on_tpu(record: dict[str, Any]) -> bool:
    """An op with an XLA kernel on TPU and no kernel of any kind here (``CollectivePermute``): it can
    only run on a TPU, where it compiles, so the CPU/GPU verdict says nothing about the code."""
    return bool(record.get("xla_tpu_jit")) and record.get("kernel_devices") == []


def with_tpu_build_kernels(raw_ops: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``raw_ops`` with the ``TPU_BUILD_XLA_KERNELS`` facts added (unless the registry had XLA_TPU_JIT)."""
    from tensorflow.python.framework import kernels as kernel_registry

    out = dict(raw_ops)
    for op, source in TPU_BUILD_XLA_KERNELS.items():
        if op not in out or "xla_tpu_jit" in out[op] and "xla_tpu_jit_source" not in out[op]:
            continue
        devices = sorted({k.device_type for k in kernel_registry.get_registered_kernels_for_op(op).kernel
                          if not k.device_type.startswith("XLA_") and k.device_type != "DEFAULT"})
        out[op] = {**out[op], "xla_tpu_jit": True, "xla_tpu_jit_source": source, "kernel_devices": devices}
    return out


def raw_op_table(
    tf: Any, kernels: dict[str, frozenset[str]], extra: frozenset[str] = frozenset()
) -> dict[str, dict[str, Any]]:
    """Every ``tf.raw_ops`` name, every op with an XLA kernel, and ``extra`` (ops the public API creates)."""
    public = {name for name in dir(tf.raw_ops) if not name.startswith("_")}
    with_kernel = set().union(*kernels.values())
    table: dict[str, dict[str, Any]] = {}
    for op in sorted(public | with_kernel | extra):
        record: dict[str, Any] = {
            "public": op in public,
            "xla_cpu_jit": op in kernels.get("XLA_CPU_JIT", frozenset()),
            "xla_gpu_jit": op in kernels.get("XLA_GPU_JIT", frozenset()),
        }
        if "XLA_TPU_JIT" in kernels:
            record["xla_tpu_jit"] = op in kernels["XLA_TPU_JIT"]
        table[op] = record
    return table if "XLA_TPU_JIT" in kernels else with_tpu_build_kernels(table)


def xla_type_constraints(tf: Any, ops: Iterator[str] | Sequence[str]) -> dict[str, dict[str, list[str]]]:
    """Op -> type attribute -> the dtypes its ``XLA_CPU_JIT`` kernel accepts (registered kernels
    of one op merged per attribute); ops without a kernel or without type constraints are left out."""
    from tensorflow.python.framework import kernels as kernel_registry

    out: dict[str, dict[str, list[str]]] = {}
    for op in ops:
        per_attr: dict[str, set[str]] = {}
        for kernel in kernel_registry.get_registered_kernels_for_op(op).kernel:
            if kernel.device_type != "XLA_CPU_JIT":
                continue
            for constraint in kernel.constraint:
                types = constraint.allowed_values.list.type
                if types:
                    per_attr.setdefault(constraint.name, set()).update(tf.as_dtype(t).name for t in types)
        if per_attr:
            out[op] = {attr: sorted(names) for attr, names in sorted(per_attr.items())}
    return out


def with_type_constraints(tf: Any, raw_ops: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``raw_ops`` with ``xla_cpu_jit_types`` added to every op that has a constrained XLA_CPU_JIT kernel."""
    constraints = xla_type_constraints(tf, [op for op, record in raw_ops.items() if record["xla_cpu_jit"]])
    return {op: {**record, "xla_cpu_jit_types": constraints[op]} if op in constraints else record
            for op, record in raw_ops.items()}


def registered_ops(tf: Any) -> frozenset[str]:
    """Every op in TensorFlow's op registry (a superset of tf.raw_ops: internal and test ops too)."""
    from tensorflow.core.framework import op_def_pb2
    from tensorflow.python.client import pywrap_tf_session

    buffer = pywrap_tf_session.TF_GetAllOpList()
    op_list = op_def_pb2.OpList()
    op_list.ParseFromString(bytes(pywrap_tf_session.TF_GetBuffer(buffer)))
    pywrap_tf_session.TF_DeleteBuffer(buffer)
    return frozenset(op.name for op in op_list.op)


def unsupported_set(raw_ops: dict[str, dict[str, Any]]) -> frozenset[str]:
    return frozenset(
        op for op, rec in raw_ops.items() if not rec["xla_cpu_jit"] and not runs_only_on_tpu(rec)
    )


# --------------------------------------------------------------------------------------------
# Public API discovery


def public_functions(tf: Any) -> dict[str, Callable[..., Any]]:
    """Canonical name -> callable for every public function in the walked namespaces."""
    found: dict[str, Callable[..., Any]] = {}

    def add_callables(module: Any, prefix: str, depth: int) -> None:
        for attr in sorted(dir(module)):
            if attr.startswith("_"):
                continue
            try:
                value = getattr(module, attr)
            except Exception:  # lazy loaders can fail on optional parts
                continue
            name = f"{prefix}.{attr}"
            if isinstance(value, types.ModuleType):
                if depth < 2 and attr not in SKIP_SUBMODULES and value.__name__.startswith(
                    ("tensorflow", "tf_keras")
                ):
                    add_callables(value, name, depth + 1)
            elif callable(value) and not isinstance(value, type) and not NOT_AN_OP.search(name):
                if name not in SKIP_NAMES:
                    found[name] = value

    for attr in sorted(dir(tf)):
        if attr.startswith("_"):
            continue
        value = getattr(tf, attr)
        name = f"tf.{attr}"
        if isinstance(value, types.ModuleType):
            if attr in API_NAMESPACES:
                add_callables(value, name, 1)
        elif callable(value) and not isinstance(value, type) and name not in SKIP_NAMES:
            if not NOT_AN_OP.search(name):
                found[name] = value
    return found


def unwrap(fn: Callable[..., Any]) -> Callable[..., Any]:
    from tensorflow.python.util import tf_decorator

    _, target = tf_decorator.unwrap(fn)
    return inspect.unwrap(target)


GEN_OP_RE = re.compile(r'_apply_op_helper\(\s*"(\w+)"')


def generated_op_name(fn: Callable[..., Any]) -> str | None:
    """The raw op a gen_*_ops wrapper creates, read from its generated source."""
    target = unwrap(fn)
    module = getattr(target, "__module__", "") or ""
    if ".gen_" not in module:
        return None
    try:
        match = GEN_OP_RE.search(inspect.getsource(target))
    except (OSError, TypeError):
        return None
    return match.group(1) if match else None


# Ops only TF1 graph code creates (control flow v1, reference variables): a static scan meets them
# in branches that tf.function never takes, since it builds If/While and resource variables.
TF1_ONLY_OPS = frozenset({
    "Switch", "Merge", "Enter", "Exit", "NextIteration", "LoopCond", "RefSwitch", "RefMerge",
    "RefEnter", "RefExit", "RefNextIteration", "RefIdentity",
})


def static_ops(fn: Callable[..., Any], depth: int = 3) -> set[str]:
    """Raw ops a function may create: gen_*_ops calls in its source and in the TensorFlow helpers
    it calls, less the TF1-only ops."""
    seen: set[int] = set()
    ops: set[str] = set()

    def visit(func: Callable[..., Any], level: int) -> None:
        target = unwrap(func)
        if id(target) in seen or not inspect.isfunction(target):
            return
        seen.add(id(target))
        op = generated_op_name(target)
        if op is not None:
            ops.add(op)
            return
        if not (target.__module__ or "").startswith("tensorflow") or level > depth:
            return
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(target)))
        except (OSError, TypeError, SyntaxError):
            return
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                callee = resolve(node.func, target.__globals__)
                if callee is not None:
                    visit(callee, level + 1)

    visit(fn, 0)
    return ops - TF1_ONLY_OPS


def resolve(expr: ast.expr, namespace: dict[str, Any]) -> Callable[..., Any] | None:
    if isinstance(expr, ast.Name):
        value = namespace.get(expr.id)
    elif isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        module = namespace.get(expr.value.id)
        value = getattr(module, expr.attr, None) if isinstance(module, types.ModuleType) else None
    else:
        return None
    return value if callable(value) and not isinstance(value, type) else None


# --------------------------------------------------------------------------------------------
# Tracing public functions with synthetic arguments


@dataclass(frozen=True)
class TensorArg:
    """A synthetic graph input: a dense, sparse (``tf.SparseTensorSpec``) or ragged tensor."""

    dtype: str
    shape: tuple[int | None, ...]
    kind: str = "dense"

    def spec(self, tf: Any) -> Any:
        dtype = getattr(tf, self.dtype)
        if self.kind == "sparse":
            return tf.SparseTensorSpec(self.shape, dtype)
        if self.kind == "ragged":
            return tf.RaggedTensorSpec(self.shape, dtype, ragged_rank=1)
        return tf.TensorSpec(self.shape, dtype)

    def example(self, tf: Any) -> Any:
        """A concrete value (None dims become 2) for calls that cannot take a spec."""
        shape = [2 if dim is None else dim for dim in self.shape]
        if self.kind == "ragged":
            flat = TensorArg(self.dtype, (3,)).example(tf)
            return tf.RaggedTensor.from_row_lengths(flat, tf.constant([2, 1], tf.int64))
        if self.kind == "sparse":
            return tf.sparse.from_dense(TensorArg(self.dtype, tuple(shape)).example(tf))
        size = math.prod(shape)
        if self.dtype == "string":
            return tf.reshape(tf.constant(["ab"] * size), shape)
        if self.dtype == "bool":
            return tf.reshape(tf.range(size) % 2 == 0, shape)
        if self.dtype.startswith(("int", "uint")):  # 0/1: valid as an index into any dim of 2
            return tf.cast(tf.reshape(tf.range(size) % 2, shape), self.dtype)
        real = tf.reshape(tf.linspace(0.25, 1.0, size), shape)
        return tf.cast(tf.complex(real, real) if self.dtype.startswith("complex") else real, self.dtype)


@dataclass
class TraceResult:
    ops: frozenset[str]
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Lazy:
    """A Python value built inside the traced function (lambdas, constants, dicts of specs)."""

    make: Callable[[Any], Any]


def F(*shape: int | None) -> TensorArg:
    return TensorArg("float32", shape)


def I(*shape: int | None) -> TensorArg:  # noqa: E743 - reads as the dtype next to F
    return TensorArg("int32", shape)


def I64(*shape: int | None) -> TensorArg:
    return TensorArg("int64", shape)


FLOAT_MATRIX = TensorArg("float32", (2, 2))
SPARSE_MATRIX = TensorArg("float32", (2, 2), "sparse")
SPARSE_INT_MATRIX = TensorArg("int64", (2, 2), "sparse")
RAGGED_MATRIX = TensorArg("float32", (2, None), "ragged")
STRING_VECTOR = TensorArg("string", (2,))
PROFILES: tuple[TensorArg, ...] = (
    FLOAT_MATRIX,
    TensorArg("float32", (1, 4, 4, 3)),
    TensorArg("int32", (2, 2)),
    STRING_VECTOR,
    TensorArg("float32", (4,)),
    TensorArg("bool", (2, 2)),
    TensorArg("int64", (4,)),
    TensorArg("float32", (2, 3, 4)),
    TensorArg("complex64", (2, 2)),
    SPARSE_MATRIX,
    RAGGED_MATRIX,
    TensorArg("float32", ()),
)
# Namespaces whose functions take composite or string tensors: try those profiles first.
PREFERRED_PROFILES = (
    (("tf.sparse.", "tf.sets."), (SPARSE_MATRIX, SPARSE_INT_MATRIX)),
    (("tf.ragged.",), (RAGGED_MATRIX, TensorArg("int64", (2, None), "ragged"))),
    (("tf.strings.", "tf.io.decode", "tf.io.encode", "tf.io.parse", "tf.image.decode", "tf.image.encode",
      "tf.audio.decode"), (STRING_VECTOR, TensorArg("string", ()))),
)

INT_PARAMS = {
    "indices", "segment_ids", "ids", "positions", "multiples", "perm", "shift",
    "lengths", "seq_lengths", "sequence_length", "row_splits", "value_rowids", "row_lengths",
    "partitions", "bins", "splits", "sorted_sequence_idx", "label_length", "logit_length",
    "nbins", "block_shape", "paddings", "crops", "box_indices", "box_ind",
}
BOOL_PARAMS = {"pred", "condition", "mask", "cond"}
PY_INT_PARAMS = {
    "num", "num_or_size_splits", "depth", "k", "num_segments", "num_classes", "num_true",
    "num_sampled", "range_max", "num_samples", "block_size", "max_output_size", "frame_length",
    "frame_step", "fft_length", "num_lower", "num_upper", "num_rows", "num_columns",
    "num_spectrogram_bins", "num_mel_bins", "ksize", "strides", "target_height", "target_width",
    "offset_height", "offset_width", "dct_type", "n", "count", "num_bits", "window_length",
    "nrows", "ncols", "bucket_size", "num_buckets", "pool_size", "window_shape", "rate",
    "dilations", "max_delta", "delta", "lower", "upper", "quality", "min_jpeg_quality",
    "max_jpeg_quality", "num_spatial_dims",
}
SHAPE_PARAMS = {"shape", "dims", "size", "output_shape", "new_size", "target_shape", "sizes",
                "dense_shape", "crop_size", "input_shape", "batch_shape", "begin", "end"}
DTYPE_PARAMS = {"dtype", "Tout", "out_type", "output_type", "output_dtype", "to_type", "fn_output_signature"}
CALLABLE_PARAMS = {"func", "fn", "f", "map_func", "true_fn", "false_fn", "body", "cond_fn"}
STRING_PARAMS = {
    "format", "template", "pattern", "rewrite", "sep", "separator", "delimiter", "regex",
    "filename", "file_pattern", "input_encoding", "output_encoding", "message", "msg",
}


def synthetic_value(param: str, profile: TensorArg) -> Any:
    """A value for a parameter: a TensorArg (made a graph input) or a Python value."""
    if param in DTYPE_PARAMS:
        return "dtype:float32"
    if param in SHAPE_PARAMS:
        return [2, 2]
    if param in PY_INT_PARAMS:
        return 2
    if param in CALLABLE_PARAMS:
        return "callable"
    if param in {"inp", "inputs", "t_list", "values_list"}:
        return [profile, profile]
    if param == "seed":
        return TensorArg("int32", (2,))
    if param in {"filters", "filter"}:
        return TensorArg("float32", (1, 1, profile.shape[-1] if profile.shape and profile.shape[-1] else 1, 2))
    if param == "value_range":
        return TensorArg("float32", (2,))
    if param == "true_classes":
        return TensorArg("int64", (2, 2))
    if param == "equation":
        return "ij,jk->ik"
    if param in INT_PARAMS:
        return TensorArg("int32", (2,) if len(profile.shape) < 2 else profile.shape[:1])
    if param in BOOL_PARAMS:
        return TensorArg("bool", profile.shape)
    if param in {"axis", "dim"}:
        return 0
    if param in {"axes"}:
        return [0]
    if param in {"unique"}:
        return True
    if param in {"padding"}:
        return "SAME"
    if param in STRING_PARAMS:
        return "{}" if param == "template" else "a"
    return profile


# Arguments for functions whose parameters synthetic_value cannot guess (shapes that must agree,
# callables with a contract, feature specs). Only inputs live here: what ops the call creates is
# still read from the traced graph.
IMAGE = F(1, 4, 4, 3)
BOXES = F(3, 4)
ARG_OVERRIDES: dict[str, dict[str, Any]] = {
    "tf.nn.conv2d": {"input": IMAGE, "filters": F(1, 1, 3, 2), "strides": 1, "padding": "SAME"},
    "tf.nn.convolution": {"input": IMAGE, "filters": F(1, 1, 3, 2), "padding": "SAME"},
    "tf.nn.conv1d": {"input": F(1, 4, 3), "filters": F(1, 3, 2), "stride": 1, "padding": "SAME"},
    "tf.nn.conv3d": {"input": F(1, 4, 4, 4, 3), "filters": F(1, 1, 1, 3, 2), "strides": [1, 1, 1, 1, 1],
                     "padding": "SAME"},
    "tf.nn.conv2d_transpose": {"input": IMAGE, "filters": F(1, 1, 2, 3), "output_shape": [1, 4, 4, 2],
                               "strides": 1},
    "tf.nn.conv1d_transpose": {"input": F(1, 4, 3), "filters": F(1, 2, 3), "output_shape": [1, 4, 2],
                               "strides": 1},
    "tf.nn.conv3d_transpose": {"input": F(1, 4, 4, 4, 3), "filters": F(1, 1, 1, 2, 3),
                               "output_shape": [1, 4, 4, 4, 2], "strides": [1, 1, 1, 1, 1]},
    "tf.nn.conv_transpose": {"input": IMAGE, "filters": F(1, 1, 2, 3), "output_shape": [1, 4, 4, 2],
                             "strides": 1},
    "tf.nn.depthwise_conv2d": {"input": IMAGE, "filter": F(1, 1, 3, 1), "strides": [1, 1, 1, 1],
                               "padding": "SAME"},
    "tf.nn.separable_conv2d": {"input": IMAGE, "depthwise_filter": F(1, 1, 3, 1),
                               "pointwise_filter": F(1, 1, 3, 2), "strides": [1, 1, 1, 1], "padding": "SAME"},
    "tf.nn.atrous_conv2d": {"value": IMAGE, "filters": F(1, 1, 3, 2), "rate": 2, "padding": "SAME"},
    "tf.nn.atrous_conv2d_transpose": {"value": IMAGE, "filters": F(1, 1, 2, 3), "output_shape": [1, 4, 4, 2],
                                      "rate": 2, "padding": "SAME"},
    "tf.nn.dilation2d": {"input": IMAGE, "filters": F(1, 1, 3), "strides": [1, 1, 1, 1], "padding": "SAME",
                         "data_format": "NHWC", "dilations": [1, 1, 1, 1]},
    "tf.nn.erosion2d": {"value": IMAGE, "filters": F(1, 1, 3), "strides": [1, 1, 1, 1], "padding": "SAME",
                        "data_format": "NHWC", "dilations": [1, 1, 1, 1]},
    "tf.nn.max_pool": {"input": IMAGE, "ksize": 2, "strides": 2, "padding": "SAME"},
    "tf.nn.max_pool1d": {"input": F(1, 4, 3), "ksize": 2, "strides": 2, "padding": "SAME"},
    "tf.nn.max_pool2d": {"input": IMAGE, "ksize": 2, "strides": 2, "padding": "SAME"},
    "tf.nn.max_pool3d": {"input": F(1, 4, 4, 4, 3), "ksize": 2, "strides": 2, "padding": "SAME"},
    "tf.nn.avg_pool": {"input": IMAGE, "ksize": 2, "strides": 2, "padding": "SAME"},
    "tf.nn.avg_pool1d": {"input": F(1, 4, 3), "ksize": 2, "strides": 2, "padding": "SAME"},
    "tf.nn.avg_pool2d": {"input": IMAGE, "ksize": 2, "strides": 2, "padding": "SAME"},
    "tf.nn.avg_pool3d": {"input": F(1, 4, 4, 4, 3), "ksize": 2, "strides": 2, "padding": "SAME"},
    "tf.nn.pool": {"input": IMAGE, "window_shape": [2, 2], "pooling_type": "MAX", "padding": "SAME"},
    "tf.nn.max_pool_with_argmax": {"input": IMAGE, "ksize": 2, "strides": 2, "padding": "SAME"},
    "tf.nn.fractional_max_pool": {"value": IMAGE, "pooling_ratio": [1.0, 1.5, 1.5, 1.0]},
    "tf.nn.fractional_avg_pool": {"value": IMAGE, "pooling_ratio": [1.0, 1.5, 1.5, 1.0]},
    "tf.nn.dropout": {"x": FLOAT_MATRIX, "rate": 0.5},
    "tf.nn.experimental.stateless_dropout": {"x": FLOAT_MATRIX, "rate": 0.5, "seed": I(2)},
    "tf.nn.bias_add": {"value": FLOAT_MATRIX, "bias": F(2)},
    "tf.nn.moments": {"x": FLOAT_MATRIX, "axes": [0]},
    "tf.nn.weighted_moments": {"x": FLOAT_MATRIX, "axes": [0], "frequency_weights": FLOAT_MATRIX},
    "tf.nn.sufficient_statistics": {"x": FLOAT_MATRIX, "axes": [0]},
    "tf.nn.batch_norm_with_global_normalization": {
        "input": IMAGE, "mean": F(3), "variance": F(3), "beta": F(3), "gamma": F(3),
        "variance_epsilon": 1e-3, "scale_after_normalization": True},
    "tf.nn.sigmoid_cross_entropy_with_logits": {"labels": FLOAT_MATRIX, "logits": FLOAT_MATRIX},
    "tf.nn.sparse_softmax_cross_entropy_with_logits": {"labels": I(2), "logits": FLOAT_MATRIX},
    "tf.nn.ctc_loss": {"labels": I(1, 2), "logits": F(3, 1, 4), "label_length": I(1), "logit_length": I(1),
                       "blank_index": 0},
    "tf.nn.collapse_repeated": {"labels": I(1, 3), "seq_length": I(1)},
    "tf.nn.ctc_greedy_decoder": {"inputs": F(3, 1, 4), "sequence_length": I(1)},
    "tf.nn.ctc_beam_search_decoder": {"inputs": F(3, 1, 4), "sequence_length": I(1)},
    "tf.nn.in_top_k": {"targets": I(2), "predictions": FLOAT_MATRIX, "k": 1},
    "tf.math.in_top_k": {"targets": I(2), "predictions": FLOAT_MATRIX, "k": 1},
    "tf.nn.depth_to_space": {"input": F(1, 2, 2, 4), "block_size": 2},
    "tf.nn.space_to_batch": {"input": F(1, 4, 4, 3), "block_shape": [2, 2], "paddings": [[0, 0], [0, 0]]},
    "tf.space_to_batch": {"input": F(1, 4, 4, 3), "block_shape": [2, 2], "paddings": [[0, 0], [0, 0]]},
    "tf.space_to_batch_nd": {"input": F(1, 4, 4, 3), "block_shape": [2, 2], "paddings": [[0, 0], [0, 0]]},
    "tf.batch_to_space": {"input": F(4, 2, 2, 3), "block_shape": [2, 2], "crops": [[0, 0], [0, 0]]},
    "tf.nn.sampled_softmax_loss": {"weights": F(10, 3), "biases": F(10), "labels": I64(2, 1), "inputs": F(2, 3),
                                   "num_sampled": 2, "num_classes": 10},
    "tf.nn.nce_loss": {"weights": F(10, 3), "biases": F(10), "labels": I64(2, 1), "inputs": F(2, 3),
                       "num_sampled": 2, "num_classes": 10},
    "tf.nn.embedding_lookup_sparse": {"params": F(10, 3), "sp_ids": TensorArg("int64", (2, 2), "sparse"),
                                      "sp_weights": None},
    "tf.nn.safe_embedding_lookup_sparse": {"embedding_weights": F(10, 3),
                                           "sparse_ids": TensorArg("int64", (2, 2), "sparse")},
    **{f"tf.{ns}.{kind}_candidate_sampler": {
        "true_classes": I64(2, 1), "num_true": 1, "num_sampled": 2, "unique": True, "range_max": 10,
        **({"unigrams": [1.0] * 10} if kind == "fixed_unigram" else {})}
       for ns in ("nn", "random") for kind in ("log_uniform", "uniform", "learned_unigram", "fixed_unigram")},
    **{f"tf.{ns}.all_candidate_sampler": {"true_classes": I64(2, 1), "num_true": 1, "num_sampled": 2,
                                          "unique": True} for ns in ("nn", "random")},
    "tf.nn.compute_accidental_hits": {"true_classes": I64(2, 1), "sampled_candidates": I64(2), "num_true": 1},
    "tf.pad": {"tensor": FLOAT_MATRIX, "paddings": [[1, 1], [1, 1]]},
    "tf.range": {"start": TensorArg("int32", ()), "limit": TensorArg("int32", ())},
    "tf.reverse": {"tensor": FLOAT_MATRIX, "axis": [0]},
    "tf.roll": {"input": FLOAT_MATRIX, "shift": 1, "axis": 0},
    "tf.einsum": {"*args": ["ij,jk->ik", FLOAT_MATRIX, FLOAT_MATRIX]},
    "tf.linalg.einsum": {"*args": ["ij,jk->ik", FLOAT_MATRIX, FLOAT_MATRIX]},
    "tf.tensordot": {"a": FLOAT_MATRIX, "b": FLOAT_MATRIX, "axes": 1},
    "tf.linalg.tensordot": {"a": FLOAT_MATRIX, "b": FLOAT_MATRIX, "axes": 1},
    "tf.nn.experimental.general_dropout": {"x": FLOAT_MATRIX, "rate": 0.5,
                                           "uniform_sampler": Lazy(lambda tf: tf.random.uniform)},
    **{f"tf.tensor_scatter_nd_{kind}": {"tensor": FLOAT_MATRIX, "indices": I(1, 1), "updates": F(1, 2)}
       for kind in ("add", "sub", "max", "min", "update")},
    "tf.scatter_nd": {"indices": I(1, 1), "updates": F(1, 2), "shape": [2, 2]},
    "tf.fill": {"dims": [2, 2], "value": TensorArg("float32", ())},
    "tf.case": {"pred_fn_pairs": Lazy(lambda tf: [(tf.constant(True), lambda: tf.constant(1.0))]),
                "default": Lazy(lambda tf: lambda: tf.constant(0.0))},
    "tf.switch_case": {"branch_index": TensorArg("int32", ()),
                       "branch_fns": Lazy(lambda tf: [lambda: tf.constant(1.0), lambda: tf.constant(0.0)])},
    "tf.while_loop": {"cond": Lazy(lambda tf: lambda i: i < 3), "body": Lazy(lambda tf: lambda i: (i + 1,)),
                      "loop_vars": [TensorArg("int32", ())]},
    "tf.image.non_max_suppression": {"boxes": BOXES, "scores": F(3), "max_output_size": 2},
    "tf.image.non_max_suppression_with_scores": {"boxes": BOXES, "scores": F(3), "max_output_size": 2},
    "tf.image.non_max_suppression_overlaps": {"overlaps": F(3, 3), "scores": F(3), "max_output_size": 2},
    "tf.image.non_max_suppression_padded": {"boxes": BOXES, "scores": F(3), "max_output_size": 2},
    "tf.image.combined_non_max_suppression": {"boxes": F(1, 3, 1, 4), "scores": F(1, 3, 2),
                                              "max_output_size_per_class": 2, "max_total_size": 2},
    "tf.image.crop_and_resize": {"image": IMAGE, "boxes": F(1, 4), "box_indices": I(1), "crop_size": [2, 2]},
    "tf.image.extract_glimpse": {"input": IMAGE, "size": [2, 2], "offsets": F(1, 2)},
    "tf.image.extract_patches": {"images": IMAGE, "sizes": [1, 2, 2, 1], "strides": [1, 1, 1, 1],
                                 "rates": [1, 1, 1, 1], "padding": "SAME"},
    "tf.extract_volume_patches": {"input": F(1, 4, 4, 4, 3), "ksizes": [1, 2, 2, 2, 1],
                                  "strides": [1, 1, 1, 1, 1], "padding": "SAME"},
    "tf.image.central_crop": {"image": IMAGE, "central_fraction": 0.5},
    "tf.image.pad_to_bounding_box": {"image": IMAGE, "offset_height": 1, "offset_width": 1,
                                     "target_height": 6, "target_width": 6},
    "tf.image.grayscale_to_rgb": {"images": F(1, 4, 4, 1)},
    "tf.image.adjust_contrast": {"images": IMAGE, "contrast_factor": 0.5},
    "tf.image.random_contrast": {"image": IMAGE, "lower": 0.5, "upper": 1.5},
    "tf.image.stateless_random_contrast": {"image": IMAGE, "lower": 0.5, "upper": 1.5, "seed": I(2)},
    "tf.image.random_saturation": {"image": IMAGE, "lower": 0.5, "upper": 1.5},
    "tf.image.stateless_random_saturation": {"image": IMAGE, "lower": 0.5, "upper": 1.5, "seed": I(2)},
    "tf.image.random_hue": {"image": IMAGE, "max_delta": 0.2},
    "tf.image.stateless_random_hue": {"image": IMAGE, "max_delta": 0.2, "seed": I(2)},
    "tf.image.adjust_jpeg_quality": {"image": F(4, 4, 3), "jpeg_quality": 50},
    "tf.image.random_jpeg_quality": {"image": F(4, 4, 3), "min_jpeg_quality": 40, "max_jpeg_quality": 60},
    "tf.image.stateless_random_jpeg_quality": {"image": F(4, 4, 3), "min_jpeg_quality": 40,
                                               "max_jpeg_quality": 60, "seed": I(2)},
    "tf.image.ssim": {"img1": IMAGE, "img2": IMAGE, "max_val": 1.0, "filter_size": 3},
    "tf.image.ssim_multiscale": {"img1": F(1, 64, 64, 3), "img2": F(1, 64, 64, 3), "max_val": 1.0,
                                 "filter_size": 3},
    "tf.image.sample_distorted_bounding_box": {"image_size": I(3), "bounding_boxes": F(1, 1, 4)},
    "tf.image.stateless_sample_distorted_bounding_box": {"image_size": I(3), "bounding_boxes": F(1, 1, 4),
                                                         "seed": I(2)},
    "tf.image.generate_bounding_box_proposals": {"scores": F(1, 2, 2, 1), "bbox_deltas": F(1, 2, 2, 4),
                                                 "image_info": F(1, 5), "anchors": F(1, 4)},
    "tf.image.encode_png": {"image": TensorArg("uint8", (4, 4, 3))},
    "tf.io.encode_png": {"image": TensorArg("uint8", (4, 4, 3))},
    "tf.image.encode_jpeg": {"image": TensorArg("uint8", (4, 4, 3))},
    "tf.io.encode_jpeg": {"image": TensorArg("uint8", (4, 4, 3))},
    "tf.io.decode_csv": {"records": STRING_VECTOR, "record_defaults": [[0.0], [""]]},
    "tf.io.parse_example": {"serialized": STRING_VECTOR,
                            "features": Lazy(lambda tf: {"x": tf.io.FixedLenFeature([1], tf.float32)})},
    "tf.io.parse_single_example": {"serialized": TensorArg("string", ()),
                                   "features": Lazy(lambda tf: {"x": tf.io.FixedLenFeature([1], tf.float32)})},
    "tf.io.parse_sequence_example": {
        "serialized": STRING_VECTOR,
        "sequence_features": Lazy(lambda tf: {"x": tf.io.FixedLenSequenceFeature([1], tf.float32)})},
    "tf.io.parse_single_sequence_example": {
        "serialized": TensorArg("string", ()),
        "sequence_features": Lazy(lambda tf: {"x": tf.io.FixedLenSequenceFeature([1], tf.float32)})},
    "tf.io.write_file": {"filename": TensorArg("string", ()), "contents": TensorArg("string", ())},
    "tf.dynamic_partition": {"data": F(4), "partitions": I(4), "num_partitions": 2},
    "tf.dynamic_stitch": {"indices": [I(2), I(2)], "data": [F(2), F(2)]},
    "tf.linalg.set_diag": {"input": FLOAT_MATRIX, "diagonal": F(2)},
    "tf.linalg.tridiagonal_matmul": {"diagonals": F(3, 3), "rhs": F(3, 2)},
    "tf.linalg.tridiagonal_solve": {"diagonals": F(3, 3), "rhs": F(3, 2)},
    "tf.strings.format": {"template": "{} {}", "inputs": [STRING_VECTOR, FLOAT_MATRIX]},
    "tf.strings.ngrams": {"data": STRING_VECTOR, "ngram_width": 2},
    "tf.strings.substr": {"input": STRING_VECTOR, "pos": I(2), "len": I(2)},
    "tf.strings.unicode_encode": {"input": TensorArg("int32", (2, None), "ragged"), "output_encoding": "UTF-8"},
    "tf.strings.unicode_split": {"input": STRING_VECTOR, "input_encoding": "UTF-8"},
    "tf.strings.unicode_split_with_offsets": {"input": STRING_VECTOR, "input_encoding": "UTF-8"},
    "tf.strings.unicode_transcode": {"input": STRING_VECTOR, "input_encoding": "UTF-8",
                                     "output_encoding": "UTF-16-BE"},
    "tf.strings.to_hash_bucket_strong": {"input": STRING_VECTOR, "num_buckets": 4, "key": [1, 2]},
    "tf.sparse.sparse_dense_matmul": {"sp_a": SPARSE_MATRIX, "b": FLOAT_MATRIX},
    "tf.sparse.concat": {"axis": 0, "sp_inputs": [SPARSE_MATRIX, SPARSE_MATRIX]},
    "tf.sparse.split": {"sp_input": SPARSE_MATRIX, "num_split": 2, "axis": 0},
    "tf.sparse.slice": {"sp_input": SPARSE_MATRIX, "start": [0, 0], "size": [1, 1]},
    "tf.sparse.fill_empty_rows": {"sp_input": SPARSE_MATRIX, "default_value": 0.0},
    "tf.sparse.retain": {"sp_input": SPARSE_MATRIX, "to_retain": TensorArg("bool", (None,))},
    "tf.sparse.mask": {"a": Lazy(lambda tf: tf.IndexedSlices(tf.ones([2, 2]), tf.constant([0, 1]))),
                       "mask_indices": I(1)},
    "tf.sparse.to_indicator": {"sp_input": SPARSE_INT_MATRIX, "vocab_size": 4},
    "tf.sparse.map_values": {"*args": [Lazy(lambda tf: tf.math.abs), SPARSE_MATRIX]},
    "tf.bitcast": {"input": FLOAT_MATRIX, "type": Lazy(lambda tf: tf.int32)},
    "tf.identity_n": {"input": [FLOAT_MATRIX, FLOAT_MATRIX]},
    "tf.tuple": {"tensors": [FLOAT_MATRIX, FLOAT_MATRIX]},
    "tf.linalg.experimental.conjugate_gradient": {
        "operator": Lazy(lambda tf: tf.linalg.LinearOperatorFullMatrix(
            tf.eye(2), is_self_adjoint=True, is_positive_definite=True)),
        "rhs": F(2)},
    "tf.shape_n": {"input": [FLOAT_MATRIX, FLOAT_MATRIX]},
    "tf.parallel_stack": {"values": [FLOAT_MATRIX, FLOAT_MATRIX]},
    "tf.reverse_sequence": {"input": FLOAT_MATRIX, "seq_lengths": I(2), "seq_axis": 1, "batch_axis": 0},
    "tf.quantization.quantize": {"input": FLOAT_MATRIX, "min_range": 0.0, "max_range": 1.0,
                                 "T": Lazy(lambda tf: tf.quint8)},
    "tf.quantization.quantize_and_dequantize": {"input": FLOAT_MATRIX, "input_min": 0.0, "input_max": 1.0},
    "tf.quantization.quantize_and_dequantize_v2": {"input": FLOAT_MATRIX, "input_min": 0.0, "input_max": 1.0},
    "tf.quantization.fake_quant_with_min_max_vars": {"inputs": FLOAT_MATRIX, "min": F(), "max": F()},
    "tf.math.sobol_sample": {"dim": 2, "num_results": 4},
    "tf.random.fold_in": {"seed": I(2), "data": 1},
    "tf.random.experimental.stateless_fold_in": {"seed": I(2), "data": 1},
    "tf.random.create_rng_state": {"seed": 1, "alg": "philox"},
    "tf.random.experimental.create_rng_state": {"seed": 1, "alg": "philox"},
    "tf.random_index_shuffle": {"index": I64(), "seed": I64(3), "max_index": I64()},
    "tf.math.scalar_mul": {"scalar": 2.0, "x": FLOAT_MATRIX},
    "tf.scalar_mul": {"scalar": 2.0, "x": FLOAT_MATRIX},
    "tf.debugging.assert_rank": {"x": FLOAT_MATRIX, "rank": 2},
    "tf.assert_rank": {"x": FLOAT_MATRIX, "rank": 2},
    "tf.debugging.assert_rank_at_least": {"x": FLOAT_MATRIX, "rank": 1},
    "tf.debugging.assert_rank_in": {"x": FLOAT_MATRIX, "ranks": [1, 2]},
    "tf.debugging.assert_type": {"tensor": FLOAT_MATRIX, "tf_type": Lazy(lambda tf: tf.float32)},
    "tf.debugging.assert_shapes": {"shapes": Lazy(lambda tf: [])},
    "tf.Assert": {"condition": TensorArg("bool", ()), "data": [FLOAT_MATRIX]},
    "tf.debugging.Assert": {"condition": TensorArg("bool", ()), "data": [FLOAT_MATRIX]},
    "tf.signal.fft3d": {"input": TensorArg("complex64", (2, 2, 2))},
    "tf.signal.ifft3d": {"input": TensorArg("complex64", (2, 2, 2))},
    "tf.signal.irfft3d": {"input_tensor": TensorArg("complex64", (2, 2, 2))},
    "tf.signal.mdct": {"signals": F(16), "frame_length": 8},
    "tf.fftnd": {"input": TensorArg("complex64", (2, 2)), "fft_length": [2, 2], "axes": [0, 1]},
    "tf.ifftnd": {"input": TensorArg("complex64", (2, 2)), "fft_length": [2, 2], "axes": [0, 1]},
    "tf.rfftnd": {"input": FLOAT_MATRIX, "fft_length": [2, 2], "axes": [0, 1]},
    "tf.irfftnd": {"input": TensorArg("complex64", (2, 2)), "fft_length": [2, 2], "axes": [0, 1]},
}

KNOWN_PARAMS = (INT_PARAMS | BOOL_PARAMS | PY_INT_PARAMS | SHAPE_PARAMS | DTYPE_PARAMS | CALLABLE_PARAMS
                | {"inp", "inputs", "seed", "filters", "filter", "value_range", "true_classes", "equation"})


def required_params(fn: Callable[..., Any]) -> list[str] | None:
    from tensorflow.python.util import tf_inspect

    try:
        spec = tf_inspect.getfullargspec(fn)
    except TypeError:
        return None
    n_defaults = len(spec.defaults or ())
    required = list(spec.args[: len(spec.args) - n_defaults])
    required += [p for p in spec.kwonlyargs if p not in (spec.kwonlydefaults or {})]
    return required


def default_values(fn: Callable[..., Any]) -> dict[str, Any]:
    from tensorflow.python.util import tf_inspect

    try:
        spec = tf_inspect.getfullargspec(fn)
    except TypeError:
        return {}
    defaults = dict(zip(spec.args[len(spec.args) - len(spec.defaults or ()):], spec.defaults or ()))
    defaults.update(spec.kwonlydefaults or {})
    return defaults


class TraceTimeout(Exception):
    pass


def _on_alarm(signum: int, frame: Any) -> None:
    raise TraceTimeout


def bind(tf: Any, fn: Callable[..., Any], args: dict[str, Any]) -> tuple[list[TensorArg], Callable[..., Any]]:
    """The graph inputs ``args`` holds, and a function of those inputs that calls ``fn(**args)``."""
    slots: list[tuple[str, int | None]] = []  # (parameter, index in a list argument or None)
    inputs: list[TensorArg] = []
    for key, value in args.items():
        if isinstance(value, TensorArg):
            slots.append((key, None))
            inputs.append(value)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, TensorArg):
                    slots.append((key, index))
                    inputs.append(item)

    def call(*tensors: Any) -> Any:
        kwargs: dict[str, Any] = {}
        for key, value in args.items():
            if isinstance(value, str) and value == "callable":
                kwargs[key] = lambda *a, **_: a[0] if a else tf.constant(0.0)
            elif isinstance(value, str) and value.startswith("dtype:"):
                kwargs[key] = getattr(tf, value.split(":", 1)[1])
            elif isinstance(value, Lazy):
                kwargs[key] = value.make(tf)
            elif isinstance(value, list):
                kwargs[key] = [item.make(tf) if isinstance(item, Lazy) else item for item in value]
            else:
                kwargs[key] = value
        for (key, index), tensor in zip(slots, tensors):
            if index is None:
                kwargs[key] = tensor
            else:
                kwargs[key] = [*kwargs[key][:index], tensor, *kwargs[key][index + 1:]]
        positional = [item for key in list(kwargs) if key.startswith("*") for item in kwargs.pop(key)]
        out = fn(*positional, **kwargs)
        if out is None:
            return None
        return tf.nest.map_structure(lambda t: t if tf.is_tensor(t) else tf.constant(0), out, expand_composites=True)

    return inputs, call


def graph_ops(tf: Any, fn: Callable[..., Any], args: dict[str, Any]) -> frozenset[str]:
    """Trace ``fn(**args)`` into a tf.function graph; return every op type in it and its nested functions."""
    inputs, call = bind(tf, fn, args)
    specs = [item.spec(tf) for item in inputs]

    signal.alarm(TRACE_TIMEOUT_S)
    try:
        concrete = tf.function(call, autograph=False).get_concrete_function(*specs)
    finally:
        signal.alarm(0)
    graph_def = concrete.graph.as_graph_def()
    ops = {node.op for node in graph_def.node}
    for function in graph_def.library.function:
        ops.update(node.op for node in function.node_def)
    # A node may call a library function by name (TF1-style while bodies in ctc_loss); its body
    # is already counted, and the generated name is neither an op nor stable across runs.
    return frozenset(ops - {function.signature.name for function in graph_def.library.function})


def trace_default(tf: Any, name: str, fn: Callable[..., Any]) -> TraceResult | None:
    """Trace with the first synthetic arguments that work: required parameters first, then known optional ones."""
    if name in ARG_OVERRIDES:
        try:
            return TraceResult(graph_ops(tf, fn, ARG_OVERRIDES[name]), ARG_OVERRIDES[name])
        except (Exception, TraceTimeout) as error:  # noqa: BLE001 - fall back to synthetic arguments
            logger.warning("override arguments for %s failed: %s", name, str(error).splitlines()[0][:200])
    required = required_params(fn)
    if required is None:
        return None
    optional = [p for p in default_values(fn) if p in KNOWN_PARAMS and default_values(fn)[p] is None]
    profiles = PROFILES
    for prefixes, preferred in PREFERRED_PROFILES:
        if name.startswith(prefixes):
            profiles = (*preferred, *PROFILES)
    for params in (required, required + optional):
        for profile in profiles:
            args = {p: synthetic_value(p, profile) for p in params}
            try:
                return TraceResult(graph_ops(tf, fn, args), args)
            except (Exception, TraceTimeout):  # noqa: BLE001 - any failure means "try the next profile"
                continue
        if not optional:
            break
    return None


# Argument values beyond bool flips and VALUE_PROBES, found from the function itself: a parameter
# whose default is a string (or None, for the names below) is traced with a string no API accepts,
# and the quoted words of TensorFlow's own ValueError are its choices ("`data_format` must be
# 'NHWC' or 'NCHW'"); numeric flags are set to a value other than their default.
BOGUS_CHOICE = "xlacheck_no_such_choice"
CHOICE_WORD_RE = re.compile(r"""['"`]([A-Za-z][A-Za-z0-9_-]*)['"`]""")
CHOICE_PARAMS = frozenset({
    "method", "padding", "data_format", "interpolation", "mode", "reduction", "alg", "direction", "ord",
    "noise", "align", "round_mode", "side", "implementation", "fill_mode", "norm", "format",
})
NUMERIC_PROBES: dict[str, Any] = {"dilations": 2, "dilation_rate": 2, "depth_multiplier": 2}
MAX_CHOICES = 10


def string_choices(tf: Any, fn: Callable[..., Any], base: dict[str, Any], param: str) -> tuple[str, ...]:
    """The values TensorFlow's validation lists for ``param`` when it is given a string it does not
    accept (traced with ``base`` otherwise); () when the error lists none or tracing accepts it."""
    try:
        graph_ops(tf, fn, {**base, param: BOGUS_CHOICE})
    except TraceTimeout:
        return ()
    except Exception as error:  # noqa: BLE001 - the validation error is the point
        message = str(error)
        if BOGUS_CHOICE not in message:
            return ()  # failed for another reason: the message lists nothing about this argument
        words = [w for w in CHOICE_WORD_RE.findall(message) if w not in (BOGUS_CHOICE, param)]
        return tuple(dict.fromkeys(words))[:MAX_CHOICES]
    return ()


def variants(tf: Any, name: str, fn: Callable[..., Any], base: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """(argument, value) pairs to trace besides the defaults: every bool flipped, the strings of
    ``VALUE_PROBES`` and those TensorFlow's validation lists (:func:`string_choices`), numeric
    flags of ``NUMERIC_PROBES``. Arguments the synthetic call already sets are left alone."""
    defaults = default_values(fn)
    seen: set[tuple[str, Any]] = set()

    def fresh(param: str, value: Any) -> bool:
        key = (param, value if not isinstance(value, list) else tuple(value))
        if key in seen:
            return False
        seen.add(key)
        return True

    for param, default in sorted(defaults.items()):
        if isinstance(default, bool) and param not in base and fresh(param, not default):
            yield param, not default
    for param, values in sorted(VALUE_PROBES.get(name, {}).items()):
        for value in values:
            if value != defaults.get(param) and fresh(param, value):
                yield param, value
    for param, default in sorted(defaults.items()):
        if param in base:
            continue
        if isinstance(default, str) or (default is None and param in CHOICE_PARAMS):
            for value in string_choices(tf, fn, base, param):
                if value != default and fresh(param, value):
                    yield param, value
        elif param in NUMERIC_PROBES and not isinstance(default, bool) and default in (None, 1, [1, 1], (1, 1)):
            if fresh(param, NUMERIC_PROBES[param]):
                yield param, NUMERIC_PROBES[param]


Probe = tuple[Callable[[Any], Any], dict[str, Callable[[Any, Any], Any]]]


def class_probes(tf: Any) -> dict[str, Probe]:
    """Public classes whose construction or methods create ops: name -> (construct, {method: use}).

    ``construct(x)`` builds the object (x is a float32 [2, 2] graph input); ``use(obj, x)`` calls
    the method. The class entry gets the ops of construction, and each ``Class.method`` entry only
    the ops the method adds: a table built outside a compiled step is captured by it, not rebuilt.
    """

    def int_keys(x: Any) -> Any:
        return tf.cast(tf.reshape(x, [-1]), tf.int64)

    def static_table(x: Any) -> Any:
        init = tf.lookup.KeyValueTensorInitializer(tf.constant([1, 2], tf.int64), tf.constant([10, 20], tf.int64))
        return tf.lookup.StaticHashTable(init, default_value=-1)

    def vocabulary_table(x: Any) -> Any:
        init = tf.lookup.KeyValueTensorInitializer(tf.constant(["a", "b"]), tf.constant([0, 1], tf.int64))
        return tf.lookup.StaticVocabularyTable(init, num_oov_buckets=1)

    def dense_table(x: Any) -> Any:
        return tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, default_value=-1, empty_key=0, deleted_key=-1)

    # A Generator owns a variable, which a traced function may not create: build it once, eagerly.
    generator = tf.random.Generator.from_seed(1)

    def mutable_table(x: Any) -> Any:
        return tf.lookup.experimental.MutableHashTable(tf.int64, tf.int64, default_value=-1)

    return {
        # every public method of a table runs a LookupTable* op on its resource (size() as much as lookup())
        "tf.lookup.StaticHashTable": (static_table, {"lookup": lambda t, x: t.lookup(int_keys(x)),
                                                     "size": lambda t, x: t.size(),
                                                     "export": lambda t, x: t.export()[0]}),
        "tf.lookup.StaticVocabularyTable": (
            vocabulary_table, {"lookup": lambda t, x: t.lookup(tf.constant(["a", "c"])), "size": lambda t, x: t.size()}
        ),
        "tf.lookup.experimental.DenseHashTable": (dense_table, {"lookup": lambda t, x: t.lookup(int_keys(x)),
                                                                "size": lambda t, x: t.size(),
                                                                "export": lambda t, x: t.export()[0]}),
        "tf.lookup.experimental.MutableHashTable": (
            mutable_table,
            {"lookup": lambda t, x: t.lookup(int_keys(x)), "insert": lambda t, x: t.insert(int_keys(x), int_keys(x)),
             "size": lambda t, x: t.size(), "export": lambda t, x: t.export()[0]},
        ),
        "tf.random.Generator": (
            lambda x: generator,
            {
                "normal": lambda g, x: g.normal([2]),
                "uniform": lambda g, x: g.uniform([2]),
                "truncated_normal": lambda g, x: g.truncated_normal([2]),
                "binomial": lambda g, x: g.binomial([2], 5.0, 0.5),
            },
        ),
        # A TensorArray a compiled function builds and fills: each method entry holds the ops the
        # method adds to a fresh array (ta.scatter creates TensorListScatterIntoExistingList).
        "tf.TensorArray": (
            lambda x: tf.TensorArray(tf.float32, size=2, element_shape=[2]),
            {
                "write": lambda ta, x: ta.write(0, x[0]).flow,
                "read": lambda ta, x: ta.write(0, x[0]).read(0),
                "unstack": lambda ta, x: ta.unstack(x).flow,
                "scatter": lambda ta, x: ta.scatter([0, 1], x).flow,
                "split": lambda ta, x: ta.split(tf.reshape(x, [4]), [2, 2]).flow,
                "stack": lambda ta, x: ta.stack(),
                "gather": lambda ta, x: ta.gather([0, 1]),
                "concat": lambda ta, x: ta.concat(),
                "size": lambda ta, x: ta.size(),
            },
        ),
    }


# Objects whose methods a compiled step calls, generated from the framework: every public
# ``tf.linalg.LinearOperator*`` class (built from a 2x2 positive-definite matrix by the names of its
# required parameters) with every public method of ``LinearOperator`` that takes no argument or one
# right-hand side; every ``tf.queue`` class; a ``tf.data`` iterator (``next(it)`` is ``get_next``);
# every ``tf.keras.optimizers`` optimizer's ``apply_gradients`` and every ``tf.keras.initializers``
# initializer's call. Each ``Class.method`` entry holds the ops the method adds; an op without a
# kernel is kept only where compiling the method under jit_compile=True confirms it
# (:func:`object_method_entries`).
LINEAR_OPERATOR_METHODS: dict[str, Callable[[Any, Any], Any]] = {
    **{name: (lambda m: lambda op, x: getattr(op, m)())(name) for name in (
        "determinant", "log_abs_determinant", "to_dense", "diag_part", "trace", "eigvals", "cond",
        "shape_tensor", "tensor_rank_tensor", "domain_dimension_tensor", "range_dimension_tensor",
        "assert_non_singular", "assert_positive_definite", "assert_self_adjoint")},
    "cholesky": lambda op, x: op.cholesky().to_dense(),
    "inverse": lambda op, x: op.inverse().to_dense(),
    "adjoint": lambda op, x: op.adjoint().to_dense(),
    "matmul": lambda op, x: op.matmul(x),
    "solve": lambda op, x: op.solve(x),
    "matvec": lambda op, x: op.matvec(x[0]),
    "solvevec": lambda op, x: op.solvevec(x[0]),
}


def _linear_operator_args(tf: Any, cls: Any, x: Any) -> dict[str, Any] | None:
    """Constructor arguments of a LinearOperator class, by the names of its required parameters
    (a 2x2 positive-definite matrix and what the other kinds are built from); None when a
    required parameter has no recipe."""
    spd = tf.matmul(x, x, transpose_b=True) + 2.0 * tf.eye(2)
    recipes: dict[str, Callable[[], Any]] = {
        "matrix": lambda: spd, "tril": lambda: tf.linalg.band_part(spd, -1, 0),
        "diag": lambda: tf.linalg.diag_part(spd),
        "num_rows": lambda: 2, "multiplier": lambda: 2.0, "spectrum": lambda: tf.complex(tf.linalg.diag_part(spd), 0.0),
        "col": lambda: spd[0], "row": lambda: spd[0], "reflection_axis": lambda: tf.constant([1.0, 0.0]),
        "perm": lambda: tf.constant([1, 0]), "operator": lambda: tf.linalg.LinearOperatorFullMatrix(spd),
        "base_operator": lambda: tf.linalg.LinearOperatorFullMatrix(spd), "u": lambda: spd[:, :1],
        "operators": lambda: [tf.linalg.LinearOperatorFullMatrix(spd), tf.linalg.LinearOperatorDiag(spd[0])],
        "tril_operators": lambda: [[tf.linalg.LinearOperatorFullMatrix(spd)]],
    }
    try:
        params = [p for p in list(inspect.signature(cls.__init__).parameters.values())[1:]
                  if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    except (TypeError, ValueError):
        return None
    if any(p.name not in recipes for p in params):
        return None
    return {p.name: recipes[p.name]() for p in params}


def object_method_probes(tf: Any) -> dict[str, Probe]:
    """Probes (as :func:`class_probes`) generated from the framework's own class lists."""
    probes: dict[str, Probe] = {}
    for short in sorted(dir(tf.linalg)):
        cls = getattr(tf.linalg, short)
        if not (short.startswith("LinearOperator") and isinstance(cls, type)) or short == "LinearOperator":
            continue

        def construct(x: Any, cls: Any = cls) -> Any:
            args = _linear_operator_args(tf, cls, x)
            if args is None:
                raise TypeError(f"no recipe for {cls.__name__}")
            return cls(**args)

        probes[f"tf.linalg.{short}"] = (construct, dict(LINEAR_OPERATOR_METHODS))
    queue_methods: dict[str, Callable[[Any, Any], Any]] = {
        "enqueue": lambda q, x: q.enqueue(x[0]), "enqueue_many": lambda q, x: q.enqueue_many(x),
        "dequeue": lambda q, x: q.dequeue(), "dequeue_many": lambda q, x: q.dequeue_many(1),
        "size": lambda q, x: q.size(), "close": lambda q, x: q.close(),
    }
    # queues are made eagerly, as a program makes them before its step, and captured by it
    made_queues = {"FIFOQueue": lambda: tf.queue.FIFOQueue(4, [tf.float32], shapes=[[2]]),
                   "PaddingFIFOQueue": lambda: tf.queue.PaddingFIFOQueue(4, [tf.float32], shapes=[[2]]),
                   "RandomShuffleQueue": lambda: tf.queue.RandomShuffleQueue(4, 0, [tf.float32], shapes=[[2]])}
    for short in sorted(dir(tf.queue)):
        cls = getattr(tf.queue, short)
        if not (isinstance(cls, type) and short.endswith("Queue")) or short == "QueueBase":
            continue
        if short == "PriorityQueue":
            queue = tf.queue.PriorityQueue(4, [tf.float32], shapes=[[2]])
            probes[f"tf.queue.{short}"] = ((lambda x, q=queue: q), {
                "enqueue": lambda q, x: q.enqueue((tf.constant(0, tf.int64), x[0])),
                "dequeue": lambda q, x: q.dequeue()[1], "size": lambda q, x: q.size()})
        elif short in made_queues:
            made = made_queues[short]()
            probes[f"tf.queue.{short}"] = ((lambda x, q=made: q), queue_methods)
    # a dataset made eagerly and used in the step: built again there (a constructor), transformed,
    # reduced, or looped over (``for b in ds``, which AutoGraph turns into a dataset reduction)
    dataset = tf.data.Dataset.from_tensors(tf.zeros([2])).repeat(2)

    def loop(ds: Any) -> Any:
        total = tf.constant(0.0)
        for batch in ds:
            total += tf.reduce_sum(batch)
        return total

    looped = tf.autograph.to_graph(loop)
    probes["tf.data.Dataset"] = (lambda x: dataset, {
        # a transformation's own op: the pipeline's variant tensor, not read in the probe
        "from_tensor_slices": lambda ds, x: tf.data.Dataset.from_tensor_slices(x)._variant_tensor,
        "from_tensors": lambda ds, x: tf.data.Dataset.from_tensors(x)._variant_tensor,
        "range": lambda ds, x: tf.data.Dataset.range(2)._variant_tensor,
        "map": lambda ds, x: ds.map(lambda b: b * 2.0)._variant_tensor,
        "batch": lambda ds, x: ds.batch(2)._variant_tensor,
        "reduce": lambda ds, x: ds.reduce(0.0, lambda a, b: a + tf.reduce_sum(b)),
        "__iter__": lambda ds, x: looped(ds),
    })
    # an iterator is made eagerly (iter() of a dataset) and read in the step: next(it) is get_next()
    iterator = iter(tf.data.Dataset.from_tensors(tf.zeros([2])).repeat())
    probes["tf.data.Iterator"] = (lambda x: iterator, {
        "get_next": lambda it, x: it.get_next(), "__next__": lambda it, x: next(it),
        "get_next_as_optional": lambda it, x: it.get_next_as_optional().get_value()})
    return probes


def keras_object_probes(tf: Any) -> dict[str, Probe]:
    """tf_keras optimizers (``apply_gradients`` on one variable, built eagerly as a model builds
    them) and initializers (called on a static shape), as :func:`class_probes`."""
    if keras_layers() is None:
        return {}
    import tf_keras

    probes: dict[str, Probe] = {}
    for short in sorted(dir(tf_keras.optimizers)):
        cls = getattr(tf_keras.optimizers, short)
        if not isinstance(cls, type) or not issubclass(cls, tf_keras.optimizers.Optimizer) \
                or cls is tf_keras.optimizers.Optimizer:
            continue
        try:
            optimizer, variable = cls(), tf.Variable(tf.ones([2, 2]))
            optimizer.build([variable])
        except Exception:  # noqa: BLE001 - needs arguments (LossScaleOptimizer wraps another)
            continue
        probes[f"tf.keras.optimizers.{short}"] = (
            (lambda x, o=optimizer: o),
            {"apply_gradients": (lambda o, x, v=variable: (o.apply_gradients([(x, v)]), v.read_value())[1])})
    for short in sorted(dir(tf_keras.initializers)):
        cls = getattr(tf_keras.initializers, short)
        if not isinstance(cls, type) or not issubclass(cls, tf_keras.initializers.Initializer) \
                or cls is tf_keras.initializers.Initializer or short[0].islower():
            continue
        try:
            initializer = cls()
        except Exception:  # noqa: BLE001 - needs arguments (Constant is fine; none needs them today)
            continue
        probes[f"tf.keras.initializers.{short}"] = ((lambda x, i=initializer: i), {
            "__call__": (lambda i, x: i([2, 2], dtype=tf.float32))})
    return probes


# Keras 3 layers that tf_keras does not have (``keras.layers.RandAugment``, ``MixUp``, ``RandomShear``
# ...; xlacheck spells ``keras.layers.X`` as ``tf.keras.layers.X``): required constructor arguments,
# and the inputs tried in order (an image batch in [0, 255], a float matrix, a mono waveform).
KERAS3_LAYER_ARGS: dict[str, dict[str, Any]] = {
    "AdaptiveAveragePooling1D": {"output_size": 2}, "AdaptiveAveragePooling2D": {"output_size": 2},
    "AdaptiveAveragePooling3D": {"output_size": 2}, "AdaptiveMaxPooling1D": {"output_size": 2},
    "AdaptiveMaxPooling2D": {"output_size": 2}, "AdaptiveMaxPooling3D": {"output_size": 2},
    "GroupQueryAttention": {"head_dim": 2, "num_query_heads": 2, "num_key_value_heads": 1},
    "ReversibleEmbedding": {"input_dim": 8, "output_dim": 2}, "RandomElasticTransform": {},
    "MaxNumBoundingBoxes": {"max_number": 2}, "RandomColorDegeneration": {"factor": 0.5},
    "RandomHue": {"factor": 0.5}, "RandomPosterization": {"factor": (1, 4)}, "RandomSaturation": {"factor": 0.5},
    "RandomSharpness": {"factor": 0.5},
}
KERAS3_SKIP = frozenset({"FlaxLayer", "JaxLayer", "TorchModuleWrapper", "TFSMLayer", "Pipeline"})


def keras3_layer_entries(tf: Any, unsupported: frozenset[str], known: frozenset[str]) -> dict[str, dict[str, Any]]:
    """``tf.keras.layers.X`` for every Keras 3 layer class (``import keras``, TensorFlow backend) whose
    name is not in ``known`` (the tf_keras layers): built once eagerly with its defaults
    (``KERAS3_LAYER_ARGS``), called (``training=True`` where it takes it) inside a traced function on
    the first input it accepts; an op without a kernel kept only where compiling the call with
    jit_compile=True confirms it. Entries say ``"keras": 3``."""
    try:
        import keras
    except ImportError:
        return {}
    if not keras.__version__.startswith("3"):
        return {}
    if keras_layers() is not None:  # a class tf_keras has too is tf_keras's (TF_USE_LEGACY_KERAS=1)
        known = known | {f"tf.keras.layers.{short}" for short in dir(keras_layers()[0])}  # type: ignore[index]
    entries: dict[str, dict[str, Any]] = {}
    images = (TensorArg("float32", (1, 8, 8, 3)), F(2, 6), F(1, 64), F(2, 4, 6))
    for short in sorted(dir(keras.layers)):
        cls = getattr(keras.layers, short)
        name = f"tf.keras.layers.{short}"
        if not isinstance(cls, type) or not issubclass(cls, keras.layers.Layer) or short in KERAS3_SKIP \
                or name in known or short.startswith("_"):
            continue
        try:
            layer = cls(**KERAS3_LAYER_ARGS.get(short, {}))
        except Exception as error:  # noqa: BLE001 - needs arguments no recipe gives
            logger.info("keras 3 layer %s: not built (%s)", short, (str(error).splitlines() or [""])[0][:120])
            continue
        try:
            takes_training = "training" in inspect.signature(cls.call).parameters
        except (TypeError, ValueError):
            takes_training = False

        def call(x: Any, layer: Any = layer, takes_training: bool = takes_training) -> Any:
            out = layer(x * 255.0 if x.shape.rank == 4 else x, **({"training": True} if takes_training else {}))
            return tf.nest.flatten(out)[0]

        for example in images:
            try:
                ops = trace_probe_on(tf, call, example)
            except (Exception, TraceTimeout):  # noqa: BLE001 - this input does not fit: try the next
                continue
            found = ops & unsupported
            entry: dict[str, Any] = {"raw_ops": sorted(ops), "source": "trace", "keras": 3}
            if found:
                outcome, detail = compile_verdict(tf, call, {"x": example})
                if outcome == "compiled":  # in a branch or library function the program never runs
                    entry["compiled_despite_graph"], found = sorted(found), frozenset()
                elif outcome == "no_kernel":
                    found = found | (frozenset(detail) - BOUNDARY_OPS)
            entries[name] = {**entry, "unsupported": sorted(found)}
            break
    return entries


def object_method_entries(tf: Any, unsupported: frozenset[str]) -> dict[str, dict[str, Any]]:
    """Entries for :func:`object_method_probes` and :func:`keras_object_probes`: ``Class.method``
    with the ops the method adds to the constructed object; an op without a kernel is kept only
    when compiling the method (jit_compile=True, XLA:CPU) fails naming a kernel (graph ops in a
    library function the program never calls are dropped). A method that does not trace is left
    out. Returns the entries (sorted by name)."""
    entries: dict[str, dict[str, Any]] = {}
    for name, (construct, methods) in sorted({**object_method_probes(tf), **keras_object_probes(tf)}.items()):
        try:
            constructed = trace_probe(tf, lambda x: (construct(x), tf.constant(0.0))[1])
        except (Exception, TraceTimeout) as error:  # noqa: BLE001 - no recipe, or not buildable in a graph
            logger.info("object probe %s: not constructed (%s)", name, (str(error).splitlines() or [""])[0][:120])
            continue
        for method, use in sorted(methods.items()):
            try:
                used = trace_probe(tf, lambda x, use=use: use(construct(x), x))
            except (Exception, TraceTimeout):  # noqa: BLE001 - the method does not apply to this class
                continue
            added = used - constructed | (used & {"Identity"})
            found = added & unsupported
            entry: dict[str, Any] = {"raw_ops": sorted(added), "source": "trace"}
            if found:
                outcome, detail = compile_verdict(tf, lambda x, use=use: use(construct(x), x), {"x": FLOAT_MATRIX})
                if outcome == "compiled":  # in a branch or library function the program never runs
                    entry["compiled_despite_graph"], found = sorted(found), frozenset()
                elif outcome == "no_kernel":
                    found = found | (frozenset(detail) - BOUNDARY_OPS)
            method_name = "" if method == "__call__" else f".{method}"
            entries[f"{name}{method_name}"] = {**entry, "unsupported": sorted(found)}
    return entries


TRIVIAL_OPS = frozenset({"Const", "Identity", "NoOp"})


def trace_probe(tf: Any, body: Callable[[Any], Any]) -> frozenset[str]:
    return trace_probe_on(tf, body, FLOAT_MATRIX)


def trace_probe_on(tf: Any, body: Callable[[Any], Any], example: TensorArg) -> frozenset[str]:
    return graph_ops(tf, body, {"x": example}) - {"Placeholder"}


def class_entries(tf: Any, unsupported: frozenset[str]) -> dict[str, dict[str, Any]]:
    """API entries for the probed classes and their methods (``tf.lookup.StaticHashTable.lookup``)."""
    entries: dict[str, dict[str, Any]] = {}

    def record(name: str, ops: frozenset[str]) -> None:
        entries[name] = {"raw_ops": sorted(ops), "unsupported": sorted(ops & unsupported), "source": "trace"}

    for name, (construct, methods) in sorted(class_probes(tf).items()):
        constructed = trace_probe(tf, lambda x: (construct(x), tf.constant(0.0))[1])
        if constructed - TRIVIAL_OPS:
            record(name, constructed)
        for method, use in sorted(methods.items()):
            used = trace_probe(tf, lambda x: use(construct(x), x))
            record(f"{name}.{method}", used - constructed | (used & {"Identity"}))
    return entries


# Keras layers that wrap ops without an XLA kernel (lookup tables, hashing, image transforms):
# name -> (constructor arguments, call input). The layer is built outside the traced function,
# as a model builds it, so an entry holds the ops its call creates.
KERAS_LAYER_PROBES: dict[str, tuple[dict[str, Any], TensorArg]] = {
    "StringLookup": ({"vocabulary": ["a", "b"]}, STRING_VECTOR),
    "IntegerLookup": ({"vocabulary": [1, 2]}, I64(2)),
    "Hashing": ({"num_bins": 4}, STRING_VECTOR),
    "TextVectorization": ({"vocabulary": ["a", "b"]}, STRING_VECTOR),
    "CategoryEncoding": ({"num_tokens": 4, "output_mode": "multi_hot"}, I(2, 2)),
    "Discretization": ({"bin_boundaries": [0.5]}, FLOAT_MATRIX),
    "Normalization": ({"mean": 0.0, "variance": 1.0}, FLOAT_MATRIX),
    "Resizing": ({"height": 2, "width": 2}, IMAGE),
    "CenterCrop": ({"height": 2, "width": 2}, IMAGE),
    "Rescaling": ({"scale": 0.5}, IMAGE),
    "RandomFlip": ({}, IMAGE),
    "RandomRotation": ({"factor": 0.1}, IMAGE),
    "RandomZoom": ({"height_factor": 0.1}, IMAGE),
    "RandomTranslation": ({"height_factor": 0.1, "width_factor": 0.1}, IMAGE),
    "RandomCrop": ({"height": 2, "width": 2}, IMAGE),
    "RandomContrast": ({"factor": 0.1}, IMAGE),
    "RandomBrightness": ({"factor": 0.1}, IMAGE),
}


def keras_layers() -> tuple[Any, str] | None:
    """The Keras whose layers are probed: tf_keras (Keras 2, what TF_USE_LEGACY_KERAS=1 gives)."""
    try:
        import tf_keras
    except ImportError:
        return None
    return tf_keras.layers, f"tf_keras {tf_keras.__version__}"


def keras_entries(tf: Any, unsupported: frozenset[str]) -> dict[str, dict[str, Any]]:
    """``tf.keras.layers.X`` -> ops of calling the layer (training=True for the random ones)."""
    keras = keras_layers()
    if keras is None:
        logger.warning("tf_keras is not installed: no Keras layer entries")
        return {}
    layers, _ = keras
    entries: dict[str, dict[str, Any]] = {}

    def call_ops(cls: Any, kwargs: dict[str, Any], example: TensorArg) -> frozenset[str]:
        layer = cls(**kwargs)
        training = {"training": True} if cls.__name__.startswith("Random") else {}
        return trace_probe_on(tf, lambda x: layer(x, **training), example)

    for short, (kwargs, example) in sorted(KERAS_LAYER_PROBES.items()):
        name = f"tf.keras.layers.{short}"
        cls = getattr(layers, short)
        ops = call_ops(cls, kwargs, example)
        entry: dict[str, Any] = {"raw_ops": sorted(ops), "unsupported": sorted(ops & unsupported), "source": "trace"}
        conditions = []
        for param, values in sorted(VALUE_PROBES.get(name, {}).items()):
            for value in values:
                variant = call_ops(cls, {**kwargs, param: value}, example)
                if variant & unsupported != ops & unsupported:
                    conditions.append({"argument": param, "value": value, "raw_ops": sorted(variant),
                                       "unsupported": sorted(variant & unsupported)})
        if conditions:
            entry["conditions"] = conditions
        entries[name] = entry
    return entries


# tf.summary writers: each function traced while ``writer.as_default(step=...)`` is active, as a
# training loop sets it around its step. Without a default writer (or under ``tf.summary.record_if(False)``)
# they create no ops and compile; with one they write through ``WriteSummary`` (and EncodePng,
# TensorList ops ...), which have no XLA kernel. Entries get ``"when": "default_writer"``.
SUMMARY_PROBES: dict[str, Callable[[Any, Any], Any]] = {
    "scalar": lambda tf, x: tf.summary.scalar("s", tf.reduce_sum(x)),
    "histogram": lambda tf, x: tf.summary.histogram("h", x),
    "image": lambda tf, x: tf.summary.image("i", tf.reshape(x, [1, 2, 2, 1])),
    "text": lambda tf, x: tf.summary.text("t", tf.constant("step")),
    "audio": lambda tf, x: tf.summary.audio("a", tf.reshape(x, [1, 4, 1]), 8000),
    "write": lambda tf, x: tf.summary.write("w", x),
}


def summary_entries(tf: Any, unsupported: frozenset[str]) -> dict[str, dict[str, Any]]:
    """``tf.summary.X`` -> the ops it adds to a traced step while a default writer is set."""
    import tempfile

    writer = tf.summary.create_file_writer(tempfile.mkdtemp(prefix="xlacheck_summary_"))
    entries: dict[str, dict[str, Any]] = {}
    for short, write in sorted(SUMMARY_PROBES.items()):
        def body(x: Any, write: Callable[[Any, Any], Any] = write) -> Any:
            write(tf, x)
            return tf.identity(x)

        silent = trace_probe(tf, body)  # no default writer: nothing is written
        with writer.as_default(step=1):  # set outside the step, as a training loop sets it
            ops = trace_probe(tf, body)
        entries[f"tf.summary.{short}"] = {
            "raw_ops": sorted(ops), "unsupported": sorted(ops & unsupported), "source": "trace",
            "when": "default_writer", "without_writer_unsupported": sorted(silent & unsupported),
        }
    writer.close()
    return entries


# Global switches that instrument every function traced after them (a module-level call in a
# training script): name -> (switch on, switch off). The entry lists the ops a traced function
# gains while the switch is on.
SWITCH_PROBES: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    "tf.debugging.enable_check_numerics": (
        lambda tf: tf.debugging.enable_check_numerics(), lambda tf: tf.debugging.disable_check_numerics(),
    ),
    "tf.debugging.experimental.enable_dump_debug_info": (
        lambda tf: tf.debugging.experimental.enable_dump_debug_info(
            __import__("tempfile").mkdtemp(prefix="xlacheck_dump_"), tensor_debug_mode="FULL_HEALTH"),
        lambda tf: tf.debugging.experimental.disable_dump_debug_info(),
    ),
}


# Loop APIs run inside a function given to tf.vectorized_map: pfor vectorizes the loop itself,
# and for the TensorList-based functionals it emits TensorListReserve on variant lists, which has
# no XLA kernel. name -> the loop body used per row ``r`` (a float32 [4] vector).
VECTORIZED_MAP_PROBES: dict[str, Callable[[Any, Any], Any]] = {
    "tf.scan": lambda tf, r: tf.scan(lambda c, v: c + v, r, initializer=0.0),
    "tf.map_fn": lambda tf, r: tf.map_fn(lambda v: v * 2.0, r),
    "tf.foldl": lambda tf, r: tf.foldl(lambda a, v: a + v, r, initializer=0.0),
    "tf.foldr": lambda tf, r: tf.foldr(lambda a, v: a + v, r, initializer=0.0),
    "tf.while_loop": lambda tf, r: tf.while_loop(lambda i, s: i < 4, lambda i, s: (i + 1, s + r[i]), (0, 0.0))[1],
}


def vectorized_map_entries(tf: Any, unsupported: frozenset[str]) -> dict[str, dict[str, Any]]:
    """Loop API -> whether ``tf.vectorized_map`` of a function running it compiles with XLA:CPU
    (on a float32 [3, 4] input), and the ops the compiler named. The kernel table cannot say it:
    pfor's TensorListReserve over variant lists has no XLA kernel for that element type, while
    TensorListReserve itself has one."""
    entries: dict[str, dict[str, Any]] = {}
    for name, loop in sorted(VECTORIZED_MAP_PROBES.items()):
        verdict, ops = compile_verdict(tf, lambda x, loop=loop: tf.vectorized_map(lambda r: loop(tf, r), x),
                                       {"x": F(3, 4)})
        entries[name] = {"compiled": verdict == "compiled", "unsupported": ops if verdict == "no_kernel" else []}
        if verdict == "other":
            entries[name]["error"] = ops[0]
    return entries


def switch_entries(tf: Any, unsupported: frozenset[str]) -> dict[str, dict[str, Any]]:
    """``tf.debugging.enable_check_numerics`` ... -> the ops every later traced function gains."""

    def step(x: Any) -> Any:
        return tf.nn.softmax(tf.matmul(x, x))

    base = trace_probe(tf, step)
    entries: dict[str, dict[str, Any]] = {}
    for name, (switch_on, switch_off) in sorted(SWITCH_PROBES.items()):
        switch_on(tf)
        try:
            added = trace_probe(tf, step) - base
        finally:
            switch_off(tf)
        entries[name] = {"adds_ops": sorted(added), "unsupported": sorted(added & unsupported)}
    return entries


# --------------------------------------------------------------------------------------------
# Cross-check against the compiler


UNSUPPORTED_RE = re.compile(r"No registered '(\w+)' OpKernel for XLA_CPU_JIT")
# tf2xla refusing an element type in an op whose kernel exists (XlaOpKernelContext / the
# literal and shape converters): "Complex types not supported." (Bitcast to complex64),
# "Unsupported type ..." and "... unsupported type ...". The sentence, then the node it names.
TYPE_REJECTED_RE = re.compile(r"((?:Complex types not supported|[Uu]nsupported (?:data )?type)[^\n'\[]*?)\.?'?\s*"
                              r"\[\[\{\{node ([^}\s]+)\}\}\]\]")


def node_op_type(tf: Any, jitted: Any, inputs: list[TensorArg], node: str) -> str:
    """The op type of the node a compile error names (``Bitcast``), from the traced graph; the
    node name without a uniquifying ``_N`` suffix when the graph cannot be traced again."""
    try:
        graph = jitted.get_concrete_function(*[item.spec(tf) for item in inputs]).graph
        return str(graph.get_operation_by_name(node).type)
    except Exception:  # noqa: BLE001 - a composite input or a node of an inner function
        return re.sub(r"_\d+$", "", node.rsplit("/", 1)[-1])


def crosscheck_cases(tf: Any) -> list[tuple[str, dict[str, Any], Callable[[], Any]]]:
    """(api name, arguments that select the table entry or condition, a function compiled under XLA)."""
    x = tf.constant([[2.0, 1.0], [1.0, 3.0]])
    img = tf.random.stateless_uniform((1, 4, 4, 3), seed=(1, 2))
    v = tf.constant([3.0, 1.0, 2.0, 1.0])
    ids = tf.constant([0, 0, 1, 1])

    # Built eagerly, outside the compiled function, as a Keras layer or input pipeline would.
    table = tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(tf.constant([1, 2], tf.int64), tf.constant([10, 20], tf.int64)), -1
    )

    cases: list[tuple[str, dict[str, Any], Callable[[], Any]]] = []
    keras = keras_layers()
    if keras is not None:
        layers, _ = keras
        integer_lookup = layers.IntegerLookup(vocabulary=[1, 2])
        rotation = layers.RandomRotation(0.1)
        bicubic = layers.Resizing(2, 2, interpolation="bicubic")
        discretization = layers.Discretization(bin_boundaries=[1.5])
        cases += [
            ("tf.keras.layers.IntegerLookup", {}, lambda: integer_lookup(tf.cast(ids, tf.int64))),
            ("tf.keras.layers.RandomRotation", {}, lambda: rotation(img, training=True)),
            ("tf.keras.layers.Resizing", {"interpolation": "bicubic"}, lambda: bicubic(img)),
            ("tf.keras.layers.Discretization", {}, lambda: discretization(v)),
        ]
    return cases + [
        ("tf.strings.format", {}, lambda: tf.strings.format("{}", v)),
        ("tf.print", {}, lambda: (tf.print(v), v)[1]),
        ("tf.linalg.det", {}, lambda: tf.linalg.det(x)),
        ("tf.linalg.slogdet", {}, lambda: tf.linalg.slogdet(x)),
        ("tf.random.gamma", {}, lambda: tf.random.gamma([2], 1.0)),
        ("tf.random.poisson", {}, lambda: tf.random.poisson([2], 1.0)),
        ("tf.image.resize", {"method": "bicubic"}, lambda: tf.image.resize(img, [2, 2], method="bicubic")),
        ("tf.image.resize", {"antialias": True}, lambda: tf.image.resize(img, [2, 2], antialias=True)),
        ("tf.image.resize", {}, lambda: tf.image.resize(img, [2, 2])),
        ("tf.timestamp", {}, lambda: tf.timestamp()),
        ("tf.histogram_fixed_width", {}, lambda: tf.histogram_fixed_width(v, [0.0, 4.0], nbins=4)),
        ("tf.random.log_uniform_candidate_sampler", {},
         lambda: tf.random.log_uniform_candidate_sampler(tf.constant([[1]], tf.int64), 1, 2, True, 10)[0]),
        ("tf.strings.as_string", {}, lambda: tf.strings.as_string(v)),
        ("tf.unique_with_counts", {}, lambda: tf.unique_with_counts(v)[2]),
        ("tf.math.segment_sum", {}, lambda: tf.math.segment_sum(v, ids)),
        ("tf.sparse.sparse_dense_matmul", {},
         lambda: tf.sparse.sparse_dense_matmul(tf.sparse.from_dense(x), x)),
        ("tf.lookup.StaticHashTable.lookup", {}, lambda: table.lookup(tf.constant([1, 3], tf.int64))),
        ("tf.nn.ctc_loss", {},
         lambda: tf.nn.ctc_loss(tf.constant([[1, 2]]), tf.random.stateless_normal((3, 1, 4), seed=(1, 2)),
                                tf.constant([2]), tf.constant([3]), blank_index=0)),
        ("tf.image.non_max_suppression", {},
         lambda: tf.image.non_max_suppression(tf.constant([[0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 0.9, 0.9]]),
                                              tf.constant([0.9, 0.8]), 2)),
        ("tf.math.confusion_matrix", {}, lambda: tf.math.confusion_matrix(ids, ids, num_classes=2)),
        ("tf.searchsorted", {}, lambda: tf.searchsorted(tf.constant([1.0, 2.0, 3.0]), v)),
        ("tf.linalg.logdet", {}, lambda: tf.linalg.logdet(x)),
        ("tf.linalg.cholesky", {}, lambda: tf.linalg.cholesky(x)),
        ("tf.linalg.eigh", {}, lambda: tf.linalg.eigh(x)[0]),
        ("tf.linalg.svd", {}, lambda: tf.linalg.svd(x)[0]),
        ("tf.linalg.qr", {}, lambda: tf.linalg.qr(x)[0]),
        ("tf.random.categorical", {}, lambda: tf.random.categorical(tf.math.log([[0.5, 0.5]]), 3)),
        ("tf.matmul", {}, lambda: tf.matmul(x, x)),
        ("tf.unique", {}, lambda: tf.unique(v)[0]),
        ("tf.math.unsorted_segment_sum", {}, lambda: tf.math.unsorted_segment_sum(v, ids, 2)),
        ("tf.debugging.check_numerics", {}, lambda: tf.debugging.check_numerics(v, "bad")),
        ("tf.while_loop", {}, lambda: tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * 2.0), (0, v))[1]),
        ("tf.cond", {}, lambda: tf.cond(v[0] > 1.0, lambda: v * 2.0, lambda: v)),
        # Graph plumbing without a kernel is not lowered by the bridge inside a function body.
        ("tf.raw_ops.Switch", {}, lambda: tf.raw_ops.Switch(data=v, pred=v[0] > 1.0)[1]),
        ("tf.raw_ops.Placeholder", {}, lambda: (tf.raw_ops.Placeholder(dtype=tf.float32, shape=[4]), v)[1]),
    ]


def crosscheck(tf: Any, api: dict[str, dict[str, Any]], unsupported: frozenset[str]) -> list[dict[str, Any]]:
    results = []
    for name, when, build in crosscheck_cases(tf):
        entry = api.get(name)
        predicted: list[str] | None = None
        if name.startswith("tf.raw_ops."):
            op = name.removeprefix("tf.raw_ops.")
            predicted = [op] if op in unsupported else []
        elif entry is not None:
            predicted = entry["unsupported"]
            for condition in entry.get("conditions", ()):
                if when and condition["argument"] in when and condition["value"] == when[condition["argument"]]:
                    predicted = condition["unsupported"]
        error_ops: list[str] = []
        try:
            # autograph=False: AutoGraph would re-read these lambdas from the source file.
            # one compilation per probed op is the point of this tool
            tf.function(build, jit_compile=True, autograph=False)()  # xlacheck: ignore[XLA404]
            compiled = True
        except Exception as error:  # noqa: BLE001 - the compiler's verdict, whatever it is
            compiled = False
            message = str(error)
            error_ops = sorted(set(UNSUPPORTED_RE.findall(message)))
            if not error_ops:
                # Not a missing kernel: keep the error's type and its most informative line.
                lines = [line.strip() for line in message.splitlines() if line.strip()]
                key = next((line for line in reversed(lines) if "Error" in line or "error" in line), lines[-1:] or [""])
                error_ops = [f"<{type(error).__name__}: {key[:200]}>"]
        record: dict[str, Any] = {
            "api": name,
            "when": when,
            "predicted_unsupported": predicted,
            "compiled": compiled,
            "compiler_unsupported": error_ops,
        }
        record["agree"] = predicted is not None and (not predicted) == compiled and (
            compiled or set(error_ops) <= set(predicted) | unsupported
        )
        results.append(record)
    return results


# --------------------------------------------------------------------------------------------
# Assembly


def api_table(
    tf: Any, unsupported: frozenset[str]
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """Public name -> entry, and the synthetic arguments each traced entry was traced with."""
    functions = public_functions(tf)
    table: dict[str, dict[str, Any]] = {}
    traced_args: dict[str, dict[str, Any]] = {}
    for name, fn in sorted(functions.items()):
        generated = generated_op_name(fn)
        traced = trace_default(tf, name, fn)
        if traced is not None:
            ops, source = set(traced.ops), "trace"
        elif generated is not None:
            ops, source = {generated}, "generated"
        else:
            ops, source = static_ops(fn), "static"
            if not ops:
                logger.info("no ops found for %s", name)
                continue
        ops.discard("Placeholder")  # our own synthetic inputs
        entry: dict[str, Any] = {
            "raw_ops": sorted(ops),
            "unsupported": sorted(ops & unsupported),
            "source": source,
        }
        if traced is not None:
            conditions = _conditions(tf, name, fn, traced.args, ops, unsupported)
            if conditions:
                entry["conditions"] = conditions
            traced_args[name] = traced.args
        table[name] = entry
    return table, traced_args


BOUNDARY_OPS = frozenset({"_Arg", "_Retval"})  # reported for string inputs/outputs, whatever the ops


def compile_verdict(tf: Any, fn: Callable[..., Any], args: dict[str, Any], *,
                    type_rejections: bool = False) -> tuple[str, list[str]]:
    """Compile ``fn(**args)`` with XLA:CPU from TensorSpecs (no values, so nothing folds).

    Returns ("compiled", []), ("no_kernel", ops the compiler named) or ("other", [error line]).
    The compiler names only the first unsupported op(s) it meets, not all of them. With
    ``type_rejections`` (the dtype probes), tf2xla refusing an element type in an op that has a
    kernel ("Complex types not supported." for ``Bitcast`` to complex64) is
    ("type_rejected", [op type of the node the error names, the compiler's sentence]).
    """
    inputs, call = bind(tf, fn, args)
    jitted = tf.function(call, jit_compile=True, autograph=False)
    signal.alarm(TRACE_TIMEOUT_S)
    try:
        if all(item.kind == "dense" for item in inputs):
            jitted.experimental_get_compiler_ir(*[item.spec(tf) for item in inputs])(stage="hlo")
        else:
            # experimental_get_compiler_ir takes no composite specs: run it on small values
            # instead (they are arguments of the compiled function, so nothing folds either).
            jitted(*[item.example(tf) for item in inputs])
        return "compiled", []
    except (Exception, TraceTimeout) as error:  # noqa: BLE001 - the compiler's verdict, whatever it is
        message = str(error)
        ops = sorted(set(UNSUPPORTED_RE.findall(message)))
        if ops:
            return "no_kernel", ops
        rejected = TYPE_REJECTED_RE.search(message) if type_rejections else None
        if rejected is not None:
            return "type_rejected", [node_op_type(tf, jitted, inputs, rejected.group(2)), rejected.group(1)]
        lines = [line.strip() for line in message.splitlines() if line.strip()]
        return "other", [f"{type(error).__name__}: {(lines or [''])[0][:160]}"]
    finally:
        signal.alarm(0)


def api_compile_check(
    tf: Any, api: dict[str, dict[str, Any]], traced_args: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """Compile every traced entry with its synthetic inputs and compare with the registry's answer.

    Agreement: no unsupported op predicted and it compiles, or some predicted and the compiler
    names only predicted ones. A compile that fails for another reason (an input that must be a
    compile-time constant, a string crossing the function boundary) says nothing about kernels
    and is counted as inconclusive, by its error line.
    """
    functions = public_functions(tf)
    agree = 0
    disagreements: list[dict[str, Any]] = []
    inconclusive: dict[str, list[str]] = {}
    for name, args in sorted(traced_args.items()):
        predicted = set(api[name]["unsupported"])
        outcome, detail = compile_verdict(tf, functions[name], args)
        named = set(detail) - BOUNDARY_OPS if outcome == "no_kernel" else set()
        if (outcome == "compiled" and not predicted) or (named and named <= predicted):
            agree += 1
        elif outcome == "compiled" or named:
            record = {"api": name, "predicted_unsupported": sorted(predicted), "compiler": outcome,
                      "compiler_unsupported": sorted(named)}
            if outcome == "compiled" and not bind(tf, functions[name], args)[0]:
                # Every input was a Python constant: Grappler folded the op before XLA saw it.
                record["note"] = "no graph inputs: constant-folded before XLA; fails when an input is a tensor"
            disagreements.append(record)
        else:
            reason = "string tensor at the function boundary" if outcome == "no_kernel" else detail[0]
            reason = re.sub(r"__inference_\S+", "__inference_<fn>", reason)
            reason = re.sub(r"node \S+", "node <n>", reason)
            inconclusive.setdefault(reason, []).append(name)
    return {
        "checked": len(traced_args),
        "agree": agree,
        "disagreements": disagreements,
        "inconclusive": {reason: names for reason, names in sorted(inconclusive.items())},
    }


def primary_tensor(args: dict[str, Any]) -> tuple[str, str] | None:
    """The first argument that is a dense tensor (or a list of them), and its dtype. In a call
    given positionally (``{"*args": [...]}``, as ``tf.einsum("ij,jk->ik", a, b)``) the first dense
    tensor of the list, keyed ``*<index>``."""
    for key, value in args.items():
        if isinstance(value, TensorArg) and value.kind == "dense":
            return key, value.dtype
        if key == "*args" and isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, TensorArg) and item.kind == "dense":
                    return f"*{index}", item.dtype
            continue
        if isinstance(value, list) and value and all(isinstance(v, TensorArg) and v.kind == "dense" for v in value):
            return key, value[0].dtype
    return None


def positional_parameter(fn: Callable[..., Any], index: int) -> str:
    """The name of the parameter a positional argument at ``index`` binds (``inputs`` for the
    second argument of ``tf.einsum(equation, *inputs)``)."""
    from tensorflow.python.util import tf_inspect

    try:
        spec = tf_inspect.getfullargspec(fn)
    except TypeError:
        return f"arg{index}"
    if index < len(spec.args):
        return spec.args[index]
    return spec.varargs or f"arg{index}"


def with_dtype(args: dict[str, Any], original: str, dtype: str) -> dict[str, Any]:
    """``args`` with every dense tensor input of dtype ``original`` (lists included) made ``dtype``."""
    def swap(value: Any) -> Any:
        if isinstance(value, TensorArg) and value.kind == "dense" and value.dtype == original:
            return TensorArg(dtype, value.shape)
        return value

    return {key: [swap(v) for v in value] if isinstance(value, list) else swap(value) for key, value in args.items()}


def accepts_eagerly(tf: Any, fn: Callable[..., Any], args: dict[str, Any]) -> bool:
    """``fn(**args)`` runs eagerly on small values of the argument dtypes."""
    inputs, call = bind(tf, fn, args)
    signal.alarm(TRACE_TIMEOUT_S)
    try:
        call(*[item.example(tf) for item in inputs])
        return True
    except (Exception, TraceTimeout):  # noqa: BLE001 - any failure: the dtype is not accepted
        return False
    finally:
        signal.alarm(0)


def parameter_position(fn: Callable[..., Any], param: str) -> int | None:
    """The positional index of ``param`` in ``fn``'s signature (None: keyword-only or ``*args``)."""
    from tensorflow.python.util import tf_inspect

    try:
        names = tf_inspect.getfullargspec(fn).args
    except TypeError:
        return None
    return names.index(param) if param in names else None


def dtype_probe(
    tf: Any, api: dict[str, dict[str, Any]], traced_args: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """Compile every traced entry with its first tensor argument in each of ``PROBE_DTYPES``;
    add ``dtypes`` to the entries where some accepted dtypes compile and others fail on an op the
    compiler names. Returns the counts (``dtype_probe`` in the table)."""
    functions = public_functions(tf)
    counts = {"entries_probed": 0, "entries_with_failures": 0, "compiled": 0, "no_kernel": 0,
              "other_error": 0, "not_accepted_eagerly": 0}
    for name, args in sorted(traced_args.items()):
        _probe_dtypes(tf, api, name, functions[name], args, counts)
    counts.update(dtype_argument_probe(tf, api, traced_args, functions))
    return {"dtypes": list(PROBE_DTYPES), **counts}


def compile_by_dtype(tf: Any, fn: Callable[..., Any], variant_of: Callable[[str], dict[str, Any]],
                     counts: dict[str, int] | None = None
                     ) -> tuple[list[str], dict[str, list[str]], dict[str, str]]:
    """Each of ``PROBE_DTYPES`` whose arguments (``variant_of(dtype)``) ``fn`` accepts eagerly,
    compiled with XLA:CPU: the dtypes that compiled, those that failed with the ops the compiler
    named (no kernel for the dtype, or tf2xla rejecting the element type in the op), and for the
    rejections the compiler's sentence ("Complex types not supported"). ``counts`` (if given)
    tallies the outcomes."""
    tally = counts if counts is not None else {}
    compiled: list[str] = []
    failed: dict[str, list[str]] = {}
    rejected: dict[str, str] = {}
    for dtype in PROBE_DTYPES:
        variant = variant_of(dtype)
        if not accepts_eagerly(tf, fn, variant):
            tally["not_accepted_eagerly"] = tally.get("not_accepted_eagerly", 0) + 1
            continue
        outcome, detail = compile_verdict(tf, fn, variant, type_rejections=True)
        if outcome == "compiled":
            compiled.append(dtype)
        elif outcome == "no_kernel" and set(detail) - BOUNDARY_OPS:
            failed[dtype] = sorted(set(detail) - BOUNDARY_OPS)
        elif outcome == "type_rejected" and detail[0] not in BOUNDARY_OPS:
            failed[dtype], rejected[dtype] = [detail[0]], detail[1]
        else:
            tally["other_error"] = tally.get("other_error", 0) + 1
            continue
        key = outcome if outcome in ("compiled", "type_rejected") else "no_kernel"
        tally[key] = tally.get(key, 0) + 1
    return compiled, failed, rejected


def dtype_record(param: str, position: int | None, compiled: list[str], failed: dict[str, list[str]],
                 rejected: dict[str, str]) -> dict[str, Any]:
    """The table's record of one probed argument (``rejected`` only where tf2xla refused a type)."""
    record: dict[str, Any] = {"param": param, "position": position, "compile": compiled, "fail": failed}
    if rejected:
        record["rejected"] = rejected
    return record


def _probe_dtypes(tf: Any, api: dict[str, dict[str, Any]], name: str, fn: Callable[..., Any],
                  args: dict[str, Any], counts: dict[str, int]) -> None:
    """Compile ``fn(**args)`` with its first tensor argument in each of ``PROBE_DTYPES`` and set
    ``api[name]["dtypes"]`` where some accepted dtypes compile and others fail on a named op."""
    primary = primary_tensor(args)
    if primary is None:
        return
    key, original = primary
    if key.startswith("*"):  # positional call: the parameter the tensor binds, at its index
        position: int | None = int(key[1:])
        param = positional_parameter(fn, position)
    else:
        param, position = key, parameter_position(fn, key)
    counts["entries_probed"] += 1
    compiled, failed, rejected = compile_by_dtype(tf, fn, lambda dtype: with_dtype(args, original, dtype), counts)
    if compiled and failed:
        counts["entries_with_failures"] += 1
        api[name]["dtypes"] = dtype_record(param, position, compiled, failed, rejected)


# The usual names of a dtype argument, tried first; any other parameter whose traced value or
# default is a dtype (``type=`` of ``tf.bitcast``, ``Tout=``, ``to_type=``) is probed after them.
DTYPE_ARGUMENTS = ("dtype", "out_type", "output_type", "output_dtype")


def dtype_parameters(tf: Any, fn: Callable[..., Any], args: dict[str, Any]) -> list[str]:
    """The parameters of ``fn`` that take a dtype: traced with a ``dtype:`` value or a lazily
    built ``tf.DType``, or defaulting to a ``tf.DType`` (or None under a known dtype name)."""
    defaults = default_values(fn)

    def is_dtype(param: str) -> bool:
        value = args.get(param, defaults.get(param))
        if isinstance(value, str):
            return value.startswith("dtype:")
        if isinstance(value, Lazy):
            try:
                return isinstance(value.make(tf), tf.dtypes.DType)
            except Exception:  # noqa: BLE001 - a value that cannot be built outside a graph
                return False
        return isinstance(value, tf.dtypes.DType) or (value is None and param in DTYPE_PARAMS and param in defaults)

    seen = [*DTYPE_ARGUMENTS, *args, *defaults]
    return [p for i, p in enumerate(seen) if p not in seen[:i] and (p in args or p in defaults) and is_dtype(p)]


def dtype_argument_probe(
    tf: Any, api: dict[str, dict[str, Any]], traced_args: dict[str, dict[str, Any]],
    functions: dict[str, Callable[..., Any]],
) -> dict[str, int]:
    """The same for a function's dtype argument (``tf.random.uniform(..., dtype=)``,
    ``tf.argmax(..., output_type=)``): each of ``PROBE_DTYPES`` it accepts eagerly is compiled;
    recorded as ``dtype_arguments`` where some compile and others fail on an op the compiler names."""
    counts = {"dtype_arguments_probed": 0, "dtype_arguments_with_failures": 0}
    for name, args in sorted(traced_args.items()):
        _probe_dtype_argument(tf, api, name, functions[name], args, counts)
    return counts


def _probe_dtype_argument(tf: Any, api: dict[str, dict[str, Any]], name: str, fn: Callable[..., Any],
                          args: dict[str, Any], counts: dict[str, int]) -> None:
    """Probe each dtype parameter of ``fn`` (:func:`dtype_parameters`) in turn; the first where
    some dtypes compile and others fail is recorded as ``api[name]["dtype_arguments"]``."""
    for param in dtype_parameters(tf, fn, args):
        counts["dtype_arguments_probed"] = counts.get("dtype_arguments_probed", 0) + 1
        compiled, failed, rejected = compile_by_dtype(tf, fn, lambda dtype: {**args, param: f"dtype:{dtype}"})
        if compiled and failed:
            counts["dtype_arguments_with_failures"] = counts.get("dtype_arguments_with_failures", 0) + 1
            api[name]["dtype_arguments"] = dtype_record(param, parameter_position(fn, param), compiled, failed,
                                                        rejected)
            return


def build_table(tf: Any, *, compile_check: bool = True) -> dict[str, Any]:
    kernels = xla_kernel_ops(tf)
    # The unsupported set is judged over the whole registry; the table written lists only
    # tf.raw_ops, ops with an XLA kernel, and the ops public functions create.
    unsupported = unsupported_set(raw_op_table(tf, kernels, registered_ops(tf)))
    api, traced_args = api_table(tf, unsupported)
    api.update(class_entries(tf, unsupported))
    api.update(object_method_entries(tf, unsupported))
    api.update(keras_entries(tf, unsupported))
    api.update(summary_entries(tf, unsupported))
    sweep_check = sweep_entries(tf, api, unsupported)
    api.update(keras3_layer_entries(tf, unsupported, frozenset(api)))
    if keras_layers() is not None:  # constructor-argument variants of the swept layers
        api = refresh_layer_variants(tf, {"api": api}, None, sweep_check.setdefault("layer_variants", {}))
    # An op a public function creates may be registered without a tf.raw_ops export (a static
    # scan once found DTensor's Relayout): list such ops too, so every op an entry names is here.
    created = frozenset(op for entry in api.values() for op in entry.get("raw_ops", ()))
    raw_ops = with_type_constraints(tf, raw_op_table(tf, kernels, created))
    table: dict[str, Any] = {
        "schema": SCHEMA_VERSION,
        "tensorflow_version": tf.__version__,
        "generated": _table_check.generated_date(),
        "command": COMMAND,
        "keras_version": keras[1] if (keras := keras_layers()) else None,
        "backends": {
            device: len(ops) for device, ops in sorted(kernels.items())
        },
        "raw_ops": raw_ops,
        "api": api,
        "switches": switch_entries(tf, unsupported),
        "under_vectorized_map": vectorized_map_entries(tf, unsupported),
        "sweep_check": sweep_check,
    }
    if compile_check:
        table["crosscheck"] = crosscheck(tf, api, unsupported)
        table["api_compile_check"] = api_compile_check(tf, api, traced_args)
        table["dtype_probe"] = dtype_probe(tf, api, traced_args)
    return table


def refresh_probes(tf: Any, table: dict[str, Any]) -> dict[str, Any]:
    """``table`` with its explicitly probed entries (classes, Keras layers, tf.summary) measured
    again and the raw ops they create added; the traced API and the compile checks are kept."""
    if table.get("tensorflow_version") != tf.__version__:
        raise SystemExit(f"generate_op_table: --probes-only needs the TensorFlow the table was built with "
                         f"({table.get('tensorflow_version')}), found {tf.__version__}; run without it")
    kernels = xla_kernel_ops(tf)
    unsupported = unsupported_set(raw_op_table(tf, kernels, registered_ops(tf)))
    api = dict(table["api"])
    api.update(class_entries(tf, unsupported))
    api.update(object_method_entries(tf, unsupported))
    api.update(keras_entries(tf, unsupported))
    api.update(summary_entries(tf, unsupported))
    api.update(keras3_layer_entries(tf, unsupported, frozenset(n for n, e in api.items() if e.get("keras") != 3)))
    switches = switch_entries(tf, unsupported)
    vectorized = vectorized_map_entries(tf, unsupported)
    created = (frozenset(op for entry in api.values() for op in entry.get("raw_ops", ())) | frozenset(table["raw_ops"])
               | frozenset(op for entry in switches.values() for op in entry["adds_ops"])
               | frozenset(op for entry in vectorized.values() for op in entry["unsupported"]))
    return {**table, "api": api, "switches": switches, "under_vectorized_map": vectorized,
            "raw_ops": with_type_constraints(tf, raw_op_table(tf, kernels, created)),
            "generated": _table_check.generated_date()}


# Constructor arguments of Keras layers that are not variants of the computation (or that change
# what the call needs: stateful RNNs need a fixed batch size, return_state a tuple).
LAYER_VARIANT_SKIP = re.compile(r"initializer|regularizer|constraint|activation|^(name|dtype|trainable|dynamic|"
                                r"autocast|input_shape|batch_input_shape|stateful|return_state|seed)$")
LAYER_NUMERIC_PROBES: dict[str, Any] = {"dilation_rate": 2, "depth_multiplier": 2, "implementation": 1}


def _compile_object(tf: Any, fn: Callable[..., Any], inputs: list[TensorArg]) -> tuple[str, list[str]]:
    return compile_verdict(tf, lambda **kw: fn(*kw.values()), {f"x{i}": a for i, a in enumerate(inputs)})


def layer_variant_conditions(tf: Any, name: str, cls: Any, kwargs: dict[str, Any], unsupported: frozenset[str],
                             counts: dict[str, int]) -> list[dict[str, Any]]:
    """The constructor-argument variants of a Keras layer (bools flipped, string choices from the
    ValueError a bogus value raises at construction, ``LAYER_NUMERIC_PROBES``), each built, called
    on the first input the default layer accepts and compiled forward and backward (inputs and
    weights); recorded as ``conditions`` where the unsupported ops or a compiler verdict differ
    from the default layer's, as :func:`_conditions` does for functions."""
    made = {k: v.make(tf) if isinstance(v, Lazy) else v for k, v in kwargs.items()}
    call = _keras_call(cls, name.rsplit(".", 1)[-1])

    def probe_for(extra: dict[str, Any]) -> tuple[ObjectProbe, frozenset[str]] | None:
        for example in LAYER_INPUTS:
            try:
                probe = _object_probe(tf, lambda: cls(**made, **extra), example, call)
                return probe, _function_ops(tf, probe.forward, probe.inputs)
            except (Exception, TraceTimeout):  # noqa: BLE001 - this input does not fit: try the next
                continue
        return None

    base = probe_for({})
    if base is None:
        return []
    try:
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    except (TypeError, ValueError):
        return []
    candidates: list[tuple[str, Any]] = []
    for param in params:
        if param.default is param.empty or param.name in kwargs or LAYER_VARIANT_SKIP.search(param.name):
            continue
        if isinstance(param.default, bool):
            candidates.append((param.name, not param.default))
        elif isinstance(param.default, str) or (param.default is None and param.name in CHOICE_PARAMS):
            try:
                cls(**made, **{param.name: BOGUS_CHOICE})
            except Exception as error:  # noqa: BLE001 - the validation error lists the choices
                message = str(error)
                if BOGUS_CHOICE in message:
                    words = [w for w in CHOICE_WORD_RE.findall(message) if w not in (BOGUS_CHOICE, param.name)]
                    candidates += [(param.name, w) for w in dict.fromkeys(words) if w != param.default][:MAX_CHOICES]
        elif param.name in LAYER_NUMERIC_PROBES and param.default != LAYER_NUMERIC_PROBES[param.name]:
            candidates.append((param.name, LAYER_NUMERIC_PROBES[param.name]))
    if not candidates:
        return []
    def confirmed(probe: ObjectProbe, ops: frozenset[str]) -> tuple[frozenset[str], str]:
        """The ops without a kernel the compiler confirms (graph ops in a library function the
        compiled program never calls, such as CudnnRNNV3, are dropped), and its verdict."""
        outcome, detail = _compile_object(tf, probe.forward, probe.inputs)
        if outcome == "compiled":
            return frozenset(), outcome
        if outcome == "no_kernel":
            return frozenset(ops & unsupported) | (frozenset(detail) - BOUNDARY_OPS), outcome
        return frozenset(ops & unsupported), outcome

    base_probe, base_ops = base
    base_unsupported, base_fwd = confirmed(base_probe, base_ops)
    base_bwd = _compile_object(tf, base_probe.backward, base_probe.inputs)[0] if base_fwd == "compiled" else "other"
    conditions = []
    for param_name, value in candidates:
        variant = probe_for({param_name: value})
        if variant is None:
            continue
        probe, ops = variant
        counts["layer_variants"] = counts.get("layer_variants", 0) + 1
        variant_unsupported, outcome = confirmed(probe, ops)
        record: dict[str, Any] = {"argument": param_name, "value": value, "position": None,
                                  "raw_ops": sorted(ops), "unsupported": sorted(variant_unsupported)}
        changed = variant_unsupported != base_unsupported
        if not changed and not variant_unsupported and base_fwd == "compiled":
            if outcome != "compiled":
                detail = _compile_object(tf, probe.forward, probe.inputs)[1]
                record["compiles"] = False
                record["compile_error"] = (", ".join(sorted(set(detail) - BOUNDARY_OPS)) if outcome == "no_kernel"
                                           else detail[0])
                changed = True
            elif base_bwd in ("compiled", "no_kernel"):
                g_outcome, g_detail = _compile_object(tf, probe.backward, probe.inputs)
                if g_outcome in ("compiled", "no_kernel") and g_outcome != base_bwd:
                    record["grad_unsupported"] = sorted(set(g_detail) - BOUNDARY_OPS)
                    changed = True
        if changed:
            conditions.append(record)
    return conditions


def refresh_layer_variants(tf: Any, table: dict[str, Any], only: re.Pattern[str] | None,
                           counts: dict[str, int]) -> dict[str, dict[str, Any]]:
    """``conditions`` of the swept Keras layers (``tf.keras.layers.X`` entries that the sweep
    traced), measured by :func:`layer_variant_conditions`; the explicitly probed layers
    (``keras_entries``) keep theirs."""
    import tf_keras

    unsupported = unsupported_set(raw_op_table(tf, xla_kernel_ops(tf), registered_ops(tf)))
    api = dict(table["api"])
    explicit = {f"tf.keras.layers.{short}" for short in KERAS_LAYER_PROBES}
    for name, entry in sorted(api.items()):
        if not name.startswith("tf.keras.layers.") or name in explicit or "alias_of" in entry \
                or entry.get("source") != "trace" or (only is not None and not only.search(name)):
            continue
        short = name.rsplit(".", 1)[-1]
        cls = getattr(tf_keras.layers, short, None)
        kwargs = _construct_kwargs(cls, short) if isinstance(cls, type) else None
        if kwargs is None:
            continue
        counts["layers"] = counts.get("layers", 0) + 1
        conditions = layer_variant_conditions(tf, name, cls, kwargs, unsupported, counts)
        api[name] = {key: value for key, value in entry.items() if key != "conditions"}
        if conditions:
            api[name]["conditions"] = conditions
            counts["layers_with_conditions"] = counts.get("layers_with_conditions", 0) + 1
    return api


def refresh_variants(tf: Any, table: dict[str, Any], only: re.Pattern[str] | None = None
                     ) -> tuple[dict[str, Any], dict[str, int]]:
    """``table`` with the ``conditions`` of its traced function entries (the tf.* walk and the
    swept tf.compat.v1/Keras functions) measured again by :func:`_conditions`; ``only`` keeps the
    other entries as they are. Everything else is kept. Returns the table and counts."""
    if table.get("tensorflow_version") != tf.__version__:
        raise SystemExit(f"generate_op_table: --variants-only needs the TensorFlow the table was built with "
                         f"({table.get('tensorflow_version')}), found {tf.__version__}; run without it")
    kernels = xla_kernel_ops(tf)
    unsupported = unsupported_set(raw_op_table(tf, kernels, registered_ops(tf)))
    walked = public_functions(tf)
    swept = {name: fn for members in public_callables(tf).values() for name, fn in members.items()
             if not isinstance(fn, type)}
    api = dict(table["api"])
    counts = {"entries": 0, "with_conditions": 0}
    for name, entry in sorted(api.items()):
        if (only is not None and not only.search(name)) or "alias_of" in entry or entry.get("source") != "trace":
            continue
        fn = walked.get(name) or swept.get(name)
        if fn is None:
            continue
        traced = trace_default(tf, name, fn) if name in walked else sweep_trace(tf, name, fn)
        if traced is None:
            continue
        counts["entries"] += 1
        conditions = _conditions(tf, name, fn, traced.args, set(traced.ops) - {"Placeholder"}, unsupported, counts)
        api[name] = {key: value for key, value in entry.items() if key != "conditions"}
        if conditions:
            api[name]["conditions"] = conditions
            counts["with_conditions"] += 1
    if keras_layers() is not None:
        api = refresh_layer_variants(tf, {**table, "api": api}, only, counts)
    return {**table, "api": api, "generated": _table_check.generated_date()}, counts


def refresh_dtypes(tf: Any, table: dict[str, Any], only: re.Pattern[str] | None = None
                   ) -> tuple[dict[str, Any], dict[str, int]]:
    """``table`` with the ``dtypes`` and ``dtype_arguments`` of its traced function entries (the
    tf.* walk and the swept tf.compat.v1/Keras functions: ``tf.keras.ops.cumsum`` as well as
    ``tf.math.cumsum``) measured again by :func:`_probe_dtypes` and :func:`_probe_dtype_argument`;
    ``only`` keeps the other entries as they are. The run's counts, the TensorFlow version and the
    ``only`` pattern go to ``dtype_probe["refreshed"]``."""
    if table.get("tensorflow_version") != tf.__version__:
        raise SystemExit(f"generate_op_table: --dtypes-only needs the TensorFlow the table was built with "
                         f"({table.get('tensorflow_version')}), found {tf.__version__}; run without it")
    walked = public_functions(tf)
    swept = {name: fn for members in public_callables(tf).values() for name, fn in members.items()
             if not isinstance(fn, type)}
    api = dict(table["api"])
    counts: dict[str, Any] = {"entries_probed": 0, "entries_with_failures": 0, "compiled": 0, "no_kernel": 0,
              "other_error": 0, "not_accepted_eagerly": 0}
    for name, entry in sorted(api.items()):
        if (only is not None and not only.search(name)) or "alias_of" in entry or entry.get("source") != "trace" \
                or entry.get("unsupported"):
            continue
        fn = walked.get(name) or swept.get(name)
        traced = None if fn is None else trace_default(tf, name, fn) if name in walked else sweep_trace(tf, name, fn)
        if traced is None:
            continue
        api[name] = {key: value for key, value in entry.items() if key not in ("dtypes", "dtype_arguments")}
        _probe_dtypes(tf, api, name, fn, traced.args, counts)
        _probe_dtype_argument(tf, api, name, fn, traced.args, counts)
    counts = {**counts, "tensorflow_version": tf.__version__, "only": only.pattern if only is not None else None}
    return {**table, "api": api, "dtype_probe": refreshed_probe_counts(table.get("dtype_probe", {}), api, counts),
            "generated": _table_check.generated_date()}, counts


def refreshed_probe_counts(probe: dict[str, Any], api: dict[str, dict[str, Any]],
                           counts: dict[str, Any]) -> dict[str, Any]:
    """The table's ``dtype_probe`` after a ``--dtypes-only`` run: ``entries_with_failures`` counted
    again over the whole table, the run's own counts kept apart (``refreshed``; those of the runs
    before it in ``refreshed_earlier``, oldest first)."""
    earlier = [*probe.get("refreshed_earlier", ()), *([probe["refreshed"]] if "refreshed" in probe else [])]
    return {**probe, "entries_with_failures": sum(1 for entry in api.values() if "dtypes" in entry),
            "dtype_arguments_with_failures": sum(1 for entry in api.values() if "dtype_arguments" in entry),
            "refreshed": dict(counts), **({"refreshed_earlier": earlier} if earlier else {})}


# --------------------------------------------------------------------------------------------
# Coverage of the public API, and the sweep that widens it (tf.compat.v1, Keras layers, losses,
# metrics, backend and ops, and the gradient of every traced entry). Kept apart from the walk
# above: ``coverage_report`` measures, ``sweep_entries`` adds entries, ``gradient_entries`` adds
# ``grad_unsupported`` to entries that have a traced call.

# What the coverage measures: group -> (module path, table prefix). tf.keras is tf_keras under
# TF_USE_LEGACY_KERAS=1; keras.ops exists only in Keras 3 (xlacheck spells it tf.keras.ops).
COVERAGE_KERAS = ("layers", "losses", "metrics", "backend", "activations")
# tf namespaces that hold host-side, file, distribution or Python-only APIs: counted, not traced.
HOST_NAMESPACES = frozenset({
    "autodiff", "autograph", "config", "data", "distribute", "dtypes", "errors", "estimator", "experimental",
    "feature_column", "graph_util", "keras", "mlir", "saved_model", "summary", "sysconfig", "test", "tpu",
    "train", "types", "version", "xla", "tools", "profiler", "compiler", "__internal__", "nest", "flags",
    "app", "logging", "resource_loader", "gfile", "user_ops", "lite", "layers", "initializers", "metrics",
    "losses", "python_io", "manip", "spectral", "compat", "queue", "decode_proto", "tf_compat",
})
SWEEP_V1_SKIP = re.compile(
    r"^tf\.compat\.v1\.(get_variable|variable_scope|Session|InteractiveSession|\w*placeholder\w*|ragged\.placeholder|sparse\.placeholder|"
    r"assign\w*|scatter_\w+|batch_scatter_update|count_up_to|create_partitioned_variables|\w+_partitioner|"
    r"\w+_initializer|is_variable_initialized|delete_session_tensor|reset_default_graph|wrap_function|"
    r"load_file_system_library|add_to_collections?|NoGradient|NotDifferentiable|as_dtype|dimension_at_index|"
    r"io\.tf_record_iterator|io\.write_graph|quantization\.experimental\.|"
    r"global_variables\w*|local_variables\w*|trainable_variables|initialize_\w+|report_uninitialized\w*|"
    r"train\.|summary\.|layers\.|estimator\.|keras\.|gfile\.|flags\.|app\.|logging\.|saved_model\.|"
    r"data\.|distribute\.|tpu\.|profiler\.|test\.|lite\.|graph_util\.|resource_loader\.|sysconfig\.|"
    r"io\.gfile\.|python_io\.|user_ops\.|config\.|feature_column\.|metrics\.|losses\.|initializers\.)"
)
LAYER_INPUTS: tuple[Any, ...] = (
    F(2, 4), F(2, 3, 4), F(1, 4, 4, 3), F(1, 4, 4, 4, 3), I(2, 3), [F(2, 4), F(2, 4)], [F(2, 3, 4), F(2, 3, 4)],
)
# Constructor arguments by parameter name, for required parameters of Keras layers, losses, metrics.
LAYER_ARGS: dict[str, Any] = {
    "units": 2, "filters": 2, "kernel_size": 1, "pool_size": 2, "rate": 0.5, "output_dim": 2, "input_dim": 4,
    "num_heads": 2, "key_dim": 2, "size": 2, "target_shape": (-1,), "dims": (1,), "n": 2, "height": 2, "width": 2,
    "factor": 0.1, "height_factor": 0.1, "width_factor": 0.1, "scale": 0.5, "num_bins": 4, "axis": -1,
    "l1": 0.01, "l2": 0.01, "stddev": 0.1, "num_tokens": 4, "bin_boundaries": [0.5], "vocabulary": ["a", "b"],
    "depth_multiplier": 1, "groups": 1, "max_value": 6.0, "function": Lazy(lambda tf: lambda x: x),
    "cell": Lazy(lambda tf: keras_layers()[0].SimpleRNNCell(2)),  # type: ignore[index]
    "layer": Lazy(lambda tf: keras_layers()[0].LSTM(2)),  # type: ignore[index]
    "num_classes": 2, "thresholds": 0.5, "class_id": 0, "k": 1, "recall": 0.5, "precision": 0.5,
    "specificity": 0.5, "sensitivity": 0.5, "target_class_ids": [0], "fn": Lazy(lambda tf: lambda a, b: a - b),
    "name": None, "mask_value": 0.0, "cropping": 1, "padding": 1, "data_format": None, "noise_shape": None,
    "sparse": False, "implementation": None,
}

LOSS_INPUTS: tuple[Any, ...] = ([F(2, 3), F(2, 3)], [I(2), F(2, 3)])
# Layers whose required arguments LAYER_ARGS cannot give, or whose defaults do not fit LAYER_INPUTS.
LAYER_OVERRIDES: dict[str, dict[str, Any]] = {
    "Activation": {"activation": "relu"},
    "Dot": {"axes": 1},
    "EinsumDense": {"equation": "ab,bc->ac", "output_shape": 2},
    "GroupNormalization": {"groups": 2},
    "SpectralNormalization": {"layer": Lazy(lambda tf: keras_layers()[0].Dense(2))},  # type: ignore[index]
    "HashedCrossing": {"num_bins": 4},
}
LAYER_CALLS: dict[str, Callable[[Any, Any], Any]] = {
    "MultiHeadAttention": lambda layer, x: layer(x, x),
}
# Inputs for swept functions whose parameters synthetic_value cannot guess (as ARG_OVERRIDES).
SWEEP_ARG_OVERRIDES: dict[str, dict[str, Any]] = {
    "tf.compat.v1.Print": {"input_": FLOAT_MATRIX, "data": [FLOAT_MATRIX]},
    "tf.compat.v1.nn.ctc_loss": {"labels": TensorArg("int32", (1, 2), "sparse"), "inputs": F(3, 1, 4),
                                 "sequence_length": I(1)},
    "tf.compat.v1.image.draw_bounding_boxes": {"images": IMAGE, "boxes": F(1, 1, 4)},
    "tf.keras.backend.ctc_batch_cost": {"y_true": I(1, 2), "y_pred": F(1, 3, 4), "input_length": I(1, 1),
                                        "label_length": I(1, 1)},
    "tf.keras.backend.ctc_decode": {"y_pred": F(1, 3, 4), "input_length": I(1)},
    "tf.keras.backend.resize_images": {"x": IMAGE, "height_factor": 2, "width_factor": 2,
                                       "data_format": "channels_last"},
    "tf.keras.backend.in_top_k": {"predictions": FLOAT_MATRIX, "targets": I(2), "k": 1},
    "tf.keras.ops.ctc_loss": {"target": I(1, 2), "output": F(1, 3, 4), "target_length": I(1), "output_length": I(1)},
    "tf.keras.ops.ctc_decode": {"inputs": F(1, 3, 4), "sequence_lengths": I(1)},
    "tf.keras.ops.in_top_k": {"targets": I(2), "predictions": FLOAT_MATRIX, "k": 1},
}
# TF1 parameter names of the tf.* ARG_OVERRIDES parameters (tf.compat.v1.nn.conv2d's filter=).
V1_PARAM_NAMES: dict[str, tuple[str, ...]] = {
    "filters": ("filter",), "input": ("value", "input_"), "box_indices": ("box_ind",), "sizes": ("ksizes",),
    "x": ("features", "input"), "ksize": ("ksize",), "stride": ("stride",),
}
LAYER_SKIP = frozenset({"InputLayer", "Wrapper", "RNN", "AbstractRNNCell", "StackedRNNCells", "DenseFeatures"})
# Keras backend functions that create variables, placeholders or sessions, or serialize: not ops.
KERAS_NOT_OPS = frozenset({
    "variable", "placeholder", "clear_session", "eval", "function", "serialize", "deserialize", "get",
    "is_keras_tensor", "is_placeholder", "batch_get_value", "batch_set_value", "name_scope", "device",
    "manual_variable_initialization", "random_uniform_variable", "random_normal_variable", "learning_phase",
    "update", "update_add", "update_sub", "moving_average_update", "zeros", "ones", "eye", "identity",
})


def _callable_members(module: Any, prefix: str, depth: int, out: dict[str, Any], seen_modules: set[int],
                      skip: frozenset[str] = frozenset()) -> None:
    """name -> callable (functions and classes) under ``module``, sub-modules to ``depth``."""
    if id(module) in seen_modules:
        return
    seen_modules.add(id(module))
    try:
        attrs = sorted(dir(module))
    except Exception:  # noqa: BLE001 - a lazy loader whose target is not installed (Keras 3's tf_keras shim)
        return
    for attr in attrs:
        if attr.startswith("_"):
            continue
        try:
            value = getattr(module, attr)
        except Exception:  # noqa: BLE001 - lazy loaders can fail on optional parts
            continue
        name = f"{prefix}.{attr}"
        if isinstance(value, types.ModuleType):
            if depth > 0 and attr not in skip:
                _callable_members(value, name, depth - 1, out, seen_modules)
        elif callable(value):
            out[name] = value


def public_callables(tf: Any) -> dict[str, dict[str, Any]]:
    """group -> {public name -> callable}: ``tf`` (tf.* less compat and keras), ``tf.compat.v1``,
    ``tf.keras.<ns>`` (tf_keras) and ``tf.keras.ops`` (Keras 3's keras.ops)."""
    groups: dict[str, dict[str, Any]] = {"tf": {}, "tf.compat.v1": {}}
    _callable_members(tf, "tf", 3, groups["tf"], set(), frozenset({"compat", "keras"}))
    _callable_members(tf.compat.v1, "tf.compat.v1", 2, groups["tf.compat.v1"], set(),
                      frozenset({"compat", "keras", "estimator"}))
    keras = keras_layers()
    if keras is not None:
        import tf_keras

        for namespace in COVERAGE_KERAS:
            found: dict[str, Any] = {}
            _callable_members(getattr(tf_keras, namespace), f"tf.keras.{namespace}", 0, found, set())
            groups[f"tf.keras.{namespace}"] = found
    try:
        import keras as keras3

        if hasattr(keras3, "ops"):
            found = {}
            _callable_members(keras3.ops, "tf.keras.ops", 0, found, set())
            groups["tf.keras.ops"] = found
    except ImportError:
        pass
    return groups


def _object_key(value: Any) -> int:
    try:
        return id(unwrap(value)) if not isinstance(value, type) else id(value)
    except Exception:  # noqa: BLE001 - an object tf_decorator cannot unwrap
        return id(value)


def coverage_report(tf: Any, table: dict[str, Any]) -> dict[str, Any]:
    """Per group of public callables: how many the table covers (an entry, ``tf.raw_ops.X`` for
    an op in ``raw_ops``, or the same object as an entry's), and why the others are not, by reason."""
    api: dict[str, dict[str, Any]] = table["api"]
    raw_ops = table["raw_ops"]
    groups = public_callables(tf)
    by_object: dict[int, str] = {}
    for group_members in groups.values():
        for name, value in group_members.items():
            if name in api and "alias_of" not in api[name]:
                by_object.setdefault(_object_key(value), name)
    walked = public_functions(tf)
    report: dict[str, Any] = {}
    for group, members in sorted(groups.items()):
        reasons: dict[str, int] = {}
        covered = aliased = raw_count = 0
        eligible = eligible_covered = 0  # callables that can create ops in a model, raw ops aside
        for name, value in sorted(members.items()):
            raw = name.split(".raw_ops.", 1)[-1] if name.startswith(("tf.raw_ops.", "tf.compat.v1.raw_ops.")) else None
            if raw is not None and raw in raw_ops:
                covered += 1
                raw_count += 1
                continue
            reason = _uncovered_reason(name, value, walked)  # what it would be, were it not covered
            can_create_ops = not reason.startswith(NOT_OP_REASONS)
            eligible += can_create_ops
            if name in api or _object_key(value) in by_object:
                eligible_covered += can_create_ops
                if name in api and "alias_of" not in api[name]:
                    covered += 1
                else:
                    aliased += 1
                continue
            reasons[reason] = reasons.get(reason, 0) + 1
        report[group] = {"callables": len(members), "entries": covered, "aliases": aliased, "raw_ops": raw_count,
                         "can_create_ops": eligible, "can_create_ops_covered": eligible_covered,
                         "uncovered": dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])))}
    return report


NOT_OP_REASONS = ("class (not", "host-side", "not an op")


def _uncovered_reason(name: str, value: Any, walked: dict[str, Any]) -> str:
    parts = name.split(".")
    inner = parts[3:] if name.startswith("tf.compat.v1.") else parts[1:]
    if name.startswith("tf.keras."):
        inner = parts[2:]
    if isinstance(value, type):
        if name.startswith("tf.keras.layers."):
            return "Keras layer class: not constructed and called"
        if name.startswith(("tf.keras.losses.", "tf.keras.metrics.")):
            return "Keras loss/metric class: not constructed and called"
        return "class (not an op call): not probed"
    if not name.startswith("tf.keras.") and len(inner) > 1 and inner[0] in HOST_NAMESPACES:
        return f"host-side or Python namespace not traced ({name[:len(name) - len('.'.join(inner))]}{inner[0]})"
    plain = f"tf.{name[len('tf.compat.v1.'):]}" if name.startswith("tf.compat.v1.") else name
    if plain in SKIP_NAMES or NOT_AN_OP.search(name) or (name.startswith("tf.compat.v1.") and SWEEP_V1_SKIP.match(name)) \
            or (name.startswith("tf.keras.") and name.rsplit(".", 1)[-1] in KERAS_NOT_OPS):
        return "not an op: Python-side, global state or TF1 session/variable API"
    if name in walked:
        return "traced with no synthetic arguments that fit, no gen_*_ops in its source"
    if name.startswith("tf.compat.v1."):
        return "tf.compat.v1 function (not the tf.* object): no synthetic arguments that fit"
    if name.startswith("tf.keras."):
        return "Keras function: no synthetic arguments that fit"
    return f"namespace not walked by the tracer ({'.'.join(parts[:2]) if len(parts) > 2 else 'tf.*'})"


def _construct_kwargs(cls: Any, short: str) -> dict[str, Any] | None:
    """Constructor arguments for a Keras class: ``LAYER_OVERRIDES``, else its required
    parameters from ``LAYER_ARGS`` (None when one has no value there)."""
    if short in LAYER_OVERRIDES:
        return dict(LAYER_OVERRIDES[short])
    try:
        signature = inspect.signature(cls.__init__)
    except (TypeError, ValueError):
        return None
    kwargs: dict[str, Any] = {}
    for param in list(signature.parameters.values())[1:]:
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD) or param.default is not param.empty:
            continue
        if param.name not in LAYER_ARGS:
            return None
        kwargs[param.name] = LAYER_ARGS[param.name]
    return kwargs


def _float_leaves(tf: Any, value: Any) -> list[Any]:
    return [t for t in tf.nest.flatten(value, expand_composites=True)
            if tf.is_tensor(t) and t.dtype.is_floating]


def _loss(tf: Any, leaves: list[Any]) -> Any:
    """A sum of squares, not a plain sum: the plain sum's upstream gradient is a constant (ones),
    and TensorFlow folds a linear op's gradient of a constant before XLA sees it (as in
    tools/generate_api_table.py: ResizeNearestNeighborGrad of ones compiles)."""
    return tf.add_n([tf.reduce_sum(tf.square(t)) for t in leaves]) if leaves else tf.constant(0.0)


@dataclass
class ObjectProbe:
    """A constructed Keras object and a call of it, traced forward and differentiated."""

    forward: Callable[..., Any]
    backward: Callable[..., Any]
    inputs: list[TensorArg]


def _object_probe(tf: Any, make: Callable[[], Any], example: Any, call: Callable[[Any, Any], Any]) -> ObjectProbe:
    """``call(obj, x)`` on a fresh ``make()``, built eagerly on ``example`` values first (as a
    model builds its layers), as a forward and a backward (inputs and trainable weights) function."""
    obj = make()
    inputs = list(example) if isinstance(example, list) else [example]

    def unpack(tensors: Any) -> Any:
        return list(tensors) if isinstance(example, list) else tensors[0]

    call(obj, unpack([a.example(tf) for a in inputs]))  # builds the weights outside the trace

    def forward(*tensors: Any) -> Any:
        return tf.nest.map_structure(lambda t: t if tf.is_tensor(t) else tf.constant(0), call(obj, unpack(tensors)),
                                     expand_composites=True)

    def backward(*tensors: Any) -> Any:
        with tf.GradientTape() as tape:
            for t in tensors:
                tape.watch(t)
            leaves = _float_leaves(tf, call(obj, unpack(tensors)))
            loss = _loss(tf, leaves)
        sources = [t for t in tensors if t.dtype.is_floating] + list(getattr(obj, "trainable_variables", []))
        grads = tape.gradient(loss, sources, unconnected_gradients=tf.UnconnectedGradients.ZERO)
        return [tf.convert_to_tensor(g) for g in grads] or [tf.constant(0.0)]

    return ObjectProbe(forward, backward, inputs)


def _function_ops(tf: Any, fn: Callable[..., Any], inputs: list[TensorArg]) -> frozenset[str]:
    signal.alarm(TRACE_TIMEOUT_S)
    try:
        graph_def = tf.function(fn, autograph=False).get_concrete_function(
            *[a.spec(tf) for a in inputs]).graph.as_graph_def()
    finally:
        signal.alarm(0)
    ops = {node.op for node in graph_def.node}
    for function in graph_def.library.function:
        ops.update(node.op for node in function.node_def)
    return frozenset(ops - {f.signature.name for f in graph_def.library.function} - {"Placeholder"})


def _confirmed(tf: Any, fn: Callable[..., Any], inputs: list[TensorArg], graph_unsupported: frozenset[str],
               check: dict[str, Any], name: str, what: str) -> list[str]:
    """The ops without a kernel that the compiler confirms: ``graph_unsupported`` when compiling
    ``fn`` fails naming a kernel, [] when it compiles (the ops were in a library function the
    compiled program never calls, such as Keras RNNs' CudnnRNNV3, or a cond gradient's Optional
    ops, which the XLA context builds without) or fails for another reason (recorded in ``check``)."""
    if not graph_unsupported:
        return []
    outcome, detail = compile_verdict(tf, lambda **kw: fn(*kw.values()), {f"x{i}": a for i, a in enumerate(inputs)})
    named = set(detail) - BOUNDARY_OPS if outcome == "no_kernel" else set()
    if outcome == "compiled":
        check["compiled_despite_graph"].append({"api": name, "part": what, "graph_unsupported": sorted(graph_unsupported)})
        return []
    if outcome == "other":
        # It fails for another reason (a constant it needs, a shape): no kernel fact either way.
        check["inconclusive"].append({"api": name, "part": what, "graph_unsupported": sorted(graph_unsupported),
                                      "error": detail[0][:160]})
        return []
    return sorted(graph_unsupported | named)


def _keras_call(cls: Any, short: str) -> Callable[[Any, Any], Any]:
    if short in LAYER_CALLS:
        return LAYER_CALLS[short]
    try:
        params = inspect.signature(cls.call).parameters
    except (TypeError, ValueError, AttributeError):
        params = {}  # type: ignore[assignment]
    if "training" in params:
        return lambda layer, x: layer(x, training=True)
    return lambda layer, x: layer(x)


def _object_entry(tf: Any, name: str, make: Callable[[], Any], call: Callable[[Any, Any], Any],
                  examples: Sequence[Any], unsupported: frozenset[str], check: dict[str, Any]) -> dict[str, Any] | None:
    """The entry of a Keras object: the forward ops of its call on the first example it takes,
    and the ops its gradient adds, each confirmed by compiling where the graph holds an op
    without a kernel (``unsupported``/``grad_unsupported``)."""
    for example in examples:
        try:
            probe = _object_probe(tf, make, example, call)
            fwd = _function_ops(tf, probe.forward, probe.inputs)
        except (Exception, TraceTimeout):  # noqa: BLE001 - this input does not fit: try the next
            continue
        entry: dict[str, Any] = {"raw_ops": sorted(fwd), "source": "trace",
                                 "unsupported": _confirmed(tf, probe.forward, probe.inputs, fwd & unsupported,
                                                           check, name, "forward")}
        try:
            grad = _function_ops(tf, probe.backward, probe.inputs) - fwd
        except (Exception, TraceTimeout) as error:  # noqa: BLE001 - no gradient registered for an op
            entry["grad_error"] = f"{type(error).__name__}: {(str(error).splitlines() or [''])[0][:120]}"
            return entry
        grad_unsupported = _confirmed(tf, probe.backward, probe.inputs, grad & unsupported - fwd, check, name,
                                      "gradient")
        if grad_unsupported:
            entry["grad_unsupported"] = grad_unsupported
        return entry
    return None


def keras_object_sweep(tf: Any, unsupported: frozenset[str], skip: frozenset[str],
                       check: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every Keras layer, loss and metric class (tf_keras, as ``tf.keras.<ns>.X``) not in ``skip``:
    constructed with its defaults (required arguments from ``LAYER_ARGS``/``LAYER_OVERRIDES``),
    called with ``training=True`` on the first input it accepts (``LAYER_INPUTS``; losses and
    metrics on ``(y_true, y_pred)``), and differentiated with respect to its float inputs and
    trainable weights."""
    keras = keras_layers()
    if keras is None:
        return {}
    import tf_keras

    layers = tf_keras.layers
    entries: dict[str, dict[str, Any]] = {}
    for namespace in ("layers", "losses", "metrics"):
        module = getattr(tf_keras, namespace)
        base = {"layers": layers.Layer, "losses": tf_keras.losses.Loss, "metrics": tf_keras.metrics.Metric}[namespace]
        for short in sorted(dir(module)):
            cls = getattr(module, short)
            name = f"tf.keras.{namespace}.{short}"
            if short.startswith("_") or name in skip or not isinstance(cls, type) or not issubclass(cls, base) \
                    or cls is base or short in LAYER_SKIP:
                continue
            kwargs = _construct_kwargs(cls, short)
            if kwargs is None:
                continue

            def make(cls: Any = cls, kwargs: dict[str, Any] = kwargs) -> Any:
                return cls(**{k: v.make(tf) if isinstance(v, Lazy) else v for k, v in kwargs.items()})

            if namespace == "layers":
                call, examples = _keras_call(cls, short), LAYER_INPUTS
            elif namespace == "losses":
                call, examples = (lambda obj, pair: obj(pair[0], pair[1])), LOSS_INPUTS
            else:
                call, examples = (lambda obj, pair: (obj.update_state(pair[0], pair[1]), obj.result())[1]), LOSS_INPUTS
            entry = _object_entry(tf, name, make, call, examples, unsupported, check)
            if entry is not None:
                entries[name] = entry
    return entries


def function_sweep(tf: Any, unsupported: frozenset[str], skip: frozenset[str]
                   ) -> tuple[dict[str, dict[str, Any]], dict[str, tuple[Callable[..., Any], dict[str, Any]]]]:
    """``tf.compat.v1.*`` functions (the same object as a table entry: ``alias_of`` it; others
    traced as the tf.* functions are, in the walked namespaces) and the Keras functions
    (``tf.keras.backend/losses/metrics/activations.*``, Keras 3's ``keras.ops.*`` as
    ``tf.keras.ops.*``). Returns the entries and, for traced ones, (function, arguments)."""
    groups = public_callables(tf)
    canonical: dict[int, str] = {}
    for name, fn in public_functions(tf).items():
        if name in skip:  # an entry of the walk (a function it could not trace has none)
            canonical.setdefault(_object_key(fn), name)
    entries: dict[str, dict[str, Any]] = {}
    traced: dict[str, tuple[Callable[..., Any], dict[str, Any]]] = {}
    for group, members in sorted(groups.items()):
        if group == "tf":
            continue
        for name, fn in sorted(members.items()):
            if name in skip or isinstance(fn, type):
                continue
            if group == "tf.compat.v1":
                inner = name.split(".")[3:]
                if SWEEP_V1_SKIP.match(name) or NOT_AN_OP.search(name) or \
                        (len(inner) > 1 and inner[0] not in API_NAMESPACES) or f"tf.{'.'.join(inner)}" in SKIP_NAMES:
                    continue
            elif NOT_AN_OP.search(name) or name.rsplit(".", 1)[-1] in KERAS_NOT_OPS:
                continue
            key = _object_key(fn)
            if key in canonical and canonical[key] != name:
                entries[name] = {"alias_of": canonical[key]}
                continue
            result = sweep_trace(tf, name, fn)
            if result is None:
                continue
            ops = set(result.ops) - {"Placeholder"}
            entries[name] = {"raw_ops": sorted(ops), "unsupported": sorted(ops & unsupported), "source": "trace"}
            conditions = _conditions(tf, name, fn, result.args, ops, unsupported)
            if conditions:
                entries[name]["conditions"] = conditions
            traced[name] = (fn, result.args)
            canonical.setdefault(key, name)
    return entries, traced


def _sweep_compile_check(tf: Any, api: dict[str, dict[str, Any]],
                         traced: dict[str, tuple[Callable[..., Any], dict[str, Any]]]) -> dict[str, Any]:
    """Compile every swept function with its synthetic inputs, as ``api_compile_check`` does for
    the walked ones: agreements, disagreements, and inconclusive failures (counted by error)."""
    agree = 0
    disagreements: list[dict[str, Any]] = []
    inconclusive: dict[str, int] = {}
    for name, (fn, args) in sorted(traced.items()):
        predicted = set(api[name]["unsupported"])
        outcome, detail = compile_verdict(tf, fn, args)
        named = set(detail) - BOUNDARY_OPS if outcome == "no_kernel" else set()
        if (outcome == "compiled" and not predicted) or (named and named <= predicted):
            agree += 1
        elif outcome == "compiled" or named:
            disagreements.append({"api": name, "predicted_unsupported": sorted(predicted), "compiler": outcome,
                                  "compiler_unsupported": sorted(named)})
        else:
            reason = "string tensor at the function boundary" if outcome == "no_kernel" else detail[0]
            reason = re.sub(r"node \S+", "node <n>", re.sub(r"__inference_\S+", "__inference_<fn>", reason))
            inconclusive[reason.split(":")[0]] = inconclusive.get(reason.split(":")[0], 0) + 1
    return {"checked": len(traced), "agree": agree, "disagreements": disagreements,
            "inconclusive": dict(sorted(inconclusive.items()))}


def sweep_trace(tf: Any, name: str, fn: Callable[..., Any]) -> TraceResult | None:
    """``trace_default`` for a swept function: ``SWEEP_ARG_OVERRIDES`` first, then (for
    ``tf.compat.v1.X``) the tf.* function's ``ARG_OVERRIDES`` with its TF1 parameter names."""
    candidates = [SWEEP_ARG_OVERRIDES[name]] if name in SWEEP_ARG_OVERRIDES else []
    if name.startswith("tf.compat.v1.") and f"tf.{name[len('tf.compat.v1.'):]}" in ARG_OVERRIDES:
        params = set(default_values(fn)) | set(required_params(fn) or ())
        renamed: dict[str, Any] = {}
        for key, value in ARG_OVERRIDES[f"tf.{name[len('tf.compat.v1.'):]}"].items():
            target = key if key in params else next((v for v in V1_PARAM_NAMES.get(key, ()) if v in params), None)
            if target is not None:
                renamed[target] = value
        candidates.append(renamed)
    for args in candidates:
        try:
            return TraceResult(graph_ops(tf, fn, args), args)
        except (Exception, TraceTimeout):  # noqa: BLE001 - fall back to synthetic arguments
            continue
    return trace_default(tf, name, fn)


def gradient_entries(tf: Any, api: dict[str, dict[str, Any]],
                     traced: dict[str, tuple[Callable[..., Any], dict[str, Any]]],
                     unsupported: frozenset[str], check: dict[str, Any]) -> int:
    """For each traced function whose forward has a kernel: differentiate the sum of its float
    outputs with respect to its float inputs (its synthetic arguments); where that adds ops
    without a kernel and the compiler confirms it, set the entry's ``grad_unsupported``.
    Returns how many were differentiated."""
    done = 0
    for name, (fn, args) in sorted(traced.items()):
        entry = api.get(name)
        if entry is None or entry.get("unsupported") or "grad_unsupported" in entry:
            continue
        inputs, call = bind(tf, fn, args)
        if not any(a.dtype.startswith("float") and a.kind == "dense" for a in inputs) or \
                any(a.kind != "dense" for a in inputs):
            continue

        def backward(*tensors: Any, call: Callable[..., Any] = call) -> Any:
            with tf.GradientTape() as tape:
                for t in tensors:
                    tape.watch(t)
                loss = _loss(tf, _float_leaves(tf, call(*tensors)))
            grads = tape.gradient(loss, [t for t in tensors if t.dtype.is_floating],
                                  unconnected_gradients=tf.UnconnectedGradients.ZERO)
            return [tf.convert_to_tensor(g) for g in grads]

        try:
            grad = _function_ops(tf, backward, inputs) - set(entry["raw_ops"])
        except (Exception, TraceTimeout):  # noqa: BLE001 - no gradient registered: not a kernel question
            continue
        done += 1
        confirmed = _confirmed(tf, backward, inputs, grad & unsupported, check, name, "gradient")
        if confirmed:
            entry["grad_unsupported"] = confirmed
    return done


def alias_entries(tf: Any, api: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Public names that are the same object as a table entry (``tf.compat.v1.X`` = ``tf.X``,
    ``tf.keras.backend.x`` = ``tf.x``): ``{"alias_of": entry}``, one record per object."""
    groups = public_callables(tf)
    canonical: dict[int, str] = {}
    members = [(name, fn) for group in groups.values() for name, fn in group.items()]
    for name, fn in members:
        if name in api and "alias_of" not in api[name]:
            canonical.setdefault(_object_key(fn), name)
    return {name: {"alias_of": canonical[_object_key(fn)]} for name, fn in sorted(members)
            if name not in api and _object_key(fn) in canonical and not name.startswith("tf.raw_ops.")}


def sweep_entries(tf: Any, api: dict[str, dict[str, Any]], unsupported: frozenset[str]) -> dict[str, Any]:
    """Widen ``api`` in place: Keras objects, tf.compat.v1 and Keras functions (each with its
    gradient), and aliases. Returns the sweep's own check (compiler confirmations)."""
    check: dict[str, Any] = {"compiled_despite_graph": [], "inconclusive": []}
    skip = frozenset(api)
    api.update(keras_object_sweep(tf, unsupported, skip, check))
    functions, traced = function_sweep(tf, unsupported, frozenset(api))
    api.update(functions)
    check["functions"] = _sweep_compile_check(tf, api, traced)
    # the tf.* functions the walk traced have their gradient in the API table (tf_api.json)
    check["gradients_traced"] = gradient_entries(tf, api, traced, unsupported, check)
    api.update(alias_entries(tf, api))
    for entry in check["compiled_despite_graph"] + check["inconclusive"]:
        entry.setdefault("api", "")
    check["compiled_despite_graph"].sort(key=lambda e: (e["api"], e["part"]))
    check["inconclusive"].sort(key=lambda e: (e["api"], e["part"]))
    return check


def grad_verdict(tf: Any, fn: Callable[..., Any], args: dict[str, Any]) -> tuple[str, list[str]]:
    """Compile the gradient of ``fn(**args)`` (the sum of its squared float outputs with respect
    to its float inputs, as ``gradient_entries`` does) with XLA:CPU from TensorSpecs.

    Returns ("compiled", []), ("no_kernel", ops the compiler named), ("none", []) when there is no
    float input, output or gradient, or ("other", [error line])."""
    inputs, call = bind(tf, fn, args)
    if not inputs or any(a.kind != "dense" for a in inputs) or not any(a.dtype.startswith("float") for a in inputs):
        return "none", []

    def backward(*tensors: Any) -> Any:
        with tf.GradientTape() as tape:
            for t in tensors:
                tape.watch(t)
            leaves = _float_leaves(tf, call(*tensors))
            if not leaves:
                raise LookupError("no float output")
            loss = _loss(tf, leaves)
        grads = [g for g in tape.gradient(loss, [t for t in tensors if t.dtype.is_floating]) if g is not None]
        if not grads:
            raise LookupError("no gradient")
        return [tf.convert_to_tensor(g) for g in grads]

    jitted = tf.function(backward, jit_compile=True, autograph=False)
    signal.alarm(TRACE_TIMEOUT_S)
    try:
        jitted.experimental_get_compiler_ir(*[a.spec(tf) for a in inputs])(stage="hlo")
        return "compiled", []
    except LookupError:
        return "none", []
    except (Exception, TraceTimeout) as error:  # noqa: BLE001 - the compiler's verdict, whatever it is
        message = str(error)
        ops = sorted(set(UNSUPPORTED_RE.findall(message)) - BOUNDARY_OPS)
        if ops:
            return "no_kernel", ops
        if "No gradient defined" in message or "no gradient" in message.lower():
            return "none", []
        lines = [line.strip() for line in message.splitlines() if line.strip()]
        return "other", [f"{type(error).__name__}: {(lines or [''])[0][:160]}"]
    finally:
        signal.alarm(0)


def _conditions(tf: Any, name: str, fn: Callable[..., Any], args: dict[str, Any], ops: set[str],
                unsupported: frozenset[str], counts: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """Argument values (:func:`variants`) under which the call compiles differently from the
    synthetic call ``args``: the set of ops without a kernel changes (from the graph), or, where
    the synthetic call and the variant create only ops with a kernel, the compiler says the
    variant's forward fails although it runs eagerly (``compiles: false``, ``compile_error``), or
    the gradient fails or compiles where the synthetic call's did not (``grad_unsupported``: the
    ops the compiler named; [] when the variant's gradient compiles and the default's does not).
    Each record has the parameter's ``position`` (None: keyword-only), so a linter maps a
    positional literal to it. ``counts`` (if given) gets the number of variants probed."""
    conditions = []
    base_unsupported = ops & unsupported
    base: tuple[str, str] | None = None  # (forward, gradient) verdicts of the synthetic call, computed once
    for param, value in variants(tf, name, fn, args):
        trial = {**args, param: value}
        try:
            variant_ops = set(graph_ops(tf, fn, trial)) - {"Placeholder"}
        except (Exception, TraceTimeout):  # noqa: BLE001 - an invalid combination, not a finding
            continue
        if counts is not None:
            counts["variants"] = counts.get("variants", 0) + 1
        record: dict[str, Any] = {"argument": param, "value": value, "position": parameter_position(fn, param),
                                  "raw_ops": sorted(variant_ops), "unsupported": sorted(variant_ops & unsupported)}
        changed = variant_ops & unsupported != base_unsupported
        if not changed and not base_unsupported:
            if base is None:
                forward = compile_verdict(tf, fn, args)[0]
                base = (forward, grad_verdict(tf, fn, args)[0] if forward == "compiled" else "other")
                if counts is not None:
                    counts["entries_compiled"] = counts.get("entries_compiled", 0) + 1
            if base[0] == "compiled":
                outcome, detail = compile_verdict(tf, fn, trial)
                if counts is not None:
                    counts["compiled"] = counts.get("compiled", 0) + 1
                if outcome != "compiled":
                    if accepts_eagerly(tf, fn, trial):  # a call TensorFlow itself rejects is no XLA fact
                        record["compiles"] = False
                        record["compile_error"] = (", ".join(sorted(set(detail) - BOUNDARY_OPS))
                                                   if outcome == "no_kernel" else detail[0])
                        changed = True
                elif base[1] in ("compiled", "no_kernel"):
                    g_outcome, g_detail = grad_verdict(tf, fn, trial)
                    if g_outcome in ("compiled", "no_kernel") and g_outcome != base[1]:
                        record["grad_unsupported"] = g_detail
                        changed = True
        if changed:
            conditions.append(record)
    return conditions


def check_table(tf: Any, path: Path, sample: int, conditions_sample: int = 2) -> int:
    """``--check``: the kernel registry read again for every raw op (seconds), and a sample of the
    traced API entries (spread over those with and without an op that has no kernel) traced again
    with their synthetic arguments, as the walk and the sweep trace them, and compiled. The ops the
    trace creates must be the file's; the compiler must agree with the file's verdict (it compiles
    when no op lacks a kernel; it names only ops the file lists otherwise). ``conditions_sample``
    traced function entries that carry argument ``conditions`` get them measured again by
    :func:`_conditions` (every variant traced, compiled where the full run compiles it), and they
    must equal the file's. Exit status 1 when stale."""
    table = json.loads(path.read_text(encoding="utf-8"))
    differences = [line for line in [_table_check.difference("tensorflow_version", table["tensorflow_version"],
                                                             tf.__version__)] if line]
    cpu = xla_kernel_ops(tf).get("XLA_CPU_JIT", frozenset())
    differences += [line for op, record in table["raw_ops"].items()
                    if (line := _table_check.difference(f"raw op {op} has an XLA_CPU_JIT kernel", record["xla_cpu_jit"],
                                                        op in cpu))]
    unsupported = frozenset(op for op in table["raw_ops"] if op not in cpu)  # as the registry has it now
    walked = public_functions(tf)
    # functions only: classes (Keras layers, losses, lookup tables) are built and called by probes
    swept = {name: fn for group in public_callables(tf).values() for name, fn in group.items()
             if not isinstance(fn, type)}
    traced_entries = {name: entry for name, entry in table["api"].items()
                      if entry.get("source") == "trace" and (name in walked or name in swept)}
    groups = {"no_kernel": [n for n, e in traced_entries.items() if e["unsupported"]],
              "kernel": [n for n, e in traced_entries.items() if not e["unsupported"]]}
    names = _table_check.spread_sample(groups, sample)

    def retrace(name: str) -> tuple[Callable[..., Any], TraceResult | None]:
        """The entry's function and its synthetic call traced again, as the walk or the sweep traced it."""
        fn = walked.get(name) or swept[name]
        return fn, trace_default(tf, name, fn) if name in walked else sweep_trace(tf, name, fn)

    for name in names:
        entry = table["api"][name]
        fn, result = retrace(name)
        if result is None:
            differences.append(f"{name}: the file has a trace, the synthetic arguments no longer trace")
            continue
        ops = set(result.ops) - {"Placeholder"}
        measured = {"raw_ops": sorted(ops), "unsupported": sorted(ops & unsupported)}
        if (line := _table_check.difference(name, {k: entry[k] for k in measured}, measured)):
            differences.append(line)
        outcome, detail = compile_verdict(tf, fn, result.args)
        named = set(detail) - BOUNDARY_OPS if outcome == "no_kernel" else set()
        if (outcome == "compiled" and entry["unsupported"]) or (named and not named <= set(entry["unsupported"])):
            differences.append(f"{name}: the file lists {entry['unsupported']} without a kernel, the compiler says "
                               f"{outcome} {sorted(named)}")
    # argument conditions (`method="area"` has no kernel, `sorted=True` picks another op): the facts a
    # rule reads per call, so a sample of them is measured again, not only compared with the JSON
    conditioned = [n for n, e in traced_entries.items() if e.get("conditions")]
    with_conditions = _table_check.spread_sample({"conditions": conditioned}, conditions_sample)
    for name in with_conditions:
        entry = table["api"][name]
        fn, result = retrace(name)
        if result is None:
            differences.append(f"{name}: the file has argument conditions, the synthetic arguments no longer trace")
            continue
        measured_conditions = _conditions(tf, name, fn, result.args, set(result.ops) - {"Placeholder"}, unsupported)
        if (line := _table_check.difference(f"{name} conditions", entry["conditions"], measured_conditions)):
            differences.append(line)
    return _table_check.report("generate_op_table", 1 + len(table["raw_ops"]) + 2 * len(names) + len(with_conditions),
                               differences, f"TensorFlow {tf.__version__}")


def print_coverage(report: dict[str, Any], title: str) -> None:
    print(f"coverage of the public API ({title}):")
    total = sum(g["callables"] for g in report.values())
    covered = sum(g["entries"] + g["aliases"] for g in report.values())
    for group, counts in report.items():
        raw = f" ({counts['raw_ops']} of them raw ops)" if counts.get("raw_ops") else ""
        print(f"  {group}: {counts['callables']} callables, {counts['entries']} entries{raw} + {counts['aliases']} "
              f"aliases covered, {counts['callables'] - counts['entries'] - counts['aliases']} not")
        for reason, n in counts["uncovered"].items():
            print(f"      {n:5d}  {reason}")
    print(f"  all: {covered}/{total} covered")
    # Without the callables that cannot create ops in a model (classes that are not Keras layers,
    # losses or metrics; host-side namespaces; Python-side APIs), judged by name and kind whether
    # covered or not, and without the raw ops (answered from the kernel registry).
    eligible = sum(g["can_create_ops"] for g in report.values())
    eligible_covered = sum(g["can_create_ops_covered"] for g in report.values())
    print(f"  callables that can create ops, raw ops aside: {eligible_covered}/{eligible} covered")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"output JSON (default: {DEFAULT_OUT})")
    parser.add_argument("--no-compile-check", action="store_true",
                        help="skip compiling the cross-check sample under jit_compile=True")
    parser.add_argument("--probes-only", action="store_true",
                        help="refresh only the entries probed with explicit code (classes, Keras layers, "
                             "tf.summary, global switches, loops under vectorized_map) in the existing --out "
                             "table; everything else is kept")
    parser.add_argument("--coverage", action="store_true",
                        help="print how much of the public API the existing --out table covers, and why the rest "
                             "is not; writes nothing")
    parser.add_argument("--variants-only", action="store_true",
                        help="measure again only the argument-variant conditions (bool flips, string choices, "
                             "numeric flags: forward and gradient compiled) of the traced functions in the existing "
                             "--out table; everything else is kept")
    parser.add_argument("--dtypes-only", action="store_true",
                        help="measure again only the input dtypes that compile (``dtypes``) of the traced "
                             "functions, the swept tf.compat.v1/Keras ones included, in the existing --out table")
    parser.add_argument("--only", type=re.compile, default=None, metavar="REGEX",
                        help="with --variants-only or --dtypes-only: only the API names this regular expression "
                             "finds")
    parser.add_argument("--tpu-kernels-only", action="store_true",
                        help="refresh only the TPU-build XLA kernel facts (TPU_BUILD_XLA_KERNELS, each op's "
                             "kernel devices here) of the raw ops in the existing --out table")
    parser.add_argument("--check", action="store_true",
                        help="read the kernel registry again and trace and compile a sample of the API entries; "
                             "compare with --out (writes nothing; exit 1 when they differ)")
    parser.add_argument("--sample", type=int, default=12, help="with --check: how many API entries")
    parser.add_argument("--conditions-sample", type=int, default=2,
                        help="with --check: how many entries with argument conditions to measure again")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    try:
        import tensorflow as tf
    except ImportError:
        if args.check:
            return _table_check.skipped("generate_op_table", "TensorFlow is not installed")
        print("generate_op_table: TensorFlow is not installed; install the [trainer] extra.", file=sys.stderr)
        return 2
    tf.get_logger().setLevel(logging.ERROR)
    signal.signal(signal.SIGALRM, _on_alarm)
    start = time.monotonic()
    if args.check:
        return check_table(tf, args.out, args.sample, args.conditions_sample)
    if args.coverage:
        print_coverage(coverage_report(tf, json.loads(args.out.read_text(encoding="utf-8"))), str(args.out))
        return 0
    if args.tpu_kernels_only:
        table = json.loads(args.out.read_text(encoding="utf-8"))
        table["raw_ops"] = with_tpu_build_kernels(table["raw_ops"])
        args.out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {args.out}: TPU-build XLA kernels of {len(TPU_BUILD_XLA_KERNELS)} raw ops")
        return 0
    if args.dtypes_only:
        table, counts = refresh_dtypes(tf, json.loads(args.out.read_text(encoding="utf-8")), args.only)
        args.out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {args.out}: input dtypes of {counts['entries_probed']} traced functions, "
              f"{counts['entries_with_failures']} with dtypes that fail to compile; "
              f"{time.monotonic() - start:.0f} s wall")
        return 0
    if args.variants_only:
        cpu = time.process_time()
        table, counts = refresh_variants(tf, json.loads(args.out.read_text(encoding="utf-8")), args.only)
        args.out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {args.out}: argument variants of {counts['entries']} traced functions "
              f"({counts.get('variants', 0)} variants traced, {counts.get('compiled', 0)} compiled), "
              f"{counts['with_conditions']} with conditions; constructor variants of {counts.get('layers', 0)} "
              f"Keras layers ({counts.get('layer_variants', 0)} built and compiled), "
              f"{counts.get('layers_with_conditions', 0)} with conditions; {time.process_time() - cpu:.0f} s CPU, "
              f"{time.monotonic() - start:.0f} s wall")
        return 0
    if args.probes_only:
        table = refresh_probes(tf, json.loads(args.out.read_text(encoding="utf-8")))
    else:
        table = build_table(tf, compile_check=not args.no_compile_check)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    n_unsupported = len(unsupported_set(table["raw_ops"]))
    disagreements = [c for c in table.get("crosscheck", ()) if not c["agree"]]
    summary = (
        f"wrote {args.out}: TF {table['tensorflow_version']}, {len(table['raw_ops'])} raw ops "
        f"({n_unsupported} without an XLA_CPU_JIT kernel), {len(table['api'])} API names, "
        f"{len(disagreements)} cross-check disagreements"
    )
    if "api_compile_check" in table:
        check = table["api_compile_check"]
        n_inconclusive = sum(len(names) for names in check["inconclusive"].values())
        summary += (
            f"; API compile check: {check['agree']}/{check['checked']} agree, "
            f"{len(check['disagreements'])} disagree, {n_inconclusive} inconclusive"
        )
    if "dtype_probe" in table:
        probe = table["dtype_probe"]
        summary += (f"; dtype probe: {probe['entries_probed']} entries, {probe['entries_with_failures']} with "
                    f"dtypes that fail to compile")
    print(f"{summary}; {time.monotonic() - start:.0f} s")
    print_coverage(coverage_report(tf, table), "the table written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
