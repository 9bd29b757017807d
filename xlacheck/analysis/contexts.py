"""Which functions XLA compiles, and whether AutoGraph converts them: one scan of the module.

The scan (:func:`scan_module`) visits every node once and records imports, classes, functions,
lambdas, call edges and the calls that hand a function to a compiler (``tf.function(f)``,
``model.compile(loss=f)``, ``tf.map_fn(f, ...)``) or to the host (``tf.py_function(f, ...)``,
``dataset.map(f)``). :func:`infer_contexts` then closes the set of compiled functions over the
call graph.

Certainty, from strongest to weakest:
1. ``COMPILED``: a compiler entry point (decorator, wrapper call, Keras method, ``loss=``), or a
   function such an entry point calls in the same file, or a function nested in one.
2. ``MAYBE``: a module-level function nobody in the file compiles but that computes with
   ``tf.*`` ops on its parameters (loss helpers, model utilities). Callers elsewhere usually run
   it inside a ``tf.function``; rules that are failures in *any* graph use it, others skip it.
Functions handed to the host (``py_function``, ``dataset.map``) are never compiled.

Evidence levels (:class:`Level`), which each rule states it fires at (``Rule.levels``):
- ``CERTAIN``: ``jit_compile=True`` functions, ``jax.jit``, and what they call or nest;
- ``LIKELY``: Keras ``call``/``train_step``/losses/metrics, ``compile(loss=...)``,
  ``strategy.run`` replica functions, module-level helpers that return a scalar reduction of two
  or more inputs or that have Keras' ``fn(y_true, y_pred)`` loss/metric signature (losses,
  :func:`_mark_losses`), functions handed to Keras layers and wrappers that call them in the step
  (``activation=``, ``*_regularizer=``, ``*_constraint=``, ``Activation(fn)``,
  ``MeanMetricWrapper(fn)``), and what they call: same-file functions, the constructors of plain
  classes built there, and methods of objects of classes defined here (``self.pooler.pool(x)``);
  ``compile(jit_compile=True)`` makes its losses and metrics ``CERTAIN``, and the ``call`` of the
  Keras classes defined here that build that model (``Model(x, Block()(x))``, ``Sequential([...])``,
  ``MyModel()``, and the layers they build in ``__init__``: :func:`_jit_model_classes`);
  ``run_eagerly=True`` makes them host code;
- ``GRAPH``: a plain ``tf.function`` (no ``jit_compile=True``) and what it calls: traced by
  AutoGraph, compiled by XLA only when a compiled caller or a TPU runs it (rules fire here only
  for failures of every graph, ``Rule.fails_in_any_graph``; XLA-only failures with --preview);
- ``HELPER``: the ``MAYBE`` helpers above (no evidence in this file that anything compiles them);
- ``HOST``: traced into a host-side graph XLA never compiles: ``dataset.map/filter/...``
  functions, ``py_function`` targets, preprocessing layers and tokenizers, serving/TFLite export
  functions (``get_concrete_function``/``signatures=``), string processing;
- ``EAGER``: everything else (module level, ``__init__``, callbacks).
A compile-failure claim never fires at ``HOST`` or ``EAGER``; :attr:`FunctionInfo.why` and
:attr:`FunctionInfo.evidence_line` name the evidence ("decorated with tf.function(jit_compile=True)", line).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import TYPE_CHECKING

from xlacheck import api_table
from xlacheck.analysis import _CHILD_FIELDS, child_fields
from xlacheck.analysis.calls import names_rebound
from xlacheck.analysis.fixpoint import grow
from xlacheck.analysis.imports import AliasTable, rebound_imports
from xlacheck.analysis.reductions import returns_scalar_reduction
from xlacheck.analysis.scopes import (
    EMPTY_BUILT,
    BuiltValues,
    built_values,
    own_nodes,
    own_nodes_in_loops,
    parameter_defaults,
)
from xlacheck.analysis.tables import (
    CALL_METHODS,
    FLAX_APPLY_FN_FIELD,
    FLAX_APPLY_METHODS,
    FLAX_LINEN_MODULE,
    JAX_FUNCTION_HOLDERS,
    JAX_FUNCTION_TRANSFORMS,
    JAX_HOLDER_WRAPPERS,
    JAX_JIT_NAMES,
    JAX_TRACING_PRIMITIVES,
    JAX_TREE_MAPS,
    JIT_COMPILE_KEYWORDS,
    TF_FUNCTION_NAMES,
    autograph_converts,
    module_name,
)

if TYPE_CHECKING:  # values and compiled_exports import this module
    from xlacheck.analysis.compiled_exports import CompiledCallable
    from xlacheck.analysis.values import Reducers


class Certainty(IntEnum):
    NONE = 0
    MAYBE = 1
    COMPILED = 2


class Level(IntEnum):
    """How strong the evidence is that XLA compiles a function (see the module docstring)."""

    EAGER = 0
    HOST = 1
    HELPER = 2
    GRAPH = 3
    LIKELY = 4
    CERTAIN = 5


class Role(Enum):
    """What a call that takes a function does with it."""

    TF_FUNCTION = "tf.function"  # traced, AutoGraph-converted
    TF_FUNCTION_NOAG = "tf.function(autograph=False)"  # traced, not converted
    JAX = "jax.jit"
    LAX = "jax.lax"  # traced by a JAX control-flow primitive (lax.scan/fori_loop/cond bodies), jitted or not
    NOAG = "do_not_convert"  # not converted, not traced by itself
    GRAPH = "graph"  # runs in its caller's graph (tf.map_fn, tf.cond bodies)
    HOST = "host"  # runs as Python on the host (py_function)
    PIPELINE = "pipeline"  # a tf.data function: a host-side graph
    COMPILED = "compiled"  # compile(loss=...), strategy.run(...)
    LAYER = "keras.layers.Lambda"  # run by a Keras layer's call (in the train step), not converted


# Keras/keras-hub base classes whose subclasses run in the input pipeline (tf.data), not in the
# compiled step: preprocessing layers, tokenizers, converters.
_HOST_BASE_SUFFIXES = ("PreprocessingLayer", "Tokenizer", "Preprocessor", "ImageConverter", "AudioConverter",
                       "VideoConverter", "TextVectorization", "StringLookup", "IntegerLookup", "Hashing",
                       "CategoryEncoding", "Discretization", "Normalization")
# Module prefixes of string/text processing: no XLA kernels exist, so code that runs them is
# host-side preprocessing (unless an explicit jit_compile=True entry says otherwise).
_STRING_PREFIXES = ("tf.strings.", "tensorflow_text.", "tf_text.", "text.", "tf.io.decode_", "tf.io.parse_",
                    "tf.image.decode_", "tf.io.read_file", "tf.compat.v1.string_")


FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda

# Keras and Hugging Face methods that run inside the compiled train/predict function: the model's
# step and loss/metric hooks, and an optimizer's per-variable update (Keras 3 / tf_keras
# `update_step`, the legacy `_resource_apply_*`), which apply_gradients runs in the train step
# (checked with model.fit: `.numpy()` in each fails).
_KERAS_METHODS = frozenset(
    {"call", "train_step", "test_step", "predict_step", "hf_compute_loss", "compute_loss", "compute_metrics",
     "update_step", "_resource_apply_dense", "_resource_apply_sparse"}
)
_METRIC_METHODS = frozenset({"update_state", "result"})
# Keras objects whose __call__ runs inside the compiled train step (not initializers: build time).
_CALLED_IN_STEP_BASES = ("LearningRateSchedule", "Constraint", "Regularizer")

# Calls whose function argument(s) run inside the caller's graph (inherit the caller's context).
_GRAPH_HIGHER_ORDER = frozenset(
    {
        "tf.map_fn", "tf.vectorized_map", "tf.while_loop", "tf.cond", "tf.switch_case",
        "tf.case", "tf.scan", "tf.foldl", "tf.foldr", "tf.recompute_grad", "tf.custom_gradient",
        "tf.nest.map_structure", "tf.compat.v1.while_loop", "tf.compat.v1.cond",
    }
)
# Of those, the ones that run their function argument once per iteration of a staged loop (a
# While op in the graph; tf.vectorized_map falls back to one for what pfor cannot vectorize): the
# function's parameters are loop variables or one element per iteration, tensors whose values
# change per iteration and so are never compile-time constants (TF 2.21, XLA:CPU:
# `tf.map_fn(lambda n: tf.one_hot(n, n + 1), x)` and `tf.range(i)` in a tf.while_loop body fail
# with "must be a compile-time constant" even when x is an argument of the jit entry).
_LOOP_HIGHER_ORDER = frozenset(
    {"tf.map_fn", "tf.vectorized_map", "tf.while_loop", "tf.compat.v1.while_loop", "tf.scan", "tf.foldl",
     "tf.foldr", "tf.compat.v1.map_fn", "tf.compat.v1.scan", "tf.compat.v1.foldl", "tf.compat.v1.foldr"}
)
# Keyword arguments of Keras layers whose callables run in the layer's call() or in the train
# step (regularization losses, constraints after the update), and Keras classes that wrap a
# function they call in call()/update_state(): analysis.contexts._Scanner._keras_callables.
_STEP_CALLABLE_KEYWORDS = frozenset({"activation", "recurrent_activation", "fn"})
_STEP_CALLABLE_SUFFIXES = ("_regularizer", "_constraint")
_STEP_CALLABLE_WRAPPERS = frozenset({"Activation", "MeanMetricWrapper", "LossFunctionWrapper"})
# Calls whose function argument runs as Python on the host, not under XLA.
_HOST_CALLS = frozenset(
    {"tf.py_function", "tf.numpy_function", "tf.compat.v1.py_func", "tf.data.Dataset.from_generator",
     "jax.pure_callback", "jax.debug.callback", "jax.experimental.io_callback", "jax.experimental.host_callback.call",
     "jax.experimental.host_callback.id_tap"}
)
# Method names of tf.data pipelines: the function runs as a host-side TF graph, not under XLA.
_PIPELINE_METHODS = frozenset({"map", "filter", "flat_map", "interleave", "from_generator", "reduce", "scan"})
# Calls that mark the calling function as host-side driver code under the jit-compiled
# declaration (:func:`_mark_declared_roots`): model and input building, training loops, saving and
# loading, distribution set-up, wrapping a function for a compiler. None of them is something a
# compiled function does (Keras inputs and tf.data pipelines cannot even be built in one).
# transformers' TF optimizer factories (one home: XLA405 and XLA502 read it too)
TRANSFORMERS_OPTIMIZERS = frozenset({"transformers.create_optimizer", "transformers.AdamWeightDecay"})
_DRIVER_CALL_PREFIXES = (
    *sorted(TRANSFORMERS_OPTIMIZERS),
    "tf.keras.Input", "tf.keras.layers.Input", "tf.keras.Model", "tf.keras.models.", "tf.keras.Sequential",
    "tf.keras.callbacks.", "tf.keras.optimizers.", "tf.keras.utils.", "tf.data.", "tf.saved_model.",
    "tf.train.Checkpoint", "tf.train.CheckpointManager", "tf.distribute.", "tf.config.", "tf.summary.create_",
    "tf.io.gfile.", "tf.lite.", "tf.function", "jax.jit", "jax.pmap", "jax.device_get", "jax.device_put",
    "jax.distributed.", "jax.devices", "argparse.", "flax.training.", "orbax.",
)
_DRIVER_METHODS = frozenset(
    {"fit", "fit_generator", "evaluate", "predict", "compile", "save_weights", "load_weights", "save_pretrained",
     "from_pretrained", "push_to_hub", "summary", "experimental_distribute_dataset",
     "distribute_datasets_from_function", "padded_batch", "prefetch", "unbatch", "as_numpy_iterator",
     "from_tensor_slices", "get_concrete_function", "to_tf_dataset", "prepare_tf_dataset", "train_on_batch",
     "test_on_batch", "predict_on_batch", "save", "generate"}
)
# Python modules whose calls are host work (files, processes, text, serialization)
_HOST_MODULES = frozenset({"os", "re", "json", "shutil", "pickle", "h5py", "glob", "subprocess", "sys", "csv",
                           "pathlib", "requests", "urllib", "yaml", "safetensors"})
# Module attributes whose reads are host work (the command line, the environment)
_HOST_READ_NAMES = frozenset({"sys.argv", "os.environ"})
_HOST_READS = frozenset(name.rpartition(".")[2] for name in _HOST_READ_NAMES)
# Methods of a model/layer class that run when it is built, configured or saved, not in its
# compiled step (Keras' build/config protocol); dunders other than __call__ are Python protocol.
_SETUP_METHODS = frozenset(
    {"build", "get_config", "from_config", "compute_output_shape", "compute_output_signature", "get_build_config",
     "build_from_config", "get_compile_config", "compile_from_config", "save_own_variables", "load_own_variables",
     "setup", "init"}
)
# Keras base classes whose methods run on the host: callbacks, Python data generators, initializers
# (build time).
_HOST_KERAS_BASE_SUFFIXES = ("Callback", "Sequence", "PyDataset", "Initializer")
# Non-Keras model bases whose methods run in the compiled step.
_MODEL_BASES = frozenset({"tf.Module", "flax.linen.Module", "flax.nnx.Module", "equinox.Module"})
_COMPILER_NAMES = TF_FUNCTION_NAMES | JAX_JIT_NAMES
_FRAMEWORK_CALL_PREFIXES = ("tf.", "tnp.", "jax.", "jnp.", "flax.", "optax.", "transformers.")
# Heads of canonical names (analysis.imports) that are frameworks and libraries, never project code.
FRAMEWORK_HEADS = frozenset({"tf", "tnp", "np", "jnp", "jax", "torch", "torch_xla", "transformers", "flax", "optax",
                              "tensorflow_text", "tensorflow_datasets", "tfds", "keras_nlp", "keras_cv", "numpy"})
# Module prefixes whose calls do not make a helper "compute with tensors".
_NON_COMPUTE_PREFIXES = (
    "tf.keras", "tf.data", "tf.io", "tf.config", "tf.saved_model", "tf.distribute", "tf.train",
    "tf.summary", "tf.test", "tf.compat", "tf.experimental", "tf.TensorSpec", "tf.Variable",
    "tf.Module", "tf.autograph", "tf.get_logger", "tf.executing_eagerly", "tf.function",
    # TensorFlow's own implementation modules: library internals, not user tensor helpers
    "tf.python", "tf.lite", "tf.core", "tf.compiler", "tf.tools", "tf.dtensor", "tf.tsl",
)


@dataclass(eq=False)
class ClassInfo:
    node: ast.ClassDef
    bases: tuple[str, ...]  # canonical (or plain local) names of the bases
    methods: dict[str, FunctionInfo] = field(default_factory=dict)
    # self.<attr> -> the value assigned to it in any method (last wins), for value inference
    attrs: dict[str, ast.expr] = field(default_factory=dict)
    # self.<attr> -> flags of the values its compiled methods (not __init__/build) assign it, as the
    # flow walker found them (callers first: `self.hidden = tf.nn.relu(x)` in call(), read in head())
    walked_attrs: dict[str, int] = field(default_factory=dict)
    keras: bool = False
    # a model or layer class: a Keras one (``keras``), or a tf.Module / Flax / Equinox one, or a class
    # of this file derived from one (:func:`_mark_classes`)
    model: bool = False
    host: bool = False  # a preprocessing layer / tokenizer: runs in the input pipeline
    metric: bool = False
    # a metric written for eager use (:func:`_mark_eager_written_metrics`): its update_state/result are
    # compiled only where compiled code calls them, not by being a metric's methods
    eager_metric: bool = False
    called_in_step: bool = False  # a learning-rate schedule, constraint or regularizer


# How a function's ``why`` starts when a tf.function decorates or wraps it (its own trace entry).
_DECORATED = "decorated with tf.function"
_WRAPPED = "wrapped in tf.function"


@dataclass(eq=False)
class FunctionInfo:
    node: FunctionNode
    name: str
    cls: ClassInfo | None  # set for methods (functions directly in a class body)
    parent: FunctionInfo | None  # enclosing function, for nested functions and lambdas
    certainty: Certainty = Certainty.NONE
    converted: bool = False  # AutoGraph rewrites its control flow
    jit_entry: bool = False  # an explicit XLA entry (jit_compile=True, jax.jit): argument values may be baked in
    traced_entry: ast.expr | None = None  # the tf.function/jax.jit decorator or wrapper call that traces it
    jax: bool = False  # traced by jax.jit: no AutoGraph, no value specialization, no bounded dynamic shapes
    static_params: frozenset[str] = frozenset()  # jax.jit static_argnums/static_argnames: Python values
    # a jax.jit of it names its static arguments in a way not read here (`static_argnums=STATIC`,
    # `**options`): any parameter may be static
    static_params_unknown: bool = False
    # the part of static_params that a functools.partial binds before jax.jit sees the function:
    # constants closed over, not arguments (no cache-key entry)
    partial_bound: frozenset[str] = frozenset()
    no_autograph: bool = False  # autograph=False / do_not_convert / jax.jit / lambda
    # a compiled caller that runs it without AutoGraph (an explicit autograph=False entry and what
    # it reaches, Keras layers included: :func:`_mark_unconverted_paths`): how, for messages; "" if none
    unconverted_from: str = ""
    host: bool = False  # runs on the host (py_function target, dataset.map function)
    why: str = ""
    called_names: set[str] = field(default_factory=set)
    referenced_names: set[str] = field(default_factory=set)  # every name it reads, called or not
    # parameters whose default names a framework API that no call in the file passes: param -> API
    # (def apply(t, fn=tf.linalg.det): `fn(t)` calls tf.linalg.det; :func:`_api_defaults`)
    api_defaults: dict[str, str] = field(default_factory=dict)
    called_methods: set[str] = field(default_factory=set)
    # `self.<attr>.<method>(...)` and `<name>.<method>(...)` calls: (attr or name, method), for
    # objects of classes defined here that a method or the module builds (:func:`_object_method`)
    called_object_methods: set[tuple[bool, str, str]] = field(default_factory=set)
    # `Name(...)(...)`: an object built and called at once (flax `@nn.compact` and haiku code: `Block(8)(x)`)
    called_instances: set[str] = field(default_factory=set)
    uses_tf_compute: bool = False
    calls_numpy_method: bool = False  # `.numpy()` outside an eager guard: written for eager mode
    self_numpy: set[str] = field(default_factory=set)  # `self.<attr>.numpy()`: attributes read into NumPy
    children: list[FunctionInfo] = field(default_factory=list)
    level: Level = Level.EAGER  # evidence that XLA compiles it (see Level)
    evidence_line: int = 0  # the line of that evidence (decorator, wrapper call, class, caller)
    keras_method: bool = False  # call/train_step/... of a Keras class: its arguments are tensors (or structures)
    traced_args: bool = False  # a tracer passes it tensors (tf.function/jax.jit target, tf.map_fn body)
    # the body/condition of a staged loop (tf.while_loop, tf.map_fn, tf.scan, ...: _LOOP_HIGHER_ORDER):
    # its parameters change per iteration (values.param_flags marks them LOOP)
    loop_body: bool = False
    uses_strings: bool = False  # runs string/text ops (tf.strings, tensorflow_text, decode/parse)
    exported: bool = False  # exported as a serving signature (get_concrete_function, signatures=)
    # parameters every compiled caller (in another file) sets to a literal: name -> its truth, so
    # `if jittable:` runs one branch only there (analysis.flow)
    const_params: dict[str, bool] = field(default_factory=dict)
    # parameters of an XLA entry that a call site in this file passes a Python list/tuple/dict
    # (a display, a comprehension, list(...), or a name bound to one, such as the entry's own list
    # result passed back): a structure of tensors, not one tensor (:func:`_mark_structure_params`)
    structure_params: frozenset[str] = frozenset()
    # parameters of a TensorFlow XLA entry that a call site in this file passes a Python number
    # literal (`f(x, 1)`): tf.function bakes Python values into the trace, so there the parameter is
    # a compile-time constant, not a tensor (:func:`_mark_structure_params`)
    python_number_params: frozenset[str] = frozenset()
    # host-side driver code (:data:`_DRIVER_CALLS`, :data:`_DRIVER_METHODS`): it builds models or
    # input pipelines, trains, saves or wraps functions for a compiler; never a declared root
    drives: bool = False
    uses_framework: bool = False  # calls TensorFlow, JAX or Keras (the jit-compiled declaration's module-level roots)
    declared: bool = False  # a compiled root only by the user's jit-compiled declaration

    @property
    def qualname(self) -> str:
        """``name``, or ``Class.name`` for a method: how the file's tables of functions key it
        (:class:`xlacheck.analysis.values.Reducers`, :func:`xlacheck.analysis.tracers.jax_op_functions`)."""
        return self.name if self.cls is None else f"{self.cls.node.name}.{self.name}"

    @property
    def tf_function_entry(self) -> bool:
        """A tf.function decorates or wraps it: traced as its own entry (not only reached from a
        compiled caller, a Keras method or a staged loop body)."""
        return self.why.startswith((_DECORATED, _WRAPPED))

    @property
    def compiled(self) -> bool:
        return self.certainty is Certainty.COMPILED

    @property
    def evidence(self) -> str:
        """Why this function is taken for compiled code, for messages: "Keras call() at line 12",
        or with the file for evidence from another file: "called from train_step() in pkg/model.py:42"."""
        return f"{self.why} at line {self.evidence_line}" if self.evidence_line else self.why


@dataclass(frozen=True)
class ProjectFact:
    """What other files of the run say about one module-level function of this file
    (:mod:`xlacheck.analysis.project`): the best evidence that it runs compiled (``level`` at
    least ``GRAPH``), or that only host code calls it (``level`` is ``HOST``)."""

    level: Level
    why: str  # "called from Model.train_step() in pkg/model.py:42"
    converted: bool = True  # its caller is AutoGraph-converted
    jax: bool = False  # its caller is traced by jax.jit
    traced: bool = False  # handed to a tracer (compile(loss=...), tf.function): it is passed tensors
    # value flags (analysis.values) the compiled callers pass, by position ("0") or keyword, OR-ed
    args: tuple[tuple[str, int], ...] = ()
    # arguments every compiled caller passes as a literal of the same truth (`jittable=True`)
    consts: tuple[tuple[str, bool], ...] = ()


@dataclass(frozen=True)
class ExternalUse:
    """A function of another module that this file calls or hands to a compiler or the host: the
    fact :mod:`xlacheck.analysis.project` passes on to that module."""

    target: str  # dotted as imported: "pkg.losses.focal_loss"; relative: "..losses.focal_loss"
    caller: str  # the module-level function the use is in ("" if none): its level may rise
    how: str  # "called from Model.train_step()", "passed to compile()/strategy.run"
    level: Level  # the evidence level of the use in this file alone
    host: bool  # the use runs on the host (tf.data function, py_function)
    converted: bool
    jax: bool
    line: int
    traced: bool = False  # handed to a tracer, which passes it tensors
    args: tuple[tuple[str, int], ...] = ()  # value flags of the arguments passed: position ("0") or keyword
    consts: tuple[tuple[str, bool], ...] = ()  # arguments passed as literals (None, True, 0, ""), and their truth


@dataclass
class ModuleFacts:
    aliases: AliasTable
    functions: list[FunctionInfo]  # source order
    classes: list[ClassInfo]
    by_node: dict[int, FunctionInfo]
    walk_order: list[FunctionInfo] = field(default_factory=list)  # callers before callees
    module_funcs: dict[str, FunctionInfo] = field(default_factory=dict)
    classes_by_name: dict[str, ClassInfo] = field(default_factory=dict)
    # flags of the arguments compiled callers pass, per callee and parameter name
    call_flags: dict[int, dict[str, int]] = field(default_factory=dict)
    # call sites for module-level rules: "wrap" (tf.function(...)/jax.jit(...) calls), "batch"
    # (`.batch(...)`), "local" (calls of plain names), each with the enclosing function
    sites: dict[str, list[tuple[ast.Call, FunctionInfo | None]]] = field(default_factory=dict)
    # functions of other modules handed to compilers or the host here (calls: see external_uses)
    handed_out: list[ExternalUse] = field(default_factory=list)
    # (dotted target, calling function, line, the called bare name or "") for calls of imported
    # non-framework names
    external_calls: list[tuple[str, FunctionInfo, int, str, ast.Call | None]] = field(default_factory=list)
    # call node id -> value flags of its arguments (by position "0" or keyword), recorded by the
    # walk of the calling function (analysis.flow) for calls in external_calls
    external_args: dict[int, dict[str, int]] = field(default_factory=dict)
    external_consts: dict[int, dict[str, bool]] = field(default_factory=dict)  # literal arguments' truth
    external_call_ids: set[int] = field(init=False, default_factory=set)  # ids of the calls in external_calls
    # module-level `NAME = value` (the last such assignment): objects built once and used inside
    # compiled code (a layer instance a model stores or calls)
    module_values: dict[str, ast.expr] = field(default_factory=dict)
    # module-level names bound once, NAME.add(x)/NAME.append(x) arguments, every value of each name
    module_built: BuiltValues = EMPTY_BUILT
    instances: dict[str, str | None] = field(default_factory=dict)  # module `name = Class(...)`: the class
    reducers: Reducers | None = None  # values.reduction_functions, computed on first use
    # names of pytree fields declared static here (analysis.pytrees.static_field_names), on first use
    static_fields: frozenset[str] | None = None
    # names of scalar NamedTuple fields here (analysis.pytrees.leaf_field_names), on first use
    leaf_fields: frozenset[str] | None = None
    # names of this file's Enum classes (analysis.flow.enum_class_names), on first use
    enum_classes: frozenset[str] | None = None
    # {id(FunctionInfo): {parameter: PYTHON}}: parameters of private module-level functions that every
    # call of this module binds to a proven Python value (flow.static_call_params), on first use
    static_params: dict[int, dict[str, int]] | None = None
    module_node: ast.Module | None = None  # the tree the facts are of (set by analyze_module)
    # {qualname: {parameter: literal}}: what every call of the project passes to this file's functions
    # (analysis.calls.project_literals; set by the engine from the project pass)
    call_literals: Mapping[str, Mapping[str, object]] = field(default_factory=dict)
    # {module-level function: {position ("0") or keyword: (line, "path:line", whether it follows a step counter)
    # of a call in another module's loop that passes it a new value on every iteration}}
    # (analysis.project.caller_loops; set by the engine from the project pass)
    caller_loops: Mapping[str, Mapping[str, tuple[int, str, bool]]] = field(default_factory=dict)
    # why nothing in the project runs this module (analysis.project.unreached_modules; set by the engine
    # from the project pass): its torch code is no step of any run
    unreached: str | None = None
    # {class name: why}: this module's classes nothing in the project names (analysis.project.unused_classes;
    # set by the engine from the project pass): their methods are no step of any run
    unused_classes: Mapping[str, str] = field(default_factory=dict)
    # the oldest Python the project runs on (config target-version / requires-python, else the running
    # interpreter; set by the engine): what the language allows, e.g. whether a slice is hashable (3.12)
    target_python: tuple[int, int] = sys.version_info[:2]
    # compiled functions of other modules of the project this file imports, by the name its calls use
    # ("step", "train.step"; analysis.project.compiled_imports; set by the engine from the project pass)
    imported_compiled: Mapping[str, CompiledCallable] = field(default_factory=dict)
    # plain Enum classes of other modules of the project, by the name this file's code uses ("BCType",
    # "utils.BCType"; analysis.project.imports; set by the engine from the project pass)
    imported_enums: frozenset[str] = frozenset()
    # plain Enum classes this file's code names: its own, imported ones and module-level aliases of them
    # (analysis.compiled_exports.enum_names), on first use
    plain_enum_names: frozenset[str] | None = None
    # Enum classes of other modules of the project whose members are no number, by the name this file's
    # code uses (analysis.project.imports; set by the engine from the project pass)
    imported_nonnumeric_enums: frozenset[str] = frozenset()
    # CUDA autocast queries of other modules of the project (False on XLA), by the name this file's code uses
    # (analysis.torch_model.cuda_autocast_helpers through analysis.project.imports; set by the engine)
    imported_cuda_queries: frozenset[str] = frozenset()
    # Enum classes whose members are no number that this file's code names (plain ones included;
    # analysis.compiled_exports.nonnumeric_enum_names), on first use
    nonnumeric_enum_names: frozenset[str] | None = None
    # per callee and parameter name: every call recorded so far passes it a required non-static argument of a
    # jax.jit entry handed on whole (analysis.truth.passed_whole_jit_argument), a leaf tracer when only
    # its truth is read
    jit_leaf_args: dict[int, dict[str, bool]] = field(default_factory=dict)
    # the proven dtype of the arguments compiled callers pass, per callee and parameter name (None:
    # unproven at one call, or two callers disagree; analysis.dtypes)
    call_dtypes: dict[int, dict[str, str | None]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.external_call_ids = {id(c) for *_, c in self.external_calls if c is not None}

    def callee(self, call: ast.Call, caller: FunctionInfo) -> tuple[FunctionInfo, bool] | None:
        """The same-file function a call invokes, and whether it is a ``self.method`` call.
        ``jax.vmap(fn)(x)``, ``jax.grad(fn)(w, x)``: a JAX transformation passes the arguments on to
        ``fn`` (slices of the mapped ones), so it is a call of ``fn`` with them."""
        f = call.func
        if isinstance(f, ast.Call) and f.args and isinstance(f.args[0], (ast.Name, ast.Attribute)) \
                and self.aliases.resolve(f.func) in JAX_FUNCTION_TRANSFORMS:
            return self.callee(ast.Call(func=f.args[0], args=call.args, keywords=call.keywords), caller)
        if isinstance(f, ast.Name):
            found = _lookup(f, caller, caller.cls, self.module_funcs, self.classes_by_name, self.by_node)
            if found:
                return found[0], False
            if _binds(caller, f.id):  # `fn = functools.partial(features, scale=s)`, then `fn(x)`
                alias = _local_function_alias(caller, f.id, self.module_funcs, self.classes_by_name, self.by_node,
                                              same_positions=True)
                if len(alias) == 1:
                    return alias[0], False
                # `for layer in self.layers: x = layer(x)`: every element an object of one class defined here
                iterated = _iterated_instance_calls(caller, f.id, self.classes_by_name) if not alias else []
                return (iterated[0], True) if len(iterated) == 1 else None
            # `net(params, x)` where the module bound `net = Net(...)`, a class defined here: Net.__call__
            called = _object_method(self.classes_by_name, self.instances, caller, False, f.id, "__call__")
            if called is None:  # `layer(x, n)` where the module bound `layer = Feature()`, a Keras layer here
                called = _object_method(self.classes_by_name, self.instances, caller, False, f.id, "call")
                called = called if called is not None and called.cls is not None and called.cls.keras else None
            if called is not None:
                return called, True
            init = _plain_constructor(self.classes_by_name, f.id)
            return (init, True) if init is not None else None
        recv = f.value if isinstance(f, ast.Attribute) else None
        if isinstance(f, ast.Attribute) and (isinstance(recv, ast.Name) and recv.id != "self" or (
                isinstance(recv, ast.Attribute) and isinstance(recv.value, ast.Name) and recv.value.id == "self")):
            on_self = isinstance(recv, ast.Attribute)
            name = recv.attr if isinstance(recv, ast.Attribute) else recv.id
            method = _object_method(self.classes_by_name, self.instances, caller, on_self, name, f.attr)
            return (method, not _static_method(method)) if method is not None else None
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self":
            owner = owner_class(caller)
            if owner is None:
                return None
            if f.attr in owner.methods:
                return owner.methods[f.attr], True
            stored = _stored_function(owner, f.attr, self.module_funcs)
            if stored is not None:
                return stored, False
            # self.block(x) where __init__ set self.block = Block(...), a layer class defined here
            built = owner.attrs.get(f.attr)
            if isinstance(built, ast.Call) and isinstance(built.func, ast.Name):
                layer = self.classes_by_name.get(built.func.id)
                if layer is not None and "call" in layer.methods:
                    return layer.methods["call"], True
        return None


@dataclass
class _Handoff:
    """A function reference handed to something that decides how it runs."""

    ref: ast.expr
    role: Role
    caller: FunctionInfo | None
    cls: ClassInfo | None
    call: ast.Call | None = None  # the wrapping call (jax.jit(f, static_argnums=...))
    xla: bool = False  # an explicit XLA entry (jit_compile=True, jax.jit)
    line: int = 0
    how: str = ""  # for messages, what the receiver does with it ("passed as activation= to Dense")
    loop: bool = False  # the receiver runs it once per iteration of a staged loop (_LOOP_HIGHER_ORDER)


# jax.jit's and jax.pmap's keywords that mark positional parameters static (Python values)
_STATIC_ARGNUMS = frozenset({"static_argnums", "static_broadcasted_argnums"})


def _static_params(info: FunctionInfo, call: ast.expr | None, *, bound: bool = False) -> frozenset[str]:
    """Parameter names a jax.jit/jax.pmap call marks static (static_argnums, pmap's
    static_broadcasted_argnums, static_argnames). ``bound``: the call wraps the method bound to an
    object (``jax.jit(self._step, static_argnums=1)``), whose signature has no ``self``, so the
    numbers count from the parameter after it (jax.jit reads ``inspect.signature`` of what it wraps)."""
    if not isinstance(call, ast.Call):
        return frozenset()
    # a lambda's parameters too: `jax.pmap(lambda x, num: jax.random.split(x, num), static_broadcasted_argnums=1)`
    params = [a.arg for a in info.node.args.posonlyargs + info.node.args.args][1 if bound else 0:]
    out: set[str] = set()
    for kw in call.keywords:
        if kw.arg is None:
            info.static_params_unknown = True  # jax.jit(f, **options)
            continue
        values = kw.value.elts if isinstance(kw.value, (ast.Tuple, ast.List)) else [kw.value]
        for v in values:
            if isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.USub) and isinstance(v.operand, ast.Constant) \
                    and isinstance(v.operand.value, int):
                v = ast.Constant(-v.operand.value)  # static_argnums=-1: counted from the end, as jax does
            if not isinstance(v, ast.Constant):
                if kw.arg in _STATIC_ARGNUMS or kw.arg == "static_argnames":
                    info.static_params_unknown = True
                continue
            if kw.arg in _STATIC_ARGNUMS and isinstance(v.value, int) and -len(params) <= v.value < len(params):
                out.add(params[v.value])
            elif kw.arg == "static_argnames" and isinstance(v.value, str):
                out.add(v.value)
    return frozenset(out)


def bound_method(info: FunctionInfo, ref: ast.expr) -> bool:
    """``ref`` reaches the method ``info`` through an object (``self._step``, ``model.apply``), so
    calling it binds the object to the first parameter: not a staticmethod, and not read from the
    class (``Trainer.step``) unless a classmethod, which binds the class either way."""
    if info.cls is None or isinstance(info.node, ast.Lambda) or not isinstance(ref, ast.Attribute):
        return False
    decorators = {d.id for d in info.node.decorator_list if isinstance(d, ast.Name)}
    if "staticmethod" in decorators:
        return False
    return "classmethod" in decorators or not (isinstance(ref.value, ast.Name) and ref.value.id == info.cls.node.name)


def _partial_bound(info: FunctionInfo, ref: ast.expr) -> frozenset[str]:
    """Parameters that ``functools.partial(f, a, k=v)`` binds before the tracer sees ``f``: Python
    values closed over, never traced. None where ``f`` is itself jitted by its decorator
    (``@partial(jax.jit, static_argnames=...)``, marked by :func:`_entry_points` before any hand-off):
    the partial then passes them to the jitted function at each call, which traces them unless its own
    static arguments name them (sofima's ``lax.scan(ft.partial(_update_mesh, x=x, stride=s), ...)``:
    ``x`` is traced, measured on jax 0.10.2; real-code batch 24)."""
    if not isinstance(ref, ast.Call) or not ref.args or isinstance(info.node, ast.Lambda) \
            or (info.traced_entry is not None and info.jax):
        return frozenset()
    f = ref.func
    if not ((isinstance(f, ast.Name) and f.id == "partial") or (isinstance(f, ast.Attribute) and f.attr == "partial")):
        return frozenset()
    params = [a.arg for a in info.node.args.posonlyargs + info.node.args.args]
    bound = {kw.arg for kw in ref.keywords if kw.arg is not None}
    bound.update(params[:len(ref.args) - 1])
    return frozenset(bound)


def _keras_tensor_op(name: str) -> bool:
    """A Keras function that returns a tensor when called on tensors (``K.mean``, ``keras.ops.sum``,
    ``tf.keras.losses.binary_crossentropy``), as the generated API table measured it by calling it;
    layers, models and other classes are not."""
    fact = api_table.fact_for(name)
    return fact is not None and fact.returns == "tensor" and fact.returns_by == "call"


def _literal_true(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _jit_compile_true(call: ast.expr) -> bool:
    return isinstance(call, ast.Call) and any(
        kw.arg in JIT_COMPILE_KEYWORDS and isinstance(kw.value, ast.Constant) and kw.value.value is True
        for kw in call.keywords)


def _decorator_role(dec: ast.expr, aliases: AliasTable,
                    factories: Mapping[str, ast.Call] | None = None) -> tuple[Role, bool] | None:
    """The role a decorator gives its function, and whether it is an explicit XLA entry point
    (jit_compile=True, jax.jit: its arguments' values can be baked into the compiled program).
    ``factories``: module-level names bound once to a decorator made by a call (``jit =
    tf.function(jit_compile=True)``, ``xla = functools.partial(tf.function, jit_compile=True)``):
    ``@jit`` is that call."""
    if factories and isinstance(dec, ast.Name) and dec.id in factories:
        dec = factories[dec.id]
    target = dec.func if isinstance(dec, ast.Call) else dec
    name = aliases.resolve(target)
    via_partial = False  # @functools.partial(jax.checkpoint, ...): dec.args[0] is the decorator, not an argument
    if (name is None and isinstance(target, ast.Name) and target.id in ("partial",)
            and isinstance(dec, ast.Call) and dec.args):
        name, via_partial = aliases.resolve(dec.args[0]), True
    if name is None:
        return None
    if name in ("functools.partial",) and isinstance(dec, ast.Call) and dec.args:
        name, via_partial = aliases.resolve(dec.args[0]) or "", True
    if name in TF_FUNCTION_NAMES:
        xla = _jit_compile_true(dec)
        if isinstance(dec, ast.Call):
            for kw in dec.keywords:
                if kw.arg == "autograph" and isinstance(kw.value, ast.Constant) and kw.value.value is False:
                    return Role.TF_FUNCTION_NOAG, xla
        return Role.TF_FUNCTION, xla
    if name in JAX_JIT_NAMES:  # JAX: no AutoGraph, arguments always traced
        return Role.JAX, True
    if JAX_FUNCTION_TRANSFORMS.get(name) and not (isinstance(dec, ast.Call) and (
            len(dec.args) > (1 if via_partial else 0)
            or any(kw.arg in ("in_axes", "static_argnums") or kw.arg is None for kw in dec.keywords))):
        return Role.LAX, False  # @jax.vmap / @jax.checkpoint: every argument traced wherever it is called
    # torch.compile is not a TensorFlow/JAX context: Dynamo breaks the graph where AutoGraph or a
    # tracer would fail, and the torch model (analysis/torch_model.py) reads it (backend="openxla")
    if name in ("tf.autograph.experimental.do_not_convert",):
        return Role.NOAG, False
    return None


def _is_keras_base(base: str) -> bool:
    if base.startswith("tf.keras."):
        return True
    if base.startswith("transformers."):
        return base.rsplit(".", 1)[-1].startswith("TF")
    return False


class _Scanner:
    """One pass over the module; everything rules and inference need is gathered here."""

    def __init__(self) -> None:
        self.aliases = AliasTable()
        self.functions: list[FunctionInfo] = []
        self.classes: list[ClassInfo] = []
        self.by_node: dict[int, FunctionInfo] = {}
        self.handoffs: list[_Handoff] = []
        self.decorated: list[tuple[FunctionInfo, Role, bool, int]] = []
        self.exports: list[tuple[ast.expr, FunctionInfo | None, ClassInfo | None]] = []  # serving exports
        # call sites that module-level (XLA4xx) rules inspect, with their enclosing function
        self.sites: dict[str, list[tuple[ast.Call, FunctionInfo | None]]] = {"wrap": [], "batch": [], "local": [],
                                                                               "jit_model": []}
        self.tree: ast.Module | None = None
        self.module_called: set[str] = set()  # names called at module level or in class bodies
        self.initializers: set[str] = set()  # names passed as `*initializer=` (run when a layer builds)
        self.compiled_names: set[str] = set()  # module-level `step = jax.jit(f)` / `tf.function(f)`: compiled entries
        # relative imports (the alias table keeps framework names only): local name -> "..mod.name"
        self.relative: dict[str, str] = {}
        # calls of imported non-framework functions: (dotted name, calling function, line, bare name)
        self.external: list[tuple[str, FunctionInfo, int, str, ast.Call | None]] = []
        # module-level `name = ClassName(...)`: name -> class name (None once bound twice)
        self.instances: dict[str, str | None] = {}
        # `NAME = <chain, partial or getattr>` outside class bodies: names that may name an API
        # (AliasTable.bind_callables keeps those bound once in the file)
        self.callable_candidates: dict[str, ast.expr] = {}
        self.module_lambdas: dict[str, ast.Lambda | None] = {}  # module-level `NAME = lambda ...` (None: bound twice)
        # module-level `jit = tf.function(jit_compile=True)` (a decorator made by a call: _decorator_role)
        self.decorator_factories: dict[str, ast.Call] = {}
        self.decorator_factories_dropped: set[str] = set()
        # `apply_fn=<ref>` arguments (flax TrainState.create), with the function and class they are in
        self.apply_fns: list[tuple[ast.expr, FunctionInfo | None, ClassInfo | None]] = []

    def external_name(self, ref: ast.expr) -> str | None:
        """The dotted name of a reference to an imported project (non-framework) function."""
        name = self.aliases.resolve(ref)
        if name is None:
            root = ref
            attrs: list[str] = []
            while isinstance(root, ast.Attribute):
                attrs.append(root.attr)
                root = root.value
            if not isinstance(root, ast.Name) or root.id not in self.relative:
                return None
            name = ".".join([self.relative[root.id], *reversed(attrs)])
        if name.split(".", 1)[0] in FRAMEWORK_HEADS:
            return None
        return name

    def scan(self, tree: ast.Module) -> None:
        self.tree = tree
        self.aliases.rebound = rebound_imports(tree)  # before any import is read
        # Explicit stack: (node, enclosing function, enclosing class for direct methods)
        # Statement lists are pushed reversed so imports are seen before the code that uses them.
        stack: list[tuple[ast.AST, FunctionInfo | None, ClassInfo | None]] = [
            (stmt, None, None) for stmt in reversed(tree.body)
        ]
        aliases = self.aliases
        fields_of, AST, push = _CHILD_FIELDS.get, ast.AST, stack.append
        while stack:
            node, func, cls = stack.pop()
            t = type(node)
            if t is ast.Call:  # type identity, not isinstance: the hot loop of every file
                self._call(node, func, cls)  # type: ignore[arg-type]
            elif t is ast.Import or t is ast.ImportFrom:
                aliases.add(node)  # type: ignore[arg-type]
                if t is ast.ImportFrom and node.level:  # type: ignore[attr-defined]
                    prefix = "." * node.level + (node.module or "")  # type: ignore[attr-defined]
                    for alias in node.names:  # type: ignore[attr-defined]
                        if alias.name != "*":
                            sep = "." if node.module else ""  # type: ignore[attr-defined]
                            self.relative[alias.asname or alias.name] = f"{prefix}{sep}{alias.name}"
                continue
            elif t is ast.FunctionDef or t is ast.AsyncFunctionDef or t is ast.Lambda:
                info = self._function(node, func, cls)  # type: ignore[arg-type]
                if t is not ast.Lambda:
                    for dec in node.decorator_list:  # type: ignore[attr-defined]
                        stack.append((dec, func, cls))
                    args = node.args  # type: ignore[attr-defined]
                    for d in args.defaults + [d for d in args.kw_defaults if d is not None]:
                        stack.append((d, func, cls))
                    for child in reversed(node.body):  # type: ignore[attr-defined]
                        stack.append((child, info, None))
                else:
                    stack.append((node.body, info, None))  # type: ignore[attr-defined]
                continue
            elif t is ast.Name:
                if func is not None:
                    func.referenced_names.add(node.id)  # type: ignore[attr-defined]
                    if aliases.names.get(node.id, "") in _HOST_READ_NAMES:  # type: ignore[attr-defined]
                        func.drives = True  # reads the command line or the environment: `from sys import argv`
                continue
            elif t is ast.ClassDef:
                cinfo = ClassInfo(node, tuple(self._base_name(b) for b in node.bases))  # type: ignore[attr-defined, arg-type]
                self.classes.append(cinfo)
                for child in reversed(node.body):  # type: ignore[attr-defined]
                    stack.append((child, func, cinfo))
                continue
            elif t is ast.Assign and func is None and cls is None:
                value = node.value  # type: ignore[attr-defined]
                _module_alias(aliases, node)  # type: ignore[arg-type]
                self._callable_candidate(node)  # type: ignore[arg-type]
                if len(node.targets) == 1 and type(node.targets[0]) is ast.Name:  # type: ignore[attr-defined]
                    name = node.targets[0].id  # type: ignore[attr-defined]
                    lam = value if type(value) is ast.Lambda else None
                    self.module_lambdas[name] = None if name in self.module_lambdas else lam
                    self._decorator_factory(name, value)
                wrapper = value.func if type(value) is ast.Call else None
                if type(wrapper) is ast.Call:  # tf.function(jit_compile=True)(f)
                    wrapper = wrapper.func
                compiled = wrapper is not None and aliases.resolve(wrapper) in _COMPILER_NAMES
                for target in node.targets:  # type: ignore[attr-defined]
                    if type(target) is ast.Name:
                        built = (value.func.id if type(value) is ast.Call and type(value.func) is ast.Name
                                 else None)
                        self.instances[target.id] = None if target.id in self.instances else built
                        if compiled:
                            self.compiled_names.add(target.id)
            elif t is ast.Assign and func is not None:
                self._callable_candidate(node)  # type: ignore[arg-type]
                owner = func.cls
                for target in node.targets if owner is not None else ():  # type: ignore[attr-defined]
                    if (
                        type(target) is ast.Attribute
                        and type(target.value) is ast.Name
                        and target.value.id == "self"
                    ):
                        owner.attrs[target.attr] = node.value  # type: ignore[union-attr, attr-defined]
            if t is ast.Attribute and func is not None and node.attr in _HOST_READS:  # type: ignore[attr-defined]
                if (aliases.resolve(node) or "") in _HOST_READ_NAMES:  # type: ignore[arg-type]
                    func.drives = True  # reads the command line or the environment: host code
            # child_nodes inlined (this loop visits every node; a generator per node cost ~10%)
            fields = fields_of(t)
            if fields is None:
                fields = child_fields(t)
            for name in fields:
                value = getattr(node, name, None)
                if value is None:
                    continue
                if type(value) is list:
                    for child in value:
                        if isinstance(child, AST):
                            push((child, func, cls))
                elif isinstance(value, AST):
                    push((value, func, cls))

    def _decorator_factory(self, name: str, value: ast.expr) -> None:
        """``jit = tf.function(jit_compile=True)`` or ``functools.partial(tf.function, ...)`` (no
        function given yet): ``@jit`` decorates as that call does. A name bound twice is dropped."""
        if name in self.decorator_factories:
            del self.decorator_factories[name]
            self.decorator_factories_dropped.add(name)
            return
        if name in self.decorator_factories_dropped or type(value) is not ast.Call:
            return
        callee = self.aliases.resolve(value.func)
        factory = (callee in TF_FUNCTION_NAMES and not value.args) or (
            callee == "functools.partial" and len(value.args) == 1
            and self.aliases.resolve(value.args[0]) in TF_FUNCTION_NAMES | JAX_JIT_NAMES)
        if factory:
            self.decorator_factories[name] = value

    def _callable_candidate(self, node: ast.Assign) -> None:
        """Note ``NAME = <attribute chain | partial(...) | getattr(...)>`` for AliasTable.bind_callables."""
        if len(node.targets) == 1 and type(node.targets[0]) is ast.Name and \
                type(node.value) in (ast.Attribute, ast.Call):
            self.callable_candidates[node.targets[0].id] = node.value

    def _base_name(self, base: ast.expr) -> str:
        resolved = self.aliases.resolve(base)
        if resolved is not None:
            return resolved
        if isinstance(base, ast.Name):
            return base.id
        if isinstance(base, ast.Attribute):
            return base.attr
        return ""

    def _function(self, node: FunctionNode, parent: FunctionInfo | None, cls: ClassInfo | None) -> FunctionInfo:
        name = "<lambda>" if isinstance(node, ast.Lambda) else node.name
        info = FunctionInfo(node, name, cls, parent)
        self.functions.append(info)
        self.by_node[id(node)] = info
        if parent is not None:
            parent.children.append(info)
        if cls is not None:
            cls.methods.setdefault(name, info)
        if not isinstance(node, ast.Lambda):
            for dec in node.decorator_list:
                role = _decorator_role(dec, self.aliases, self.decorator_factories)
                if role is not None:
                    self.decorated.append((info, role[0], role[1], dec.lineno))
                    if role[0] is not Role.NOAG:
                        info.traced_entry = dec
        return info

    def _call(self, node: ast.Call, func: FunctionInfo | None, cls: ClassInfo | None) -> None:
        f = node.func
        if type(f) is ast.Call and node.args and (not f.args or self.aliases.resolve(f.func) == "functools.partial"
                                                  or (type(f.func) is ast.Name and f.func.id == "partial")):
            # tf.function(jit_compile=True)(step): the decorator factory applied to a function
            # (or partial(jax.jit, static_argnames=...)(step): its static parameters come from the factory)
            applied = _decorator_role(f, self.aliases)
            if applied is not None and applied[0] in (Role.TF_FUNCTION, Role.TF_FUNCTION_NOAG, Role.JAX):
                self.handoffs.append(_Handoff(node.args[0], applied[0], func, cls, f, applied[1], node.lineno))
        if func is None:
            if type(f) is ast.Name:
                self.module_called.add(f.id)
        else:
            if type(f) is ast.Name:
                func.called_names.add(f.id)
                self.sites["local"].append((node, func))
            elif type(f) is ast.Call and type(f.func) is ast.Name:
                func.called_instances.add(f.func.id)
            elif type(f) is ast.Attribute:
                recv = f.value
                on_self = type(recv) is ast.Name and recv.id == "self"
                if on_self:
                    func.called_methods.add(f.attr)
                elif type(recv) is ast.Name:
                    func.called_object_methods.add((False, recv.id, f.attr))
                elif type(recv) is ast.Attribute and type(recv.value) is ast.Name and recv.value.id == "self":
                    func.called_object_methods.add((True, recv.attr, f.attr))
                if not on_self and f.attr == "numpy" and not node.args:
                    func.calls_numpy_method = True
                    recv = f.value
                    if type(recv) is ast.Attribute and type(recv.value) is ast.Name and recv.value.id == "self":
                        func.self_numpy.add(recv.attr)
        if type(f) is ast.Attribute and f.attr == "batch":
            self.sites["batch"].append((node, func))
        for kw in node.keywords:
            if kw.arg is not None and kw.arg.endswith("initializer") and type(kw.value) is ast.Name:
                self.initializers.add(kw.value.id)
            elif kw.arg == FLAX_APPLY_FN_FIELD:
                self.apply_fns.append((kw.value, func, cls))
        name = self.aliases.resolve(f)
        if func is not None and not func.drives and (
                (name is not None and name.startswith(_DRIVER_CALL_PREFIXES))
                or (name is None and type(f) is ast.Attribute and f.attr in _DRIVER_METHODS)
                or (name is None and type(f) is ast.Name and f.id in ("open", "input"))
                or (type(f) is ast.Attribute and _receiver_root(f.value) in _HOST_MODULES)):
            func.drives = True
        if func is not None:  # a call of an imported project function: a fact for its module
            if name is not None:
                if name.partition(".")[0] not in FRAMEWORK_HEADS:
                    self.external.append((name, func, node.lineno, f.id if type(f) is ast.Name else "", node))
            elif self.relative:
                ext = self.external_name(f)
                if ext is not None:
                    self.external.append((ext, func, node.lineno, f.id if type(f) is ast.Name else "", node))
        if name is not None:
            if func is not None and not func.uses_framework and name.startswith(_FRAMEWORK_CALL_PREFIXES):
                func.uses_framework = True
            if func is not None and not func.uses_tf_compute and (((
                name.startswith("tf.") or name.startswith("tnp.") or name.startswith("transformers.shape_list")
            ) and not name.startswith(_NON_COMPUTE_PREFIXES)) or (
                    name.startswith(("tf.keras.", "keras.")) and _keras_tensor_op(name))):
                func.uses_tf_compute = True
            if name in ("tf.function", "jax.jit"):
                self.sites["wrap"].append((node, func))
            if func is not None and not func.uses_strings and name.startswith(_STRING_PREFIXES):
                func.uses_strings = True
            if (name in TF_FUNCTION_NAMES or name in JAX_JIT_NAMES) and node.args:
                role = Role.TF_FUNCTION
                xla = _jit_compile_true(node)
                if name in JAX_JIT_NAMES:
                    role, xla = Role.JAX, True
                else:
                    for kw in node.keywords:
                        if kw.arg == "autograph" and isinstance(kw.value, ast.Constant) and kw.value.value is False:
                            role = Role.TF_FUNCTION_NOAG
                ref = node.args[0]
                while role is Role.JAX and isinstance(ref, ast.Call) and ref.args \
                        and not isinstance(ref.args[0], ast.Starred) \
                        and self.aliases.resolve(ref.func) in JAX_FUNCTION_TRANSFORMS:
                    # `jax.jit(jax.grad(loss))`, `jax.jit(jax.value_and_grad(lambda p, b: ...))`: jit
                    # traces the transformed function with the same (traced) arguments, so it compiles `loss`
                    ref = ref.args[0]
                self.handoffs.append(_Handoff(ref, role, func, cls, node, xla, node.lineno))
            elif name in JAX_TRACING_PRIMITIVES:
                positions, keywords, loop = JAX_TRACING_PRIMITIVES[name]
                if name == "jax.lax.cond" and len(node.args) == 5:
                    positions = (2, 4)  # the old cond(pred, true_operand, true_fun, false_operand, false_fun)
                for pos in positions:
                    if pos < len(node.args) and not any(isinstance(a, ast.Starred) for a in node.args[:pos + 1]):
                        self._handoff_refs(node.args[pos], Role.LAX, func, cls, node, how=f"traced by {name}",
                                           loop=loop)
                for kw in node.keywords:
                    if kw.arg in keywords:
                        self._handoff_refs(kw.value, Role.LAX, func, cls, node, how=f"traced by {name}", loop=loop)
            elif name in JAX_FUNCTION_TRANSFORMS:
                target = node.args[0] if node.args and not isinstance(node.args[0], ast.Starred) else next(
                    (kw.value for kw in node.keywords if kw.arg == "fun"), None)
                # every argument traced: vmap without `in_axes` (all mapped), checkpoint without static ones
                traced = JAX_FUNCTION_TRANSFORMS[name] and len(node.args) < 2 and not any(
                    kw.arg in ("in_axes", "static_argnums") or kw.arg is None for kw in node.keywords)
                if target is not None:
                    self._handoff_refs(target, Role.LAX if traced else Role.GRAPH, func, cls, node,
                                       how=f"traced by {name}")
            elif name in JAX_TREE_MAPS and node.args and not isinstance(node.args[0], ast.Starred):
                self._handoff_refs(node.args[0], Role.GRAPH, func, cls, node, how="leaves")
            elif name in _GRAPH_HIGHER_ORDER:
                loop = name in _LOOP_HIGHER_ORDER
                for arg in node.args[:3] if name in ("tf.cond", "tf.while_loop", "tf.compat.v1.while_loop") \
                        else node.args[:1]:
                    self._handoff_refs(arg, Role.GRAPH, func, cls, node, loop=loop)
                for kw in node.keywords:
                    if kw.arg in ("fn", "true_fn", "false_fn", "cond", "body", "branch_fns", "pred_fn_pairs", "f"):
                        self._handoff_refs(kw.value, Role.GRAPH, func, cls, node, loop=loop)
            elif name in ("tf.saved_model.save", "tf.lite.TFLiteConverter.from_concrete_functions"):
                for kw in node.keywords:
                    if kw.arg == "signatures":
                        self._exports(kw.value, func, cls)
            elif name in _HOST_CALLS:
                target = node.args[0] if node.args else None
                for kw in node.keywords:
                    if kw.arg in ("func", "generator", "callback"):
                        target = kw.value
                if target is not None:
                    self.handoffs.append(_Handoff(target, Role.HOST, func, cls, line=node.lineno))
            elif name.endswith("layers.Lambda") and node.args:
                self._handoff_refs(node.args[0], Role.LAYER, func, cls, node)
            elif name.startswith(("tf.keras.", "keras.")):
                self._keras_callables(node, name, func, cls)
            return
        if type(f) is ast.Attribute:
            attr = f.attr
            if attr == "get_concrete_function":
                self.exports.append((f.value, func, cls))  # f.get_concrete_function(TensorSpec...): exported
            elif attr == "save" and any(kw.arg == "signatures" for kw in node.keywords):
                for kw in node.keywords:
                    if kw.arg == "signatures":
                        self._exports(kw.value, func, cls)
            elif attr == "compile":
                # Keras runs loss=/metrics= functions inside its train/test function: a
                # tf.function, XLA-compiled with jit_compile=True; run_eagerly=True runs them as
                # Python on eager tensors (tf_keras and Keras 3 alike; Keras 3's default "auto"
                # compiles with XLA only where a GPU/TPU is present, so it stays LIKELY)
                eager = any(kw.arg == "run_eagerly" and _literal_true(kw.value) for kw in node.keywords)
                xla = not eager and any(kw.arg == "jit_compile" and _literal_true(kw.value) for kw in node.keywords)
                for kw in node.keywords:
                    if kw.arg in ("loss", "metrics", "weighted_metrics"):
                        self._handoff_refs(kw.value, Role.HOST if eager else Role.COMPILED, func, cls, node, xla)
                if xla and isinstance(f.value, ast.Name):
                    self.sites["jit_model"].append((node, func))  # model.compile(jit_compile=True)
            elif attr == "run" and node.args:
                # strategy.run(step_fn, args=...): the replica function is compiled on TPU
                receiver = f.value
                text = receiver.id if isinstance(receiver, ast.Name) else getattr(receiver, "attr", "")
                if isinstance(receiver, ast.Call):  # tf.distribute.get_strategy().run(...)
                    text = self.aliases.resolve(receiver.func) or ""
                if "strategy" in text.lower():
                    self.handoffs.append(_Handoff(node.args[0], Role.COMPILED, func, cls, node, line=node.lineno,
                                                  how="passed to strategy.run"))
            elif attr in _PIPELINE_METHODS and node.args:
                self._handoff_refs(node.args[0], Role.PIPELINE, func, cls, node)
                if func is not None:
                    func.drives = True  # builds an input pipeline

    def _keras_callables(self, node: ast.Call, name: str, func: FunctionInfo | None, cls: ClassInfo | None) -> None:
        """Functions a Keras layer, loss or metric calls in its call()/update_state, so inside the
        compiled train step: ``Dense(..., activation=fn, kernel_regularizer=reg)``,
        ``Activation(fn)``, ``MeanMetricWrapper(fn)``, ``LossFunctionWrapper(fn)`` (each checked:
        a `.numpy()` in ``fn`` fails in ``model.fit``). Initializers run when the layer is built,
        outside the step, and are left out."""
        short = name.rsplit(".", 1)[-1]
        for kw in node.keywords:
            if kw.arg is not None and (kw.arg in _STEP_CALLABLE_KEYWORDS or kw.arg.endswith(_STEP_CALLABLE_SUFFIXES)):
                self._handoff_refs(kw.value, Role.COMPILED, func, cls, node,
                                   how=f"passed as {kw.arg}= to Keras {short} (run in the train step)")
        if node.args and short in _STEP_CALLABLE_WRAPPERS:
            self._handoff_refs(node.args[0], Role.COMPILED, func, cls, node,
                               how=f"wrapped in Keras {short} (run in the train step)")

    def _exports(self, value: ast.expr, func: FunctionInfo | None, cls: ClassInfo | None) -> None:
        values = value.values if isinstance(value, ast.Dict) else [value]
        for v in values:
            if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "get_concrete_function":
                v = v.func.value
            self.exports.append((v, func, cls))

    def _handoff_refs(self, value: ast.expr, role: Role, func: FunctionInfo | None, cls: ClassInfo | None,
                      call: ast.Call | None = None, xla: bool = False, how: str = "", loop: bool = False) -> None:
        if isinstance(value, (ast.List, ast.Tuple)):
            for elt in value.elts:
                self._handoff_refs(elt, role, func, cls, call, xla, how, loop)
        elif isinstance(value, ast.Dict):
            for v in value.values:
                self._handoff_refs(v, role, func, cls, call, xla, how, loop)
        else:
            self.handoffs.append(_Handoff(value, role, func, cls, call, xla, getattr(call, "lineno", 0), how, loop))


def _lookup(ref: ast.expr, caller: FunctionInfo | None, cls: ClassInfo | None,
            module_funcs: dict[str, FunctionInfo], classes: dict[str, ClassInfo],
            by_node: dict[int, FunctionInfo]) -> list[FunctionInfo]:
    """Functions a reference may denote: a lambda, a nested or module function, self.method."""
    if isinstance(ref, ast.Lambda):
        info = by_node.get(id(ref))
        return [info] if info is not None else []
    if isinstance(ref, ast.Call):  # e.g. functools.partial(fn, ...), MyLoss()
        if ref.args and isinstance(ref.func, (ast.Name, ast.Attribute)):
            name = ref.func.id if isinstance(ref.func, ast.Name) else ref.func.attr
            if name == "partial":
                return _lookup(ref.args[0], caller, cls, module_funcs, classes, by_node)
        if isinstance(ref.func, ast.Name) and ref.func.id in classes:
            c = classes[ref.func.id]  # an instance of a class defined here: its __call__/call
            return [m for n, m in c.methods.items() if n in (*CALL_METHODS, "update_state", "result")]
        return []
    if isinstance(ref, ast.Name):
        scope = caller
        while scope is not None:  # nested functions visible from the caller
            for child in scope.children:
                if child.name == ref.id:
                    return [child]
            scope = scope.parent
        if ref.id in module_funcs:
            return [module_funcs[ref.id]]
        return []
    if isinstance(ref, ast.Attribute) and isinstance(ref.value, ast.Name) and ref.value.id == "self":
        owner = caller.cls if caller is not None and caller.cls is not None else cls
        if owner is None and caller is not None:
            scope = caller
            while scope is not None and scope.cls is None:
                scope = scope.parent
            owner = scope.cls if scope is not None else None
        if owner is not None and ref.attr in owner.methods:
            return [owner.methods[ref.attr]]
    return []


def owner_class(info: FunctionInfo) -> ClassInfo | None:
    """The class a function (or a function nested in a method) belongs to."""
    scope: FunctionInfo | None = info
    while scope is not None:
        if scope.cls is not None:
            return scope.cls
        scope = scope.parent
    return None


_Work = tuple[FunctionInfo, bool, bool, Level, str, int]  # function, converted, XLA entry, level, why, line


@dataclass
class _Inference:
    """What the steps of :func:`infer_contexts` share: the scan and its name tables."""

    scanner: _Scanner
    module_funcs: dict[str, FunctionInfo]
    classes: dict[str, ClassInfo]
    order: list[FunctionInfo] = field(default_factory=list)  # functions found compiled or helpers, in that order
    external: list[ExternalUse] = field(default_factory=list)
    call_flags: dict[int, dict[str, int]] = field(default_factory=dict)  # seeded from the project's facts
    # module-level `name = value` assignments (built once, for :func:`_built_model_calls`)
    module_assigned: dict[str, list[ast.expr]] | None = None

    def lookup(self, ref: ast.expr, caller: FunctionInfo | None, cls: ClassInfo | None) -> list[FunctionInfo]:
        found = _lookup(ref, caller, cls, self.module_funcs, self.classes, self.scanner.by_node)
        if not found and isinstance(ref, ast.Attribute):
            # a bound method of an instance of a class defined here: `jax.jit(counter.count)` with
            # the module's `counter = Counter()`, or `jax.jit(Counter().count)`
            base = ref.value
            built = (self.scanner.instances.get(base.id) if isinstance(base, ast.Name) and caller is None
                     else base.func.id if isinstance(base, ast.Call) and isinstance(base.func, ast.Name) else None)
            method = _class_method(self.classes, built, ref.attr)
            if method is not None:
                found = [method]
            elif isinstance(base, ast.Name):
                # `jax.jit(model.apply)` with `model = Net()` bound once in the caller (a flax Module),
                # `jax.jit(net.apply)` with `net = hk.transform(forward)`: what the method runs
                found = self.bound_method_targets(base.id, ref.attr, caller)
        elif not found and isinstance(ref, ast.Name) and (c := self.classes.get(ref.id)) is not None \
                and FLAX_LINEN_MODULE in c.bases:
            found = [m for n, m in c.methods.items() if n == "__call__"]  # nn.jit(Block): Block.__call__
        return found

    def bound_method_targets(self, name: str, method: str, caller: FunctionInfo | None) -> list[FunctionInfo]:
        """What ``<name>.<method>(...)`` runs where ``name`` is bound once, in ``caller`` (or, when
        ``caller`` does not bind it, at module level), to an object of a flax linen Module class defined
        here (``apply``: its ``__call__``) or to a function holder (:func:`holder_call`)."""
        value = _single_binding(caller, name) if caller is not None and _binds(caller, name) else \
            _single_binding(None, name, self.scanner.tree)
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in self.classes:
            method_info = _class_method(self.classes, value.func.id, method)
            return [method_info] if method_info is not None else []
        holder = holder_call(value, self.scanner.aliases)
        fn = held_function(holder, method, self.scanner.aliases) if holder is not None else None
        return self.lookup(fn, None, None) if fn is not None else []


def infer_contexts(scanner: _Scanner, test_module: bool = False,
                   project: Mapping[str, ProjectFact] | None = None, declared: bool = False) -> ModuleFacts:
    """Evidence levels of every function of the scanned module. ``project``: what other files of
    the run say about this module's functions (:mod:`xlacheck.analysis.project`). ``declared``:
    the user declares that this file's functions and model/layer methods run under XLA
    (``--jit-compiled``, :func:`_mark_declared_roots`)."""
    functions = scanner.functions
    module_funcs = {f.name: f for f in functions if f.parent is None and f.cls is None and not isinstance(f.node, ast.Lambda)}
    for name, lam in scanner.module_lambdas.items():  # `NAME = lambda ...` bound once at module level
        if lam is not None and name not in module_funcs and id(lam) in scanner.by_node:
            module_funcs[name] = scanner.by_node[id(lam)]
    inf = _Inference(scanner, module_funcs, {c.node.name: c for c in scanner.classes})
    _mark_classes(inf)
    _mark_shared_line_lambdas(functions)
    _mark_exports(inf)
    _mark_eager_written_metrics(inf)
    work = _entry_points(inf) + _project_entries(inf, project)
    _propagate_compiled(inf, work)
    _mark_eager_metrics(inf)
    _mark_host_functions(functions)
    _mark_project_host(inf, project)
    _propagate_host(inf)
    if declared and not test_module:
        _propagate_compiled(inf, _declared_roots(inf))
    _mark_unconverted_paths(inf)
    _mark_helpers(inf, test_module)
    _mark_losses(inf, test_module)
    walk = _callers_first(inf.order, lambda f: _callees(f, module_funcs, inf.classes, scanner.by_node,
                                                        scanner.instances))
    return ModuleFacts(scanner.aliases, functions, scanner.classes, scanner.by_node, walk,
                       module_funcs, inf.classes, inf.call_flags, scanner.sites, inf.external, scanner.external,
                       instances=scanner.instances)


def _declared_roots(inf: _Inference) -> list[_Work]:
    """The compiled roots the jit-compiled declaration adds (``--jit-compiled``: the user says the
    file's code runs under ``tf.function(jit_compile=True)``, ``jax.jit`` or Keras
    ``jit_compile``, from a trainer elsewhere): every module-level function and every method of a
    model/layer class (Keras, ``tf.Module``, Flax) that no function of this file calls, unless
    the code shows it runs on the host:

    * it is host code already (a ``py_function`` target, a ``dataset.map`` function or what only
      those call, a preprocessing class, a serving export, string processing, only host code of
      other files calls it);
    * it is driver code (:attr:`FunctionInfo.drives`: builds models or pipelines, trains, saves,
      wraps functions for a compiler), or it calls one of this file's compiled entry points (a
      ``tf.function``/``jax.jit`` step is called from Python);
    * it calls ``.numpy()`` outside an eager guard (written for eager mode);
    * it is a set-up method (``__init__`` and other dunders but ``__call__``, ``build``,
      ``get_config``, properties, class methods) or a method of a callback, a data generator or
      an initializer;
    * module-level code or ``if __name__ == "__main__":`` calls it, or only such host functions
      do: a function some function of this file calls is reached through its callers (compiled
      when one of them is), never a root itself.

    A root of a file that imports JAX and not TensorFlow is traced as by ``jax.jit``; any other is
    AutoGraph-converted as by ``tf.function(jit_compile=True)``. Existing evidence only rises to
    ``CERTAIN`` (a Keras ``call()`` keeps its own reason)."""
    scanner = inf.scanner
    frameworks = scanner.aliases.frameworks
    if not frameworks & {"tf", "jax"}:
        return []
    jax = "jax" in frameworks and "tf" not in frameworks
    entries = {id(info) for info, role, _, _ in scanner.decorated if role is not Role.NOAG}
    entries |= {id(t) for h in scanner.handoffs if h.role in (Role.TF_FUNCTION, Role.TF_FUNCTION_NOAG, Role.JAX)
                for t in inf.lookup(h.ref, h.caller, h.cls)}
    # what each function calls: both readings of _callees (the compiled graph's, and the walk
    # order's, which also follows `self.layer(x)` to the call() of a layer class defined here)
    callees = {id(g): [c for compiled in (True, False) for c in _callees(
        g, inf.module_funcs, inf.classes, scanner.by_node, scanner.instances, compiled=compiled) if c is not g]
        for g in scanner.functions}
    called = {id(c) for cs in callees.values() for c in cs}
    # host drivers, closed over calls: what calls a driver, a compiled entry point or a factory of
    # one (a function that defines or wraps one: `def make_step(lr): @jax.jit def step...`) is one
    drivers = {id(f) for f in scanner.functions if f.drives or any(id(c) in entries for c in f.children)
               or (f.called_names & scanner.compiled_names and not f.called_names & {g.name for g in f.children})
               or _calls_compiled_attribute(f, scanner.aliases)}
    grow(drivers, scanner.functions, id, lambda g: any(id(c) in drivers or id(c) in entries for c in callees[id(g)]))
    # module-level code calls it, or another function names it: hands it on (`partial(step, k=3)`
    # into a loop primitive, `load = load_from_h5`), which decides how it runs and with what
    for name in scanner.module_called:
        called.update(id(f) for f in inf.lookup(ast.Name(name), None, None))
    for g in scanner.functions:
        called.update(id(f) for n in g.referenced_names if (f := inf.module_funcs.get(n)) is not None and f is not g)
    # Keras initializers (`kernel_initializer=fn`) run when a layer builds its weights
    called.update(id(f) for n in scanner.initializers if (f := inf.module_funcs.get(n)) is not None)
    candidates: list[FunctionInfo] = []
    # functions that call TensorFlow/JAX/Keras themselves or through functions of this file
    tensorish = {id(f) for f in scanner.functions if f.uses_framework}
    grow(tensorish, scanner.functions, id, lambda g: any(id(c) in tensorish for c in [*callees[id(g)], *g.children]))
    for f in inf.module_funcs.values():
        if id(f) not in tensorish:
            continue  # Python arithmetic on Python values (sizes, indices, configs): not a tensor function
        returned = _returned_closures(f)
        if returned:  # a factory or decorator runs when it builds the function it returns: that one runs compiled
            drivers.add(id(f))
            candidates.extend(returned)
        else:
            candidates.append(f)
    for c in scanner.classes:
        # a plain class's methods are reached through the code that uses its objects: a trainer
        # or task object (`Task.build_metrics`, `Trainer.fit`) mixes set-up and step code
        if c.host or not c.model \
                or any(b.rsplit(".", 1)[-1].endswith(_HOST_KERAS_BASE_SUFFIXES) for b in c.bases):
            continue
        candidates.extend(m for m in c.methods.values() if not _setup_method(m))
    work: list[_Work] = []
    for f in candidates:
        if f.host or id(f) in drivers or _eager_only(f, scanner.aliases) or id(f) in called or id(f) in entries \
                or f.level is Level.CERTAIN or not _takes_inputs(f) or _initializer(f):
            continue
        f.declared = True
        f.traced_args = True
        if jax:
            f.jax = f.no_autograph = True
        line = f.node.lineno
        why = f"{f.why} (declared jit-compiled)" if f.certainty is Certainty.COMPILED and f.why \
            else "declared jit-compiled"
        # not an XLA entry of its own (its caller, elsewhere, may be called from a step that passes
        # Python sizes: `compute_causal_mask(batch, length)`), so values are never baked in here
        work.append((f, not jax, False, Level.CERTAIN, why, line))
    # and what they call, in both readings: `self.block(x)` runs the block's call() in the same program
    seen = {id(w[0]) for w in work}
    stack = [w[0] for w in work]
    while stack:
        g = stack.pop()
        for callee in callees[id(g)]:
            if id(callee) in seen or callee.host or id(callee) in drivers or callee.level is Level.CERTAIN:
                continue
            seen.add(id(callee))
            stack.append(callee)
            work.append((callee, not jax and not callee.no_autograph, False, Level.CERTAIN,
                         f"called from {g.name}() (declared jit-compiled)", g.node.lineno))
    return work


def _calls_compiled_attribute(f: FunctionInfo, aliases: AliasTable) -> bool:
    """``f`` is a method that calls ``self.step(...)`` where its class binds ``self.step`` to a compiler's
    result (``self.step = tf.function(self._step, jit_compile=True)``, ``jax.jit(...)``): it calls one of
    this file's compiled entry points from Python, as the bare-name ``step = jax.jit(f)`` case shows."""
    if f.cls is None:
        return False
    for name in f.called_methods:
        value = f.cls.attrs.get(name)
        wrapper = value.func if type(value) is ast.Call else None
        if type(wrapper) is ast.Call:  # tf.function(jit_compile=True)(f)
            wrapper = wrapper.func
        if wrapper is not None and aliases.resolve(wrapper) in _COMPILER_NAMES:
            return True
    return False


