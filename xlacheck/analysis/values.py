"""What an expression holds inside a compiled function: a light forward dataflow of bit flags.

A value is described by a set of flags (an ``int``): ``TENSOR`` for any tensor, plus where its
value comes from. Rules ask questions such as "is this a tensor whose value depends on data?"
(``TENSOR`` and ``DATA``) or "is this only a shape?" (``SHAPE``, never a data-dependent value).
Static facts carry no ``TENSOR`` flag: ``x.shape``, ``x.shape[i]``, ``x.dtype``,
``len(x.shape)``, ``shape_list(x)`` entries, config attributes, ``self.<attr>`` set to Python
literals, parameters with literal/None defaults or Python type annotations.

The law: **unknown is not a tensor**. A value is a tensor (:func:`is_tensor`) only with
evidence: produced by a framework op, a variable, a tensor-annotated parameter, a parameter of a
traced entry point (``tf.function``/``jax.jit``) or of a Keras method without Python evidence,
or what callers in this file pass. ``OPAQUE`` marks "a tensor *or a structure of tensors*"
(a Keras ``call`` argument, a layer's or an unknown function's result): arithmetic, comparisons
and framework ops on it prove a tensor, iterating it or testing its truth does not. A parameter
of a helper that no compiled caller in this file passes a tensor to is unknown (0). Evidence of
a Python value: literals, annotations, defaults, names of Python options, the ``Args:`` section of
the docstring, ``len()``, ``.shape``/``.dtype``/``ndim`` pieces, membership tests on containers,
items of Python containers.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Callable, Mapping
from enum import IntFlag
from typing import NamedTuple

from xlacheck import api_table
from xlacheck.analysis import dotted
from xlacheck.analysis.contexts import Certainty, ClassInfo, FunctionInfo
from xlacheck.analysis.dtypes import DtypeModel, names_bool
from xlacheck.analysis.imports import AliasTable
from xlacheck.analysis.reductions import returns_one_reduction
from xlacheck.analysis.scopes import own_nodes, target_names
from xlacheck.analysis.tables import BOOL_FUNCS, CALL_METHODS, JAX_BOOL_FUNCS, call_arguments, splatted
from xlacheck.analysis.type_guards import python_type_guard


class ValueFlag(IntFlag):
    """What an expression holds: the one definition of the value flags, with their names.

    The analysis computes with the plain ``int`` constants below (``TENSOR = int(ValueFlag.TENSOR)``
    ...): an ``IntFlag`` ``|`` or ``&`` costs ~1.9 us against ~0.07 us for ints (measured with
    timeit on Python 3.11), and the value model does hundreds of thousands of them per cold lint
    of a large package. :func:`describe` turns an int back into names for messages and tests."""

    TENSOR = 1  # a tf/jax/torch tensor (symbolic inside compiled code)
    SHAPE = 2  # derived only from shapes (tf.shape, tf.size, shape_list): fine as a shape argument
    DYNAMIC = 4  # bounded dynamic shape: boolean-mask result, 1-argument tf.where, tf.unique
    BOOL = 8  # a boolean tensor (usable as a mask)
    LOOP = 16  # changes per iteration of a staged (tf.range / tensor while) loop
    RANDOM = 32  # drawn from tf.random.*
    PYLIST = 64  # a Python list/tuple/dict holding tensors (or layers)
    PARAM = 128  # flows from a parameter of the function
    DATA = 256  # computed by an op from tensor data (not just passed through)
    INTCAST = 512  # int(t) under AutoGraph: an int32 tensor where Python expected an int
    VARIABLE = 1024  # a tf.Variable / Keras weight
    CONST = 2048  # a tensor whose value is a compile-time constant (tf.constant of literals)
    LAYER = 4096  # a callable Keras layer / model object
    PYLIST_EMPTY = 8192  # a Python list that code appends to (`xs = []`)
    OPAQUE = 16384  # returned by a layer/user function: a tensor or a structure of tensors (tuple, ModelOutput)
    OP = 32768  # produced by a tf/jnp op: certainly a tensor (a bare parameter may be a Python value)
    # a Python value with evidence (a literal, a module constant, a static shape fact, a config
    # attribute, a parameter typed, documented or defaulted as a Python value): meaningful only
    # without TENSOR (:func:`is_python`). An op of such values only is a constant tensor (CONST);
    # an op of an unknown value (no flag at all) is a tensor of unknown provenance.
    PYTHON = 65536


def describe(flags: int) -> str:
    """``TENSOR|DATA`` for the int ``257``; ``0`` for no flag (a Python value or unknown)."""
    return "|".join(f.name for f in ValueFlag if f.name and flags & f.value) or "0"


TENSOR = int(ValueFlag.TENSOR)
SHAPE = int(ValueFlag.SHAPE)
DYNAMIC = int(ValueFlag.DYNAMIC)
BOOL = int(ValueFlag.BOOL)
LOOP = int(ValueFlag.LOOP)
RANDOM = int(ValueFlag.RANDOM)
PYLIST = int(ValueFlag.PYLIST)
PARAM = int(ValueFlag.PARAM)
DATA = int(ValueFlag.DATA)
INTCAST = int(ValueFlag.INTCAST)
VARIABLE = int(ValueFlag.VARIABLE)
CONST = int(ValueFlag.CONST)
LAYER = int(ValueFlag.LAYER)
PYLIST_EMPTY = int(ValueFlag.PYLIST_EMPTY)
OPAQUE = int(ValueFlag.OPAQUE)
OP = int(ValueFlag.OP)
PYTHON = int(ValueFlag.PYTHON)

# Static attributes that are Python values on anything that has them (not an object or a name).
_PROVEN_STATIC_ATTRS = frozenset({"shape", "dtype", "ndim", "size", "rank", "units", "filters", "kernel_size",
                                  "num_heads"})
# Attributes that are static facts even on a tensor.
STATIC_ATTRS = frozenset(
    {"shape", "dtype", "ndim", "size", "nbytes", "itemsize", "name", "device", "graph", "op", "rank", "trainable",
     "is_tensor_like", "config", "__class__", "__name__", "built", "units", "filters", "kernel_size", "num_heads"}
)
# Return kinds come from the API table generated from the frameworks (:mod:`xlacheck.api_table`):
# ``returns == "python"`` (by calling it) is a Python value, ``"static_shape"`` a static shape,
# a data-dependent result shape (``data_dependent_shape``, under the call's arguments) DYNAMIC.
# The hand tables below hold only what that table cannot know, each for the reason given.

# Functions whose result depends only on the *shapes* of their inputs (the table records the
# kind of a result, a tensor, not what its value depends on).
SHAPE_FUNCS = frozenset(
    {"tf.shape", "tf.size", "tf.rank", "tf.shape_n", "tf.compat.v1.shape", "tf.keras.backend.shape",
     "tf.keras.ops.size", "transformers.shape_list", "transformers.modeling_tf_utils.shape_list"}
)
# Static shapes as Python tuples from outside TensorFlow/Keras (the table holds only framework
# names; Keras' int_shape and Keras 3's ops.shape are ``static_shape`` there): transformers'
# shape_list gives a list of ints (a bounded tensor for a dynamic dim).
PY_SHAPE_FUNCS = frozenset({"transformers.shape_list", "transformers.modeling_tf_utils.shape_list"})
# Ops whose result does not depend on the *values* of their tensor arguments (not a table fact).
VALUE_FREE_FUNCS = frozenset({"tf.zeros_like", "tf.ones_like", "tf.fill", "tf.eye"})
# Ops returning a Python list of tensors (static length) besides those the API table measured
# (``structure: "list"``: tf.split, tf.unstack, tf.shape_n, tf.dynamic_partition, keras.ops.split):
# tf.meshgrid returned a tuple for the probe's one input. (tf.nest.* are structures of their
# leaves: _STRUCTURE_PREFIXES.)
LIST_FUNCS = frozenset({"tf.meshgrid"})
_KEEP_DYNAMIC_PREFIXES = ("reduce_", "size", "shape", "norm", "argmax", "argmin", "count_nonzero", "top_k")

_PASS_FLAGS = TENSOR | SHAPE | DYNAMIC | BOOL | LOOP | RANDOM | PARAM | DATA | VARIABLE | CONST | OPAQUE | OP
_OP_FLAGS = TENSOR | SHAPE | DYNAMIC | LOOP | RANDOM | PARAM | DATA | CONST | VARIABLE | INTCAST | OP

# Parameter names that hold Python values in Keras/HF signatures.
PYTHON_PARAM_NAMES = frozenset(
    {"self", "cls", "training", "config", "return_dict", "output_attentions", "output_hidden_states",
     "use_cache", "axis", "name", "kwargs", "args", "deterministic", "is_training", "mode"}
)
_PY_TYPE_WORDS = frozenset({"int", "float", "bool", "str", "bytes", "dict", "Dict", "tuple", "Tuple", "list", "List",
                            "Optional", "Union", "None", "Sequence", "Callable", "Any"})
# Parameter names that denote Python sizes/options in model code (dims, sizes, counts, rates).
_PY_NAME_SUFFIXES = ("_dim", "_dims", "_size", "_channels", "_heads", "_eps", "_epsilon", "_rate", "_prob",
                     "_factor", "_stride", "_layers", "_name", "_fn", "_type", "_mode")
_PY_NAMES = frozenset({"dim", "dims", "channels", "stride", "eps", "epsilon", "dtype", "padding", "kernel_size",
                       "num_heads", "groups", "window_size", "patch_size", "dropout", "rate", "scale"})


_CONTAINER_ANNOTATIONS = ("List", "list", "Sequence", "Tuple", "tuple", "Dict", "dict", "Mapping", "Iterable",
                          "MutableMapping", "MutableSequence", "Set", "set", "typing.List", "typing.Sequence",
                          "typing.Tuple", "typing.Dict", "typing.Mapping", "collections.abc.Sequence")


def _unwrap_optional(text: str) -> str:
    while text.startswith(("Optional[", "typing.Optional[")) and text.endswith("]"):
        text = text[text.index("[") + 1:-1]
    return text


# An annotation naming a layer or model class (tf.keras.Model, keras.layers.Layer, tf.Module, a
# library's TFBertModel): the parameter holds the object, not a tensor.
_LAYER_ANNOTATION = re.compile(r"[\w.]*(?:Layer|Model|Module|Sequential)")


def _annotation_is_python(ann: ast.expr) -> bool | None:
    """True for Python-typed annotations (containers of tensors included), False for tensor ones,
    None when unknown."""
    text = ast.unparse(ann) if not isinstance(ann, ast.Name) else ann.id
    inner = _unwrap_optional(text)
    if inner.split("[", 1)[0] in _CONTAINER_ANNOTATIONS:
        return True  # a Python list/tuple/dict (of tensors or not): a Python container
    if any(w in text for w in ("Tensor", "ndarray", "TFModelInputType", "Array", "tf.", "np.")):
        return False
    words = [w for w in text.replace("[", " ").replace("]", " ").replace(",", " ").replace("|", " ")
             .replace(".", " ").split()]
    if words and all(w in _PY_TYPE_WORDS or w.endswith("Config") for w in words):
        return True
    return None


_PY_SCALARS = frozenset({"int", "float", "bool", "str"})
_TENSOR_WORDS = re.compile(r"Tensor|Array|ndarray|Variable|Layer|Model")
_ARRAY_WORDS = re.compile(r"Tensor|Array|ndarray")  # an annotation that says "a tensor", not a layer or model


def _python_literal(e: ast.expr) -> bool:
    """A literal other than None (``3``, ``-1``, ``(7, 7)``, ``"same"``)."""
    if isinstance(e, ast.Constant):
        return e.value is not None
    if isinstance(e, ast.UnaryOp):
        return _python_literal(e.operand)
    if isinstance(e, (ast.Tuple, ast.List)):
        return all(_python_literal(x) for x in e.elts)
    return False


def is_python(k: int) -> bool:
    """A Python value with evidence (not unknown, not a tensor, not a structure of tensors)."""
    return bool(k & PYTHON) and not k & (TENSOR | OPAQUE | PYLIST | LAYER | PARAM | SHAPE)


def _proven(k: int) -> bool:
    """A Python value with evidence or a tensor computed only from such values."""
    return is_python(k) or (bool(k & TENSOR and k & CONST) and not k & (DATA | PARAM | VARIABLE | RANDOM | LOOP
                                                                          | OPAQUE | DYNAMIC))


def is_constant_tensor(k: int) -> bool:
    """A tensor computed only from proven Python values (``tf.reduce_min((h, w))`` of ints): XLA
    folds its value at compile time, but AutoGraph stages an ``if`` on it as a tf.cond."""
    return is_tensor(k) and _proven(k)


VALUE_FLAGS = (TENSOR | SHAPE | DYNAMIC | BOOL | LOOP | RANDOM | PARAM | DATA | VARIABLE | CONST | OPAQUE
               | PYLIST | LAYER | OP | PYTHON)


# Words that open a docstring's description of a Python-typed argument ("num_heads: int, ...",
# "training (bool): ...", "sizes: A list of ints", "An integer, ...", "Python bool").
_DOC_ARG = re.compile(r"^\s*\*{0,2}(\w+)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$")
_DOC_PY_TYPES = re.compile(
    r"^(?:optional[, ]+)?(?:a |an |the )?(?:python |static |concrete )?(?:int|integer|float|bool|boolean|str|string|"
    r"list|tuple|dict|callable|function|sequence of int|list of int|tuple of int|number|positive int|"
    r"non-negative int|dtype|data format|config)\b", re.I)
_DOC_TENSOR = re.compile(r"tensor|array|ndarray", re.I)


def docstring_python_params(node: ast.AST) -> frozenset[str]:
    """Parameters whose docstring entry (Google/NumPy ``Args:`` style) says they are Python values."""
    body = getattr(node, "body", None)
    if not body or not isinstance(body[0], ast.Expr) or not isinstance(body[0].value, ast.Constant) \
            or not isinstance(body[0].value.value, str):
        return frozenset()
    out: set[str] = set()
    for line in body[0].value.value.splitlines():
        m = _DOC_ARG.match(line)
        if m is None:
            continue
        typ, text = (m.group(2) or "").strip().replace("`", ""), m.group(3).strip().replace("`", "")
        desc = typ or text
        if _DOC_PY_TYPES.match(desc) and not _DOC_TENSOR.search(desc.split(".")[0]):
            out.add(m.group(1))
    return frozenset(out)


def _member_default(default: ast.expr, enums: frozenset[str]) -> bool:
    """``NormalizationType.NORMAL``: a member of one of ``enums`` (names the module's code uses). A
    default is evaluated where the ``def`` is, so no local of the function shadows the class."""
    return bool(enums) and isinstance(default, ast.Attribute) and dotted(default.value) in enums


def param_flags(info: FunctionInfo, passed: dict[str, int] | None = None,
                nonnumeric_enums: frozenset[str] = frozenset()) -> dict[str, int]:
    """Flags of each parameter. Unknown is not a tensor: what compiled callers in this file pass
    (``passed``) where known; else a tensor only with evidence (a tensor annotation, a traced
    entry point, a Keras method), never against Python evidence (annotation, default, option
    names, the docstring). ``nonnumeric_enums``: the Enum classes whose members are no number
    that the module names (:func:`~xlacheck.analysis.compiled_exports.nonnumeric_enum_names`)."""
    node = info.node
    args = node.args
    positional = args.posonlyargs + args.args
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    pairs = list(zip(positional, defaults)) + list(zip(args.kwonlyargs, args.kw_defaults))
    out: dict[str, int] = {}
    jax_entry = info.jax and info.jit_entry  # every argument is traced, except the static ones
    # Evidence that a bare parameter holds a tensor (or a structure of tensors): a traced entry
    # (tf.function / jax.jit decorator or wrapper) or a Keras method the train step calls.
    entry = info.traced_args or info.jit_entry or info.keras_method
    documented = docstring_python_params(node) if not isinstance(node, ast.Lambda) else frozenset()
    for arg, default in pairs:
        name = arg.arg
        if passed is not None and name in passed:
            # a Python scalar annotation (`dim: int`) outranks what the callers seem to pass (a
            # parameter of theirs, an element of one), not a value they compute with an op
            # (`tf.reduce_min(dims)` handed to `shift_size: int` is a tensor: TFSwinLayer)
            scalar = arg.annotation is not None and _unwrap_optional(ast.unparse(arg.annotation)) in _PY_SCALARS
            computed = passed[name] & (OP | DATA | CONST | VARIABLE | RANDOM | SHAPE)
            out[name] = PYTHON if scalar and not computed else passed[name] & VALUE_FLAGS
            continue
        if info.loop_body and default is None and name not in ("self", "cls"):
            # a loop variable or an element of a staged loop (tf.while_loop body/cond, tf.map_fn fn):
            # TensorFlow passes it a tensor (or a structure of them) whose value changes per iteration
            out[name] = TENSOR | PARAM | OPAQUE | LOOP
            continue
        if name in info.static_params:  # jax static_argnums/argnames, functools.partial-bound
            out[name] = 0
            continue
        if name in info.structure_params:
            out[name] = TENSOR | PARAM | PYLIST  # a call site here passes it a list/tuple/dict (of tensors)
            continue
        if name in info.python_number_params:
            out[name] = 0  # a call site here passes a Python number: baked into the trace there, not a tensor
            continue
        if jax_entry:
            if default is not None and _python_literal(default) and not info.structure_params:
                # `def init(rng, batch, sizes=(1000, 500))` wrapped in jax.jit: a default the caller
                # leaves out is never traced (measured, jax 0.10: `jnp.zeros([dim])` from it compiles)
                out[name] = PYTHON
                continue
            if default is not None and _member_default(default, nonnumeric_enums):
                # `norm: Norm = Norm.NORMAL` with `class Norm(str, Enum)`: jax.jit refuses a str or a
                # non-numeric Enum member as an argument (TypeError, measured on jax 0.10.2), so in a
                # program that runs no call passes one there and the parameter holds its default
                out[name] = PYTHON
                continue
            # an array or a pytree of arrays (whose fields may be static metadata): proven by use
            out[name] = 0 if name in info.static_params or name in ("self", "cls") else TENSOR | PARAM | OPAQUE
            continue
        ann = arg.annotation
        py = _annotation_is_python(ann) if ann is not None else None
        if (py is True and ann is not None and not _TENSOR_WORDS.search(ast.unparse(ann))) or name in documented \
                or (name.endswith("config") and name != "self"):
            out[name] = PYTHON  # typed, documented or named as a Python value: proven
        elif py is True or name in PYTHON_PARAM_NAMES or name in _PY_NAMES or name.startswith(
                ("num_", "use_", "output_", "n_")) or name.endswith(_PY_NAME_SUFFIXES):
            # named (or typed with a container) as a Python option: not a tensor; proven a Python
            # value by a literal default (`use_gate=True`), unknown without one (a caller may pass
            # a tensor `training`)
            out[name] = PYTHON if default is not None and _python_literal(default) and py is not True else 0
        elif py is False and _LAYER_ANNOTATION.fullmatch(_unwrap_optional(ast.unparse(ann))):  # type: ignore[arg-type]
            # `model: tf.keras.Model`: a layer object; calling it gives tensors, its attributes are not
            out[name] = LAYER
        elif py is False:
            out[name] = TENSOR | PARAM
        elif default is not None and isinstance(default, (ast.Constant, ast.UnaryOp, ast.Tuple, ast.List, ast.Name,
                                                          ast.Attribute)):
            # literal/None/module-constant default: a Python value (proven by a non-None literal)
            out[name] = PYTHON if _python_literal(default) else 0
        elif info.jit_entry and not info.structure_params:
            out[name] = TENSOR | PARAM  # an explicit XLA entry (jit_compile=True) is called with tensors
        elif info.declared and info.cls is None and not info.structure_params:
            # a module-level function the jit-compiled declaration makes a compiled root: called with
            # tensors, as a tensor helper is (a method may be passed structures: caches, outputs);
            # not its keyword-only options or parameters annotated with a non-tensor type (`model:
            # nn.Module`), which callers bind to Python values (jax.jit's static_argnames)
            kwonly = any(arg is a for a in args.kwonlyargs)
            typed = ann is not None and not _ARRAY_WORDS.search(ast.unparse(ann))
            out[name] = 0 if kwonly or typed else TENSOR | PARAM
        elif entry:
            # a tensor or a structure of tensors (an XLA entry that a call site here passes a
            # structure is not only called with tensors)
            out[name] = TENSOR | PARAM | OPAQUE
        elif info.certainty is Certainty.MAYBE:
            # a module-level tensor helper nothing here calls (or a loss): its callers (elsewhere) pass
            # tensors unless the signature or the docstring says otherwise; rules fire in
            # helpers only for patterns that fail in every graph (Rule.in_helpers)
            out[name] = TENSOR | PARAM
        else:
            out[name] = 0  # unknown is not a tensor
    for pack in (args.vararg, args.kwarg):
        if pack is not None:  # a tuple / dict of what the callers pass there (known only from them)
            out[pack.arg] = passed[pack.arg] & VALUE_FLAGS if passed is not None and pack.arg in passed else 0
    return out


# Uses that only one array supports, never a tuple, list, dict or other structure of arrays
# (a Keras ``call`` argument or a ``jax.jit`` argument is "a tensor or a structure of tensors",
# OPAQUE, until its use says which): array attributes and methods, a subscript with a slice,
# ``...`` or ``None`` inside a tuple index (``x[:, 0]``, ``x[..., None]``), matrix products,
# arithmetic that sequences do not define, negation. Equally a Python number supports some of
# them, and OPAQUE already excludes numbers (arithmetic on an OPAQUE value proves a tensor).
_ARRAY_ONLY_ATTRS = frozenset({"shape", "dtype", "ndim", "T", "astype", "reshape", "get_shape", "set_shape",
                               "transpose", "squeeze", "flatten", "ravel", "at", "numpy"})
_ARRAY_ONLY_BINOPS = (ast.MatMult, ast.Sub, ast.Div, ast.Pow)


def _array_index(index: ast.expr) -> bool:
    return isinstance(index, ast.Tuple) and any(
        isinstance(i, ast.Slice) or (isinstance(i, ast.Constant) and i.value in (None, Ellipsis)) for i in index.elts)


# jax.numpy refuses a list or tuple where it takes an array (``check_arraylike``: "sum requires
# ndarray or scalar arguments, got <class 'list'>", measured on jax 0.10.2 for every array function
# tried); the converters take any structure. The API table says which argument the probing call
# passed first: a function whose first argument is an array (by its parameter name) proves it one.
_JAX_ARRAY_PARAMS = frozenset({"array", "a", "x", "x1", "a1", "ar", "ar1", "arr", "ary", "m", "v", "z", "A", "y",
                               "condition", "element", "prototype", "filt"})
_JAX_CONVERTERS = frozenset({"jnp.asarray", "jnp.array", "jnp.ascontiguousarray", "jnp.asanyarray"})


def _jax_array_first_arg(name: str | None) -> bool:
    if name is None or not name.startswith("jnp.") or name in _JAX_CONVERTERS:
        return False
    fact = api_table.fact_for(name)
    if fact is None or fact.returns != "tensor" or fact.returns_by != "call" or not fact.called_with:
        return False
    return fact.called_with[0] in _JAX_ARRAY_PARAMS and fact.called_with[0] not in fact.const_args


def array_evidence(node: ast.AST, resolve: Callable[[ast.expr], str | None] | None = None,
                   members: frozenset[str] | None = None) -> frozenset[str]:
    """Names of ``node`` (a function) that its own body uses as one array (:data:`_ARRAY_ONLY_ATTRS`,
    a tuple index with a slice, ``@``, ``-``, ``/``, ``**``, unary ``-``/``~``, the first argument of
    a ``jax.numpy`` array function: :func:`_jax_array_first_arg`) and binds so that
    every use sees the same value: a parameter never rebound, or a local bound once. Such a name
    holds a tensor, not a structure of tensors (the runtime, tools/measure_value_model.py: the
    parameters and layer outputs the model left "tensor or structure" held a symbolic tensor).
    ``members``: every public member name of a measured kind of tensor (:func:`api_table.
    tensor_member_names`, files without torch); a name whose body also reads a public member
    outside it (``prob.is_fused`` beside ``prob.ndim``: ott's problem objects have an ``ndim`` too)
    is an object with array-like members, not an array, whatever else it is used as."""
    used: set[str] = set()
    stores: dict[str, int] = {}
    objects: set[str] = set()
    todo: list[ast.AST] = [node.body] if isinstance(node, ast.Lambda) else list(getattr(node, "body", []))
    while todo:
        n = todo.pop()
        t = type(n)
        if t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda):
            continue
        if t is ast.Name:
            if not isinstance(n.ctx, ast.Load):  # type: ignore[attr-defined]
                stores[n.id] = stores.get(n.id, 0) + 1  # type: ignore[attr-defined]
        elif t is ast.Attribute:
            if n.attr in _ARRAY_ONLY_ATTRS and type(n.value) is ast.Name:  # type: ignore[attr-defined]
                used.add(n.value.id)  # type: ignore[attr-defined]
            elif members is not None and type(n.value) is ast.Name:  # type: ignore[attr-defined]
                attr: str = n.attr  # type: ignore[attr-defined]
                if not attr.startswith("_") and attr not in members:
                    objects.add(n.value.id)  # type: ignore[attr-defined]
        elif t is ast.Subscript:
            if type(n.value) is ast.Name and _array_index(n.slice):  # type: ignore[attr-defined]
                used.add(n.value.id)  # type: ignore[attr-defined]
        elif t is ast.BinOp:
            if isinstance(n.op, _ARRAY_ONLY_BINOPS):  # type: ignore[attr-defined]
                for side in (n.left, n.right):  # type: ignore[attr-defined]
                    if type(side) is ast.Name:
                        used.add(side.id)
        elif t is ast.UnaryOp:
            if isinstance(n.op, (ast.USub, ast.Invert)) and type(n.operand) is ast.Name:  # type: ignore[attr-defined]
                used.add(n.operand.id)  # type: ignore[attr-defined]
        elif t is ast.Call:
            call: ast.Call = n  # type: ignore[assignment]
            first = call.args[0] if call.args else None
            if type(first) is ast.Name and resolve is not None and _jax_array_first_arg(resolve(call.func)):
                used.add(first.id)
        elif t in (ast.Global, ast.Nonlocal):
            for name in n.names:  # type: ignore[attr-defined]
                stores[name] = 2  # bound elsewhere too
        todo.extend(ast.iter_child_nodes(n))
    params: set[str] = set()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        a = node.args
        params = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
    return frozenset(name for name in used - objects if stores.get(name, 0) == (0 if name in params else 1))


def _calls_a_layer(func: ast.expr) -> bool:
    """A call that runs the layer the method belongs to: ``super().__call__(...)``, ``super().call(...)``,
    ``self(...)``, ``self.__call__(...)``/``self.call(...)``: its output, a tensor (or a structure of them)."""
    if isinstance(func, ast.Name):
        return func.id == "self"
    if not isinstance(func, ast.Attribute) or func.attr not in CALL_METHODS:
        return False
    recv = func.value
    return isinstance(recv, ast.Name) and recv.id == "self" or isinstance(recv, ast.Call) and isinstance(
        recv.func, ast.Name) and recv.func.id == "super"


def _names_a_class(func: ast.expr) -> bool:
    """Whether a callee's own name is a class's by PEP 8 (CapWords: ``Block``, ``layers.MyDense``, ``MLP``)."""
    last = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return last[:1].isupper()


def without_opaque(flags: int) -> int:
    """A tensor-or-structure (OPAQUE) that a use proved one tensor: a tensor. One that is no parameter
    (what a layer or a function of the file returned) keeps its provenance as DATA: OPAQUE alone made a
    reduction of it data-dependent (``_generic_op``), and reading ``h.dtype`` must not undo that."""
    if flags & OPAQUE and flags & TENSOR and not flags & (PYLIST | LAYER):
        return (flags & ~OPAQUE) | (0 if flags & PARAM else DATA)
    return flags


class ValueEnv:
    """Name -> flags for one function, updated statement by statement by the walker."""

    __slots__ = ("aliases", "env", "cls", "converted", "staged", "node", "_memo", "_self_memo", "_class_by_name",
                 "_dtypes", "reducers", "static_fields", "leaf_fields", "plain_enums", "given_dtypes")

    def __init__(self, aliases: AliasTable, cls: ClassInfo | None, env: dict[str, int] | None = None,
                 node: ast.AST | None = None) -> None:
        self.aliases = aliases
        self.cls = cls
        self.node = node  # the function walked (its local bindings prove dtypes)
        self._dtypes: DtypeModel | None = None
        self.converted = False  # AutoGraph converts the function: `a if t else b` on a tensor is a tf.cond
        # JAX traces the function (jax.jit, a lax body): every jnp/lax op is staged into the jaxpr, so
        # its result is a tracer even of Python ints (measured, jax 0.10.2: `jnp.arange(jnp.log2(8))`,
        # `jnp.zeros(jnp.array(3))`, `int(jnp.sqrt(4.0))` all fail under jax.jit); XLA folds nothing
        # back into a Python value, unlike TF's constant tensors
        self.staged = False
        self.env: dict[str, int] = dict(env) if env else {}
        self._memo: dict[int, int] = {}
        self._self_memo: dict[str, int] = {}
        # module-level functions of this file that return one reduction of their inputs
        # (:func:`reduction_functions`): a call of one is a data-derived tensor
        self.reducers: Reducers = NO_REDUCERS
        # fields of pytrees of this file declared static: Python values on any object (analysis.pytrees)
        self.static_fields: frozenset[str] = frozenset()
        # scalar fields of NamedTuples of this file: leaves, so tracers on a traced tree (analysis.pytrees)
        self.leaf_fields: frozenset[str] = frozenset()
        # plain Enum classes (of this file, imported from another module of the project, or a module-level
        # alias of one) by the dotted name the code uses: ``BCType``, ``utils.BCType``
        self.plain_enums: frozenset[str] = frozenset()
        # dtypes proven outside the function for names it reads and does not bind: what every compiled
        # caller here passes a parameter, a free variable's in the enclosing function (analysis.dtypes)
        self.given_dtypes: dict[str, str] = {}

    def invalidate(self) -> None:
        if self._memo:
            self._memo.clear()

    # -- self attributes -------------------------------------------------------------------
    def self_attr(self, attr: str) -> int:
        cached = self._self_memo.get(attr)
        if cached is not None:
            return cached
        flags = 0
        if self.cls is not None:
            value = self.cls.attrs.get(attr)
            if value is not None:
                flags = self._init_value_flags(value)
            walked = self.cls.walked_attrs.get(attr)
            if walked is not None and walked & TENSOR and not flags & (LAYER | VARIABLE):
                flags = walked  # a tensor a compiled method stored (`self.hidden = tf.nn.relu(x)` in call)
        self._self_memo[attr] = flags
        return flags

    def _init_value_flags(self, value: ast.expr, depth: int = 0) -> int:
        """Flags of a value assigned to ``self.<attr>`` in __init__/build (evaluated without env;
        a name is read from the method's Python-typed parameters or its one local assignment)."""
        if isinstance(value, ast.IfExp):  # `self.bias = self.add_weight(...) if use_bias else None`
            return _either(self._init_value_flags(value.body, depth), self._init_value_flags(value.orelse, depth))
        if isinstance(value, ast.Constant) or (isinstance(value, (ast.Tuple, ast.List)) and _python_literal(value)):
            return PYTHON
        if isinstance(value, ast.UnaryOp):
            return self._init_value_flags(value.operand, depth) & ~(PYLIST | LAYER)
        if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and (
                value.value.id == "config" or value.value.id in self.aliases.names):
            return PYTHON  # config.hidden_size, a module constant
        if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Attribute) and isinstance(
                value.value.value, ast.Name) and value.value.value.id == "self" and value.value.attr == "config":
            return PYTHON  # self.config.window_size
        if isinstance(value, ast.Name) and depth < 3:
            return self._init_name_flags(value, depth)
        if isinstance(value, ast.Tuple) and depth < 3 and value.elts:
            ks = [self._init_value_flags(x, depth + 1) for x in value.elts]
            if all(is_python(k) for k in ks):
                return PYTHON
        if isinstance(value, (ast.List, ast.Tuple, ast.ListComp)):
            inner = value.elt if isinstance(value, ast.ListComp) else (value.elts[0] if value.elts else None)
            return PYLIST | (self._init_value_flags(inner, depth + 1) if inner is not None else 0)
        if isinstance(value, ast.Call):
            name = self.aliases.resolve(value.func)
            if name is None:
                if isinstance(value.func, ast.Attribute) and value.func.attr == "add_weight":
                    return TENSOR | VARIABLE
                if _calls_a_layer(value.func) or depth < 3 and isinstance(value.func, ast.Attribute) and isinstance(
                        value.func.value, ast.Name) and value.func.value.id == "self" and self._init_attr_flags(
                        value.func.attr, depth + 1) & LAYER:
                    return TENSOR | OPAQUE  # what a layer call returns: its output, not a layer
                # a class (PEP 8 names classes in CapWords) builds an object called later (a layer, a
                # helper); what any other unresolved call returns is unknown, not a layer
                return LAYER if _names_a_class(value.func) else 0
            if name in ("tf.Variable",):
                return TENSOR | VARIABLE
            if name.startswith("tf.keras") or name.startswith("tf.lookup"):
                return LAYER
            if name.startswith("tf.") and not name.startswith("tf.keras"):
                args = list(value.args) + [kw.value for kw in value.keywords]
                if depth < 3 and all(_proven(self._init_value_flags(a, depth + 1)) for a in args):
                    return TENSOR | CONST  # an op of proven Python values: a constant tensor
                return TENSOR | OP  # an op of values of unknown provenance
        return 0

    def _init_attr_flags(self, attr: str, depth: int) -> int:
        """:meth:`self_attr` from within :meth:`_init_value_flags` (depth-bounded: ``self.a = self.a(x)``)."""
        value = self.cls.attrs.get(attr) if self.cls is not None else None
        return self._init_value_flags(value, depth) if value is not None else 0

    def _init_name_flags(self, name: ast.Name, depth: int) -> int:
        """A name in the method that assigns ``self.<attr>``: a Python-typed parameter, or the one
        local assignment of it (evaluated the same way)."""
        method = self._method_of(name)
        if method is None:
            return 0
        params = param_flags(method)
        if name.id in params:
            return params[name.id] & PYTHON
        found: ast.expr | None = None
        for node in ast.walk(method.node):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and node.targets[0].id == name.id:
                if found is not None:
                    return 0  # assigned twice: which value reaches the attribute is not known here
                found = node.value
            elif isinstance(node, (ast.AugAssign, ast.For, ast.With, ast.NamedExpr)) and name.id in {
                    n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}:
                return 0
        return self._init_value_flags(found, depth + 1) if found is not None else 0

    def _method_of(self, node: ast.AST) -> FunctionInfo | None:
        line = getattr(node, "lineno", 0)
        assert self.cls is not None
        for info in self.cls.methods.values():
            n = info.node
            if n.lineno <= line <= (n.end_lineno or n.lineno):
                return info
        return None

    # -- dtypes ----------------------------------------------------------------------------
    def dtype(self, e: ast.AST | None) -> str | None:
        """The proven TensorFlow dtype of ``e`` (``"int8"``), or None when not proven
        (:mod:`xlacheck.analysis.dtypes`)."""
        if self._dtypes is None:
            self._dtypes = DtypeModel(self.node, self.aliases.resolve, lambda side: bool(self.flags(side) & TENSOR),
                                      self.cls.node if self.cls is not None else None, self.given_dtypes)
        return self._dtypes.dtype(e)

    def name_dtype(self, name: str, line: int, col: int) -> str | None:
        """The proven dtype of ``name`` read at (``line``, ``col``) of the function: what a nested
        function defined there sees of it."""
        self.dtype(None)  # builds the model
        assert self._dtypes is not None
        return self._dtypes.name_dtype(name, line, col)

    # -- expressions -----------------------------------------------------------------------
    def flags(self, e: ast.AST | None) -> int:
        if e is None:
            return 0
        key = id(e)
        memo = self._memo
        got = memo.get(key)
        if got is not None:
            return got
        res = self._flags(e)
        memo[key] = res
        return res

    def _flags(self, e: ast.AST) -> int:
        t = type(e)
        if t is ast.Name:
            return self.env.get(e.id, 0)  # type: ignore[attr-defined]
        if t is ast.Constant:
            return PYTHON
        if t is ast.Attribute:
            if e.attr in _TENSOR_PYTHON_ATTRS and self.flags(e.value) & TENSOR:  # type: ignore[attr-defined]
                return PYTHON  # `rt.ragged_rank`, `v.trainable`: a Python value while tracing (measured)
            if e.attr in STATIC_ATTRS:  # type: ignore[attr-defined]
                return PYTHON if e.attr in _PROVEN_STATIC_ATTRS else 0  # type: ignore[attr-defined]
            if e.attr in _VARIABLE_LIST_ATTRS:  # type: ignore[attr-defined]
                return TENSOR | VARIABLE | PYLIST  # model.trainable_weights: a Python list of variables
            base = e.value  # type: ignore[attr-defined]
            if type(base) is ast.Name:
                if base.id == "self":
                    return self.self_attr(e.attr)  # type: ignore[attr-defined]
                if base.id in self.aliases.names:
                    return PYTHON  # module attribute: tf.float32, np.pi, config module constant
            if e.attr in self.static_fields:  # type: ignore[attr-defined]
                return PYTHON  # `state.temperature`, a `struct.field(pytree_node=False)`: not a tracer
            k = self.flags(base) & ~(LAYER | PYLIST | PYLIST_EMPTY | BOOL)
            leaf = e.attr in self.leaf_fields  # type: ignore[attr-defined]
            if self.staged and leaf and k & TENSOR and k & (PARAM | LOOP):
                # `layer.inference` of a NamedTuple a jitted function or a scan body takes: one leaf tracer
                return without_opaque(k)
            return k
        if t is ast.Call:
            return self._call(e)  # type: ignore[arg-type]
        if t is ast.BinOp:
            left, right = self.flags(e.left), self.flags(e.right)  # type: ignore[attr-defined]
            k = left | right
            if k & PYLIST and not k & TENSOR:
                return k
            return _operands(_combine(k), left, right)
        if t is ast.UnaryOp:
            k = self.flags(e.operand)  # type: ignore[attr-defined]
            if isinstance(e.op, ast.Not):  # type: ignore[attr-defined]
                return 0 if k & (PYLIST | PYLIST_EMPTY) or not k & TENSOR else k | BOOL
            return k
        if t is ast.Compare:
            if any(type(op) in (ast.Is, ast.IsNot) for op in e.ops):  # type: ignore[attr-defined]
                return 0
            if any(type(op) in (ast.In, ast.NotIn) for op in e.ops):  # type: ignore[attr-defined]
                # `k in d`: a Python bool unless the container is a proven tensor
                left, ops, comparators = e.left, e.ops, e.comparators  # type: ignore[attr-defined]
                if type(left) is ast.Constant and type(left.value) is str and len(ops) == 1 and (
                        self.staged or not self.flags(comparators[0]) & (OP | DATA)):
                    # `"_sampled_" in k`: a substring or key test. JAX arrays hold no strings, and a
                    # string tensor only an op makes (tf.strings), so the container is a Python value
                    return 0
                k = 0
                for c in e.comparators:  # type: ignore[attr-defined]
                    ck = self.flags(c)
                    if is_tensor(ck):
                        k |= ck | self.flags(e.left)  # type: ignore[attr-defined]
                    elif ck & PYLIST and ck & TENSOR and is_tensor(
                            lk := self.flags(e.left)):  # type: ignore[attr-defined]
                        # `v in tf.compat.v1.trainable_variables()`: `in` asks the truth of `v == item`, which
                        # for tensors and variables in a tf.function (TF2) or under jax.jit is a symbolic
                        # tensor (OperatorNotAllowedInGraphError, measured on TF 2.21; a TF1 graph compares
                        # variables by identity)
                        k |= (ck & ~PYLIST) | lk
                return _combine(k) | BOOL if k else 0
            parts = [self.flags(e.left)] + [self.flags(c) for c in e.comparators]  # type: ignore[attr-defined]
            sides = (e.left, *e.comparators)  # type: ignore[attr-defined]
            if any(type(c) is ast.Constant and type(c.value) is str for c in sides) \
                    and not any(pk & (OP | DATA) for pk in parts):
                return 0  # `mode == 'sum'`: an option compared with its name (no op made a string tensor)
            if self.plain_enums and not any(pk & (OP | DATA) for pk in parts) and any(
                    self._enum_member(c) for c in sides):
                # `bc_type == BCType.NEUMANN`: a plain Enum member converts to no tensor (TF and JAX raise
                # on it), so in code that runs the other side is a Python value too
                return 0
            if not any(is_tensor(pk) for pk in parts) and any(self._framework_object(c) for c in sides):
                # `path[-1] == jax.tree_util.DictKey("kernel")`, `spec == tf.TensorSpec(...)`: a key, a
                # spec or a mesh that the framework built is no array, so neither is what is compared
                # with it (a tensor-or-structure here is the structure)
                return 0
            listed = self._listed_tensor(e)  # type: ignore[arg-type]
            if listed:
                return _combine(listed & ~PYLIST) | BOOL
            k = 0
            for pk in parts:
                k |= pk
            unknown = [pk for pk in parts if pk & TENSOR and not pk & PYLIST]
            if unknown and all(is_unknown_result(pk) for pk in unknown):
                # `prob.fused_penalty == fused_penalty`: Python defines `==` and `<` on numbers, tuples
                # and objects as well as arrays, so a comparison of values of unknown kind (what a
                # function of another module returns, and its members) is of unknown kind too
                return TENSOR | OPAQUE | BOOL
            k = _operands(_combine(k & ~PYLIST), *parts)
            return k | BOOL if k & TENSOR else k
        if t is ast.BoolOp:
            return self._bool_op(e)  # type: ignore[arg-type]
        if t is ast.IfExp:
            body, orelse = self.flags(e.body), self.flags(e.orelse)  # type: ignore[attr-defined]
            k = _either(body, orelse)
            tk = self.flags(e.test)  # type: ignore[attr-defined]
            if self.converted and is_tensor(tk):
                # AutoGraph stages it as tf.cond: the result is the cond's output, a tensor; its
                # value depends on data when the predicate does (XLA folds a constant predicate):
                # a constant tensor when the predicate and both values are proven constants
                k = (k & ~(PYLIST | PYLIST_EMPTY | LAYER | OPAQUE | PYTHON)) | TENSOR | OP
                if tk & (DATA | PARAM | RANDOM | VARIABLE | LOOP):
                    k = (k & ~CONST) | DATA
                elif _proven(tk) and _proven(body) and _proven(orelse):
                    k |= CONST
                else:
                    k &= ~CONST
                return k
            return k
        if t is ast.Subscript:
            return self._subscript(e)  # type: ignore[arg-type]
        if t is ast.List or t is ast.Tuple or t is ast.Set:
            parts = [self.flags(elt) for elt in e.elts]  # type: ignore[attr-defined]
            k = 0
            for pk in parts:
                k |= pk
            if not e.elts and t is ast.List:  # type: ignore[attr-defined]
                return PYLIST | PYLIST_EMPTY
            k = _operands(k, *parts) if e.elts else PYTHON  # type: ignore[attr-defined]
            return (k | PYLIST) if k & (TENSOR | LAYER) else k
        if t is ast.ListComp or t is ast.GeneratorExp or t is ast.SetComp:
            k = self._comprehension(e, e.elt)  # type: ignore[attr-defined]
            return (k & _PASS_FLAGS) | PYLIST if k & TENSOR else 0
        if t is ast.DictComp:
            k = self._comprehension(e, e.value)  # type: ignore[attr-defined]
            return PYLIST | (k & _PASS_FLAGS) if k & TENSOR else 0
        if t is ast.Dict:
            k = 0
            for v in e.values:  # type: ignore[attr-defined]
                k |= self.flags(v)
            return PYLIST | (k & _PASS_FLAGS) if k & TENSOR else 0
        if t is ast.Starred:
            return self.flags(e.value)  # type: ignore[attr-defined]
        if t is ast.NamedExpr:
            k = self.flags(e.value)  # type: ignore[attr-defined]
            self.env[e.target.id] = k  # type: ignore[attr-defined]
            return k
        if t is ast.Slice:
            return self.flags(e.lower) | self.flags(e.upper) | self.flags(e.step)  # type: ignore[attr-defined]
        return 0

    def _bool_op(self, e: ast.BoolOp) -> int:
        """The flags of ``a and b``/``a or b``. Python evaluates an operand only when the ones before it
        let it: after ``isinstance(x, dict) and`` (or ``not isinstance(x, dict) or``), ``x`` is a
        Python value, so ``key in x`` there is a Python bool; a tracer fails the ``isinstance`` and
        short-circuits (sbx's ``params1[key] if isinstance(params1, dict) and key in params1``)."""
        k = 0
        saved: dict[str, int | None] = {}
        for v in e.values:
            vk = self.flags(v)
            if not vk & (PYLIST | PYLIST_EMPTY):  # the truth of a list is a Python bool
                k |= vk
            guard = v.operand if isinstance(e.op, ast.Or) and isinstance(v, ast.UnaryOp) \
                and isinstance(v.op, ast.Not) else v if isinstance(e.op, ast.And) else None
            for name, kind in python_type_guard(guard):
                saved.setdefault(name, self.env.get(name))
                self.env[name] = (self.env.get(name, 0) & ~TENSOR) | PYLIST if kind == "sequence" else PYTHON
                self._memo.clear()
        if saved:
            self._restore(saved)
        return k & _PASS_FLAGS

    def _restore(self, saved: dict[str, int | None]) -> None:
        """Put back the bindings a narrowing or a comprehension overrode (None: the name was unbound)."""
        for name, old in saved.items():
            if old is None:
                self.env.pop(name, None)
            else:
                self.env[name] = old
        self._memo.clear()

    def _comprehension(self, e: ast.AST, elt: ast.expr) -> int:
        saved: dict[str, int | None] = {}
        for gen in e.generators:  # type: ignore[attr-defined]
            for name, k in self.target_bindings(gen.target, gen.iter):
                if name not in saved:
                    saved[name] = self.env.get(name)
                self.env[name] = k
        self._memo.clear()
        res = self.flags(elt)
        self._restore(saved)
        return res

    def target_bindings(self, target: ast.expr, it: ast.expr) -> list[tuple[str, int]]:
        """(name, flags) for each name a for-target binds when iterating over ``it``."""
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(it, ast.Call) and isinstance(it.func, ast.Name):
            elts = target.elts
            if it.func.id == "enumerate" and len(elts) == 2 and it.args:
                return [(n, 0) for n in target_names(elts[0])] + [
                    (n, self.element_flags(it.args[0])) for n in target_names(elts[1])]
            if it.func.id == "zip" and len(elts) == len(it.args):
                out: list[tuple[str, int]] = []
                for sub, arg in zip(elts, it.args):
                    k = self.element_flags(arg)
                    out.extend((n, k) for n in target_names(sub))
                return out
        k = self.element_flags(it)
        if isinstance(target, (ast.Tuple, ast.List)):
            k &= ~(PYLIST | PYLIST_EMPTY)
        return [(n, k) for n in target_names(target)]

    def element_flags(self, it: ast.expr) -> int:
        """Flags of the items obtained by iterating over ``it`` (for-loops, comprehensions)."""
        if isinstance(it, ast.Call):
            name = self.aliases.resolve(it.func)
            if name in ("tf.range",):
                return TENSOR | LOOP | (self.flags(it) & (DATA | PARAM))
            if isinstance(it.func, ast.Name) and it.func.id in ("range",):
                return 0
            if isinstance(it.func, ast.Name) and it.func.id in ("zip", "enumerate", "reversed", "sorted"):
                k = 0
                for a in it.args:
                    k |= self.element_flags(a)
                return k | (PYLIST if k & TENSOR else 0)
        k = self.flags(it)
        if k & PYLIST:
            return k & ~(PYLIST | PYLIST_EMPTY)
        return k & ~INTCAST  # items of a tensor-or-structure (OPAQUE) are tensors-or-structures

    def _subscript(self, e: ast.Subscript) -> int:
        base = self.flags(e.value)
        if base & PYLIST:
            return base & ~(PYLIST | PYLIST_EMPTY)
        if base & SHAPE and not base & DATA:
            return base
        if not base & TENSOR:
            return base
        if not base & (OP | OPAQUE | VARIABLE | DATA) and type(e.slice) is ast.Constant \
                and type(e.slice.value) is str:
            # a string key: the parameter taken for a tensor is a mapping (an Estimator model_fn's
            # `params`, a features dict), its item a tensor or a Python value (`params['use_tpu']`)
            return base | OPAQUE
        idx = self.flags(e.slice)
        if idx & BOOL and idx & TENSOR and not isinstance(e.slice, (ast.Slice, ast.Tuple)):
            return (base | DYNAMIC | DATA) & ~BOOL
        return base & ~INTCAST

    def _call(self, e: ast.Call) -> int:
        f = e.func
        name = self.aliases.resolve(f)
        if name is not None:
            return self._named_call(name, e)
        if type(f) is ast.Name:
            fid = f.id
            if fid in ("len",):
                return SHAPE if self.flags(e.args[0]) & TENSOR else 0 if e.args else 0
            if fid in ("int", "float") and e.args:
                k = self.flags(e.args[0])
                if k & OPAQUE:
                    return 0  # int() of a tensor-or-structure: a Python number unless proven otherwise
                if k & TENSOR and not (k & SHAPE and not k & DATA):
                    return (k & _PASS_FLAGS) | (INTCAST if fid == "int" else 0)
                return k & SHAPE
            if fid == "bool" and e.args:
                k = self.flags(e.args[0])
                return k | BOOL if k & TENSOR else 0
            if fid in ("isinstance", "hasattr", "getattr", "callable", "type", "str", "repr", "id", "range", "print"):
                return 0
            if fid in ("list", "tuple", "zip", "enumerate", "sorted", "reversed"):
                k = 0
                for a in e.args:
                    k |= self.flags(a)
                return k | (PYLIST if k & (TENSOR | LAYER) else 0)
            if fid in ("max", "min", "sum", "abs", "round"):
                k = 0
                for a in e.args:
                    k |= self.flags(a)
                return _combine(k & ~PYLIST) if k & TENSOR else k & ~PYLIST
            fk = self.env.get(fid, 0)
            if fk & LAYER:
                return TENSOR | OPAQUE
        elif type(f) is ast.Attribute:
            recv = f.value
            if self.reducer_key(f) in self.reducers.whole and (k := self._args_flags(e)) & TENSOR:
                # a method of this class that returns a reduction of its inputs (`self.count(x)`,
                # not list.count)
                return TENSOR | OP | DATA | (k & (LOOP | RANDOM))
            if f.attr.endswith("shape") or f.attr in _PYTHON_METHODS:
                return 0  # get_shape(), batch_shape(): static facts; host copies and dict/list/str methods
            if f.attr in _TENSOR_PYTHON_METHODS and self.flags(recv) & TENSOR:
                return PYTHON  # `v.ref()`: the hashable reference that keys a Python dict or set (measured)
            if f.attr in _SHAPE_METHODS and self.flags(recv) & TENSOR:
                return TENSOR | SHAPE  # rt.nrows(): a dimension of the ragged tensor, not its values
            if type(recv) is ast.Name and recv.id == "self":
                if self.self_attr(f.attr) & LAYER:
                    return TENSOR | OPAQUE
            else:
                rk = self.flags(recv)
                if rk & TENSOR and not rk & (PYLIST | LAYER) and self._not_a_tensor_method(f.attr):
                    pass  # `rng.random()`: no tensor has this method, so the receiver is another object
                elif rk & TENSOR and not rk & PYLIST:
                    # a method of an array: a Python list among its arguments (`x.at[i].set([a, b])`)
                    # does not make the result one
                    k = _combine(rk | (self._args_flags(e) & ~(PYLIST | PYLIST_EMPTY))) & ~(BOOL | INTCAST)
                    if f.attr == "astype" and len(e.args) == 1 and names_bool(e.args[0], self.aliases.resolve):
                        k |= BOOL  # `m.astype(bool)`: a boolean array, a mask as an index
                    return k
                if rk & LAYER:
                    return TENSOR | OPAQUE
        k = self._args_flags(e)
        if type(f) is ast.Name and f.id == "self":
            return TENSOR | OPAQUE
        if k & TENSOR and self.reducer_key(f) in self.reducers.whole:
            # a helper here that returns a count, an extreme or a position of its inputs' values
            return TENSOR | OP | DATA | (k & (LOOP | RANDOM))
        if self.staged and self.reducer_key(f) in self.reducers.jax_ops:
            # a helper here whose every return is a JAX op's result: under jax.jit, a tracer
            return TENSOR | OP | (k & (PARAM | LOOP | RANDOM))
        if k & TENSOR:
            whole = self.static_returns(e).get(-1)
            if whole is not None:
                return whole  # a helper here that returns a shape value (:func:`static_returns`)
            # A user function of tensors: a tensor or a structure (values, shapes, counts mixed),
            # so its result is not treated as data-derived, nor as random when an argument is: a
            # helper of a noised tensor returns its shape as often as values (pix2seq shape_as_list).
            return TENSOR | OPAQUE
        return 0

    def static_returns(self, e: ast.expr | None) -> Mapping[int, int]:
        """What a call ``e`` of a function of this file returns that is a static fact, by tuple
        position (:func:`static_returns`); empty for anything else."""
        if not isinstance(e, ast.Call):
            return {}
        key = self.reducer_key(e.func)
        return self.reducers.shapes.get(key, {}) if key is not None else {}

    def _not_a_tensor_method(self, attr: str) -> bool:
        """No measured kind of TensorFlow/JAX tensor has a member ``attr`` (``xlacheck/data/
        tensor_members.json``): a receiver flagged a tensor (a parameter of compiled code) that is
        called with it is another object, a NumPy ``Generator`` or a config. Not decided in files
        that import torch (torch tensors are not in the table) nor for private or dunder names."""
        return not attr.startswith("_") and "torch" not in self.aliases.frameworks and \
            attr not in TENSOR_MEMBER_NAMES

    def _listed_tensor(self, e: ast.Compare) -> int:
        """The flags of the tensors a list or tuple display holds when Python's ``==``/``!=`` of it
        must ask a tensor for its truth: sequence equality compares element by element and calls
        ``bool()`` on each result, and an element comparison with a tensor is an elementwise tensor.
        So ``assert shape_list(m) == [bs, tf.reduce_max(lengths)]`` raises "Using a symbolic
        tf.Tensor as a Python bool" in every tf.function, AutoGraph on or off, even when the result
        is never used (measured, TF 2.21). 0 unless one ``==``/``!=`` compares a display holding a
        computed tensor (not a bare parameter, not a shape entry that may be an int) with something
        that is not a display of another length (then Python answers False without comparing)."""
        if len(e.ops) != 1 or type(e.ops[0]) not in (ast.Eq, ast.NotEq):
            return 0
        sides = (e.left, e.comparators[0])
        k = 0
        for side, other in (sides, sides[::-1]):
            if type(side) not in (ast.List, ast.Tuple):
                continue
            if type(other) in (ast.List, ast.Tuple) and len(other.elts) != len(side.elts):  # type: ignore[attr-defined]
                return 0
            if any(type(elt) is ast.Starred for elt in side.elts):  # type: ignore[attr-defined]
                return 0
            for elt in side.elts:  # type: ignore[attr-defined]
                ek = self.flags(elt)
                if is_computed_tensor(ek) and not ek & OPAQUE:
                    k |= ek
        return k

    def _enum_member(self, e: ast.expr) -> bool:
        """``Mode.TRAIN``, ``utils.BCType.NEUMANN``: a member of a plain Enum class (:attr:`plain_enums`),
        the class not shadowed by a local."""
        if not isinstance(e, ast.Attribute):
            return False
        name = dotted(e.value)
        return name is not None and name.partition(".")[0] not in self.env and name in self.plain_enums

    def _framework_object(self, e: ast.expr) -> bool:
        """A call of a framework name (``jax.*``, ``tf.*``, ``keras.*``) whose result the API tables
        do not make an array or a tensor: a key path entry, a spec, a mesh, a device."""
        if type(e) is not ast.Call:
            return False
        name = self.aliases.resolve(e.func)
        return name is not None and name.startswith(_FRAMEWORK_OBJECT_HEADS) and not self.flags(e) & TENSOR

    def reducer_key(self, f: ast.expr) -> str | None:
        """The key of :class:`Reducers` a call of ``f`` names: a module-level function of this file
        by its bare name (not shadowed by a local), or a method of this class as ``self.method``."""
        if isinstance(f, ast.Name):
            return f.id if f.id not in self.env else None
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self" \
                and self.cls is not None and f.attr in self.cls.methods:
            return f"{self.cls.node.name}.{f.attr}"
        return None

    def _args_flags(self, e: ast.Call) -> int:
        k = 0
        for a in e.args:
            k |= self.flags(a)
        for kw in e.keywords:
            k |= self.flags(kw.value)
        return k

    def _named_call(self, name: str, e: ast.Call) -> int:
        if name in PY_SHAPE_FUNCS:
            return SHAPE
        if name in SHAPE_FUNCS:
            return TENSOR | SHAPE
        if name in _LOOP_RESULT_FUNCS:
            # the outputs of a staged loop (a While op): computed by the iterations, never a
            # compile-time constant even when every input is one (TF 2.21: the counter a
            # tf.while_loop returns, used as a size, fails with "must be a compile-time constant");
            # a tensor or a structure of them (the loop variables)
            return TENSOR | OPAQUE | OP | LOOP | (self._args_flags(e) & RANDOM)
        head = name.split(".", 1)[0]
        if head not in ("tf", "tnp", "jnp", "jax", "torch", "transformers"):
            if head == "np" or head in _STDLIB:
                return 0  # a NumPy array (static when its inputs are); re/math/os return Python values
            # a function of another module (the project's own, a third-party library): a tensor or
            # a structure, whose data-dependence and randomness are unknown (a shape_list() of a
            # noised tensor returns static shapes)
            k = self._args_flags(e)
            return TENSOR | OPAQUE if k & TENSOR else 0
        fact = api_table.fact_for(name)
        if fact is not None and fact.returns_by in _TRUSTED_BY:
            if fact.returns == "python":
                return 0  # measured: a Python value at trace time (K.ndim, tf.is_tensor, jnp.shape)
            if fact.returns == "static_shape":
                return SHAPE  # a TensorShape / tuple of ints (K.int_shape, keras.ops.shape)
        if name in _PYTHON_VALUED or name.startswith(_PYTHON_VALUED_PREFIXES):
            return 0
        if name in CONSTANT_FOLDING_COLLECTIVES and e.args:
            first = e.args[0]
            k0 = self.flags(first)
            if not k0 & TENSOR and (isinstance(first, ast.Constant) or k0 & PYTHON):
                return 0  # psum(1, axis) is the axis size as a Python int (measured, jax 0.10.2)
        if name.startswith(_STRUCTURE_PREFIXES):
            # pytree/nest utilities: Python structures (lists of leaves, tree definitions, trees of
            # whatever the leaves are), never an array themselves; iterating them gives the leaves
            k = self._args_flags(e)
            return (k & _PASS_FLAGS & ~OPAQUE) | PYLIST if k & TENSOR else 0
        if head in ("jax", "jnp") and fact is None and not name.startswith(api_table.jax_table_modules()):
            # a jax.* name outside the modules xlacheck/data/jax_api.json probes (jax.sharding,
            # jax.core, jax.experimental, jax.scipy, jax.image, ...): its return kind is unknown, as
            # for an untabled tf.* name (`jax.sharding.get_abstract_mesh().shape_tuple` is a Python
            # tuple; unknown is not a tensor)
            k = self._args_flags(e)
            return TENSOR | OPAQUE if k & TENSOR else 0
        if name.startswith(("tf.python.", "tf.keras.src.", "tf.keras.engine.", "tf.keras.layers.rnn.")):
            # TensorFlow's and Keras' implementation modules: not public ops; like a user function
            k = self._args_flags(e)
            return TENSOR | OPAQUE if k & TENSOR else 0
        if name.startswith("tf.random.") or name.startswith("jax.random.") or name in ("tf.random_uniform",):
            return TENSOR | RANDOM | DATA
        if name in ("tf.constant", "tf.convert_to_tensor", "jnp.array", "jnp.asarray"):
            k = self.flags(e.args[0]) if e.args else 0
            if self.staged and name.startswith("jnp."):
                return (k & _PASS_FLAGS & ~(SHAPE | CONST)) | TENSOR | OP
            return (k & _PASS_FLAGS) | TENSOR if k & TENSOR else TENSOR | CONST
        if name in ("tf.Variable",):
            return TENSOR | VARIABLE
        if name.startswith("tf.keras.utils.") or fact is not None and fact.canonical.startswith("tf.keras.utils."):
            # Python structures (unpack_x_y_sample_weight, to_categorical on NumPy, ...), also under
            # the names the API table records as the same object (alias_of: the NumPy array of
            # tf.keras.preprocessing.sequence.pad_sequences is tf.keras.utils.pad_sequences's)
            return 0
        if fact is not None and fact.dynamic_shape and (given := _given(fact, e)) is not None \
                and fact.shape_depends_on_data(given):
            # tf.boolean_mask, tf.unique, 1-argument tf.where, NMS, Keras 3's keras.ops.nonzero/unique/
            # where: measured data-dependent (tf.dynamic_partition: a Python list of such tensors, its
            # length num_partitions)
            return self._structure(name, fact, e, TENSOR | DYNAMIC | DATA | (self._args_flags(e) & (LOOP | PARAM)))
        if name.startswith("tf.keras") or name.startswith("tf.lookup"):
            last = name.rsplit(".", 1)[-1]
            if last[:1].isupper() or name.startswith("tf.lookup"):
                return LAYER  # a layer/model/metric/table object: calling it gives a tensor
            return self._structure(name, fact, e, self._generic_op(name, e))
        if name in VALUE_FREE_FUNCS:
            k = self._args_flags(e)
            return TENSOR | (k & (SHAPE | DYNAMIC)) | (CONST if not k & TENSOR else 0)
        if head == "tf" and name not in _op_api() and name not in _KNOWN_TF \
                and (not name.startswith(_UNTABLED_TF) or _compat_not_an_op(name, fact)) \
                and not (fact is not None and fact.is_tensor_valued):
            # a tf.* name the generated op table never traced into ops (tf.__internal__.*,
            # executing_eagerly_outside_functions, classes): its return kind is unknown
            k = self._args_flags(e)
            return TENSOR | OPAQUE if k & TENSOR else 0
        res = self._generic_op(name, e)
        if self.staged and name.startswith(STAGED_PREFIXES):
            res = (res & ~(SHAPE | CONST)) | OP  # a tracer, whatever it was computed from
        return self._structure(name, fact, e, res)

    def _structure(self, name: str, fact: api_table.ApiFact | None, e: ast.Call, res: int) -> int:
        """A list of tensors or a boolean mask, from the API table (``structure``/``dtype``) and the
        hand lists of what it cannot know."""
        if name in LIST_FUNCS or (fact is not None and fact.structure == "list"
                                  and (given := _given(fact, e)) is not None and fact.holds_for(given)):
            return res | PYLIST
        if name in BOOL_FUNCS or name in JAX_BOOL_FUNCS or (fact is not None and fact.dtype == "bool") or (
                name == "tf.cast" and len(e.args) > 1 and self.aliases.resolve(e.args[1]) == "tf.bool"):
            res |= BOOL
        return res

    def _generic_op(self, name: str, e: ast.Call) -> int:
        k = self._args_flags(e)
        last = name.rsplit(".", 1)[-1]
        if not k & (TENSOR | SHAPE):
            if all(is_python(self.flags(a)) for a in e.args) and all(
                    is_python(self.flags(kw.value)) for kw in e.keywords):
                return TENSOR | CONST  # an op of proven Python values: a constant tensor
            return TENSOR | OP  # of a value of unknown provenance (self.iterations, an unknown helper)
        res = _combine(k & _OP_FLAGS) | TENSOR | OP
        if res & DYNAMIC and last.startswith(_KEEP_DYNAMIC_PREFIXES):
            res &= ~DYNAMIC
        if k & TENSOR and (k & (PARAM | VARIABLE | OPAQUE | DATA)) and _consumes_values(last):
            res |= DATA
        return res & ~(INTCAST | OPAQUE)


# Ops whose result summarises the *values* of their input (a count, an extreme, a position):
# a shape computed from them depends on data. Elementwise and structural ops keep their inputs' flags.
_VALUE_CONSUMING_PREFIXES = ("reduce_", "argmax", "argmin", "count_nonzero", "cumsum", "cumprod", "top_k",
                             "bincount", "unique", "searchsorted", "histogram", "norm", "sort", "argsort",
                             "segment_", "unsorted_segment_", "nonzero", "in_top_k", "math.reduce")


# how the table decided (not from a docstring); "named_axis": a JAX collective called where its axis
# is bound (``lax.axis_size`` returns a Python int there); "class_jit": a JAX class built under
# jax.jit from a traced array's dtype, whose instance and attributes are Python/NumPy values there
# (``jnp.iinfo(x.dtype).max``, ``jnp.finfo(x.dtype).eps``)
_TRUSTED_BY = frozenset({"call", "class", "op_def", "named_axis", "class_jit"})


def _given(fact: api_table.ApiFact, e: ast.Call) -> frozenset[str] | None:
    """The parameter names a call passes (positional ones through the table's ``params``); None
    when a ``*args`` or ``**kwargs`` splat hides which (then no fact of the probing call holds)."""
    if splatted(e):
        return None
    return frozenset(fact.bind(*call_arguments(e)))


_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ())) - {"__future__"}

