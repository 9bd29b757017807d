"""What objects code builds from framework classes, and what a model built here holds.

A layer, lookup table, queue, linear operator or ``tf.data`` iterator is usually built once (at
module level, in ``__init__``, or by a builder function) and called inside compiled code. The op
table (``xlacheck/data/tf_xla_ops.json``) records what each class's call and methods create
(``op_table.probed_classes()``); this module says which class an expression builds: a framework
constructor, through names bound once, through module-level builder functions
(``model = build_model()``), and for models the layers they hold (a ``Sequential`` list and its
``model.add(layer)`` calls, the layers a functional ``Model(inputs, outputs)`` applies).
Rules read it through :class:`ObjectScope` (a function's rule context or a module rule's facts).
"""

from __future__ import annotations

import ast
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from xlacheck import api_table, op_table
from xlacheck.analysis import chain_root, is_none, walk
from xlacheck.analysis.imports import same_object
from xlacheck.analysis.reductions import own_returns_and_assignments
from xlacheck.analysis.scopes import BuiltValues, built_values, own_nodes
from xlacheck.analysis.tables import CALL_METHODS, TENSOR_ARRAYS, TF_VARIABLES


@dataclass(frozen=True)
class ObjectScope:
    """What resolving a built object needs of its file: canonical API names, the module-level
    bindings (``NAME = value``, ``NAME.add(x)``) and the module-level functions (builders)."""

    resolve: Callable[[ast.expr], str | None]
    module_values: Mapping[str, ast.expr]
    module_built: BuiltValues
    module_funcs: Mapping[str, ast.AST]
    # classes of the file that inherit a framework class's call: name -> that class (no call/__call__ of their own)
    inherited_calls: Mapping[str, str] = field(default_factory=dict)


def inherited_calls(classes: Mapping[str, tuple[tuple[str, ...], frozenset[str]]]) -> dict[str, str]:
    """``class MyAugment(tf.keras.layers.RandomRotation): ...`` that defines no ``call``/``__call__``
    (``classes``: name -> (canonical bases, method names)): name -> the framework class whose call
    its objects run (a class the op table probes, or any Keras class)."""
    out: dict[str, str] = {}
    for name, (bases, methods) in classes.items():
        if methods.intersection(CALL_METHODS):
            continue
        base = next((same_object(b) for b in bases if object_class(same_object(b))), None)
        if base is not None:
            out[name] = base
    return out


# Keras classes (layers, losses, metrics, initializers, models) are looked up by their call; the
# other objects the op table probes by their methods (op_table.probed_classes(): lookup tables,
# queues, linear operators, tf.data iterators, random generators). XLA309 owns TensorArray methods.
KERAS = "tf.keras."
OWNED_BY_XLA309 = TENSOR_ARRAYS
SEQUENTIAL = frozenset({"tf.keras.Sequential", "tf.keras.models.Sequential"})
FUNCTIONAL = frozenset({"tf.keras.Model", "tf.keras.models.Model"})
DATASET = "tf.data.Dataset"  # a tf.data pipeline (any constructor, any chain of its methods)
ITERATOR = "tf.data.Iterator"  # iter(dataset): the op table's class probe (next(it) is __next__)


def object_class(name: str) -> bool:
    return (name.startswith(KERAS) or name in op_table.probed_classes()) and name not in OWNED_BY_XLA309


def constructor(value: ast.expr | None, objects: ObjectScope, scope: BuiltValues | None = None
                 ) -> tuple[str, ast.Call] | None:
    """(class, call) when ``value`` builds an object of a framework class: ``Cls(...)``, or an
    alternate constructor ``Cls.from_seed(...)``/``Cls.from_config(...)`` (a ``from_*`` classmethod
    returns an object of its class), a ``tf.data`` pipeline (:data:`DATASET`), or ``iter(dataset)`` (a
    ``tf.data`` iterator)."""
    if not isinstance(value, ast.Call):
        return None
    if isinstance(value.func, ast.Name) and value.func.id == "iter" and len(value.args) == 1 and \
            objects.resolve(value.func) is None and _dataset(value.args[0], objects, scope):
        return ITERATOR, value
    if _dataset(value, objects, scope):
        return DATASET, value
    if isinstance(value.func, ast.Name) and value.func.id in objects.inherited_calls and \
            (scope is None or value.func.id not in scope.bound):
        return objects.inherited_calls[value.func.id], value  # a subclass that keeps its base's call
    name = objects.resolve(value.func)
    name = same_object(name) if name is not None else None  # tf.keras.layers.experimental.preprocessing.X
    if name is not None and name.rsplit(".", 1)[-1].startswith("from_"):
        name = same_object(name.rsplit(".", 1)[0])
    if name is None or not object_class(name):
        return None
    return name, value