def _receiver_root(node: ast.expr) -> str | None:
    """The name a dotted receiver starts from: ``os`` for ``os.path`` (``os.path.exists(p)``)."""
    while type(node) is ast.Attribute:
        node = node.value
    return node.id if type(node) is ast.Name else None


def _eager_only(f: FunctionInfo, aliases: AliasTable) -> bool:
    """``f`` or a function nested in it calls ``.numpy()`` outside an eager guard: written for eager mode."""
    stack = [f]
    while stack:
        g = stack.pop()
        if g.calls_numpy_method and _numpy_outside_eager_guard(g.node, aliases):
            return True
        stack.extend(g.children)
    return False


def _numpy_outside_eager_guard(node: ast.AST, aliases: AliasTable) -> bool:
    """A ``.numpy()`` call of this function's own code (not of nested functions) that is not under
    ``if tf.executing_eagerly():`` (or in the ``else`` of ``if tf.inside_function():``): the
    :attr:`FunctionInfo.calls_numpy_method` scan counts guarded calls too."""
    from xlacheck.analysis.flow import eager_guard  # flow imports the rules, which import this module

    stack: list[ast.AST] = list(ast.iter_child_nodes(node))
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue  # a nested function is one of f's children, checked on its own
        if isinstance(n, ast.If):
            guard = eager_guard(n.test, aliases)
            if guard is not None:  # only the branch that also runs while tracing counts
                stack.append(n.test)
                stack.extend(n.orelse if guard else n.body)
                continue
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "numpy" and not n.args
                and not (isinstance(n.func.value, ast.Name) and n.func.value.id == "self")):
            return True
        stack.extend(ast.iter_child_nodes(n))
    return False