# Python-valued names the table cannot answer by calling them: not called by its probe (global
# state, graphs, distribution, logging), outside TensorFlow/Keras/JAX's walked namespaces, or
# answered only by a docstring. The table's "python"/"static_shape" results cover the rest.
_PYTHON_VALUED = frozenset({
    "tf.executing_eagerly", "tf.get_static_value", "tf.as_dtype", "tf.dtypes.as_dtype", "tf.TensorSpec",
    "tf.get_logger", "tf.compat.dimension_value", "tf.nest.is_nested", "tf.type_spec_from_value",
    "tf.distribute.has_strategy", "tf.distribute.in_cross_replica_context", "tf.keras.backend.standardize_dtype",
    "tf.keras.backend.is_tensor", "tf.keras.config.backend", "tf.keras.utils.is_keras_tensor", "jnp.result_type",
    "jnp.dtype", "jax.devices", "jax.device_count", "jax.local_device_count", "jax.process_index",
    "jax.tree_util.tree_structure", "jax.tree_structure", "jax.tree.structure", "tf.rank_static", "tf.shape.rank",
    "tf.compat.v1.get_default_graph",
    "tf.get_default_graph", "tf.compat.v1.executing_eagerly",
})
# Collectives that JAX folds when their operand is no tracer: ``jax.lax.psum(1, "i")`` is the axis
# size as a Python int and ``pmean`` of a constant a Python float (measured under pmap and
# shard_map, jax 0.10.2: the idiom that sizes buffers and ``range(axis_size)`` permutations);
# ``pmax``/``pmin`` of a constant return tracers.
CONSTANT_FOLDING_COLLECTIVES = frozenset({"jax.lax.psum", "jax.lax.pmean"})
# Ops JAX stages into the jaxpr of a traced function (:attr:`ValueEnv.staged`).
STAGED_PREFIXES = ("jnp.", "jax.numpy.", "jax.lax.", "jax.nn.")
# Structure utilities: what they return is a Python container of the leaves they were given.
# "jax.tree_" covers jax.tree_util.* and the top-level aliases older JAX exported (jax.tree_leaves,
# jax.tree_map, jax.tree_flatten, ...: the same functions; jax 0.4.26 deprecated them).
_STRUCTURE_PREFIXES = ("jax.tree.", "jax.tree_", "tf.nest.")
# pytree flatteners that return a pair (the list of leaves, the tree definition): unpacked, the
# first is a list of the leaves, the second a Python object (PyTreeDef), never an array
LEAVES_AND_TREEDEF = frozenset({"jax.tree.flatten", "jax.tree_util.tree_flatten", "jax.tree.flatten_with_path",
                                "jax.tree_util.tree_flatten_with_path", "jax.tree_flatten"})
