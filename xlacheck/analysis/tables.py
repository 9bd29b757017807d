"""Hand-kept API name tables that the analysis and the rules share (one home per table).

Generated tables live elsewhere and are read, never copied (the TensorFlow and JAX ones each through
one thin module at the package top, ``xlacheck/<name>.py``, that imports no framework; the torch_xla
op table through :mod:`xlacheck.analysis.torch_model`):
- which TensorFlow ops have an XLA kernel: ``xlacheck/data/tf_xla_ops.json`` (``tools/generate_op_table.py``,
  read through :mod:`xlacheck.op_table`);
- what public TF/Keras/JAX callables return and need static: ``xlacheck/data/tf_api.json``,
  ``xlacheck/data/jax_api.json`` (:mod:`xlacheck.api_table`);
- where XLA computes another result than eager: ``xlacheck/data/tf_xla_divergence.json``
  (:mod:`xlacheck.divergence_table`);
- which call-to-call differences retrace a ``tf.function``: ``xlacheck/data/tf_retrace.json``
  (:mod:`xlacheck.retrace_table`);
- what changes ``jax.jit``'s cache key: ``xlacheck/data/jax_cache_key.json`` (:mod:`xlacheck.jax_cache`);
- which JAX functions return weakly typed results: ``xlacheck/data/jax_weak_types.json``
  (``tools/generate_jax_weak_type_table.py``, read through :mod:`xlacheck.analysis.weak_types`);
- AutoGraph's do-not-convert module list: ``xlacheck/data/autograph_do_not_convert.json``
  (``tools/generate_autograph_table.py``, read through :func:`autograph_skip_modules`).

Tables kept here (canonical names, see :mod:`xlacheck.analysis.imports`):
- :data:`TF_FUNCTION_NAMES`, :data:`JAX_JIT_NAMES`: the spellings of the tracers;
- :data:`FLAX_APPLY_METHODS`, :data:`JAX_FUNCTION_HOLDERS`: flax/haiku/optax methods that run a function
  of the user's (a linen Module's ``__call__``, a transformed function, an update function);
- :data:`BOOL_FUNCS`: ops that return boolean tensors (masks), spelled as xlacheck canonicalises
  them; the value model also takes every entry of the API table whose probing call returned
  only boolean tensors (``dtype: "bool"``: ``keras.ops.greater``, ``K.less``, ``tf.math.is_non_decreasing``);
- :data:`GROWING_OPS`: ops that make a tensor longer than its input (concat/stack/pad/append);
- :data:`NUMPY_SCALAR_DRAWS`, :data:`NUMPY_GENERATOR_SCALAR_DRAWS`: NumPy random draws that return a
  Python ``float``/``int`` (not a NumPy scalar) when called without ``size``, checked against the
  installed NumPy in ``tests/xlacheck/test_tf_retrace_table.py``;
- :data:`STATIC_ARGS_SUPPLEMENT`: arguments XLA needs as compile-time constants that the generated
  API table (``xlacheck/data/tf_api.json``) could not measure, each with the reason, each proven
  by compiling in ``tests/xlacheck/test_api_table.py``;
- :data:`PYTHON_ARGS_SUPPLEMENT`: arguments that cannot be tensors at all (tf.experimental.numpy),
  which the generated table's probe does not reach, proven in ``tests/xlacheck/test_api_table.py``;
- :data:`TENSOR_ONLY_ARGS`: the opposite, arguments that must be tensors once traced (a Python
  value works eagerly and fails in every ``tf.function``), proven in ``tests/xlacheck/test_compiler_truth.py``;
- :data:`VARIABLE_OWNERS`: constructors of objects that create a tf.Variable (random generators);
- :data:`HOST_RANDOM_DRAWS`: Python and NumPy random functions that draw on the host (at trace time
  in compiled code), checked against the installed NumPy in ``tests/xlacheck/test_tf_retrace_table.py``;
- :data:`JAX_ELEMENTWISE`, :data:`JAX_SHAPE_PRESERVING`, :data:`JAX_REDUCTIONS`: what ``jax.numpy``/``jax.nn``
  functions do to their operands' shape (entry by entry; the first operand's shape; one axis fewer, or a
  scalar without ``axis``), checked against the installed JAX in ``tests/xlacheck/test_scopes.py``.
Value-kind tables (shape functions, Python-valued APIs) live in :mod:`xlacheck.analysis.values`.
"""

from __future__ import annotations

import ast
from functools import cache
from typing import NamedTuple

from xlacheck import api_table
from xlacheck._data import load_json