def _dataset(expr: ast.expr, objects: ObjectScope, scope: BuiltValues | None, depth: int = 0) -> bool:
    """``expr`` is a ``tf.data`` dataset: a ``tf.data.*`` constructor, a method chain on one
    (``.batch(8).repeat()``), or a name bound once to one (in ``scope`` or at module level)."""
    if depth > 8:
        return False
    if isinstance(expr, ast.Name):
        bound = _bound(expr.id, objects, scope)
        return bound is not None and _dataset(bound[0], objects, bound[1], depth + 1)
    if not isinstance(expr, ast.Call):
        return False
    if (objects.resolve(expr.func) or "").startswith("tf.data."):
        return True
    return isinstance(expr.func, ast.Attribute) and _dataset(expr.func.value, objects, scope, depth + 1)


def _bound(name: str, objects: ObjectScope, scope: BuiltValues | None) -> tuple[ast.expr, BuiltValues | None] | None:
    """The value ``name`` is bound to once in ``scope`` (a builder function's body), else at module
    level; with the scope it was bound in (None: the module)."""
    if scope is not None and name in scope.values:
        return scope.values[name], scope
    if scope is not None and name in scope.bound:
        return None  # a local bound otherwise (a parameter, several assignments, a loop target): not the module's
    value = objects.module_values.get(name)
    return (value, None) if value is not None else None


def _added(name: str, objects: ObjectScope, scope: BuiltValues | None) -> tuple[ast.expr, ...]:
    """The ``name.add(x)``/``name.append(x)`` arguments of the scope that binds ``name``."""
    if scope is not None and name in scope.values:
        return scope.added.get(name, ())
    if scope is not None and name in scope.bound:
        return ()
    return objects.module_built.added.get(name, ())


@dataclass(frozen=True)
class BuiltObject:
    """An object a framework class builds: its class, the constructor call, the scope that binds
    the names it reads (None: the module) and the name it was bound to there (``.add`` calls)."""

    cls: str
    call: ast.Call
    scope: BuiltValues | None
    name: str | None


def built_object(value: ast.expr | None, objects: ObjectScope, scope: BuiltValues | None = None,
                  name: str | None = None, depth: int = 0) -> BuiltObject | None:
    """What ``value`` builds: a framework constructor (:func:`_constructor`), through names bound
    once, and through module-level builder functions whose one ``return`` builds it
    (``model = build_model()``)."""
    if value is None or depth > 6:
        return None
    if isinstance(value, ast.Name):
        bound = _bound(value.id, objects, scope)
        return built_object(bound[0], objects, bound[1], value.id, depth + 1) if bound is not None else None
    found = constructor(value, objects, scope)
    if found is not None:
        return BuiltObject(found[0], found[1], scope, name)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in objects.module_funcs \
            and (scope is None or value.func.id not in scope.bound):
        builder = objects.module_funcs[value.func.id]
        returns = [n.value for n in own_nodes(builder) if isinstance(n, ast.Return) and n.value is not None]
        if len(returns) == 1:
            return built_object(returns[0], objects, built_values(builder), None, depth + 1)
    return None


def _elements(expr: ast.expr | None, objects: ObjectScope, scope: BuiltValues | None) -> list[ast.expr]:
    """The layers a literal list holds, through a name bound once to it and its ``.append`` calls."""
    if isinstance(expr, ast.Name):
        bound = _bound(expr.id, objects, scope)
        if bound is None:
            return []
        return [*_elements(bound[0], objects, bound[1]), *_added(expr.id, objects, bound[1])]
    if isinstance(expr, (ast.List, ast.Tuple)):
        return [e for e in expr.elts if not isinstance(e, ast.Starred)]
    return []


def model_layers(built: BuiltObject, objects: ObjectScope) -> list[tuple[ast.expr, BuiltValues | None]]:
    """The layers a model built here holds, each with the scope it was built in: the list given
    to ``Sequential([...])`` and the layers ``model.add(layer)`` adds, or the layers a functional
    ``Model(inputs, outputs)`` applies on the way to its outputs (``Layer(...)(x)``, followed back
    through names bound once in the builder function or at module level)."""
    call, scope = built.call, built.scope
    if built.cls in SEQUENTIAL:
        given = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "layers"), None)
        layers = _elements(given, objects, scope) if given is not None else []
        if built.name is not None:
            layers += _added(built.name, objects, scope)
        return [(layer, scope) for layer in layers]
    if built.cls not in FUNCTIONAL:
        return []
    outputs = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "outputs"), None)
    found: list[tuple[ast.expr, BuiltValues | None]] = []
    seen: set[str] = set()
    frontier: list[tuple[ast.expr, BuiltValues | None]] = [(outputs, scope)] if outputs is not None else []
    for _ in range(8):  # names followed a few assignments back
        following: list[tuple[ast.expr, BuiltValues | None]] = []
        for expr, where in frontier:
            for node in ast.walk(expr):
                if isinstance(node, ast.Call) and isinstance(node.func, (ast.Call, ast.Name)):
                    found.append((node.func, where))  # Layer(...)(x), or layer(x) with layer = Layer(...)
                if isinstance(node, ast.Name) and node.id not in seen:
                    seen.add(node.id)
                    steps = (where or objects.module_built).assigned.get(node.id, ())
                    if len(steps) > 1:  # x = layer(x) chains: every step
                        following.extend((value, where) for value in steps)
                        continue
                    bound = _bound(node.id, objects, where)
                    if bound is not None:
                        following.append(bound)
        frontier = following
    return found