def _initializer(f: FunctionInfo) -> bool:
    """An initializer by its signature: Keras' ``(shape, dtype=None)``, JAX's ``(key, shape, dtype)``;
    it runs when weights are created, not in the step."""
    if isinstance(f.node, ast.Lambda):
        return False
    params = {a.arg for a in f.node.args.posonlyargs + f.node.args.args + f.node.args.kwonlyargs}
    return {"shape", "dtype"} <= params


def _takes_inputs(f: FunctionInfo) -> bool:
    """``f`` has a parameter besides ``self``/``cls``: a function of no inputs builds constants or
    state, or drives (``main()``, ``init_state()``), it is not a step a compiler traces."""
    args = f.node.args
    params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    if f.cls is not None and params and not _is_static(f):
        params = params[1:]
    return bool(params) or args.vararg is not None


def _is_static(f: FunctionInfo) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in getattr(f.node, "decorator_list", ()))


def _returned_closures(f: FunctionInfo) -> list[FunctionInfo]:
    """The functions nested in ``f`` that ``f`` returns by name (``def make_loss(w): def loss(...): ...;
    return loss``, a decorator's wrapper)."""
    if isinstance(f.node, ast.Lambda) or not f.children:
        return []
    nested = {c.name: c for c in f.children if not isinstance(c.node, ast.Lambda)}
    return [nested[r.value.id] for r in own_nodes(f.node) if isinstance(r, ast.Return)
            and isinstance(r.value, ast.Name) and r.value.id in nested]