TF_FUNCTION_NAMES = frozenset({"tf.function", "tf.compat.v1.function", "tf.compat.v2.function"})
# tf.function's keywords that ask XLA to compile it: `experimental_compile` is the deprecated name of
# `jit_compile` that TF 2.21 still takes ("experimental_compile is deprecated, use jit_compile
# instead"; measured: `tf.function(experimental_compile=True)` fails on MatrixDeterminant as
# jit_compile=True does)
JIT_COMPILE_KEYWORDS = frozenset({"jit_compile", "experimental_compile"})
# pjit is jax.jit under another name (deprecated alias in jax 0.10); flax linen's nn.jit wraps jax.jit (it takes
# a Module class, or a method as a decorator). Measured by benchmarks/jax_context_probes.py (flax 0.12.8): a
# Python `if` on a traced value in a function each of them wraps raises TracerBoolConversionError. flax.nnx.jit
# is left out: another file's `nnx.jit(f, static_argnames=[...])` reaches f with every parameter traced (the
# project facts carry no static arguments), a false XLA101 in ott-jax/ott (docs/jaxrecall31.md).
JAX_JIT_NAMES = frozenset({"jax.jit", "jax.pmap", "jax.experimental.pjit.pjit", "flax.linen.jit"})
# flax linen: `module.apply(variables, ...)`, `module.init(...)` and `module.init_with_output(...)` run the
# module's __call__ (probes: jax.jit(model.apply), model.apply in a jitted train step)
FLAX_LINEN_MODULE = "flax.linen.Module"
FLAX_APPLY_METHODS = frozenset({"apply", "init", "init_with_output"})
# Objects built from functions that one of their methods runs with its arguments: constructor ->
# {method: (position, keyword) of the function among the constructor's arguments}. haiku's transform
# runs `f` in `init` and `apply`; an optax GradientTransformation runs `update` in `tx.update(...)`
# (probes: jax.jit(net.apply), net.apply and tx.update in a jitted train step). The wrappers return
# the same kind of object around their argument.
JAX_FUNCTION_HOLDERS: dict[str, dict[str, tuple[int, str]]] = {
    "haiku.transform": {"init": (0, "f"), "apply": (0, "f")},
    "haiku.transform_with_state": {"init": (0, "f"), "apply": (0, "f")},
    "optax.GradientTransformation": {"init": (0, "init"), "update": (1, "update")},
    "optax.GradientTransformationExtraArgs": {"init": (0, "init"), "update": (1, "update")},
}
JAX_HOLDER_WRAPPERS = frozenset({"haiku.without_apply_rng", "haiku.with_empty_state", "haiku.without_state"})
# flax's TrainState keeps the model's apply function in a field of this name (`TrainState.create(apply_fn=
# model.apply, ...)`); a jitted step calls it as `state.apply_fn(...)` (probe: flax_train_state_apply_fn)
FLAX_APPLY_FN_FIELD = "apply_fn"
# JAX control-flow primitives: they trace the functions they take (every parameter a tracer) and
# compile them into one XLA op, under jax.jit or called from plain Python alike, so a Python `if`,
# a host read or a data-dependent shape in such a body fails wherever the call is. Name ->
# (positions of the function arguments, their keywords, whether the body runs once per iteration).
JAX_TRACING_PRIMITIVES: dict[str, tuple[tuple[int, ...], tuple[str, ...], bool]] = {
    "jax.lax.scan": ((0,), ("f",), True),
    "jax.lax.fori_loop": ((2,), ("body_fun",), True),
    "jax.lax.while_loop": ((0, 1), ("cond_fun", "body_fun"), True),
    "jax.lax.map": ((0,), ("f",), True),
    "jax.lax.cond": ((1, 2), ("true_fun", "false_fun"), False),
    "jax.lax.switch": ((1,), ("branches",), False),
}
# JAX transformations of a function (its first argument, keyword ``fun``): the function runs inside
# the trace of whoever calls the transformed function, so under jax.jit it is compiled code like a
# call from there (a Python `if` on an argument fails; measured on jax 0.10.2: `jax.grad(loss)`
# inside a jitted step raises TracerBoolConversionError on `if l > 10.0:`, the same grad called
# eagerly runs, its JVP tracers hold concrete values). Name -> whether it traces the function
# wherever it is called, as the lax primitives do: jax.vmap maps every argument when no `in_axes`
# is given (a BatchTracer has no value: `if x > 0:` fails eagerly too), jax.checkpoint traces its
# function into a jaxpr; an `in_axes=None` argument of vmap is passed through unchanged (a Python
# int stays one), so vmap with `in_axes` runs in its caller's context only.
# Pytree maps: the function runs in the caller's trace too, on the leaves (arrays under jax.jit, but
# any Python leaves of a tree built there), so its parameters are not taken for arrays by themselves.
JAX_TREE_MAPS = frozenset({"jax.tree_util.tree_map", "jax.tree.map", "jax.tree_map",
                           "jax.tree_util.tree_map_with_path", "jax.tree.map_with_path"})