def variable_constructor(name: str) -> bool:
    """``tf.Variable`` and what the API table says returns a variable and is named for it
    (``tf.keras.backend.variable``, ``keras.Variable``); not ``assign_add`` and the like, which
    return the variable they update."""
    if name in TF_VARIABLES:
        return True
    fact = api_table.fact_for(name)
    return fact is not None and fact.returns == "variable" and name.rsplit(".", 1)[-1] in ("Variable", "variable")


def is_creation_guard(test: ast.expr, owners: frozenset[str] = frozenset({"self"})) -> bool:
    """``if self.v is None:``, ``if not hasattr(self, "v"):``, ``if not self.built:``: a singleton guard
    on state that outlives the call -- reached from one of ``owners`` (the object, ``global``/``nonlocal``
    names). ``if mask is not None:`` on an argument is not one (review18: any ``is`` counted)."""
    for sub in walk(test):
        if isinstance(sub, ast.Compare) and any(isinstance(op, (ast.Is, ast.IsNot)) for op in sub.ops):
            sides = [sub.left, *sub.comparators]
            if any(is_none(side) for side in sides) and any(
                    not is_none(side) and chain_root(side) in owners for side in sides):
                return True
        if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == "hasattr"
                and sub.args and chain_root(sub.args[0]) in owners):
            return True
    return (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Attribute)
            and chain_root(test.operand) in owners)


def _state_owners(func: ast.AST) -> frozenset[str]:
    """Names through which ``func`` reaches state that outlives one call: ``self``/``cls``, its
    ``global``/``nonlocal`` names, and the names it reads but never binds (a closure cell such as
    ``state = [None]`` of the enclosing function, a module-level cache); not its parameters or locals."""
    declared: set[str] = set()
    bound: set[str] = set()
    used: set[str] = set()
    if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        args = func.args
        bound.update(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))
        bound.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
    for node in walk(func):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
        elif isinstance(node, ast.Name):
            (used if isinstance(node.ctx, ast.Load) else bound).add(node.id)
    return frozenset({"self", "cls"} | declared | (used - bound))


def _none_default_params(func: ast.AST) -> frozenset[str]:
    """Parameters of ``func`` whose default is ``None``."""
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return frozenset()
    args = func.args
    positional = (*args.posonlyargs, *args.args)
    pairs = [*zip(positional[len(positional) - len(args.defaults):], args.defaults),
             *((a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None)]
    return frozenset(a.arg for a, d in pairs if is_none(d))


def _fills_left_out_argument(test: ast.expr, params: frozenset[str]) -> ast.cmpop | None:
    """``p is None`` / ``p is not None`` on a parameter ``p`` that defaults to None: the op, else None.
    ``if p:`` counts as ``p is not None`` and ``if not p:`` as ``p is None``: None is false, so the
    branch that fills ``p`` is again the one a call that leaves it out takes (or one that passes an
    empty or false value: the caller's choice as well, which this function cannot see)."""
    if (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.IsNot))
            and isinstance(test.left, ast.Name) and test.left.id in params and is_none(test.comparators[0])):
        return test.ops[0]
    if isinstance(test, ast.Name) and test.id in params:
        return ast.IsNot()
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Name) \
            and test.operand.id in params:
        return ast.Is()
    return None


_MUTATORS = frozenset({"append", "extend", "insert", "update", "setdefault", "add", "__setitem__"})


def _written_through(branch: list[ast.stmt]) -> frozenset[str]:
    """Names a branch writes through: the root of an attribute or item assignment target, or of a
    mutating method call (``cache.setdefault(...)``, ``slots.append(...)``)."""
    names: set[str] = set()
    for stmt in branch:
        for sub in walk(stmt):
            targets: list[ast.expr] = []
            if isinstance(sub, ast.Assign):
                targets = list(sub.targets)
            elif isinstance(sub, (ast.AugAssign, ast.AnnAssign)):
                targets = [sub.target]
            elif (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute)
                  and sub.func.attr in _MUTATORS):
                targets = [sub.func.value]
            for target in targets:
                for t in (target.elts if isinstance(target, ast.Tuple) else [target]):
                    if isinstance(t, (ast.Attribute, ast.Subscript)) or (
                            isinstance(sub, ast.Call) and t is target):
                        root = chain_root(t)
                        if root is not None:
                            names.add(root)
    return frozenset(names)