def _setup_method(m: FunctionInfo) -> bool:
    """A method that runs on the host when its object is built, configured, saved or driven:
    dunders but ``__call__``, Keras' build/config protocol, overrides of Keras' host APIs
    (``fit``, ``save``, ``generate``...), properties and class methods."""
    name = m.name
    return (name.startswith("__") and name != "__call__") or name in _SETUP_METHODS or name in _DRIVER_METHODS \
        or _setup_decorated(m)


def _setup_decorated(f: FunctionInfo) -> bool:
    """A property, setter or class method: attribute access and alternative constructors."""
    for dec in getattr(f.node, "decorator_list", ()):
        name = dec.id if isinstance(dec, ast.Name) else dec.attr if isinstance(dec, ast.Attribute) else ""
        if name in ("property", "classmethod", "setter", "getter", "deleter", "cached_property"):
            return True
    return False


def _mark_classes(inf: _Inference) -> None:
    """Keras classes (a Keras/HF base, or a base defined here that is one), host classes
    (preprocessing layers, tokenizers), metrics, and classes whose ``__call__`` runs in the step."""
    scanner, classes = inf.scanner, inf.classes
    # fixed points over the bases defined in this file
    keras = {id(c) for c in scanner.classes if c.keras}
    grow(keras, scanner.classes, id, lambda c: any(
        _is_keras_base(b) or (b in classes and id(classes[b]) in keras) for b in c.bases))
    # model and layer classes: the Keras ones, and tf.Module / Flax / Equinox ones and the classes of
    # this file derived from them
    models: set[str] = set()
    grow(models, scanner.classes, _class_name, lambda c: any(b in _MODEL_BASES or b in models for b in c.bases))
    for c in scanner.classes:
        c.keras = id(c) in keras
        c.model = c.keras or c.node.name in models
    changed = True
    built: dict[str, list[FunctionInfo]] | None = None  # class name -> the functions that build one
    while changed:  # preprocessing layers, tokenizers: run in the input pipeline (fixed point)
        changed = False
        for c in scanner.classes:
            if not c.host and any(b.rsplit(".", 1)[-1].endswith(_HOST_BASE_SUFFIXES)
                                  or (b in classes and classes[b].host) for b in c.bases):
                c.host = changed = True
        if any(c.host for c in scanner.classes):
            if built is None:
                built = {}
                for call, func in scanner.sites["local"]:
                    if isinstance(call.func, ast.Name) and call.func.id in classes and func is not None:
                        built.setdefault(call.func.id, []).append(func)
            for c in scanner.classes:
                if not c.host and _built_only_by_host(c, built.get(c.node.name, []), inf):
                    c.host = changed = True
    for c in scanner.classes:
        c.metric = any("metrics" in b or (b in classes and classes[b].metric) for b in c.bases) and c.keras
        c.called_in_step = c.keras and any(
            b.endswith(_CALLED_IN_STEP_BASES) or (b in classes and classes[b].called_in_step) for b in c.bases)