JAX_FUNCTION_TRANSFORMS: dict[str, bool] = {
    "jax.grad": False, "jax.value_and_grad": False, "jax.jacrev": False, "jax.jacfwd": False,
    "jax.jacobian": False, "jax.hessian": False, "jax.jvp": False, "jax.vjp": False, "jax.linearize": False,
    "jax.custom_jvp": False, "jax.custom_vjp": False, "jax.named_call": False,
    "jax.vmap": True, "jax.checkpoint": True, "jax.remat": True, "jax.ad_checkpoint.checkpoint": True,
    # shard_map runs its function per shard in its caller's trace: under jax.jit a Python `if` on a traced
    # value there fails; called eagerly it runs on concrete shards (measured, jax 0.10.2, one CPU device)
    "jax.shard_map": False, "jax.experimental.shard_map.shard_map": False,
}

BOOL_FUNCS = frozenset({
    "tf.math.is_finite", "tf.math.is_nan", "tf.math.is_inf", "tf.logical_and", "tf.logical_or",
    "tf.logical_not", "tf.math.logical_and", "tf.math.logical_or", "tf.math.logical_not", "tf.math.logical_xor",
    "tf.equal", "tf.not_equal", "tf.greater", "tf.less", "tf.greater_equal", "tf.less_equal",
    "tf.math.equal", "tf.math.not_equal", "tf.math.greater", "tf.math.less", "tf.math.greater_equal",
    "tf.math.less_equal", "tf.reduce_any", "tf.reduce_all", "tf.math.reduce_any", "tf.math.reduce_all",
    "tf.sequence_mask", "tf.math.in_top_k", "tf.debugging.is_numeric_tensor",
})
# jax.numpy functions that return boolean arrays (a mask as an index), spelled as xlacheck canonicalises
# them (``jnp.``); the JAX API table records no dtypes. Checked against the installed JAX (each returns
# bool, and as an index under jax.jit raises NonConcreteBooleanIndexError):
# tests/xlacheck/test_jax_shape_truth.py.
JAX_BOOL_FUNCS = frozenset({
    "jnp.logical_and", "jnp.logical_or", "jnp.logical_not", "jnp.logical_xor", "jnp.isnan", "jnp.isinf",
    "jnp.isfinite", "jnp.isposinf", "jnp.isneginf", "jnp.isclose", "jnp.isin", "jnp.signbit", "jnp.greater",
    "jnp.less", "jnp.equal", "jnp.not_equal", "jnp.greater_equal", "jnp.less_equal",
})
# ... of which these compute elementwise (a mask of their inputs' shape), with tf.sequence_mask:
# the masks that masked reductions select with.
ELEMENTWISE_BOOL_FUNCS = BOOL_FUNCS - {
    "tf.reduce_any", "tf.reduce_all", "tf.math.reduce_any", "tf.math.reduce_all", "tf.math.in_top_k",
    "tf.debugging.is_numeric_tensor",
}

# Reductions whose one-argument form (no ``axis``) returns a scalar: a function of several tensors
# that returns one of these is a loss (or a metric), which Keras runs inside the compiled step.
FULL_REDUCTIONS = frozenset({
    "tf.reduce_mean", "tf.reduce_sum", "tf.math.reduce_mean", "tf.math.reduce_sum",
    "tf.compat.v1.reduce_mean", "tf.compat.v1.reduce_sum", "tf.nn.compute_average_loss",
    # the Keras backends' spellings of the same reductions (tf_keras's K.mean, Keras 3's keras.ops)
    "tf.keras.backend.mean", "tf.keras.backend.sum", "keras.ops.mean", "keras.ops.sum",
})