_PYTHON_VALUED_PREFIXES = ("tf.config.", "tf.io.gfile.", "tf.saved_model.", "tf.distribute.get_", "tf.sysconfig.",
                           "tf.dtypes.as_", "tf.keras.config.", "tf.keras.mixed_precision.", "tf.keras.utils.")

# Attributes of Keras layers/models and tf.Module that are Python lists (tuples) of variables.
_VARIABLE_LIST_ATTRS = frozenset({"trainable_weights", "trainable_variables", "non_trainable_weights",
                                  "non_trainable_variables"})

# Attributes and no-argument methods of a traced tensor that give Python values while tracing, on
# every kind of tensor that has them (tools/generate_tensor_members_table.py measured them).
_TENSOR_PYTHON_ATTRS, _TENSOR_PYTHON_METHODS = api_table.tensor_python_members()
# Every member name of a measured kind of tensor: a method outside it means another receiver.
TENSOR_MEMBER_NAMES = api_table.tensor_member_names()

# Frameworks whose calls build either arrays (the API tables say which) or Python objects.
_FRAMEWORK_OBJECT_HEADS = ("jax.", "tf.", "keras.")

# Tensor methods whose result is a dimension (RaggedTensor.nrows), like tf.shape(x)[0].
_SHAPE_METHODS = frozenset({"nrows"})