def under_creation_guard(node: ast.AST, func: ast.AST) -> bool:
    """``node`` sits in a branch of an ``if`` of ``func`` whose test is a singleton guard
    (:func:`is_creation_guard`): what it builds is built once, on the first call (or trace); or in the
    branch that fills an optional argument the caller left out (``if transition_params is None:``
    with a None default): whether it runs at all is the caller's choice, which this function cannot see
    (tensorflow-addons' ``crf_log_likelihood``, whose Keras wrapper always passes its kernel). The
    branch a passed argument takes (``if weights is not None:``) runs on every such call.
    The branches are found once per function (:func:`_creation_guarded`), so asking for every finding
    of a function, or for every call site of a method, stays linear in the module."""
    return id(node) in _creation_guarded(func)


# per function, the ids of the nodes under a creation guard (weak keys: a tree's entries go with it)
_GUARDED: weakref.WeakKeyDictionary[ast.AST, frozenset[int]] = weakref.WeakKeyDictionary()


def _creation_guarded(func: ast.AST) -> frozenset[int]:
    """The ids of the nodes of ``func`` that :func:`under_creation_guard` accepts: every node of both
    branches of a singleton guard, and of the branch that fills a left-out optional argument."""
    found = _GUARDED.get(func)
    if found is not None:
        return found
    owners = _state_owners(func)
    optional = _none_default_params(func)
    ids: set[int] = set()
    for n in walk(func):
        if not isinstance(n, ast.If):
            continue
        # a cell or cache outside the object is a guard's state only where the branch writes through it
        # (``state[0] = ...``, ``_CACHE["v"] = ...``): ``if tf.get_static_value(x) is None:`` tests a module
        written = _written_through(n.body + n.orelse)
        held = frozenset(o for o in owners if o in ("self", "cls") or o in written)
        if is_creation_guard(n.test, held):
            branch = n.body + n.orelse
        else:
            op = _fills_left_out_argument(n.test, optional)
            branch = [] if op is None else n.body if isinstance(op, ast.Is) else n.orelse
        ids.update(id(sub) for stmt in branch for sub in walk(stmt))
    _GUARDED[func] = found = frozenset(ids)
    return found


def called_only_under_creation_guard(sites: list[tuple[ast.Call, ast.AST | None]]) -> bool:
    """Every call of a method (``sites``: each ``self.method(...)`` of its class with the function it
    is in) sits under a singleton guard of its caller (:func:`under_creation_guard`): ``if
    self._clipping_loss is None: self._make_clipping_loss()`` (tensorflow/privacy's DP Keras model):
    what the method builds is built on the first call (or trace) only."""
    return bool(sites) and all(caller is not None and under_creation_guard(call, caller) for call, caller in sites)


def returns_new_object(fn: ast.AST, builds: Callable[[ast.expr], str | None]) -> str | None:
    """The class of the new object every call of ``fn`` returns, or None: every ``return`` of ``fn``
    (one at least) gives a call that ``builds`` names a class for (``return tf.keras.Sequential(...)``),
    or a local name every assignment of which in ``fn`` is one (``model = Model(...); model.compile(...);
    return model``), and all name the same class. Not for a decorated function (``functools.lru_cache``
    hands back the object it kept), one declaring ``global``/``nonlocal`` names, a generator, or a
    function that may return anything else (a parameter, a cached ``self._model``, a module-level
    object): those may give the same object again. A tf.function keys its traces on such objects by
    identity (``new_plain_object_each_call`` in tf_retrace.json)."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.decorator_list:
        return None
    if any(isinstance(n, (ast.Global, ast.Nonlocal, ast.Yield, ast.YieldFrom)) for n in own_nodes(fn)):
        return None
    params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
    params |= {a.arg for a in (fn.args.vararg, fn.args.kwarg) if a is not None}
    returns, assigned = own_returns_and_assignments(fn)
    classes: list[str | None] = []
    for value in (r.value for r in returns):
        if isinstance(value, ast.Name) and value.id not in params and assigned.get(value.id):
            classes += [builds(v) if v is not None else None for v in assigned[value.id]]
        else:
            classes.append(builds(value) if value is not None else None)
    if not classes or any(c is None for c in classes) or len(set(classes)) > 1:
        return None
    return classes[0]