def _class_name(c: ClassInfo) -> str:
    return c.node.name


def _built_only_by_host(c: ClassInfo, builders: list[FunctionInfo], inf: _Inference) -> bool:
    """A class that only methods of host classes here build (``self.resizing = Resizing(...)`` in
    an image converter) and no class here extends: a part of that preprocessing, run where it runs."""
    name = c.node.name
    if not builders or name in inf.scanner.module_called or any(name in other.bases for other in inf.scanner.classes):
        return False
    return all((owner := owner_class(func)) is not None and owner.host for func in builders)


def _mark_shared_line_lambdas(functions: list[FunctionInfo]) -> None:
    """AutoGraph finds a lambda's source by its line: with two lambdas on one line it gives up and
    runs them unconverted (`tf.cond(p, lambda: a, lambda: b)` on one line)."""
    lambda_lines: dict[int, int] = {}
    for f in functions:
        if isinstance(f.node, ast.Lambda):
            lambda_lines[f.node.lineno] = lambda_lines.get(f.node.lineno, 0) + 1
    for f in functions:
        if isinstance(f.node, ast.Lambda) and lambda_lines[f.node.lineno] > 1:
            f.no_autograph = True


def _mark_exports(inf: _Inference) -> None:
    """Serving/TFLite exports: functions whose concrete function is taken or that are passed as
    `signatures=`: traced with TensorSpecs into a SavedModel graph, not compiled by XLA."""
    for ref, caller, cls in inf.scanner.exports:
        found = inf.lookup(ref, caller, cls)
        if not found and isinstance(ref, ast.Attribute):  # model.train.get_concrete_function(): any class's `train`
            found = [c.methods[ref.attr] for c in inf.scanner.classes if ref.attr in c.methods]
        for t in found:
            t.exported = True


def _entry_points(inf: _Inference) -> list[_Work]:
    """The compiler entry points of this file: decorated functions, Keras methods, and functions
    handed to tracers or to ``compile()``; functions handed to the host are marked host."""
    work: list[_Work] = []
    for info, role, xla, line in inf.scanner.decorated:
        level = Level.CERTAIN if xla else Level.GRAPH
        if role is Role.NOAG:
            info.no_autograph = True
            continue
        info.traced_args = True
        if role is Role.JAX:
            info.no_autograph = info.jax = True
            info.static_params = _static_params(info, info.traced_entry)
            work.append((info, False, True, level, "decorated with jax.jit", line))
        elif role is Role.TF_FUNCTION:
            work.append((info, True, xla, level, _DECORATED + ("(jit_compile=True)" if xla else ""),
                         line))
        elif role is Role.LAX:
            info.no_autograph = info.jax = True
            work.append((info, False, False, Level.CERTAIN, "decorated with a JAX transformation that traces it",
                         line))
        else:
            info.no_autograph = True
            work.append((info, False, xla, level, "jit-compiled without AutoGraph", line))
    for c in inf.scanner.classes:
        if not c.keras:
            # Hugging Face's TF loss mixins (TFTokenClassificationLoss...): the model's call()
            # computes its loss through hf_compute_loss, whatever class the mixin is defined in
            m = c.methods.get("hf_compute_loss")
            if m is not None:
                m.keras_method = True
                work.append((m, True, False, Level.LIKELY, "hf_compute_loss(), called from a model's call()",
                             m.node.lineno))
            continue
        for name, m in c.methods.items():
            if name in _KERAS_METHODS or (c.metric and not c.eager_metric and name in _METRIC_METHODS) \
                    or (c.called_in_step and name == "__call__"):
                m.keras_method = True
                work.append((m, True, False, Level.LIKELY, f"Keras {name}()", m.node.lineno))
    for c, call in _jit_model_classes(inf):
        for name, m in c.methods.items():
            if name in _KERAS_METHODS or (c.called_in_step and name == "__call__"):
                m.keras_method = True
                work.append((m, True, False, Level.CERTAIN,
                             f"Keras {name}() of a {c.node.name} in a model compiled with jit_compile=True "
                             f"(line {call.lineno})", call.lineno))
    for h in inf.scanner.handoffs:
        work.extend(_handoff_work(inf, h))
    return work


def _jit_model_classes(inf: _Inference) -> list[tuple[ClassInfo, ast.Call]]:
    """Keras classes defined here that build a model compiled with ``jit_compile=True`` in this
    file: ``model.compile(jit_compile=True)`` where ``model`` is assigned, in the same scope, from
    an expression that instantiates the class (``MyModel()``, ``Sequential([Block()])``,
    ``Model(inputs, Block()(inputs))``, through the names that expression reads). Their ``call``
    runs inside the compiled train/test/predict function (host classes are left out)."""
    found: dict[int, tuple[ClassInfo, ast.Call]] = {}
    for call, func in inf.scanner.sites["jit_model"]:
        scope = func.node if func is not None else inf.scanner.tree
        receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
        if scope is None or not isinstance(receiver, ast.Name):
            continue
        values: dict[str, list[ast.expr]] = {}
        for n in own_nodes(scope):
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    for sub in ast.walk(t):
                        if isinstance(sub, ast.Name):
                            values.setdefault(sub.id, []).append(n.value)
        for c in _keras_built_from(inf, receiver.id, values)[0]:
            found.setdefault(id(c), (c, call))
    # the layers those classes build (``self.block = Block()`` in ``__init__``) run in the same graph
    stack = [pair for pair in found.values()]
    while stack:
        c, call = stack.pop()
        for built in c.attrs.values():
            if isinstance(built, ast.Call) and isinstance(built.func, ast.Name):
                inner = inf.classes.get(built.func.id)
                if inner is not None and inner.keras and not inner.host and id(inner) not in found:
                    found[id(inner)] = (inner, call)
                    stack.append((inner, call))
    return list(found.values())


def _keras_built_from(inf: _Inference, name: str, values: Mapping[str, list[ast.expr]]
                      ) -> tuple[list[ClassInfo], list[ast.expr]]:
    """The Keras classes defined here (host classes left out) that the value of ``name`` is built
    from, through the names its assignments (``values``) read (``Sequential([Block()])``,
    ``Model(inputs, outputs)`` with ``outputs = Block()(inputs)``), and the functions its
    ``keras.layers.Lambda(fn)`` layers wrap."""
    classes: dict[int, ClassInfo] = {}
    lambdas: list[ast.expr] = []
    todo, seen = [name], set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        for value in values.get(current, ()):
            for sub in ast.walk(value):
                if isinstance(sub, ast.Call) and sub.args and (
                        inf.scanner.aliases.resolve(sub.func) or "").endswith("layers.Lambda"):
                    lambdas.append(sub.args[0])
                elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
                    c = inf.classes.get(sub.id)
                    if c is None:
                        todo.append(sub.id)
                    elif c.keras and not c.host:
                        classes.setdefault(id(c), c)
    return list(classes.values()), lambdas