# Methods tensors do not have: the receiver is a Python container/str, the result a Python value.
_PYTHON_METHODS = frozenset({"numpy", "item", "tolist", "__len__", "items", "keys", "values", "get", "pop",
                             "popitem", "copy", "update", "setdefault", "append", "extend", "insert", "index",
                             "count", "startswith", "endswith", "format", "join", "lower", "upper", "replace",
                             "strip", "split"})


# tf.* names handled above or outside the op table's scope (tf.compat.v1 and Keras are not traced
# by tools/generate_op_table.py): their kinds come from the tables in this module.
_UNTABLED_TF = ("tf.compat.", "tf.keras.", "tf.raw_ops.", "tf.random.", "tf.experimental.numpy.")


def _compat_not_an_op(name: str, fact: api_table.ApiFact | None) -> bool:
    """A ``tf.compat.*`` name that the API table holds as no op: absent from TensorFlow 2.21
    (``tf.compat.v1.estimator.RunConfig``, a flag read through ``tf.compat.v1.flags.FLAGS``) or
    recorded as a class or with an unknown return (``tf.compat.v1.gfile.Exists``,
    ``tf.compat.v1.train.Saver``). Its return kind is unknown, as for an untraced ``tf.*`` name;
    TF1 ops (``tf.compat.v1.to_float``, ``placeholder``, ``layers.dense``) stay ops."""
    return name.startswith("tf.compat.") and (fact is None or fact.returns in ("object", "unknown", "python"))