# Elementwise jax functions (canonical names, ``jax.numpy`` for ``jnp``) -> their number of array
# operands: the result has the broadcast operands' shape, entry by entry (a masked rewrite may apply
# them to the whole array and select after: rewrites/jax_masks.py).
JAX_ELEMENTWISE: dict[str, int] = {
    **{f"jax.numpy.{op}": 1 for op in (
        "abs", "absolute", "negative", "positive", "square", "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log1p",
        "log2", "log10", "sin", "cos", "tan", "tanh", "sinh", "cosh", "arcsin", "arccos", "arctan", "arctanh",
        "sign", "floor", "ceil", "round", "rint", "trunc", "reciprocal", "isnan", "isinf", "isfinite",
        "logical_not", "conj", "real", "imag")},
    **{f"jax.nn.{op}": 1 for op in ("relu", "relu6", "sigmoid", "softplus", "silu", "swish", "gelu", "elu",
                                     "leaky_relu", "log_sigmoid", "tanh", "celu", "selu", "hard_tanh", "mish")},
    **{f"jax.numpy.{op}": 2 for op in ("maximum", "minimum", "power", "add", "subtract", "multiply", "divide",
                                        "true_divide", "logaddexp", "arctan2", "hypot", "logical_and", "logical_or",
                                        "greater", "less", "equal", "not_equal", "greater_equal", "less_equal")},
}
# Functions whose result has the shape of their first array argument: the one-operand elementwise
# ones, and those that keep the shape without working entry by entry (a sort, a softmax over an
# axis, ``clip``'s bounds, ``zeros_like``).
JAX_SHAPE_PRESERVING = frozenset({name for name, operands in JAX_ELEMENTWISE.items() if operands == 1} | {
    *(f"jax.numpy.{f}" for f in ("clip", "zeros_like", "ones_like", "full_like", "nan_to_num", "sort", "flip",
                                 "roll", "asarray")),
    "jax.nn.softmax", "jax.nn.log_softmax", "jax.lax.stop_gradient", "jax.lax.neg", "jax.lax.exp",
})
# ``jax.numpy`` reductions (short names; also array methods): without ``axis`` (or ``axis=None``) a
# scalar, with an int ``axis`` one dimension fewer.
JAX_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "prod", "std", "var", "any", "all", "argmax", "argmin",
                            "median", "nanmean", "nansum", "nanmax", "nanmin", "amax", "amin", "average",
                            "logsumexp", "count_nonzero", "ptp"})

# Callables that turn an argument into a Python/NumPy value while tracing, so a symbolic tensor
# there fails in every graph (not only under XLA): callable -> (positional index, keyword). The
# generated API table marks neither (tf.constant's and TensorShape's results are a tensor and a
# static shape); each fails in a tf.function given a computed tensor (TF 2.21: tf.constant
# "TypeError: Expected float32, but got Tensor(...) of type 'SymbolicTensor'", tf.TensorShape
# "TypeError: ... 'SymbolicTensor'"; tests/xlacheck/test_compiler_truth.py).
PYTHON_VALUE_ARGS: dict[str, tuple[int, str]] = {
    "tf.constant": (0, "value"),
    "tf.compat.v1.constant": (0, "value"),
    "tf.TensorShape": (0, "dims"),
}

# Keras Model endpoints that run their own tf.function and refuse to run inside one
# (tf_keras' `_disallow_inside_tf_function`: "Detected a call to `Model.predict` inside a
# `tf.function`"); checked under jit_compile=True in tests/xlacheck/test_compiler_truth.py.
KERAS_EAGER_ENDPOINTS = frozenset({"fit", "evaluate", "predict", "train_on_batch", "test_on_batch",
                                   "predict_on_batch"})

# Framework functions that copy a tensor into a NumPy array, as np.asarray does: in a graph there
# is no value to copy (keras.ops.convert_to_numpy of a traced tensor: "NotImplementedError: Cannot
# convert a symbolic tf.Tensor to a numpy array", TF 2.21 / Keras 3).
NUMPY_CONVERSIONS = frozenset({"keras.ops.convert_to_numpy", "tf.keras.ops.convert_to_numpy"})

# NumPy random draws that return a Python float/int, not a NumPy scalar, when called without `size`
# (`np.random.uniform(0.8, 1.2)` is a `float`; `np.random.choice` and `Generator.integers` give NumPy
# scalars, which tf.function traces as tensors, and are not listed). Each name maps to the number of
# distribution parameters before its `size` parameter: a call with more positional arguments, or a
# `size=`, draws an array. `rand`/`randn` take only sizes. Checked against the installed NumPy.
NUMPY_SCALAR_DRAWS: dict[str, int] = {  # np.random.X and np.random.RandomState(...).X
    "uniform": 2, "normal": 2, "beta": 2, "gamma": 2, "exponential": 1, "poisson": 1, "binomial": 2,
    "laplace": 2, "lognormal": 2, "triangular": 3, "standard_normal": 0, "random": 0, "random_sample": 0,
    "randint": 2, "rand": 0, "randn": 0,
}
NUMPY_GENERATOR_SCALAR_DRAWS: dict[str, int] = {  # np.random.default_rng(...).X
    "uniform": 2, "normal": 2, "beta": 2, "gamma": 2, "exponential": 1, "poisson": 1, "binomial": 2,
    "laplace": 2, "lognormal": 2, "triangular": 3, "standard_normal": 0, "random": 0,
}
# Python's `random` module functions that draw a new value (the others seed or shuffle).
STDLIB_RANDOM_DRAWS = frozenset({"random", "uniform", "randint", "randrange", "gauss", "normalvariate",
                                 "betavariate", "expovariate", "gammavariate", "lognormvariate",
                                 "triangular", "vonmisesvariate", "paretovariate", "weibullvariate"})