def _handoff_work(inf: _Inference, h: _Handoff) -> list[_Work]:
    targets = inf.lookup(h.ref, h.caller, h.cls)
    if not targets and h.role in (Role.HOST, Role.PIPELINE) and isinstance(h.ref, ast.Name) and \
            (h.caller is None or not _binds(h.caller, h.ref.id)):
        # ds.map(vocab) with the module's `vocab = Vocab()`, a layer of this file: its call runs on the host
        owner = inf.classes.get(inf.scanner.instances.get(h.ref.id) or "")
        targets = [m for n, m in owner.methods.items() if n in CALL_METHODS] if owner is not None else []
    level = Level.CERTAIN if h.xla else Level.LIKELY if h.role in (Role.COMPILED, Role.LAYER) else Level.GRAPH
    if not targets:
        _note_external_handoff(inf, h, level)
    work: list[_Work] = []
    for t in targets:
        bound_by_partial = _partial_bound(t, h.ref)
        t.static_params |= bound_by_partial
        t.partial_bound |= bound_by_partial
        if h.role in (Role.HOST, Role.PIPELINE):
            t.host = True
        elif h.role is Role.JAX:
            t.no_autograph = t.jax = t.traced_args = True
            t.static_params |= _static_params(t, h.call, bound=bound_method(t, h.ref))
            work.append((t, False, True, level, "wrapped in jax.jit", h.line))
        elif h.role is Role.TF_FUNCTION:
            t.traced_args = True
            work.append((t, True, h.xla, level, _WRAPPED + ("(jit_compile=True)" if h.xla else ""),
                         h.line))
        elif h.role is Role.TF_FUNCTION_NOAG:
            t.no_autograph = t.traced_args = True
            work.append((t, False, h.xla, level, "compiled without AutoGraph", h.line))
        elif h.role is Role.LAYER:  # a Keras layer's call runs it where the model runs: the train step
            t.no_autograph = t.traced_args = True
            work.append((t, False, False, level, "wrapped in a Keras Lambda layer, which runs it without AutoGraph",
                         h.line))
        elif h.role is Role.COMPILED:
            t.traced_args = True
            if h.how == "passed to strategy.run" and h.caller is not None and not isinstance(t.node, ast.Lambda):
                h.caller.called_names.add(t.name)  # run in the caller's graph where the caller is traced
            work.append((t, True, False, level, h.how or ("passed to compile(jit_compile=True)" if h.xla
                                                          else "passed to compile()/strategy.run"), h.line))
        elif h.role is Role.LAX:
            # a lax.scan/cond body: JAX traces it whether or not its caller is jitted, and passes
            # it tracers (carries, slices, operands; loop bodies get new values per iteration).
            # A function this file also calls directly serves both (jax_md's neighbor_fn builds the
            # list on the host and is the update branch of a lax.cond, its host-only code under
            # `if max_occupancy is None:`): its own callers decide, as for any function.
            if not isinstance(t.node, ast.Lambda) and (t.name in inf.scanner.module_called or any(
                    t.name in f.called_names for f in inf.scanner.functions)):
                continue
            t.no_autograph = t.jax = t.traced_args = True
            if h.loop:
                t.loop_body = True
            work.append((t, False, False, Level.CERTAIN, h.how, h.line))
        # GRAPH (tf.map_fn(fn, ...)): fn runs in its caller's graph, like a call. Lambdas are
        # already nested in the caller; a named function becomes a callee. TF passes it
        # tensors (elements, loop variables), except tf.nest.map_structure (any leaves).
        elif h.role is Role.GRAPH:
            func = h.call.func if h.call is not None else None
            if func is not None and not (isinstance(func, ast.Attribute) and func.attr == "map_structure") \
                    and h.how != "leaves":  # tf.nest.map_structure, jax.tree.map: any leaves
                t.traced_args = True
            if h.loop:
                t.loop_body = True
            if h.caller is not None and not isinstance(t.node, ast.Lambda):
                h.caller.called_names.add(t.name)
    return work


def _note_external_handoff(inf: _Inference, h: _Handoff, level: Level) -> None:
    """A function of another module handed to a compiler or to the host: a fact for that module."""
    target = inf.scanner.external_name(h.ref)
    if target is None:
        return
    if h.role is Role.GRAPH:  # runs in the caller's graph: a call from the caller
        if h.caller is not None:
            inf.scanner.external.append((target, h.caller, h.line, "", None))
        return
    host = h.role in (Role.HOST, Role.PIPELINE)
    how = {Role.HOST: "run on the host by py_function", Role.PIPELINE: "mapped over a tf.data pipeline",
           Role.COMPILED: "passed to compile()/strategy.run", Role.JAX: "wrapped in jax.jit", Role.LAX: h.how}.get(
        h.role, _WRAPPED + ("(jit_compile=True)" if h.xla else ""))
    inf.external.append(ExternalUse(target, "", how, Level.HOST if host else level, host,
                                    h.role in (Role.TF_FUNCTION, Role.COMPILED), h.role in (Role.JAX, Role.LAX), h.line,
                                    traced=not host))


def _project_entries(inf: _Inference, project: Mapping[str, ProjectFact] | None) -> list[_Work]:
    """Module-level functions that compiled code in other files of the run calls or compiles."""
    work: list[_Work] = []
    for name, fact in sorted((project or {}).items()):
        f = inf.module_funcs.get(name)
        if f is None or fact.level < Level.GRAPH or f.calls_numpy_method:
            continue  # a function calling `.numpy()` is written for eager mode: the call is the caller's problem
        f.jax = f.jax or fact.jax
        f.traced_args = f.traced_args or fact.traced
        if fact.args and not isinstance(f.node, ast.Lambda):  # what the callers there pass
            params = [a.arg for a in f.node.args.posonlyargs + f.node.args.args]
            passed = inf.call_flags.setdefault(id(f), {})
            for key, flags in fact.args:
                name = params[int(key)] if key.isdigit() and int(key) < len(params) else key
                passed[name] = passed.get(name, 0) | flags
            for key, truth in fact.consts:
                f.const_params[params[int(key)] if key.isdigit() and int(key) < len(params) else key] = truth
        work.append((f, fact.converted, False, fact.level, fact.why, 0))
    return work


def _propagate_compiled(inf: _Inference, work: list[_Work]) -> None:
    """Close the compiled set over nesting and same-file calls. A function reached converted from
    any path is converted; its level is the best evidence."""
    seen: dict[int, tuple[bool, Level]] = {}
    work.reverse()  # entry points in source order
    while work:
        info, converted, entry, level, why, line = work.pop()
        if info.host:
            continue
        conv = converted and not info.no_autograph
        prev = seen.get(id(info))
        if prev is not None and (prev[0] or not conv) and prev[1] >= level:
            continue
        if prev is None and info.certainty is not Certainty.COMPILED:  # (declared roots: a second pass)
            inf.order.append(info)
        seen[id(info)] = (conv or (prev is not None and prev[0]), max(level, prev[1]) if prev else level)
        info.certainty = Certainty.COMPILED
        info.converted = info.converted or conv
        info.jit_entry = info.jit_entry or entry
        if level > info.level:
            info.level = level
            info.why, info.evidence_line = why, line
        for child in info.children:
            if child.cls is not None:
                # a method of a class the function defines (`class WER(Metric): def compute(...)`):
                # defining the class runs none of its methods (init2winit's WER metric: host code)
                continue
            child.jax = child.jax or info.jax
            work.append((child, conv, False, level, f"nested in {info.name}()", info.node.lineno))
        for callee in _compiled_callees(inf, info):
            if callee is not info:
                callee.jax = callee.jax or info.jax
                work.append((callee, conv, False, level, f"called from {info.name}()", info.node.lineno))


def _mark_unconverted_paths(inf: _Inference) -> None:
    """What an explicit ``tf.function(autograph=False)`` entry (or a ``do_not_convert`` function in
    compiled code) runs on its trace is not converted there, even where another path converts it:
    its callees and nested functions, the functions it hands to ``tf.map_fn``/``strategy.run``
    (which convert with the caller's AutoGraph status), and the ``call`` of the Keras layers and
    models it calls (Keras converts ``call`` only when its caller's status allows it): the layers
    of a ``Sequential``/functional model the module builds from classes defined here
    (``model = Sequential([Block()])``, then ``model(x)``). A function with its own ``tf.function``
    decorator is traced with its own setting and stops the walk."""
    scanner = inf.scanner
    stack = [info for info, role, _, _ in scanner.decorated
             if role in (Role.TF_FUNCTION_NOAG, Role.NOAG) and info.certainty is Certainty.COMPILED]
    stack += [t for h in scanner.handoffs if h.role is Role.TF_FUNCTION_NOAG
              for t in inf.lookup(h.ref, h.caller, h.cls)]
    handed: dict[int, list[FunctionInfo]] = {}
    for h in scanner.handoffs:
        if h.caller is not None and h.role in (Role.GRAPH, Role.COMPILED, Role.LAYER):
            handed.setdefault(id(h.caller), []).extend(inf.lookup(h.ref, h.caller, h.cls))
    seen = {id(f) for f in stack}
    while stack:
        g = stack.pop()
        if g.jax:
            continue
        reached = [*_compiled_callees(inf, g), *g.children, *handed.get(id(g), ())]
        for callee in reached:
            if id(callee) in seen or callee.host or callee.traced_entry is not None or callee.jax:
                continue
            seen.add(id(callee))
            callee.unconverted_from = f"called from {g.name}(), which runs without AutoGraph"
            stack.append(callee)


def _built_model_calls(inf: _Inference, info: FunctionInfo) -> list[FunctionInfo]:
    """What calling a module-level Keras model runs, for the models ``info`` calls: the ``call`` of
    the Keras classes defined here and the functions of the ``Lambda`` layers it was built from
    (``model = tf.keras.Sequential([Feature(), Lambda(fn)])`` or ``Model(inputs, Feature()(inputs))``
    through the names it reads, then ``model(x)``)."""
    tree = inf.scanner.tree
    if tree is None or isinstance(info.node, ast.Lambda) or not info.called_names:
        return []
    if inf.module_assigned is None:
        inf.module_assigned = {}
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign):
                for t in stmt.targets:
                    if isinstance(t, ast.Name):
                        inf.module_assigned.setdefault(t.id, []).append(stmt.value)
    assigned = inf.module_assigned
    out: list[FunctionInfo] = []
    for n in sorted(info.called_names):
        if not any(isinstance(v, ast.Call) and (inf.scanner.aliases.resolve(v.func) or "").endswith(
                ("Sequential", "Model")) for v in assigned.get(n, ())) or _binds(info, n):
            continue
        classes, lambdas = _keras_built_from(inf, n, assigned)
        out.extend(c.methods["call"] for c in classes if "call" in c.methods)
        for ref in lambdas:
            out.extend(inf.lookup(ref, None, None))
    return out


def _binds(info: FunctionInfo, name: str) -> bool:
    """``name`` is a parameter of ``info`` or assigned in its body (a local, not the module's)."""
    for node in ast.walk(info.node):
        if (isinstance(node, ast.arg) and node.arg == name) or (
                isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store)):
            return True
    return False


def _single_binding(info: FunctionInfo | None, name: str, tree: ast.Module | None = None) -> ast.expr | None:
    """The value of the one assignment ``name = value`` that binds ``name`` in ``info`` (at module
    level: in ``tree``'s statements), or None when another binding or none exists."""
    nodes = own_nodes(info.node, include_signature=True) if info is not None else \
        (n for stmt in (tree.body if tree is not None else []) for n in ast.walk(stmt))
    value: ast.expr | None = None
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id == name:
            if value is not None:
                return None
            value = node.value
        elif isinstance(node, ast.arg) and node.arg == name and info is not None:
            return None
        elif isinstance(node, (ast.For, ast.With, ast.AugAssign, ast.AnnAssign, ast.NamedExpr)) and any(
                isinstance(t, ast.Name) and t.id == name and isinstance(t.ctx, ast.Store) for t in ast.walk(
                    node.target if isinstance(node, (ast.For, ast.AugAssign, ast.AnnAssign, ast.NamedExpr))
                    else node)):
            return None
    return value


def _local_function_alias(info: FunctionInfo, name: str, module_funcs: dict[str, FunctionInfo],
                          classes: dict[str, ClassInfo], by_node: dict[int, FunctionInfo],
                          same_positions: bool = False) -> list[FunctionInfo]:
    """The functions a local ``name`` denotes when every binding of it in ``info`` is an assignment
    of a function reference (``fn = functools.partial(features, scale=s)``, ``fn = features``):
    ``fn(x)`` then runs that function in ``info``'s graph. Any other binding (a parameter, a loop
    target, an assignment of another value) leaves the name unresolved. ``same_positions``: only
    references that pass ``fn``'s positional arguments on to the same parameters (no partial binding
    positional arguments, no instance of a class)."""
    found: list[FunctionInfo] = []
    assigned: set[int] = set()
    for node in own_nodes(info.node, include_signature=True):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id == name:
            targets = _lookup(node.value, info, info.cls, module_funcs, classes, by_node)
            if not targets or not isinstance(node.value, (ast.Name, ast.Call)) or (
                    same_positions and isinstance(node.value, ast.Call) and (
                        len(node.value.args) != 1 or getattr(node.value.func, "id", getattr(
                            node.value.func, "attr", "")) != "partial")):
                return []
            found.extend(targets)
            assigned.add(id(node.targets[0]))
        elif (isinstance(node, ast.arg) and node.arg == name) or (
                isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store)
                and id(node) not in assigned):
            return []
    return found


def _iterated_instance_calls(info: FunctionInfo, name: str, classes: Mapping[str, ClassInfo]) -> list[FunctionInfo]:
    """What ``name(...)`` runs where every binding of ``name`` in ``info`` is the target of
    ``for name in self.<attr>`` and the class's methods set ``self.<attr>`` to a list or tuple of
    objects of classes defined here (``self.layers = [Linear(k0, 2, 4), Linear(k1, 4, 2)]``, or a
    comprehension ``[Block(d) for _ in range(n)]``): each class's ``__call__`` (a Keras layer's
    ``call``). Any other binding, or an element that is not such an object, leaves it unresolved."""
    owner = owner_class(info)
    if owner is None or isinstance(info.node, ast.Lambda):
        return []
    attrs: set[str] = set()
    targets: set[int] = set()
    for node in own_nodes(info.node):
        if isinstance(node, (ast.For, ast.AsyncFor)) and isinstance(node.target, ast.Name) \
                and node.target.id == name:
            it = node.iter
            if not (isinstance(it, ast.Attribute) and isinstance(it.value, ast.Name) and it.value.id == "self"):
                return []
            attrs.add(it.attr)
            targets.add(id(node.target))
    for node in own_nodes(info.node, include_signature=True):
        if (isinstance(node, ast.arg) and node.arg == name) or (
                isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store)
                and id(node) not in targets):
            return []
    found: list[FunctionInfo] = []
    for attr in sorted(attrs):
        built = owner.attrs.get(attr)
        if isinstance(built, (ast.List, ast.Tuple)):
            elements = list(built.elts)
        elif isinstance(built, ast.ListComp):
            elements = [built.elt]
        else:
            return []
        for element in elements:
            cname = element.func.id if isinstance(element, ast.Call) and isinstance(element.func, ast.Name) else None
            c = classes.get(cname) if cname is not None else None
            method = next((c.methods[m] for m in CALL_METHODS if m in c.methods), None) if c else None
            if method is None:
                return []
            if method not in found:
                found.append(method)
    return found


def _plain_constructor(classes: Mapping[str, ClassInfo], name: str) -> FunctionInfo | None:
    """The ``__init__`` that ``name(...)`` runs when ``name`` is a plain class defined here (not a
    Keras layer or model, not input-pipeline code): built inside compiled code, its constructor
    runs in that graph, on that code's tensors."""
    c = classes.get(name)
    if c is None or c.keras or c.host:
        return None
    return c.methods.get("__init__")


def _object_method(classes: Mapping[str, ClassInfo], instances: Mapping[str, str | None], info: FunctionInfo,
                   on_self: bool, name: str, method: str) -> FunctionInfo | None:
    """The method that ``self.<name>.<method>(...)`` (``on_self``) or ``<name>.<method>(...)``
    runs, when ``self.<name>`` was assigned (or the module bound ``<name>`` to) an instance of a
    class defined here: ``self.quantizer = Quantizer(...)`` in ``__init__``, then
    ``self.quantizer.encode(x)`` in ``call()``. Methods inherited from a base defined here count, and
    ``<Class>.<method>(...)`` with ``Class`` defined here runs that (static or class) method."""
    if on_self:
        owner = owner_class(info)
        built = owner.attrs.get(name) if owner is not None else None
        cname = built.func.id if isinstance(built, ast.Call) and isinstance(built.func, ast.Name) else None
    else:
        cname = instances.get(name) or (name if name in classes else None)
        if cname is None or _binds(info, name):
            return None
    return _class_method(classes, cname, method)


def _static_method(info: FunctionInfo) -> bool:
    """``info`` is decorated ``@staticmethod``: no ``self``/``cls`` is bound to its first parameter."""
    return not isinstance(info.node, ast.Lambda) and any(
        isinstance(d, ast.Name) and d.id == "staticmethod" for d in info.node.decorator_list)


def _class_method(classes: Mapping[str, ClassInfo], cname: str | None, method: str) -> FunctionInfo | None:
    """The method ``method`` of the class ``cname`` defined here, or inherited from a base defined here; for
    a flax linen Module, ``apply``/``init``/``init_with_output`` (flax's own methods) run its ``__call__``."""
    seen: list[ClassInfo] = []
    while cname is not None and cname in classes and all(c.node.name != cname for c in seen):
        c = classes[cname]
        seen.append(c)
        if method in c.methods:
            return c.methods[method]
        cname = next((b for b in c.bases if b in classes), None)
    if method in FLAX_APPLY_METHODS and any(FLAX_LINEN_MODULE in c.bases for c in seen):
        return next((c.methods["__call__"] for c in seen if "__call__" in c.methods), None)
    return None


def holder_call(value: ast.expr | None, aliases: AliasTable) -> ast.Call | None:
    """The constructor call of :data:`JAX_FUNCTION_HOLDERS` that ``value`` evaluates to
    (``hk.transform(forward)``, through ``hk.without_apply_rng(...)``), or None."""
    while isinstance(value, ast.Call):
        name = aliases.resolve(value.func)
        if name in JAX_FUNCTION_HOLDERS:
            return value
        if name not in JAX_HOLDER_WRAPPERS or not value.args:
            return None
        value = value.args[0]
    return None


