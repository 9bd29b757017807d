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
  ``strategy.run`` replica functions, and what they call;
- ``GRAPH``: a plain ``tf.function`` (no ``jit_compile=True``) and what it calls: traced by
  AutoGraph, compiled by XLA only when a compiled caller or a TPU runs it;
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
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum, IntEnum

from xlacheck.analysis import child_nodes
from xlacheck.analysis.imports import AliasTable
from xlacheck.analysis.tables import (
    JAX_JIT_NAMES,
    TF_FUNCTION_NAMES,
    autograph_converts,
    module_name,
)


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
    NOAG = "do_not_convert"  # not converted, not traced by itself
    GRAPH = "graph"  # runs in its caller's graph (tf.map_fn, tf.cond bodies)
    HOST = "host"  # runs as Python on the host (py_function)
    PIPELINE = "pipeline"  # a tf.data function: a host-side graph
    COMPILED = "compiled"  # compile(loss=...), strategy.run(...)


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

# Keras and Hugging Face methods that run inside the compiled train/predict function.
_KERAS_METHODS = frozenset(
    {"call", "train_step", "test_step", "predict_step", "hf_compute_loss", "compute_loss"}
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
# Calls whose function argument runs as Python on the host, not under XLA.
_HOST_CALLS = frozenset(
    {"tf.py_function", "tf.numpy_function", "tf.compat.v1.py_func", "tf.data.Dataset.from_generator",
     "jax.pure_callback", "jax.debug.callback"}
)
# Method names of tf.data pipelines: the function runs as a host-side TF graph, not under XLA.
_PIPELINE_METHODS = frozenset({"map", "filter", "flat_map", "interleave", "from_generator", "reduce", "scan"})
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
    keras: bool = False
    host: bool = False  # a preprocessing layer / tokenizer: runs in the input pipeline
    metric: bool = False
    called_in_step: bool = False  # a learning-rate schedule, constraint or regularizer


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
    no_autograph: bool = False  # autograph=False / do_not_convert / jax.jit / lambda
    host: bool = False  # runs on the host (py_function target, dataset.map function)
    why: str = ""
    called_names: set[str] = field(default_factory=set)
    called_methods: set[str] = field(default_factory=set)
    uses_tf_compute: bool = False
    calls_numpy_method: bool = False  # `.numpy()` outside an eager guard: written for eager mode
    self_numpy: set[str] = field(default_factory=set)  # `self.<attr>.numpy()`: attributes read into NumPy
    children: list[FunctionInfo] = field(default_factory=list)
    level: Level = Level.EAGER  # evidence that XLA compiles it (see Level)
    evidence_line: int = 0  # the line of that evidence (decorator, wrapper call, class, caller)
    keras_method: bool = False  # call/train_step/... of a Keras class: its arguments are tensors (or structures)
    traced_args: bool = False  # a tracer passes it tensors (tf.function/jax.jit target, tf.map_fn body)
    uses_strings: bool = False  # runs string/text ops (tf.strings, tensorflow_text, decode/parse)
    exported: bool = False  # exported as a serving signature (get_concrete_function, signatures=)

    @property
    def compiled(self) -> bool:
        return self.certainty is Certainty.COMPILED

    @property
    def evidence(self) -> str:
        """Why this function is taken for compiled code, for messages: "Keras call() at line 12"."""
        return f"{self.why} at line {self.evidence_line}" if self.evidence_line else self.why


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

    def callee(self, call: ast.Call, caller: FunctionInfo) -> tuple[FunctionInfo, bool] | None:
        """The same-file function a call invokes, and whether it is a ``self.method`` call."""
        f = call.func
        if isinstance(f, ast.Name):
            found = _lookup(f, caller, caller.cls, self.module_funcs, self.classes_by_name, self.by_node)
            return (found[0], False) if found else None
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self":
            owner = owner_class(caller)
            if owner is None:
                return None
            if f.attr in owner.methods:
                return owner.methods[f.attr], True
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


def _static_params(info: FunctionInfo, call: ast.expr | None) -> frozenset[str]:
    """Parameter names a jax.jit call marks static (static_argnums / static_argnames)."""
    if not isinstance(call, ast.Call) or isinstance(info.node, ast.Lambda):
        return frozenset()
    params = [a.arg for a in info.node.args.posonlyargs + info.node.args.args]
    out: set[str] = set()
    for kw in call.keywords:
        values = kw.value.elts if isinstance(kw.value, (ast.Tuple, ast.List)) else [kw.value]
        for v in values:
            if not isinstance(v, ast.Constant):
                continue
            if kw.arg == "static_argnums" and isinstance(v.value, int) and -len(params) <= v.value < len(params):
                out.add(params[v.value])
            elif kw.arg == "static_argnames" and isinstance(v.value, str):
                out.add(v.value)
    return frozenset(out)


def _partial_bound(info: FunctionInfo, ref: ast.expr) -> frozenset[str]:
    """Parameters that ``functools.partial(f, a, k=v)`` binds before the tracer sees ``f``: Python
    values closed over, never traced."""
    if not isinstance(ref, ast.Call) or not ref.args or isinstance(info.node, ast.Lambda):
        return frozenset()
    f = ref.func
    if not ((isinstance(f, ast.Name) and f.id == "partial") or (isinstance(f, ast.Attribute) and f.attr == "partial")):
        return frozenset()
    params = [a.arg for a in info.node.args.posonlyargs + info.node.args.args]
    bound = {kw.arg for kw in ref.keywords if kw.arg is not None}
    bound.update(params[:len(ref.args) - 1])
    return frozenset(bound)


def _jit_compile_true(call: ast.expr) -> bool:
    return isinstance(call, ast.Call) and any(
        kw.arg == "jit_compile" and isinstance(kw.value, ast.Constant) and kw.value.value is True
        for kw in call.keywords)


def _decorator_role(dec: ast.expr, aliases: AliasTable) -> tuple[Role, bool] | None:
    """The role a decorator gives its function, and whether it is an explicit XLA entry point
    (jit_compile=True, jax.jit: its arguments' values can be baked into the compiled program)."""
    target = dec.func if isinstance(dec, ast.Call) else dec
    name = aliases.resolve(target)
    if (name is None and isinstance(target, ast.Name) and target.id in ("partial",)
            and isinstance(dec, ast.Call) and dec.args):
        name = aliases.resolve(dec.args[0])
    if name is None:
        return None
    if name in ("functools.partial",) and isinstance(dec, ast.Call) and dec.args:
        name = aliases.resolve(dec.args[0]) or ""
    if name in TF_FUNCTION_NAMES:
        xla = _jit_compile_true(dec)
        if isinstance(dec, ast.Call):
            for kw in dec.keywords:
                if kw.arg == "autograph" and isinstance(kw.value, ast.Constant) and kw.value.value is False:
                    return Role.TF_FUNCTION_NOAG, xla
        return Role.TF_FUNCTION, xla
    if name in JAX_JIT_NAMES:  # JAX: no AutoGraph, arguments always traced
        return Role.JAX, True
    if name == "torch.compile":
        # Dynamo falls back to Python at graph breaks, much like AutoGraph staging control flow;
        # (torch.jit.script is TorchScript, not XLA, and is not a context)
        return Role.TF_FUNCTION, False
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
        self.sites: dict[str, list[tuple[ast.Call, FunctionInfo | None]]] = {"wrap": [], "batch": [], "local": []}

    def scan(self, tree: ast.Module) -> None:
        # Explicit stack: (node, enclosing function, enclosing class for direct methods)
        # Statement lists are pushed reversed so imports are seen before the code that uses them.
        stack: list[tuple[ast.AST, FunctionInfo | None, ClassInfo | None]] = [
            (stmt, None, None) for stmt in reversed(tree.body)
        ]
        aliases = self.aliases
        iter_children = child_nodes
        while stack:
            node, func, cls = stack.pop()
            t = type(node)
            if t is ast.Call:  # type identity, not isinstance: the hot loop of every file
                self._call(node, func, cls)  # type: ignore[arg-type]
            elif t is ast.Import or t is ast.ImportFrom:
                aliases.add(node)  # type: ignore[arg-type]
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
            elif t is ast.ClassDef:
                cinfo = ClassInfo(node, tuple(self._base_name(b) for b in node.bases))  # type: ignore[attr-defined, arg-type]
                self.classes.append(cinfo)
                for child in reversed(node.body):  # type: ignore[attr-defined]
                    stack.append((child, func, cinfo))
                continue
            elif t is ast.Assign and func is not None and func.cls is not None:
                for target in node.targets:  # type: ignore[attr-defined]
                    if (
                        type(target) is ast.Attribute
                        and type(target.value) is ast.Name
                        and target.value.id == "self"
                    ):
                        func.cls.attrs[target.attr] = node.value  # type: ignore[attr-defined]
            for child in iter_children(node):
                stack.append((child, func, cls))

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
                role = _decorator_role(dec, self.aliases)
                if role is not None:
                    self.decorated.append((info, role[0], role[1], dec.lineno))
                    if role[0] is not Role.NOAG:
                        info.traced_entry = dec
        return info

    def _call(self, node: ast.Call, func: FunctionInfo | None, cls: ClassInfo | None) -> None:
        f = node.func
        if func is not None:
            if type(f) is ast.Name:
                func.called_names.add(f.id)
                self.sites["local"].append((node, func))
            elif type(f) is ast.Attribute:
                if type(f.value) is ast.Name and f.value.id == "self":
                    func.called_methods.add(f.attr)
                elif f.attr == "numpy" and not node.args:
                    func.calls_numpy_method = True
                    recv = f.value
                    if type(recv) is ast.Attribute and type(recv.value) is ast.Name and recv.value.id == "self":
                        func.self_numpy.add(recv.attr)
        if type(f) is ast.Attribute and f.attr == "batch":
            self.sites["batch"].append((node, func))
        name = self.aliases.resolve(f)
        if name is not None:
            if func is not None and not func.uses_tf_compute and (
                name.startswith("tf.") or name.startswith("tnp.") or name.startswith("transformers.shape_list")
            ) and not name.startswith(_NON_COMPUTE_PREFIXES):
                func.uses_tf_compute = True
            if name in ("tf.function", "jax.jit"):
                self.sites["wrap"].append((node, func))
            if func is not None and not func.uses_strings and name.startswith(_STRING_PREFIXES):
                func.uses_strings = True
            if (name in TF_FUNCTION_NAMES or name in JAX_JIT_NAMES or name == "torch.compile") and node.args:
                role = Role.TF_FUNCTION
                xla = _jit_compile_true(node)
                if name in JAX_JIT_NAMES:
                    role, xla = Role.JAX, True
                else:
                    for kw in node.keywords:
                        if kw.arg == "autograph" and isinstance(kw.value, ast.Constant) and kw.value.value is False:
                            role = Role.TF_FUNCTION_NOAG
                self.handoffs.append(_Handoff(node.args[0], role, func, cls, node, xla, node.lineno))
            elif name in _GRAPH_HIGHER_ORDER:
                for arg in node.args[:3] if name in ("tf.cond", "tf.while_loop") else node.args[:1]:
                    self._handoff_refs(arg, Role.GRAPH, func, cls, node)
                for kw in node.keywords:
                    if kw.arg in ("fn", "true_fn", "false_fn", "cond", "body", "branch_fns", "pred_fn_pairs", "f"):
                        self._handoff_refs(kw.value, Role.GRAPH, func, cls, node)
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
                self._handoff_refs(node.args[0], Role.TF_FUNCTION_NOAG, func, cls, node)
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
                for kw in node.keywords:
                    if kw.arg in ("loss", "metrics", "weighted_metrics"):
                        self._handoff_refs(kw.value, Role.COMPILED, func, cls, node)
            elif attr == "run" and node.args:
                # strategy.run(step_fn, args=...): the replica function is compiled on TPU
                receiver = f.value
                text = receiver.id if isinstance(receiver, ast.Name) else getattr(receiver, "attr", "")
                if isinstance(receiver, ast.Call):  # tf.distribute.get_strategy().run(...)
                    text = self.aliases.resolve(receiver.func) or ""
                if "strategy" in text.lower():
                    self.handoffs.append(_Handoff(node.args[0], Role.COMPILED, func, cls, line=node.lineno))
            elif attr in _PIPELINE_METHODS and node.args:
                self._handoff_refs(node.args[0], Role.PIPELINE, func, cls, node)

    def _exports(self, value: ast.expr, func: FunctionInfo | None, cls: ClassInfo | None) -> None:
        values = value.values if isinstance(value, ast.Dict) else [value]
        for v in values:
            if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "get_concrete_function":
                v = v.func.value
            self.exports.append((v, func, cls))

    def _handoff_refs(self, value: ast.expr, role: Role, func: FunctionInfo | None, cls: ClassInfo | None,
                      call: ast.Call | None = None) -> None:
        if isinstance(value, (ast.List, ast.Tuple)):
            for elt in value.elts:
                self._handoff_refs(elt, role, func, cls, call)
        elif isinstance(value, ast.Dict):
            for v in value.values:
                self._handoff_refs(v, role, func, cls, call)
        else:
            self.handoffs.append(_Handoff(value, role, func, cls, call, line=getattr(call, "lineno", 0)))


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
            return [m for n, m in c.methods.items() if n in ("__call__", "call", "update_state", "result")]
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


def infer_contexts(scanner: _Scanner, test_module: bool = False) -> ModuleFacts:
    functions = scanner.functions
    module_funcs = {f.name: f for f in functions if f.parent is None and f.cls is None and not isinstance(f.node, ast.Lambda)}
    classes = {c.node.name: c for c in scanner.classes}

    # Keras classes: a Keras/HF base, or a base class defined here that is one (fixed point).
    changed = True
    while changed:
        changed = False
        for c in scanner.classes:
            if c.keras:
                continue
            if any(_is_keras_base(b) or (b in classes and classes[b].keras) for b in c.bases):
                c.keras = True
                changed = True
    changed = True
    while changed:  # preprocessing layers, tokenizers: run in the input pipeline (fixed point)
        changed = False
        for c in scanner.classes:
            if not c.host and any(b.rsplit(".", 1)[-1].endswith(_HOST_BASE_SUFFIXES)
                                  or (b in classes and classes[b].host) for b in c.bases):
                c.host = changed = True
    for c in scanner.classes:
        c.metric = any("metrics" in b or (b in classes and classes[b].metric) for b in c.bases) and c.keras
        c.called_in_step = c.keras and any(
            b.endswith(_CALLED_IN_STEP_BASES) or (b in classes and classes[b].called_in_step) for b in c.bases)

    # AutoGraph finds a lambda's source by its line: with two lambdas on one line it gives up and
    # runs them unconverted (`tf.cond(p, lambda: a, lambda: b)` on one line).
    lambda_lines: dict[int, int] = {}
    for f in functions:
        if isinstance(f.node, ast.Lambda):
            lambda_lines[f.node.lineno] = lambda_lines.get(f.node.lineno, 0) + 1
    for f in functions:
        if isinstance(f.node, ast.Lambda) and lambda_lines[f.node.lineno] > 1:
            f.no_autograph = True

    # Serving/TFLite exports: functions whose concrete function is taken or that are passed as
    # `signatures=`: traced with TensorSpecs into a SavedModel graph, not compiled by XLA.
    for ref, caller, cls in scanner.exports:
        found = _lookup(ref, caller, cls, module_funcs, classes, scanner.by_node)
        if not found and isinstance(ref, ast.Attribute):  # model.train.get_concrete_function(): any class's `train`
            found = [c.methods[ref.attr] for c in scanner.classes if ref.attr in c.methods]
        for t in found:
            t.exported = True

    # Work list: (function, converted, explicit XLA entry, level, why, evidence line). A
    # function reached converted from any path is converted; its level is the best evidence.
    work: list[tuple[FunctionInfo, bool, bool, Level, str, int]] = []

    for info, role, xla, line in scanner.decorated:
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
            work.append((info, True, xla, level, "decorated with tf.function" + ("(jit_compile=True)" if xla else ""),
                         line))
        else:
            info.no_autograph = True
            work.append((info, False, xla, level, "jit-compiled without AutoGraph", line))
    for c in scanner.classes:
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
            if name in _KERAS_METHODS or (c.metric and name in _METRIC_METHODS) \
                    or (c.called_in_step and name == "__call__"):
                m.keras_method = True
                work.append((m, True, False, Level.LIKELY, f"Keras {name}()", m.node.lineno))
    for h in scanner.handoffs:
        targets = _lookup(h.ref, h.caller, h.cls, module_funcs, classes, scanner.by_node)
        level = Level.CERTAIN if h.xla else Level.LIKELY if h.role is Role.COMPILED else Level.GRAPH
        for t in targets:
            t.static_params |= _partial_bound(t, h.ref)
            if h.role in (Role.HOST, Role.PIPELINE):
                t.host = True
            elif h.role is Role.JAX:
                t.no_autograph = t.jax = t.traced_args = True
                t.static_params |= _static_params(t, h.call)
                work.append((t, False, True, level, "wrapped in jax.jit", h.line))
            elif h.role is Role.TF_FUNCTION:
                t.traced_args = True
                work.append((t, True, h.xla, level, "wrapped in tf.function" + ("(jit_compile=True)" if h.xla else ""),
                             h.line))
            elif h.role is Role.TF_FUNCTION_NOAG:
                t.no_autograph = t.traced_args = True
                work.append((t, False, h.xla, level, "compiled without AutoGraph", h.line))
            elif h.role is Role.COMPILED:
                t.traced_args = True
                work.append((t, True, False, level, "passed to compile()/strategy.run", h.line))
            # GRAPH (tf.map_fn(fn, ...)): fn runs in its caller's graph, like a call. Lambdas are
            # already nested in the caller; a named function becomes a callee. TF passes it
            # tensors (elements, loop variables), except tf.nest.map_structure (any leaves).
            elif h.role is Role.GRAPH:
                func = h.call.func if h.call is not None else None
                if func is not None and not (isinstance(func, ast.Attribute) and func.attr == "map_structure"):
                    t.traced_args = True
                if h.caller is not None and not isinstance(t.node, ast.Lambda):
                    h.caller.called_names.add(t.name)

    seen: dict[int, tuple[bool, Level]] = {}
    order: list[FunctionInfo] = []
    work.reverse()  # entry points in source order
    while work:
        info, converted, entry, level, why, line = work.pop()
        if info.host:
            continue
        conv = converted and not info.no_autograph
        prev = seen.get(id(info))
        if prev is not None and (prev[0] or not conv) and prev[1] >= level:
            continue
        if prev is None:
            order.append(info)
        seen[id(info)] = (conv or (prev is not None and prev[0]), max(level, prev[1]) if prev else level)
        info.certainty = Certainty.COMPILED
        info.converted = info.converted or conv
        info.jit_entry = info.jit_entry or entry
        if level > info.level:
            info.level = level
            info.why, info.evidence_line = why, line
        for child in info.children:
            child.jax = child.jax or info.jax
            work.append((child, conv, False, level, f"nested in {info.name}()", info.node.lineno))
        callees: list[FunctionInfo] = []
        for n in info.called_names:
            callees.extend(_lookup(ast.Name(n), info, info.cls, module_funcs, classes, scanner.by_node))
        owner = owner_class(info)
        if owner is not None:
            for method in info.called_methods:
                if method in owner.methods:
                    callees.append(owner.methods[method])
                else:  # a method inherited from a base class defined in this file
                    for b in owner.bases:
                        if b in classes and method in classes[b].methods:
                            callees.append(classes[b].methods[method])
                            break
        for callee in callees:
            if callee is not info:
                callee.jax = callee.jax or info.jax
                work.append((callee, conv, False, level, f"called from {info.name}()", info.node.lineno))

    # A metric that reads its own state variables into NumPy (`self.total.numpy()`) computes its
    # result in Python: it can only run eagerly (run_eagerly), so its methods are not compiled.
    for c in scanner.classes:
        if c.metric:
            state = {a for a, v in c.attrs.items() if isinstance(v, ast.Call) and (
                (isinstance(v.func, ast.Attribute) and v.func.attr == "add_weight")
                or scanner.aliases.resolve(v.func) == "tf.Variable")}
            if any(m.self_numpy & state for m in functions if owner_class(m) is c):
                c.host = True
    # Host-graph evidence beats LIKELY (never an explicit jit_compile=True/jax.jit path):
    # methods of preprocessing layers/tokenizers, serving exports, string processing.
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

    # Helpers that host-side code (dataset.map functions, py_function targets) calls and nothing
    # compiled does are input-pipeline code: never tensor helpers.
    host_work = [f for f in functions if f.host]
    while host_work:
        f = host_work.pop()
        for n in f.called_names:
            for callee in _lookup(ast.Name(n), f, f.cls, module_funcs, classes, scanner.by_node):
                if not callee.host and callee.certainty is Certainty.NONE:
                    callee.host = True
                    host_work.append(callee)

    # MAYBE: module-level helpers computing with tf ops that nothing here compiles.
    # A helper calling `.numpy()` was written for eager mode (post-processing, metrics on the host).
    # A pytest test function (test_* in a test module) is an entry point pytest runs eagerly: no
    # caller compiles it, so it is not a tensor helper (its asserts compare results on the host).
    maybe = [f for f in module_funcs.values() if f.certainty is Certainty.NONE and f.uses_tf_compute
             and not f.host and not f.calls_numpy_method and f.node.args.args
             and not (test_module and f.name.startswith("test"))]
    maybe.reverse()
    while maybe:
        f = maybe.pop()
        if f.certainty is not Certainty.NONE or f.host or f.calls_numpy_method:
            continue
        order.append(f)
        f.certainty = Certainty.MAYBE
        f.level = Level.HELPER
        f.converted = not f.no_autograph
        f.why = "module-level tensor helper (compiled when its caller is)"
        for child in f.children:
            if not child.host:
                maybe.append(child)
        for n in f.called_names:
            maybe.extend(_lookup(ast.Name(n), f, None, module_funcs, classes, scanner.by_node))
    walk = _callers_first(order, lambda f: _callees(f, module_funcs, classes, scanner.by_node))
    return ModuleFacts(scanner.aliases, functions, scanner.classes, scanner.by_node, walk,
                       module_funcs, classes, {}, scanner.sites)


def _callees(info: FunctionInfo, module_funcs: dict[str, FunctionInfo], classes: dict[str, ClassInfo],
             by_node: dict[int, FunctionInfo]) -> list[FunctionInfo]:
    """Same-file functions ``info`` calls: by name, as ``self.method``, or as ``self.layer(...)``
    where ``self.layer`` was built from a layer class defined in this file (its ``call``)."""
    out: list[FunctionInfo] = []
    for n in info.called_names:
        out.extend(_lookup(ast.Name(n), info, info.cls, module_funcs, classes, by_node))
    owner = owner_class(info)
    if owner is not None:
        for m in info.called_methods:
            if m in owner.methods:
                out.append(owner.methods[m])
                continue
            built = owner.attrs.get(m)
            if isinstance(built, ast.Call) and isinstance(built.func, ast.Name) and built.func.id in classes:
                layer = classes[built.func.id].methods.get("call")
                if layer is not None:
                    out.append(layer)
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


def is_test_module(path: str | None) -> bool:
    """pytest's default file patterns: ``test_*.py`` and ``*_test.py``."""
    if not path:
        return False
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return name.startswith("test_") or name.endswith("_test.py")


def analyze_module(tree: ast.Module, path: str | None = None) -> ModuleFacts:
    """The module's facts. ``path`` locates its package: AutoGraph converts no function of a
    module on its do-not-convert list (``tensorflow``, ``keras``, ``tf_keras``, ...)."""
    scanner = _Scanner()
    scanner.scan(tree)
    facts = infer_contexts(scanner, test_module=is_test_module(path))
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