# Every host-side draw, whatever it returns (arrays too): inside traced code each runs once, while
# tracing, and its value is frozen into the graph (:mod:`xlacheck.rules.host_random_in_compiled_code`).
# NumPy's legacy module functions (np.random.X, also the methods of a RandomState) and the stdlib's
# draws, choices and in-place shuffles; seeding and state functions are not draws.
HOST_RANDOM_DRAWS: dict[str, frozenset[str]] = {
    "np.random": frozenset(NUMPY_SCALAR_DRAWS) | frozenset({
        "choice", "permutation", "shuffle", "random_integers", "ranf", "sample", "bytes", "chisquare",
        "dirichlet", "f", "geometric", "gumbel", "hypergeometric", "logistic", "logseries", "multinomial",
        "multivariate_normal", "negative_binomial", "noncentral_chisquare", "noncentral_f", "pareto", "power",
        "rayleigh", "standard_cauchy", "standard_exponential", "standard_gamma", "standard_t", "vonmises", "wald",
        "weibull", "zipf"}),
    "random": STDLIB_RANDOM_DRAWS | frozenset({"choice", "choices", "sample", "shuffle", "getrandbits"}),
}


# Kernel libraries that run only on CUDA devices (their calls launch CUDA or Triton kernels on CUDA
# tensors; none has an XLA lowering): PyTorch code that calls one cannot run with XLA tensors, so it is
# a path the project takes on GPUs only (lumina's flash-attn varlen path, SageAttention). Top-level
# package names. Not listed: packages whose CUDA parts are modules built at set-up (apex's fused
# layers, bitsandbytes, which has CPU backends too).
CUDA_ONLY_PACKAGES = frozenset({"flash_attn", "flash_attn_interface", "flash_attn_2_cuda", "sageattention", "xformers",
                                "mamba_ssm", "causal_conv1d", "flashinfer", "triton", "selective_scan_cuda",
                                "deep_gemm", "natten", "fused_dense_lib"})

# torch.nested constructors: none builds a nested tensor of XLA tensors (measured, torch and torch_xla 2.9.0 on
# PJRT CPU, tools/probe_torch_nested.py, rerun by tests/xlacheck/test_torch_prec25.py): the jagged layout raises
# AttributeError ('NestedIntNode' object has no attribute 'expect_size'), also from CPU tensors given
# ``device=<xla>``, and the strided layout fails an internal assert (a nested tensor's storage must be on the CPU,
# CUDA, XPU, HPU or a privateuse1 device). Device code that builds one is a path the project takes on other devices
# only, as a CUDA-only kernel call is (vit-pytorch's NaViT with nested jagged tensors: a port takes the padded
# variant). Full dotted names.
NO_XLA_TORCH_CALLS = frozenset({"torch.nested.nested_tensor", "torch.nested.as_nested_tensor", "torch.nested.narrow",
                                "torch.nested.nested_tensor_from_jagged"})

# Functions of other libraries that take a torch tensor only through ``__cuda_array_interface__``, which torch defines
# for CUDA tensors alone (a CPU or XLA tensor raises AttributeError on it and has no ``__array_interface__``):
# ``ctranslate2.StorageView.from_array`` of a CPU or an XLA tensor raises ValueError "Object does not implement the
# array interface" (measured, CTranslate2 4.8.5 with torch_xla 2.9.0 on PJRT CPU; NumPy arrays are taken). Given a
# torch tensor, such a call is CUDA-only (OpenNMT-py's CTranslate2 LM-prior loss). Full dotted names.
CUDA_ARRAY_TAKERS = frozenset({"ctranslate2.StorageView.from_array"})

# PyTorch backends of other accelerators (top-level packages): each registers its own device type with torch
# (torch_npu: Ascend "npu"; torch_mlu: Cambricon "mlu"; torch_musa: Moore Threads "musa"; habana_frameworks:
# Gaudi "hpu"), and a project imports it where that hardware is installed (``try: import torch_npu`` /
# ``except ImportError: torch_npu = None``). A branch that runs only when one is present
# (``if torch_npu is not None:``) is that accelerator's path, not the XLA device's.
OTHER_TORCH_BACKENDS = frozenset({"torch_npu", "torch_mlu", "torch_musa", "habana_frameworks"})