def held_function(call: ast.Call, method: str, aliases: AliasTable) -> ast.expr | None:
    """The function argument of the holder constructor ``call`` that its ``method`` runs, or None."""
    spec = JAX_FUNCTION_HOLDERS.get(aliases.resolve(call.func) or "", {}).get(method)
    if spec is None:
        return None
    position, keyword = spec
    if position < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[:position + 1]):
        return call.args[position]
    return next((kw.value for kw in call.keywords if kw.arg == keyword), None)


def _compiled_callees(inf: _Inference, info: FunctionInfo) -> list[FunctionInfo]:
    """Same-file functions a compiled function's graph runs (:func:`_callees`, ``compiled``), and
    the layers' ``call`` of the module-level Keras models it calls (:func:`_built_model_calls`)."""
    return [*_callees(info, inf.module_funcs, inf.classes, inf.scanner.by_node, inf.scanner.instances, compiled=True),
            *_built_model_calls(inf, info), *_bound_object_calls(inf, info)]


def _bound_object_calls(inf: _Inference, info: FunctionInfo) -> list[FunctionInfo]:
    """What ``<name>.<method>(...)`` calls in ``info`` run when ``name`` is a flax linen Module or a
    function holder bound once (``model.apply(variables, x)``, ``net.apply(params, x)``,
    ``tx.update(grads, state)``: :meth:`_Inference.bound_method_targets`)."""
    out: list[FunctionInfo] = []
    for on_self, name, method in sorted(info.called_object_methods):
        if not on_self and (method in FLAX_APPLY_METHODS or any(method in m for m in JAX_FUNCTION_HOLDERS.values())):
            out.extend(inf.bound_method_targets(name, method, info))
        if method == FLAX_APPLY_FN_FIELD:  # `state.apply_fn(...)`: what this file's `apply_fn=` arguments run
            for ref, func, cls in inf.scanner.apply_fns:
                out.extend(inf.lookup(ref, func, cls))
    return out


def _stored_function(owner: ClassInfo, attr: str, module_funcs: Mapping[str, FunctionInfo]) -> FunctionInfo | None:
    """The module-level function a method stored as ``self.<attr>`` (``self.loss_fn = focal_loss``),
    which ``self.<attr>(...)`` then calls."""
    stored = owner.attrs.get(attr)
    return module_funcs.get(stored.id) if isinstance(stored, ast.Name) else None


# Constructors of Python containers: a metric whose update_state grows one holds its state in Python.
_CONTAINER_BUILDERS = frozenset({"list", "dict", "set", "collections.defaultdict", "collections.OrderedDict",
                                 "defaultdict", "OrderedDict"})
_CONTAINER_GROWERS = frozenset({"append", "extend", "update", "add", "insert", "setdefault"})


def _state_variables(c: ClassInfo, aliases: AliasTable) -> set[str]:
    """Attributes a class keeps Keras/TF state in: ``self.total = self.add_weight(...)``, ``tf.Variable``."""
    return {a for a, v in c.attrs.items() if isinstance(v, ast.Call) and (
        (isinstance(v.func, ast.Attribute) and v.func.attr == "add_weight")
        or aliases.resolve(v.func) == "tf.Variable")}


def _mark_eager_written_metrics(inf: _Inference) -> None:
    """A Keras metric written for eager use: it keeps no state variable (no ``add_weight``, no
    ``tf.Variable``; its bases are ``Metric`` itself or such classes of this file) and keeps its
    state in Python instead: a method of it calls ``.numpy()`` outside an eager guard (COCO and
    panoptic evaluators that hand each batch to NumPy), its ``update_state`` grows a Python container
    kept on ``self`` (``self._errors.append(err)``), or it updates such a metric it builds
    (``self.inner = CocoMetric()``, then ``self.inner.update_state(...)``). A metric Keras can run in
    a compiled step accumulates in variables; one without any can only accumulate across concrete
    batches, in Python: an evaluator's host loop calls it (orbit's ``eval_reduce``). So its
    ``update_state``/``result`` are compiled only where compiled code of this file calls them, not
    for being a metric's methods. (A metric with state variables that calls ``.numpy()`` on its
    inputs is the classic bug, tensorflow issue 38038: still compiled.)"""
    aliases = inf.scanner.aliases
    python_state: dict[int, ClassInfo] = {}
    for c in inf.scanner.classes:
        if c.metric and not _state_variables(c, aliases) and all(
                b.rsplit(".", 1)[-1] == "Metric" or b in inf.classes for b in c.bases):
            python_state[id(c)] = c
    # bases defined here must keep no state either
    stateful: set[int] = set()
    grow(stateful, list(python_state.values()), id, lambda c: any(
        b in inf.classes and (id(inf.classes[b]) not in python_state or id(inf.classes[b]) in stateful)
        for b in c.bases))
    candidates = [c for c in python_state.values() if id(c) not in stateful]
    eager: set[int] = set()
    for c in candidates:
        methods = [m for m in inf.scanner.functions if m.cls is c]
        containers = {a for a, v in c.attrs.items() if isinstance(v, (ast.List, ast.Dict, ast.Set)) or (
            isinstance(v, ast.Call) and (aliases.resolve(v.func) or (v.func.id if isinstance(v.func, ast.Name)
                                                                     else "")) in _CONTAINER_BUILDERS)}
        update = c.methods.get("update_state")
        if any(_eager_only(m, aliases) for m in methods) or (containers and update is not None and any(
                isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _CONTAINER_GROWERS
                and isinstance(n.func.value, ast.Attribute) and n.func.value.attr in containers
                and isinstance(n.func.value.value, ast.Name) and n.func.value.value.id == "self"
                for n in own_nodes(update.node))):
            eager.add(id(c))

    def wraps_eager(c: ClassInfo) -> bool:
        for m in c.methods.values():
            for on_self, attr, _ in m.called_object_methods:
                built = c.attrs.get(attr) if on_self else None
                inner = inf.classes.get(built.func.id) if isinstance(built, ast.Call) and isinstance(
                    built.func, ast.Name) else None
                if inner is not None and id(inner) in eager:
                    return True
        return False

    grow(eager, candidates, id, wraps_eager)
    for c in candidates:
        c.eager_metric = id(c) in eager


def _mark_eager_metrics(inf: _Inference) -> None:
    """A metric that reads its own state variables into NumPy (`self.total.numpy()`) computes its
    result in Python: it can only run eagerly (run_eagerly), so its methods are not compiled."""
    for c in inf.scanner.classes:
        if c.metric:
            state = _state_variables(c, inf.scanner.aliases)
            if any(m.self_numpy & state for m in inf.scanner.functions if owner_class(m) is c):
                c.host = True


def _mark_host_functions(functions: list[FunctionInfo]) -> None:
    """Host-graph evidence beats LIKELY (never an explicit jit_compile=True/jax.jit path):
    methods of preprocessing layers/tokenizers, serving exports, string processing."""
    for f in functions:
        if f.level is Level.CERTAIN or f.host:
            continue
        owner = owner_class(f)
        if (owner is not None and owner.host) or f.exported or f.uses_strings:
            f.host = True
            f.level = Level.HOST
            stack = list(f.children)
            while stack:
                child = stack.pop()
                if child.level is not Level.CERTAIN and not child.host:
                    child.host = True
                    child.level = Level.HOST
                    stack.extend(child.children)


def _mark_project_host(inf: _Inference, project: Mapping[str, ProjectFact] | None) -> None:
    """Module-level functions that other files of the run call only from host code (tf.data
    functions, py_function targets) and nothing here compiles: input-pipeline code."""
    for name, fact in sorted((project or {}).items()):
        f = inf.module_funcs.get(name)
        if f is not None and fact.level is Level.HOST and f.certainty is Certainty.NONE and not f.host:
            f.host = True
            f.level = Level.HOST
            f.why = fact.why


def _propagate_host(inf: _Inference) -> None:
    """Helpers that host-side code (dataset.map functions, py_function targets) calls and nothing
    compiled does are input-pipeline code: never tensor helpers."""
    host_work = [f for f in inf.scanner.functions if f.host]
    while host_work:
        f = host_work.pop()
        for n in f.called_names:
            for callee in inf.lookup(ast.Name(n), f, f.cls):
                if not callee.host and callee.certainty is Certainty.NONE:
                    callee.host = True
                    host_work.append(callee)


def _mark_helpers(inf: _Inference, test_module: bool) -> None:
    """MAYBE: module-level helpers computing with tf ops that nothing here compiles.
    A helper calling `.numpy()` was written for eager mode (post-processing, metrics on the host).
    A pytest test function (test_* in a test module) is an entry point pytest runs eagerly: no
    caller compiles it, so it is not a tensor helper (its asserts compare results on the host)."""
    maybe = [f for f in inf.module_funcs.values() if f.certainty is Certainty.NONE and f.uses_tf_compute
             and not f.host and not f.calls_numpy_method and f.node.args.args
             and not (test_module and f.name.startswith("test"))]
    maybe.reverse()
    while maybe:
        f = maybe.pop()
        if f.certainty is not Certainty.NONE or f.host or f.calls_numpy_method:
            continue
        inf.order.append(f)
        f.certainty = Certainty.MAYBE
        f.level = Level.HELPER
        f.converted = not f.no_autograph
        f.why = "module-level tensor helper (compiled when its caller is)"
        for child in f.children:
            if not child.host:
                maybe.append(child)
        for n in f.called_names:
            maybe.extend(inf.lookup(ast.Name(n), f, None))


def _is_loss(f: FunctionInfo, aliases: AliasTable) -> int:
    """The line of the first ``return`` when every ``return`` of ``f`` (its own, not nested
    functions') gives a scalar reduction (:func:`returns_scalar_reduction`) and ``f`` takes two
    or more tensors; else 0."""
    node = f.node
    if isinstance(node, ast.Lambda) or len(node.args.args) + len(node.args.posonlyargs) < 2:
        return 0
    return returns_scalar_reduction(node, aliases)


def _keras_signature(f: FunctionInfo) -> bool:
    """``def f(y_true, y_pred)`` computing with TensorFlow ops: the signature Keras documents
    for loss and metric functions (``fn(y_true, y_pred)``), which it calls inside its train and
    test functions (a ``tf.function``; compiled by XLA under ``jit_compile``)."""
    node = f.node
    if isinstance(node, ast.Lambda) or not f.uses_tf_compute or f.cls is not None:
        return False  # a module-level function or a closure (`def focal(gamma): def loss(y_true, y_pred)`)
    args = node.args
    params = [a.arg for a in args.posonlyargs + args.args]
    # Keras calls it with those two arguments: any further parameter has a default
    return params[:2] == ["y_true", "y_pred"] and len(params) - len(args.defaults) <= 2 \
        and all(d is not None for d in args.kw_defaults)


def _mark_losses(inf: _Inference, test_module: bool = False) -> None:
    """LIKELY: a module-level helper that returns a scalar reduction of two or more inputs is a
    loss (or a metric): Keras and custom train steps call losses inside the compiled step, so the
    issue's "losses ... in model code" level applies, with what it calls in this file. So is a
    function with Keras' loss/metric signature (:func:`_keras_signature`), even one calling
    ``.numpy()``. Their parameters stay unproven (certainty ``MAYBE``): a caller may pass Python
    values."""
    module_level = {id(f) for f in inf.module_funcs.values()}
    for f in list(inf.scanner.functions):
        if f.host or f.level not in (Level.HELPER, Level.EAGER) or (id(f) not in module_level and f.cls is not None):
            continue
        line = _is_loss(f, inf.scanner.aliases) if f.level is Level.HELPER and id(f) in module_level else 0
        why = f"{f.name}() is a loss: it returns a scalar reduction of its inputs (losses run in the compiled step)"
        if not line and _keras_signature(f) and not (test_module and f.name.startswith("test")):
            # written to Keras' loss/metric signature; `.numpy()` in it (which keeps it out of
            # the helpers) is that API's most reported failure, not evidence of eager use
            line = f.node.lineno
            why = (f"{f.name}(y_true, y_pred) has the Keras loss/metric signature (Keras calls losses and metrics "
                   "inside its compiled train step)")
            if f.certainty is Certainty.NONE:
                inf.order.append(f)
                f.certainty = Certainty.MAYBE
                f.converted = not f.no_autograph
                f.level = Level.HELPER
        if not line:
            continue
        stack = [f]
        seen: set[int] = set()
        while stack:
            g = stack.pop()
            if id(g) in seen or g.level is not Level.HELPER or g.host:
                continue
            seen.add(id(g))
            g.level = Level.LIKELY
            g.why, g.evidence_line = (why, line) if g is f else (f"called from {f.name}()", f.node.lineno)
            stack.extend(g.children)
            for n in g.called_names:
                stack.extend(inf.lookup(ast.Name(n), g, None))


def _module_alias(aliases: AliasTable, node: ast.Assign) -> None:
    """``K = tf.keras.backend`` at module level: ``K`` names that TensorFlow namespace (a dotted
    path the API table holds no callable for), as ``from tensorflow.keras import backend as K``
    would. A name bound twice at module level is no alias."""
    if len(node.targets) != 1 or type(node.targets[0]) is not ast.Name:
        return
    name = node.targets[0].id
    if name in aliases.names:
        if aliases.names[name] != aliases.resolve(node.value):
            del aliases.names[name]
        return
    if type(node.value) is not ast.Attribute:
        return
    resolved = aliases.resolve(node.value)
    if resolved is None or not resolved.startswith("tf.") or api_table.fact_for(resolved) is not None:
        return
    aliases.names[name] = resolved


def _callees(info: FunctionInfo, module_funcs: dict[str, FunctionInfo], classes: dict[str, ClassInfo],
             by_node: dict[int, FunctionInfo], instances: Mapping[str, str | None],
             compiled: bool = False) -> list[FunctionInfo]:
    """Same-file functions ``info`` calls: by name (a plain class's constructor where the name is a
    class, :func:`_plain_constructor`), methods of objects of classes defined here
    (:func:`_object_method`), and ``self.method`` (also one stored as ``self.<attr> = function``).

    The walk order (:func:`_callers_first`) also follows ``self.layer(...)`` where ``self.layer`` was
    built from a layer class defined here (its ``call``). ``compiled``, what a compiled function's
    graph runs (:func:`_propagate_compiled`), instead skips names the function binds itself, follows
    ``model(x)`` where the module built ``model = Model()`` from a class defined here (calling a
    Keras layer/model instance runs its ``call`` in the caller's graph), and ``self.method``
    inherited from a base class defined here."""
    out: list[FunctionInfo] = []
    for n in sorted(info.called_names):  # sorted: the same caller named in messages under any PYTHONHASHSEED
        found = _lookup(ast.Name(n), info, info.cls, module_funcs, classes, by_node)
        local = _binds(info, n)
        if not found and local:
            found = _local_function_alias(info, n, module_funcs, classes, by_node)
        if compiled and not found and local:
            # `for layer in self.layers: x = layer(x)` over objects of classes defined here
            found = _iterated_instance_calls(info, n, classes)
        if compiled and (found or local):
            out.extend(found)
            continue
        built = instances.get(n) if compiled else None
        if built in classes:
            found = [m for k, m in classes[built].methods.items() if k in CALL_METHODS]
        init = None if found else _plain_constructor(classes, n)
        out.extend(found if init is None else [init])
    for on_self, name, method in sorted(info.called_object_methods):
        found_method = _object_method(classes, instances, info, on_self, name, method)
        if found_method is not None:
            out.append(found_method)
    for n in sorted(info.called_instances) if compiled else ():
        # `Block(8)(x)` with Block a class defined here: its __call__ (a Keras layer's call) runs here
        if n in classes and not _binds(info, n):
            out.extend(m for m in (_class_method(classes, n, name) for name in CALL_METHODS) if m is not None)
    owner = owner_class(info)
    if owner is not None:
        for m in sorted(info.called_methods):
            if m in owner.methods:
                out.append(owner.methods[m])
                continue
            built_attr = owner.attrs.get(m)
            if not compiled and isinstance(built_attr, ast.Call) and isinstance(built_attr.func, ast.Name) \
                    and built_attr.func.id in classes:
                layer = classes[built_attr.func.id].methods.get("call")
                if layer is not None:
                    out.append(layer)
            elif (stored := _stored_function(owner, m, module_funcs)) is not None:
                out.append(stored)
            elif compiled:  # a method inherited from a base class defined in this file
                inherited = next((classes[b].methods[m] for b in owner.bases if b in classes
                                  and m in classes[b].methods), None)
                if inherited is not None:
                    out.append(inherited)
    return out


def _callers_first(order: list[FunctionInfo], callees: Callable[[FunctionInfo], list[FunctionInfo]]
                   ) -> list[FunctionInfo]:
    """Walk order: a function after the functions enclosing it and, cycles aside, after its
    callers, so that callees know what they are passed. Ties keep ``order``."""
    index = {id(f): i for i, f in enumerate(order)}
    pending: dict[int, int] = {id(f): 0 for f in order}
    edges: dict[int, list[FunctionInfo]] = {}
    for f in order:
        targets = [c for c in callees(f) if id(c) in index and c is not f]
        targets += [c for c in f.children if id(c) in index]
        edges[id(f)] = targets
        for c in targets:
            pending[id(c)] += 1
    out: list[FunctionInfo] = []
    done: set[int] = set()
    ready = [f for f in order if pending[id(f)] == 0]
    while len(out) < len(order):
        if not ready:  # a cycle: release the earliest waiting function, unless its parent waits
            waiting = [f for f in order if id(f) not in done]
            ready = [next((f for f in waiting if f.parent is None or id(f.parent) in done
                           or id(f.parent) not in index), waiting[0])]
        ready.sort(key=lambda f: index[id(f)], reverse=True)
        f = ready.pop()
        if id(f) in done:
            continue
        done.add(id(f))
        out.append(f)
        for c in edges[id(f)]:
            pending[id(c)] -= 1
            if pending[id(c)] == 0 and id(c) not in done:
                ready.append(c)
    return out