_KNOWN_TF = SHAPE_FUNCS | VALUE_FREE_FUNCS | BOOL_FUNCS | LIST_FUNCS | frozenset(
    {"tf.constant", "tf.convert_to_tensor", "tf.Variable", "tf.where"})


_OP_API: list[frozenset[str]] = []


def _op_api() -> frozenset[str]:
    """Public tf.* names the generated op table traced into raw ops (loaded on first use)."""
    if not _OP_API:
        from xlacheck.op_table import api_names

        _OP_API.append(api_names())
    return _OP_API[0]


def _consumes_values(last: str) -> bool:
    return last.startswith(_VALUE_CONSUMING_PREFIXES)


def _either(a: int, b: int) -> int:
    """Flags of a value that is ``a`` or ``b``: any kind of either, proven Python only if both are."""
    return ((a | b) & ~PYTHON) | (a & b & PYTHON)


def merge_flags(old: int | None, new: int) -> int:
    """Flags of a name that holds ``old`` on one path and ``new`` on another (branches, several
    callers): the kinds of both, proven Python only if proven on both (``None``: not bound yet)."""
    return new if old is None else _either(old, new)


def _operands(k: int, *parts: int) -> int:
    """An arithmetic result ``k``: a constant tensor only if every operand is proven (a literal,
    a proven Python value or a constant tensor), a Python value only if every operand is one."""
    if k & TENSOR:
        k &= ~PYTHON
        if k & CONST and not all(_proven(p) for p in parts):
            k &= ~CONST
    elif k & PYTHON and not all(is_python(p) for p in parts):
        k &= ~PYTHON
    return k