# Inference runtimes other than PyTorch (dotted prefixes of what a module imports or calls): a branch that
# loads one (``elif onnx: import onnxruntime``) serves a model exported from torch, so the branches that the
# same flag selects elsewhere (``elif self.onnx: y = self.session.run(...)``) run that runtime on host
# arrays, never a torch_xla graph (yolov5's DetectMultiBackend: OpenCV DNN, ONNX Runtime, OpenVINO,
# TensorRT, CoreML, PaddlePaddle, TensorFlow/TFLite, Triton clients).
NON_TORCH_RUNTIMES = frozenset({"onnxruntime", "openvino", "tensorrt", "coremltools", "paddle", "tensorflow",
                                "tflite_runtime", "cv2.dnn", "tritonclient", "ncnn", "MNN", "rknn", "rknnlite",
                                "tensorrt_llm"})


class TensorArg(NamedTuple):
    """An argument that must be a tensor once traced, and what TensorFlow says when it is not."""

    position: int
    keyword: str
    error: str  # TF 2.21's message inside a tf.function (jit_compile or not)


# Control-flow ops that accept a Python predicate eagerly (tf.cond(True, ...) calls the branch) but
# raise inside every tf.function (measured on TF 2.21, with and without jit_compile: the XLA117
# rows of tests/xlacheck/test_compiler_truth.py). A NumPy bool is accepted by tf.cond, a Python
# int is not (InvalidArgumentError); tf.while_loop's cond may return a Python bool.
TENSOR_ONLY_ARGS: dict[str, TensorArg] = {
    "tf.cond": TensorArg(0, "pred", "pred must not be a Python bool"),
    "tf.compat.v1.cond": TensorArg(0, "pred", "pred must not be a Python bool"),
    "tf.switch_case": TensorArg(0, "branch_index", "'branch_index' must be a Tensor"),
    "tf.case": TensorArg(0, "pred_fn_pairs", "pred must be a Tensor"),  # the preds of its (pred, fn) pairs
}

# Constructors of objects that create a tf.Variable when built (so building one inside a compiled
# step fails like tf.Variable does: TF 2.21, `tf.random.Generator.from_seed(3)` inside a
# jit_compile function raises ValueError on the first call); the generated API table records what a
# call returns, not what an object creates (:mod:`xlacheck.rules.variable_created_in_compiled_step`).
VARIABLE_OWNERS = frozenset({
    "tf.random.Generator", "tf.random.Generator.from_seed", "tf.random.Generator.from_non_deterministic_state",
    "tf.random.Generator.from_key_counter", "tf.random.Generator.from_state",
    "tf.random.experimental.Generator", "tf.random.experimental.Generator.from_seed",
    "tf.random.experimental.Generator.from_non_deterministic_state",
    "tf.random.experimental.Generator.from_key_counter", "tf.random.experimental.Generator.from_state",
})

# one home for these constructors (rules, rewrites and the object model import them from here)
TENSOR_ARRAYS = frozenset({"tf.TensorArray", "tf.compat.v1.TensorArray"})
TF_VARIABLES = frozenset({"tf.Variable", "tf.compat.v1.Variable", "tf.compat.v2.Variable"})

# The methods that run when an object is called: Python's ``__call__`` (a Keras layer's runs ``call``),
# ``__call__`` first where a class has both
CALL_METHODS = ("__call__", "call")
TF_TENSOR_SHAPES = frozenset({"tf.TensorShape", "tf.compat.v1.TensorShape"})
# torch ops that join a sequence of tensors along an existing dimension (TORCH_CATS) or a new one
TORCH_CATS = frozenset({"torch.cat", "torch.concat", "torch.concatenate", "torch.hstack", "torch.vstack"})
TORCH_JOINS = TORCH_CATS | {"torch.stack", "torch.row_stack", "torch.column_stack", "torch.dstack"}

GROWING_OPS = frozenset({"tf.concat", "tf.stack", "tf.pad", "tf.experimental.numpy.append", "tnp.concatenate",
                         "tnp.append", "tnp.hstack", "tnp.vstack", "tf.experimental.numpy.concatenate",
                         "jnp.concatenate", "jnp.append", "jnp.pad", "jnp.hstack", "jnp.vstack", "jnp.stack"})



class StaticArgs(NamedTuple):
    """Arguments of one callable that XLA needs as compile-time constants (a supplement)."""

    params: tuple[str, ...]  # positional parameter names, in order
    static: tuple[str, ...]
    reason: str  # why the generated table does not hold them