def _api_defaults(scanner: _Scanner) -> None:
    """Set :attr:`FunctionInfo.api_defaults`: a plain function's (not a method's: its callers go through
    ``self``) parameters whose default names a framework API (``fn=tf.linalg.det``), that the function
    never rebinds, and that no call of it in the file passes (by keyword, by position, or through
    ``*args``/``**kwargs``); a function the module body itself calls is left out (those calls are not
    collected). Every run the file shows calls that API."""
    aliases = scanner.aliases
    for f in scanner.functions:
        node = f.node
        if f.cls is not None or isinstance(node, ast.Lambda) or f.name in scanner.module_called:
            continue
        a = node.args
        positional = [*a.posonlyargs, *a.args]
        pairs = [*zip(positional[len(positional) - len(a.defaults):], a.defaults),
                 *((p, d) for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None)]
        found = {p.arg: api for p, d in pairs if type(d) in (ast.Attribute, ast.Call)
                 and (api := aliases.callable_value(d)) is not None}
        if not found:
            continue
        index = {p.arg: i for i, p in enumerate(positional)}
        for call, _ in scanner.sites["local"]:
            if type(call.func) is not ast.Name or call.func.id != f.name:
                continue
            if any(kw.arg is None for kw in call.keywords) or any(type(x) is ast.Starred for x in call.args):
                found = {}
                break
            found = {p: api for p, api in found.items() if not any(kw.arg == p for kw in call.keywords)
                     and not (p in index and index[p] < len(call.args))}
        if found:
            stored = {n.id for n in own_nodes(node) if type(n) is ast.Name and not isinstance(n.ctx, ast.Load)}
            f.api_defaults = {p: api for p, api in found.items() if p not in stored}


def is_test_module(path: str | None) -> bool:
    """pytest's default file patterns: ``test_*.py`` and ``*_test.py``."""
    if not path:
        return False
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return name.startswith("test_") or name.endswith("_test.py")


def analyze_module(tree: ast.Module, path: str | None = None,
                   project: Mapping[str, ProjectFact] | None = None, declared: bool = False) -> ModuleFacts:
    """The module's facts. ``path`` locates its package: AutoGraph converts no function of a
    module on its do-not-convert list (``tensorflow``, ``keras``, ``tf_keras``, ...). ``project``:
    facts from the other files of the run about this module's functions. ``declared``: the
    jit-compiled declaration (:func:`_declared_roots`)."""
    scanner = _Scanner()
    scanner.scan(tree)
    scanner.aliases.bind_callables(tree, scanner.callable_candidates)
    _api_defaults(scanner)
    facts = infer_contexts(scanner, test_module=is_test_module(path), project=project, declared=declared)
    _mark_structure_params(tree, facts)
    _mark_literal_params(tree, facts, project)
    facts.module_node = tree
    facts.module_values = {t.id: stmt.value for stmt in tree.body if isinstance(stmt, ast.Assign)
                           for t in stmt.targets if isinstance(t, ast.Name)}
    facts.module_built = built_values(tree)
    module = module_name(path) if path else None
    if module is not None and not autograph_converts(module):
        # A module AutoGraph never converts (tensorflow, keras, numpy, ...: its own list) is
        # framework code written for that: its `if`s are meant for Python values, and it runs
        # under its authors' own graph and XLA tests. Not converted, and not the user's
        # compiled code: no rule fires there.
        for f in facts.functions:
            f.converted = False
            f.no_autograph = True
            f.host = True
            f.level = Level.HOST
            f.why = f"in {module}, a module AutoGraph does not convert (framework code)"
    return facts


def _mark_literal_params(tree: ast.Module, facts: ModuleFacts, project: Mapping[str, ProjectFact] | None) -> None:
    """Set :attr:`FunctionInfo.const_params` of a module-level function that XLA traces only through calls of
    this file's compiled code (its compiled evidence is "called from ...": no decorator, no compiler or
    higher-order call hands it over, the module reads its name nowhere but as the callee of a direct call, and
    the jit-compiled declaration does not make it a root), for the parameters that every compiled call site
    sets to a literal of the same truth, passed or left to a literal default (sofima's ``masked_xcorr(...,
    use_jax=True)`` from the jitted ``_batched_xcorr``). Python runs the call with that value while it traces, so
    ``if use_jax:`` takes one branch there and the other arm is never traced (measured under ``jax.jit`` and
    ``tf.function(jit_compile=True)``: tests/xlacheck/test_literal_flag_truth.py). Callers in other files
    (``project``) must agree: their literals are already in ``const_params``."""
    loads: dict[str, int] = {}
    called: dict[str, int] = {}
    stored: set[str] = set()
    defined: dict[str, int] = {}
    for n in ast.walk(tree):
        t = type(n)
        if t is ast.Name:
            if isinstance(n.ctx, ast.Load):  # type: ignore[attr-defined]
                loads[n.id] = loads.get(n.id, 0) + 1  # type: ignore[attr-defined]
            else:
                stored.add(n.id)  # type: ignore[attr-defined]
        elif t is ast.Call and type(n.func) is ast.Name:  # type: ignore[attr-defined]
            called[n.func.id] = called.get(n.func.id, 0) + 1  # type: ignore[attr-defined]
        elif t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            defined[n.name] = defined.get(n.name, 0) + 1  # type: ignore[attr-defined]
        elif t in (ast.Global, ast.Nonlocal, ast.Import, ast.ImportFrom):
            names = n.names  # type: ignore[attr-defined]
            stored.update(a if isinstance(a, str) else (a.asname or a.name).split(".")[0] for a in names)
    targets = {f.name: f for f in facts.module_funcs.values()
               if not isinstance(f.node, ast.Lambda) and f.compiled and f.why.startswith("called from")
               and not (f.jit_entry or f.traced_entry is not None or f.traced_args or f.keras_method or f.loop_body
                        or f.declared or f.host or f.node.decorator_list)
               and defined.get(f.name) == 1 and f.name not in stored and loads.get(f.name, 0) == called.get(f.name)}
    if not targets:
        return
    agreed: dict[str, dict[str, bool] | None] = {}
    for call, caller in facts.sites["local"]:
        f = targets.get(call.func.id) if type(call.func) is ast.Name else None
        if f is None or caller is None or not caller.compiled or caller.host or agreed.get(f.name, {}) is None:
            continue
        found = facts.callee(call, caller)
        if found is None or found[0] is not f:
            agreed[f.name] = None  # a local of the caller's scope: not this function
            continue
        mine = _literal_arguments(f, call)
        prev = agreed.get(f.name)
        if prev is None or mine is None:  # the first compiled call site, or one that hides what it passes
            agreed[f.name] = mine
        else:
            agreed[f.name] = {k: v for k, v in prev.items() if mine.get(k) is v}
    for name, consts in agreed.items():
        if not consts:
            continue
        f = targets[name]
        fact = (project or {}).get(name)
        if fact is not None and fact.level >= Level.GRAPH:  # compiled callers elsewhere: theirs must agree
            consts = {k: v for k, v in consts.items() if f.const_params.get(k) is v}
        f.const_params.update(consts)


def _literal_arguments(f: FunctionInfo, call: ast.Call) -> dict[str, bool] | None:
    """The truth of each parameter of ``f`` that ``call`` sets to a literal (``None``, ``True``, ``0``, ``""``),
    passed by position or keyword or left to a literal default, and that ``f``'s body never assigns; None when
    ``*args``/``**kwargs`` hide what it passes."""
    node = f.node
    assert not isinstance(node, ast.Lambda)
    if any(type(a) is ast.Starred for a in call.args) or any(kw.arg is None for kw in call.keywords):
        return None
    a = node.args
    positional = [*a.posonlyargs, *a.args]
    values: dict[str, ast.expr | None] = {p.arg: None for p in [*positional, *a.kwonlyargs]}
    values.update(parameter_defaults(node))
    for p, arg in zip(positional, call.args):
        values[p.arg] = arg
    for kw in call.keywords:
        if kw.arg in values:
            values[kw.arg] = kw.value
    rebound = names_rebound(node)  # a parameter the body assigns holds the literal only until then
    return {p: bool(v.value) for p, v in values.items() if type(v) is ast.Constant and p not in rebound}


_STRUCTURE_DISPLAYS = (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.SetComp, ast.DictComp)
_STRUCTURE_BUILTINS = frozenset({"list", "tuple", "dict", "sorted"})


def _returns_structure(info: FunctionInfo) -> bool:
    """Every ``return`` of ``info`` (one at least) returns a list/tuple/dict display or comprehension."""
    if isinstance(info.node, ast.Lambda):
        return isinstance(info.node.body, _STRUCTURE_DISPLAYS)
    returns = [n for n in own_nodes(info.node) if isinstance(n, ast.Return)]
    return bool(returns) and all(isinstance(r.value, _STRUCTURE_DISPLAYS) for r in returns)


def _mark_structure_params(tree: ast.Module, facts: ModuleFacts) -> None:
    """Parameters of TensorFlow XLA entries (``jit_compile=True``) that a call site in this file
    passes a Python structure: ``update([w1, w2], ...)``, ``update(list(ws), ...)``, or a name
    whose binding reaching the call holds one, such as the entry's own list result passed back in
    a loop (``weights = update(weights, grads)``). ``values.param_flags`` takes the entry for one
    called with structures, not only with tensors."""
    entries = [f for f in facts.functions if f.jit_entry and not f.jax and not isinstance(f.node, ast.Lambda)]
    if not entries:
        return
    scopes: list[tuple[ast.AST, FunctionInfo | None]] = [(tree, None)]
    scopes += [(f.node, f) for f in facts.functions if not isinstance(f.node, ast.Lambda)]
    found: dict[int, set[str]] = {}
    numbers: dict[int, set[str]] = {}
    for scope, caller in scopes:
        nodes = list(own_nodes_in_loops(scope))
        assigned: dict[int, ast.Assign | ast.AnnAssign] | None = None  # a name target -> its statement
        for call, loops in nodes:
            if not isinstance(call, ast.Call):
                continue
            cls = owner_class(caller) if caller is not None else None
            callees = [f for f in _lookup(call.func, caller, cls, facts.module_funcs, facts.classes_by_name,
                                          facts.by_node) if f in entries]
            for callee in callees:
                node = callee.node
                assert not isinstance(node, ast.Lambda)
                params = [a.arg for a in node.args.posonlyargs + node.args.args]
                if callee.cls is not None and params and params[0] in ("self", "cls"):
                    params = params[1:]
                passed = list(zip(params, call.args)) + [(kw.arg, kw.value) for kw in call.keywords if kw.arg]
                for name, arg in passed:
                    if isinstance(arg, ast.Starred):
                        break
                    if assigned is None:
                        assigned = {id(n.targets[0] if isinstance(n, ast.Assign) else n.target): n for n, _ in nodes
                                    if (isinstance(n, ast.Assign) and len(n.targets) == 1) or isinstance(n, ast.AnnAssign)}
                    if _passes_structure(arg, call, loops, scope, nodes, assigned, caller, facts):
                        found.setdefault(id(callee), set()).add(name)
                    elif _python_number_literal(arg) or _range_counter(arg, loops):
                        numbers.setdefault(id(callee), set()).add(name)
    for f in entries:
        if id(f) in found:
            f.structure_params = frozenset(found[id(f)])
        if id(f) in numbers:
            f.python_number_params = frozenset(numbers[id(f)])


def _python_number_literal(e: ast.expr) -> bool:
    """``1``, ``-1``, ``0.5``, ``True``: a Python number written at the call."""
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
        e = e.operand
    return isinstance(e, ast.Constant) and isinstance(e.value, (int, float)) and not isinstance(e.value, complex)


def _range_counter(e: ast.expr, loops: tuple[ast.AST, ...]) -> bool:
    """``i`` in ``for i in range(...)`` (or the index of ``for i, x in enumerate(...)``) around the
    call, never rebound in that loop's body: Python ints, whatever the bounds."""
    if not isinstance(e, ast.Name):
        return False
    for loop in loops:
        if not (isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call) and isinstance(loop.iter.func, ast.Name)):
            continue
        kind, target = loop.iter.func.id, loop.target
        if kind == "enumerate" and isinstance(target, ast.Tuple) and target.elts:
            target = target.elts[0]
        elif kind != "range":
            continue
        if isinstance(target, ast.Name) and target.id == e.id:
            return not any(isinstance(n, ast.Name) and n.id == e.id and isinstance(n.ctx, ast.Store)
                           for stmt in loop.body for n in ast.walk(stmt))
    return False


def _structure_value(e: ast.expr, caller: FunctionInfo | None, facts: ModuleFacts) -> bool:
    """``e`` is a Python list/tuple/dict: a display, a comprehension, ``list(...)``, or a call of a
    function of this file whose every return is one."""
    if isinstance(e, _STRUCTURE_DISPLAYS):
        return True
    if not isinstance(e, ast.Call):
        return False
    if isinstance(e.func, ast.Name) and e.func.id in _STRUCTURE_BUILTINS and e.func.id not in facts.module_funcs:
        return True
    cls = owner_class(caller) if caller is not None else None
    found = _lookup(e.func, caller, cls, facts.module_funcs, facts.classes_by_name, facts.by_node)
    return len(found) == 1 and _returns_structure(found[0])


def _passes_structure(arg: ast.expr, call: ast.Call, loops: tuple[ast.AST, ...], scope: ast.AST,
                      nodes: list[tuple[ast.AST, tuple[ast.AST, ...]]],
                      assigned: dict[int, ast.Assign | ast.AnnAssign], caller: FunctionInfo | None,
                      facts: ModuleFacts) -> bool:
    """``arg`` holds a Python structure at ``call`` on some run: a structure value, or a name whose
    binding reaching the call is one (the last binding before it, or, in a loop, the last binding
    of that loop after it when nothing in the loop before the call rebinds the name)."""
    if _structure_value(arg, caller, facts):
        return True
    if not isinstance(arg, ast.Name):
        return False
    at = (call.lineno, call.col_offset)
    # (position, loops around it, value or None for a binding of unknown value)
    bindings: list[tuple[tuple[int, int], tuple[ast.AST, ...], ast.expr | None]] = []
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = scope.args
        if any(p.arg == arg.id for p in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if p):
            bindings.append(((0, 0), (), None))
    for node, node_loops in nodes:
        if isinstance(node, ast.Name) and node.id == arg.id and isinstance(node.ctx, ast.Store):
            stmt = assigned.get(id(node))  # the assignment whose only target is this name
            if stmt is not None:  # bound once its value is computed
                end = (stmt.end_lineno or stmt.lineno, stmt.end_col_offset or 0)
                bindings.append((end, node_loops, stmt.value))
            else:  # a loop/with target, an unpacking, a walrus: a value of unknown kind
                bindings.append(((node.lineno, node.col_offset), node_loops, None))
    before = [b for b in bindings if b[0] <= at]
    reaching = [max(before, key=lambda b: b[0])] if before else []
    for loop in loops:  # a binding later in an enclosing loop reaches the next iteration's call
        if reaching and loop in reaching[0][1]:
            continue  # rebound in this loop before the call
        later = [b for b in bindings if b[0] > at and loop in b[1]]
        if later:
            reaching.append(max(later, key=lambda b: b[0]))
    return any(value is not None and _structure_value(value, caller, facts) for _, _, value in reaching)


def external_uses(facts: ModuleFacts) -> list[ExternalUse]:
    """Every use of another module's function that says how it runs: functions handed to
    compilers or the host, and calls from functions that run compiled (any level but ``EAGER``)
    or on the host. Calls from a module-level function carry its name, so that evidence other
    files give it passes on to what it calls: also the calls of one that is ``EAGER`` here (a thin
    wrapper with no tensor op of its own), which are evidence of nothing until another file
    raises the wrapper."""
    out = list(facts.handed_out)
    for target, func, line, bare, call in facts.external_calls:
        if bare and bare in facts.module_funcs:
            continue  # a function of this file shadows the import
        top: FunctionInfo = func
        while top.parent is not None:
            top = top.parent
        caller = top.name if facts.module_funcs.get(top.name) is top else ""
        if func.level is Level.EAGER and not func.host and not caller:
            continue
        label = f"{func.cls.node.name}.{func.name}()" if func.cls is not None else f"{func.name}()"
        args = facts.external_args.get(id(call), {}) if call is not None else {}
        consts = facts.external_consts.get(id(call), {}) if call is not None else {}
        out.append(ExternalUse(target, caller, f"called from {label}", Level.HOST if func.host else func.level,
                               func.host, func.converted or func.level < Level.GRAPH, func.jax, line,
                               args=tuple(sorted(args.items())), consts=tuple(sorted(consts.items()))))
    return out


def declared_varying_shapes(loop: ast.stmt, aliases: AliasTable) -> frozenset[str]:
    """Names whose shape a staged loop declares free: ``tf.autograph.experimental.set_loop_options(
    shape_invariants=[(kept, tf.TensorShape([None])), ...])`` among the loop's own statements. A
    plain graph carries such a variable (it may grow), XLA does not (measured on TF 2.21: "Input and
    output shapes of loop body do not match" under jit_compile=True, the same loop runs without)."""
    names: set[str] = set()
    for stmt in getattr(loop, "body", ()):
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if not isinstance(call, ast.Call) or aliases.resolve(call.func) != "tf.autograph.experimental.set_loop_options":
            continue
        for kw in call.keywords:
            if kw.arg == "shape_invariants" and isinstance(kw.value, (ast.List, ast.Tuple)):
                names.update(pair.elts[0].id for pair in kw.value.elts if isinstance(pair, ast.Tuple)
                             and pair.elts and isinstance(pair.elts[0], ast.Name))
    return frozenset(names)