def _combine(k: int) -> int:
    """Flags of an arithmetic result: a constant only if every input was."""
    if k & TENSOR and k & (DATA | PARAM | SHAPE | VARIABLE | LOOP | RANDOM):
        k &= ~CONST
    return k & ~(PYLIST_EMPTY | LAYER | BOOL | OPAQUE)




def is_tensor(k: int) -> bool:
    """Proven to be a tensor (not a Python container, not a tensor-or-structure)."""
    return bool(k & TENSOR) and not k & (PYLIST | OPAQUE)


def is_data_tensor(k: int) -> bool:
    """A tensor whose value depends on input data (not only on shapes or constants)."""
    return is_tensor(k) and bool(k & (DATA | PARAM | VARIABLE | LOOP | RANDOM))


def is_unknown_result(k: int) -> bool:
    """What a function of unknown kind returns (a user function of tensors, a layer): a tensor or a
    structure of values, shapes and counts mixed, with nothing that proves which. Where Python asks
    for a count (``range(n)``) it is taken for one."""
    return bool(k & OPAQUE) and not k & (PARAM | DATA | OP | VARIABLE)


def is_computed_tensor(k: int) -> bool:
    """A tensor computed inside the function (by an op, a variable read, tf.shape...): not a bare
    parameter, which may well be a Python value at run time (model code validates Python ints
    with the same ``if``/``assert``/``raise`` it would use on tensors)."""
    if not k & TENSOR or k & PYLIST:
        return False
    return bool(k & (DATA | VARIABLE | RANDOM | LOOP | CONST | OP)) or bool(k & SHAPE and not k & PARAM)