# What the API table's probe could not measure (it makes integer scalars and flat integer lists
# graph inputs in one default call, and does not construct classes or call tf.experimental.numpy).
# Compiled with a value-less (TensorSpec) data-dependent argument each of these fails with "must
# be a compile-time constant" (tests/xlacheck/test_api_table.py). Note what the compiler accepts:
# a data-dependent `k` of tf.math.top_k and `size` of tf.slice compile (bounded dynamic shapes).
STATIC_ARGS_SUPPLEMENT: dict[str, StaticArgs] = {
    "tf.pad": StaticArgs(("tensor", "paddings", "mode", "constant_values", "name"), ("paddings",),
                         "paddings is a nested list, which the probe does not make a graph input"),
    "tf.range": StaticArgs(("start", "limit", "delta", "dtype", "name"), ("start", "limit", "delta"),
                           "the probing call fed start and limit as tensors together and failed (const_in_default_call);"
                           " each alone fails too, which that probe cannot tell apart"),
    "tf.sequence_mask": StaticArgs(("lengths", "maxlen", "dtype", "name"), ("maxlen",),
                                   "the probing call omitted maxlen"),
    "tf.TensorArray": StaticArgs(("dtype", "size", "dynamic_size", "clear_after_read", "tensor_array_name"),
                                 ("size",), "a class: the probe does not construct classes"),
    "tnp.zeros": StaticArgs(("shape", "dtype"), ("shape",), "the probe does not call tf.experimental.numpy"),
    "tnp.ones": StaticArgs(("shape", "dtype"), ("shape",), "the probe does not call tf.experimental.numpy"),
    # JAX: every static argument is in xlacheck/data/jax_api.json (jax.numpy, jax.lax, jax.random, jax.nn)
}


# Arguments that must be Python values, which the API table's probe could not measure (it does not
# call tf.experimental.numpy): these functions compare or convert them in Python while tracing, so a
# tensor fails even when it is only a shape (`tnp.arange(tf.shape(x)[1])`: "Using a symbolic
# tf.Tensor as a Python bool is not allowed"; TF 2.21, tests/xlacheck/test_api_table.py).
PYTHON_ARGS_SUPPLEMENT: dict[str, StaticArgs] = {
    "tnp.arange": StaticArgs(("start", "stop", "step", "dtype"), ("start", "stop", "step"),
                             "the probe does not call tf.experimental.numpy"),
    "tnp.linspace": StaticArgs(("start", "stop", "num", "endpoint", "retstep", "dtype", "axis"), ("num",),
                               "the probe does not call tf.experimental.numpy"),
    "tnp.eye": StaticArgs(("N", "M", "k", "dtype"), ("N", "M", "k"), "the probe does not call tf.experimental.numpy"),
    "tnp.identity": StaticArgs(("n", "dtype"), ("n",), "the probe does not call tf.experimental.numpy"),
    "tnp.tri": StaticArgs(("N", "M", "k", "dtype"), ("N", "M", "k"), "the probe does not call tf.experimental.numpy"),
    "tnp.triu": StaticArgs(("m", "k"), ("k",), "the probe does not call tf.experimental.numpy"),
    "tnp.tril": StaticArgs(("m", "k"), ("k",), "the probe does not call tf.experimental.numpy"),
    "tnp.moveaxis": StaticArgs(("a", "source", "destination"), ("source", "destination"),
                               "the probe does not call tf.experimental.numpy"),
    "tnp.repeat": StaticArgs(("a", "repeats", "axis"), ("repeats",), "the probe does not call tf.experimental.numpy"),
}


def python_arguments(name: str, node: ast.Call) -> list[tuple[str, ast.expr]]:
    """(parameter, argument) pairs of a call that must be Python values, not tensors at all (a
    shape tensor fails too): the generated API table's ``py_args`` and :data:`PYTHON_ARGS_SUPPLEMENT`."""
    fact = api_table.fact_for(name)
    extra = PYTHON_ARGS_SUPPLEMENT.get(name)
    wanted = (fact.py_args if fact is not None else ()) + (extra.static if extra is not None else ())
    if not wanted:
        return []
    params = fact.params if fact is not None and fact.params else (extra.params if extra is not None else ())
    bound = api_table.bind_arguments(params, *call_arguments(node))
    return [(p, bound[p]) for p in dict.fromkeys(wanted) if p in bound]


def call_arguments(node: ast.Call) -> tuple[list[ast.expr], dict[str, ast.expr]]:
    """A call's positional arguments before any ``*args`` splat (their positions are unknown
    after it) and its named keyword arguments (``**kwargs`` left out)."""
    positional: list[ast.expr] = []
    for arg in node.args:
        if isinstance(arg, ast.Starred):
            break
        positional.append(arg)
    return positional, {kw.arg: kw.value for kw in node.keywords if kw.arg is not None}


def splatted(node: ast.Call) -> bool:
    """Whether a ``*args`` or ``**kwargs`` splat hides which arguments a call passes."""
    return any(isinstance(a, ast.Starred) for a in node.args) or any(kw.arg is None for kw in node.keywords)


def static_arguments(name: str, node: ast.Call) -> list[tuple[str, ast.expr]]:
    """(parameter, argument) pairs of a call that XLA (or ``jax.jit``) needs as compile-time
    constants: from the generated API tables (``const_args``/``py_args``/``const_inputs``, JAX's
    ``static_args``, with their conditions, ``const_unless``) and :data:`STATIC_ARGS_SUPPLEMENT`;
    positional arguments are mapped to parameter names by the table's ``params``. Behind a
    ``*args``/``**kwargs`` splat any argument may be given, so a constant that one of them lifts
    (``const_unless``) is not asked for."""
    fact = api_table.fact_for(name)
    extra = STATIC_ARGS_SUPPLEMENT.get(name) or (STATIC_ARGS_SUPPLEMENT.get(fact.canonical) if fact else None)
    if extra is None and (fact is None or not (fact.const_args or fact.py_args or fact.const_inputs)):
        return []
    params = fact.params if fact is not None and fact.params else (extra.params if extra is not None else ())
    bound = api_table.bind_arguments(params, *call_arguments(node))
    given = frozenset(bound)
    static = list(fact.static_args(given)) if fact is not None else []
    if fact is not None and fact.const_unless and splatted(node):
        conditional = dict(fact.const_unless)
        static = [p for p in static if p not in conditional]
    if extra is not None:
        static += [p for p in extra.static if p not in static]
    return [(p, bound[p]) for p in static if p in bound]


def array_method_as_function(node: ast.Call) -> tuple[str, ast.Call] | None:
    """``x.reshape(b, t)`` as the ``jax.numpy`` function it is (``jnp.reshape``) and the equivalent
    call ``jnp.reshape(x, (b, t))`` (its arguments the method call's own nodes), for the public
    methods of a traced ``jax.Array`` (the JAX table's ``array_methods``); None for another call.
    Whether ``x`` is a traced array is the caller's to know."""
    f = node.func
    if not isinstance(f, ast.Attribute) or f.attr not in api_table.jax_array_methods():
        return None
    args = list(node.args)
    if len(args) > 1 and f.attr in api_table.jax_array_packed_methods() \
            and not any(isinstance(a, ast.Starred) for a in args):
        args = [ast.Tuple(elts=args, ctx=ast.Load())]  # x.reshape(b, t) is jnp.reshape(x, (b, t))
    return f"jnp.{f.attr}", ast.Call(func=f, args=[f.value, *args], keywords=node.keywords)


@cache
def _autograph_rules() -> tuple[tuple[str, str], ...]:
    try:
        rules = load_json("autograph_do_not_convert.json")["rules"]
    except (FileNotFoundError, OSError):
        return ()
    return tuple((r["action"], r["module"]) for r in rules)


def autograph_skip_modules() -> tuple[str, ...]:
    """Module prefixes AutoGraph never converts (its do-not-convert list, read from TensorFlow by
    ``tools/generate_autograph_table.py``). Empty if the table is missing."""
    return tuple(m for a, m in _autograph_rules() if a == "do_not_convert")


def autograph_converts(module: str) -> bool:
    """Whether AutoGraph converts functions defined in ``module`` (dotted name): the first of
    its ordered rules whose prefix matches decides, as in ``config_lib.Rule.get_action``."""
    for action, prefix in _autograph_rules():
        if module == prefix or module.startswith(prefix + "."):
            return action == "convert"
    return True


@cache
def module_name(path: str) -> str | None:
    """The dotted module name of a file from its package folders (``__init__.py`` up the tree),
    or None when the file is not in a package or does not exist."""
    import os

    parent, base = os.path.split(os.path.abspath(path))
    name, ext = os.path.splitext(base)
    if ext != ".py" or not os.path.isfile(os.path.join(parent, "__init__.py")):
        return None
    parts = [] if name == "__init__" else [name]
    while os.path.isfile(os.path.join(parent, "__init__.py")):
        parent, pkg = os.path.split(parent)
        parts.append(pkg)
    return ".".join(reversed(parts))