# Loops TensorFlow stages as a While op whatever their inputs (tf.vectorized_map is not one: pfor
# vectorizes its function).
_LOOP_RESULT_FUNCS = frozenset({
    "tf.while_loop", "tf.compat.v1.while_loop", "tf.map_fn", "tf.compat.v1.map_fn", "tf.scan", "tf.compat.v1.scan",
    "tf.foldl", "tf.foldr", "tf.compat.v1.foldl", "tf.compat.v1.foldr",
})


def reduction_functions(functions: list[FunctionInfo], aliases: AliasTable) -> Reducers:
    """Module-level functions and methods (keyed ``Class.method``) whose every ``return`` gives one
    reduction of tensor values (``return tf.reduce_sum(tf.cast(scores > t, tf.int32))``, directly,
    through ``tf.cast`` or a name bound once to one:
    :func:`xlacheck.analysis.reductions.returns_one_reduction`): a call of one (``n = count(x)``,
    ``n = self.count(x)``) gives a tensor computed from data, which the value model otherwise cannot
    tell from a structure a user function returns. Tuples holding a reduction are left out: on
    transformers' Longformer/LED (``_get_global_attn_indices``) they added 28 findings downstream of
    one data-dependent size that is already flagged where it is computed."""
    whole = set()
    shapes: dict[str, dict[int, int]] = {}
    defined: dict[str, int] = {}
    for info in functions:
        if info.parent is None:
            key = info.qualname
            defined[key] = defined.get(key, 0) + 1
    for info in functions:
        node = info.node
        if info.parent is not None or not isinstance(node, ast.FunctionDef):
            continue
        key = info.qualname
        if returns_one_reduction(node, aliases):
            whole.add(key)
            continue
        try:
            positions = static_returns(info, aliases) if defined[key] == 1 else {}
        except RecursionError:
            # an expression nested too deep to read (the engine skips that function and says so): no claim,
            # and the file's other functions, which read this table, are still analyzed
            positions = {}
        if positions:
            # a name defined twice (if/else variants, a redefinition): which one a call runs is not read here
            shapes[key] = positions
    return Reducers(frozenset(whole), shapes=shapes)


# What makes a returned value no static fact: a value of the data, of a parameter (whatever the
# callers pass), of a loop, random, a variable, or a structure or an unknown function's result.
_NOT_STATIC = DATA | OPAQUE | DYNAMIC | PARAM | LOOP | RANDOM | VARIABLE | PYLIST | PYLIST_EMPTY | LAYER | INTCAST


def static_returns(info: FunctionInfo, aliases: AliasTable) -> dict[int, int]:
    """The returns of ``info`` that are static facts, by position: ``{i: flags}`` for item ``i`` of
    the tuple every ``return`` gives (all of one length), ``{-1: flags}`` when no return is a tuple.
    A static fact is computed only from shapes (``shape_list``/``tf.shape``/``x.shape`` arithmetic:
    SHAPE) or Python values with evidence (PYTHON), never from a parameter's value: transformers'
    Longformer/LED ``padding_len, input_ids, ... = self._pad_to_window_size(...)`` gives the padding
    a sequence length needs, a shape value, which a user function's result (a tensor or a structure,
    ``TENSOR | OPAQUE``) hid. The body is read in source order with every assignment merged, each
    parameter a tensor of the caller's (``PARAM``), each loop or ``with`` target unknown."""
    node = info.node
    assert isinstance(node, ast.FunctionDef)
    returns = [n for n in own_nodes(node) if isinstance(n, ast.Return)]
    if not returns or any(r.value is None for r in returns):
        return {}
    tuples = [r.value for r in returns if isinstance(r.value, (ast.Tuple, ast.List))]
    if tuples and (len(tuples) != len(returns) or len({len(t.elts) for t in tuples}) != 1
                   or any(isinstance(e, ast.Starred) for t in tuples for e in t.elts)):
        return {}
    a = node.args
    env = {x.arg: TENSOR | PARAM | OPAQUE for x in a.posonlyargs + a.args + a.kwonlyargs}
    for pack in (a.vararg, a.kwarg):
        if pack is not None:
            env[pack.arg] = TENSOR | PARAM | PYLIST
    env.pop("self", None)
    env.pop("cls", None)
    values = ValueEnv(aliases, info.cls, env, node)
    env = values.env

    def bind(target: ast.expr, k: int, value: ast.expr | None) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = env.get(target.id, 0) | k
        elif isinstance(target, (ast.Tuple, ast.List)):
            pairs = isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts)
            for i, sub in enumerate(target.elts):
                item = value.elts[i] if pairs and isinstance(value, (ast.Tuple, ast.List)) else None
                sub = sub.value if isinstance(sub, ast.Starred) else sub
                bind(sub, values.flags(item) if item is not None else k & ~(PYLIST | PYLIST_EMPTY), item)
        values.invalidate()

    for n in own_nodes(node):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                bind(t, values.flags(n.value), n.value)
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            bind(n.target, values.flags(ast.BinOp(n.target, n.op, n.value)), None)
        elif isinstance(n, ast.AnnAssign) and n.value is not None:
            bind(n.target, values.flags(n.value), n.value)
        elif isinstance(n, (ast.For, ast.AsyncFor, ast.NamedExpr, ast.With, ast.AsyncWith, ast.FunctionDef,
                            ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
            unknown = [n.target] if isinstance(n, (ast.For, ast.AsyncFor, ast.NamedExpr)) else [
                item.optional_vars for item in n.items if item.optional_vars is not None] if isinstance(
                n, (ast.With, ast.AsyncWith)) else []
            for t in unknown:
                for name in ast.walk(t):
                    if isinstance(name, ast.Name):
                        env[name.id] = TENSOR | OPAQUE
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                env[n.name] = TENSOR | OPAQUE
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                for alias in n.names:
                    env[(alias.asname or alias.name).split(".")[0]] = TENSOR | OPAQUE
            values.invalidate()

    def static(k: int) -> bool:
        return not k & _NOT_STATIC and bool(k & SHAPE or k & PYTHON and not k & TENSOR)

    # a value chosen or counted by control flow is as static as what decides it: a test or a loop bound
    # that is no static fact (`4 if tf.reduce_any(m) else 2`, `while k < tf.reduce_max(x)`) may make
    # any returned value depend on the data, so nothing is claimed (a None or isinstance test is static)
    for n in own_nodes(node):
        decider = n.test if isinstance(n, (ast.If, ast.While, ast.IfExp)) else n.iter if isinstance(
            n, (ast.For, ast.AsyncFor)) else None
        if isinstance(n, ast.While) or decider is not None and not _static_test(decider) \
                and not static(values.flags(decider)):
            return {}

    out: dict[int, int] = {}
    if tuples:
        for i in range(len(tuples[0].elts)):
            k = 0
            for t in tuples:
                k |= values.flags(t.elts[i])
            if static(k):
                out[i] = k
        return out
    k = 0
    for r in returns:
        k |= values.flags(r.value)
    return {-1: k} if static(k) else {}


def _static_test(test: ast.expr) -> bool:
    """``x is None``, ``x is not None``, ``isinstance(x, T)``, ``not`` and ``and``/``or`` of them: tests a
    traced program decides from the Python objects it was given, never from a tensor's values."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _static_test(test.operand)
    if isinstance(test, ast.BoolOp):
        return all(_static_test(v) for v in test.values)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.IsNot)):
        return any(isinstance(side, ast.Constant) and side.value is None for side in (test.left, *test.comparators))
    return isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id in ("isinstance", "hasattr")


class Reducers(NamedTuple):
    """Same-file functions that return a data-derived reduction (:func:`reduction_functions`), or a
    JAX op's result."""

    whole: frozenset[str]  # `name` or `Class.method`: the result is one reduction
    # `name` or `Class.method`: every return is a JAX op's result, a tracer under jax.jit
    # (analysis.tracers.jax_op_functions)
    jax_ops: frozenset[str] = frozenset()
    # `name` or `Class.method`: the returns that are static facts, by tuple position (-1: the whole
    # return), with their flags (:func:`static_returns`)
    shapes: Mapping[str, Mapping[int, int]] = {}


NO_REDUCERS = Reducers(frozenset())
