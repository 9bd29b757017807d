"""Structure and name bindings of one module: the one model that rules and fixes share.

:class:`ScopeTree` walks the tree once (breadth-first, skipping fields that never hold a node
worth indexing: identifiers, expression contexts, operator singletons) and answers, from that
walk and lazily built per-scope tables:

- structure: ``parent``, ``ancestors``, ``statement_of``, ``scope_of`` (the function or module
  whose local names a node reads: Python's name resolution skips class bodies), ``enclosing_scope``
  (classes included), ``function_of``, ``scope_nodes`` (a scope's own body);
- bindings: ``own_bindings`` (the statements that bind each name in a scope's own body),
  ``stores_in``/``loads_of`` (every store/read under a scope), ``declared_outside``
  (``global``/``nonlocal``), ``module_binding``, ``bound_before``, ``local_binding``,
  ``module_constant``.

The rules' :class:`xlacheck.analysis.module_index.ModuleIndex` and the rewriters'
:class:`xlacheck.rewrites._source.Source` are this model plus what each needs on top (call sites
and set-up facts; text and character positions). Every table is built once per file and kept:
thousands of findings must not rescan the file once each (issue 15).
"""

from __future__ import annotations

import ast
import weakref
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from xlacheck.analysis import child_fields

T = TypeVar("T")
FunctionScope = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.Module

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def target_names(target: ast.expr) -> list[str]:
    """The names an assignment or loop target binds (``a, (b, *c)`` -> a, b, c)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for elt in target.elts for name in target_names(elt)]
    if isinstance(target, ast.Starred):
        return target_names(target.value)
    return []


def last_assigned_values(body: list[ast.stmt]) -> dict[str, ast.expr]:
    """The value each bare name gets from the last plain ``name = value`` statement of ``body`` (its own
    statements only, not nested blocks): what a branch of an ``if`` leaves in the name."""
    out: dict[str, ast.expr] = {}
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            out[stmt.targets[0].id] = stmt.value
    return out


def parameter_defaults(f: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> dict[str, ast.expr]:
    """Parameter name -> its default expression, for the parameters of a def or lambda that have one
    (positional and keyword-only; ``*args``/``**kwargs`` have none)."""
    a = f.args
    positional = [p.arg for p in [*a.posonlyargs, *a.args]]
    out = dict(zip(positional[len(positional) - len(a.defaults):], a.defaults))
    out.update({p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
    return out


def iterated_elements(name: str, function: ast.AST, module_values: Mapping[str, ast.expr],
                      attrs: Mapping[str, ast.expr] | None = None) -> list[ast.expr]:
    """The values a loop variable takes, when ``function`` binds ``name`` only as the whole target of
    ``for``/comprehension loops over a literal list or tuple: written in place, a module-level name
    bound to one (that ``function`` does not rebind), or a ``self.<attr>`` the class set to one
    (``attrs``). ``for fn in (tf.linalg.det, tf.math.abs): fn(x)`` calls each; ``for layer in
    self.blocks: x = layer(x)`` calls each layer built in ``__init__``. [] when unknown."""
    nodes = list(ast.walk(function))
    loops = [n for n in nodes if isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension))]
    whole_targets = {id(loop.target) for loop in loops}
    stored = {n.id for n in nodes if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
              and id(n) not in whole_targets} | {n.arg for n in nodes if isinstance(n, ast.arg)}
    if name in stored:
        return []
    out: list[ast.expr] = []
    for loop in loops:
        if not (isinstance(loop.target, ast.Name) and loop.target.id == name):
            continue
        it = loop.iter
        if isinstance(it, ast.Name) and it.id in module_values and it.id not in stored:
            it = module_values[it.id]
        elif attrs is not None and isinstance(it, ast.Attribute) and isinstance(it.value, ast.Name) \
                and it.value.id == "self" and it.attr in attrs:
            it = attrs[it.attr]
        if not isinstance(it, (ast.List, ast.Tuple)) or any(isinstance(e, ast.Starred) for e in it.elts):
            return []
        out.extend(it.elts)
    return out


@dataclass(frozen=True)
class BuiltValues:
    """How a scope builds its objects: the value of each name it binds exactly once (an ``Assign``
    to the bare name, not a parameter, loop target or augmented assignment), and the arguments
    of ``NAME.add(x)``/``NAME.append(x)`` statements on those names (a ``Sequential`` filled by
    ``model.add(layer)``, a list of layers filled by ``layers.append(layer)``)."""

    values: Mapping[str, ast.expr]
    added: Mapping[str, tuple[ast.expr, ...]]
    assigned: Mapping[str, tuple[ast.expr, ...]]  # every value an ``Assign`` gives each name (x = layer(x) chains)
    # every name the scope binds in any way (parameters, loop targets, several assignments): a local
    # that shadows a module-level name of the same spelling (:func:`bound_names`)
    bound: frozenset[str] = frozenset()


EMPTY_BUILT = BuiltValues({}, {}, {})


# built_values per scope node: rules ask for the enclosing function's at every call they check
# (a function with N findings asked N times walked N bodies: quadratic, tests/xlacheck/test_fix_scaling.py)
_BUILT: weakref.WeakKeyDictionary[ast.AST, BuiltValues] = weakref.WeakKeyDictionary()


def built_values(scope: ast.AST | list[ast.stmt]) -> BuiltValues:
    """:class:`BuiltValues` of a function body or a module's statements (nested scopes left out)."""
    if isinstance(scope, list):
        return _built_values(scope)
    found = _BUILT.get(scope)
    if found is None:
        found = _BUILT[scope] = _built_values(scope)
    return found


def _built_values(scope: ast.AST | list[ast.stmt]) -> BuiltValues:
    counts: dict[str, int] = {}
    values: dict[str, ast.expr] = {}
    added: dict[str, list[ast.expr]] = {}
    assigned: dict[str, list[ast.expr]] = {}
    for node in own_nodes(scope, include_signature=True):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            values[node.targets[0].id] = node.value
            assigned.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            counts[node.id] = counts.get(node.id, 0) + 1
            continue
        elif isinstance(node, ast.arg):
            counts[node.arg] = counts.get(node.arg, 0) + 2
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            call = node.value
            if isinstance(call.func, ast.Attribute) and call.func.attr in ("add", "append") and \
                    isinstance(call.func.value, ast.Name) and len(call.args) == 1 and not call.keywords:
                added.setdefault(call.func.value.id, []).append(call.args[0])
    single = {name: value for name, value in values.items() if counts.get(name) == 1}
    return BuiltValues(single, {name: tuple(args) for name, args in added.items() if name in single},
                       {name: tuple(v) for name, v in assigned.items()}, bound_names(scope))


# bound_names per (scope node, nested): rules ask at every call or name they check
_BOUND: dict[bool, weakref.WeakKeyDictionary[ast.AST, frozenset[str]]] = {
    False: weakref.WeakKeyDictionary(), True: weakref.WeakKeyDictionary()}


def bound_names(scope: ast.AST | list[ast.stmt], *, nested: bool = False) -> frozenset[str]:
    """The names a scope (a function, lambda, class or module, or a list of statements) binds
    itself, so that a name of the same spelling outside is shadowed there: its parameters and the
    names its own body stores or deletes (assignment, loop, ``with ... as`` and walrus targets; a
    comprehension's targets too, as :func:`own_nodes` enters comprehensions), less those it declares
    ``global``/``nonlocal`` (they rebind the outer name). Imports and
    ``def``/``class`` statements are not counted. ``nested``: also the names stored or deleted in
    the functions, lambdas, classes and comprehensions nested in it, for a rule that reads the
    names of the whole subtree (``ast.walk``) and must not take any of them for an outer name."""
    if isinstance(scope, list):
        return _bound_names(scope, nested)
    found = _BOUND[nested].get(scope)
    if found is None:
        found = _BOUND[nested][scope] = _bound_names(scope, nested)
    return found


def _bound_names(scope: ast.AST | list[ast.stmt], nested: bool) -> frozenset[str]:
    out: set[str] = set()
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        a = scope.args
        out.update(p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg) if p is not None)
    declared: set[str] = set()
    for node in own_nodes(scope, include_signature=True):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.add(node.id)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
    if nested:
        roots = scope if isinstance(scope, list) else [scope]
        out.update(n.id for root in roots for n in ast.walk(root)
                   if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)))
    return frozenset(out - declared)


def own_nodes_in_loops(scope: ast.AST | list[ast.stmt], *, include_signature: bool = False
                       ) -> Iterator[tuple[ast.AST, tuple[ast.AST, ...]]]:
    """Nodes of ``scope``'s own body (a function, lambda, class, module, or the body of any
    statement that has one, such as a loop; or a list of statements, such as a branch), in source
    order, each with the loop statements (``for``/``while``) around it inside ``scope``; nested
    functions, lambdas and classes are yielded but not entered. With ``include_signature`` the
    walk starts from every part of ``scope``, not only its body: a function's parameters,
    defaults, decorators and return annotation, or all of a statement's parts (a ``for``'s target
    and iterable)."""
    if isinstance(scope, list):
        roots: list[ast.AST] = list(scope)
    elif include_signature:
        roots = list(ast.iter_child_nodes(scope))
    else:
        body = getattr(scope, "body", [])
        roots = body if isinstance(body, list) else [body]  # a lambda's body is one expression
    stack: list[tuple[ast.AST, tuple[ast.AST, ...]]] = [(node, ()) for node in reversed(roots)]
    while stack:
        node, loops = stack.pop()
        yield node, loops
        if isinstance(node, _NESTED):
            continue
        inner = (*loops, node) if isinstance(node, _LOOPS) else loops
        stack.extend((child, inner) for child in reversed(list(ast.iter_child_nodes(node))))


def own_nodes(scope: ast.AST | list[ast.stmt], *, include_signature: bool = False) -> Iterator[ast.AST]:
    """The nodes of :func:`own_nodes_in_loops`, without the loops around them."""
    return (node for node, _ in own_nodes_in_loops(scope, include_signature=include_signature))


class ScopeTree:
    """One module's nodes, parents, scopes and bindings (see the module docstring)."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.nodes: list[ast.AST] = [tree]  # breadth-first: an outer node before the nodes inside it
        self.parents: dict[ast.AST, ast.AST] = {}
        nodes, parents, AST = self.nodes, self.parents, ast.AST
        append = nodes.append
        for node in nodes:  # the list grows while it is read: a breadth-first walk
            for field in child_fields(type(node)):
                value = getattr(node, field, None)
                if type(value) is list:
                    for child in value:
                        if isinstance(child, AST):
                            parents[child] = node
                            append(child)
                elif isinstance(value, AST):
                    parents[value] = node
                    append(value)
        self._memo: dict[Hashable, Any] = {}

    def memo(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``, once per file and key (a whole-file lookup asked once per finding)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    # -- structure -----------------------------------------------------------------------------
    def parent(self, node: ast.AST) -> ast.AST | None:
        return self.parents.get(node)

    def stand_in(self, node: ast.AST, place: ast.AST) -> None:
        """Give ``node``, built by a rule and not in the tree, the parent of ``place``: structural
        questions about it (its statement, loops, function) are answered as for ``place``."""
        parent = self.parents.get(place)
        if parent is not None:
            self.parents[node] = parent

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        parents = self.parents
        while node in parents:
            node = parents[node]
            yield node

    def statement_of(self, node: ast.AST) -> ast.stmt | None:
        if isinstance(node, ast.stmt):
            return node
        for parent in self.ancestors(node):
            if isinstance(parent, ast.stmt):
                return parent
        return None

    def scope_of(self, node: ast.AST) -> FunctionScope:
        """The function (or the module) whose local names ``node`` reads."""
        for parent in self.ancestors(node):
            if isinstance(parent, _FUNCTIONS):
                return parent
        return self.tree

    def enclosing_scope(self, node: ast.AST) -> ast.AST:
        """The innermost function, class or module containing ``node``."""
        for parent in self.ancestors(node):
            if isinstance(parent, _SCOPES):
                return parent
        return self.tree

    def function_of(self, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | None:
        """The function ``node`` runs in; None at module level or directly in a class body."""
        for parent in self.ancestors(node):
            if isinstance(parent, _FUNCTIONS):
                return parent
            if isinstance(parent, ast.ClassDef):
                return None
        return None

    def scope_nodes(self, scope: ast.AST) -> Iterator[ast.AST]:
        """Nodes of ``scope``'s own body, not descending into nested functions or classes."""
        return own_nodes(scope)

    # -- bindings --------------------------------------------------------------------------------
    def own_bindings(self, scope: ast.AST) -> dict[str, list[ast.AST]]:
        """The statements that bind each name in ``scope``'s own body (``Assign``, ``AugAssign``,
        ``AnnAssign``, ``For`` targets), in source order; comprehension targets are not bindings
        of the scope (they are listed by :meth:`comprehension_names`)."""

        def compute() -> dict[str, list[ast.AST]]:
            found: dict[str, list[ast.AST]] = {}
            for node in self.scope_nodes(scope):
                if isinstance(node, ast.Assign):
                    for target in node.targets:
                        for name in target_names(target):
                            found.setdefault(name, []).append(node)
                elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
                    found.setdefault(node.target.id, []).append(node)
                elif isinstance(node, (ast.For, ast.AsyncFor)):
                    for name in target_names(node.target):
                        found.setdefault(name, []).append(node)
            return found

        return self.memo(("own bindings", id(scope)), compute)

    def comprehension_names(self, scope: ast.AST) -> frozenset[str]:
        """Names that comprehensions in ``scope``'s own body bind (local to the comprehension)."""
        return self.memo(("comprehension names", id(scope)), lambda: frozenset(
            name for node in self.scope_nodes(scope) if isinstance(node, ast.comprehension)
            for name in target_names(node.target)))

    def _names_under(self, scope: ast.AST) -> tuple[dict[str, list[ast.Name]], dict[str, list[ast.Name]]]:
        """Stores and reads of every name under ``scope`` (nested scopes included): one walk."""

        def compute() -> tuple[dict[str, list[ast.Name]], dict[str, list[ast.Name]]]:
            stores: dict[str, list[ast.Name]] = {}
            loads: dict[str, list[ast.Name]] = {}
            for sub in ast.walk(scope):
                if isinstance(sub, ast.Name):
                    if isinstance(sub.ctx, ast.Store):
                        stores.setdefault(sub.id, []).append(sub)
                    elif isinstance(sub.ctx, ast.Load):
                        loads.setdefault(sub.id, []).append(sub)
            return stores, loads

        return self.memo(("names", id(scope)), compute)

    def stores_in(self, scope: ast.AST) -> dict[str, list[ast.Name]]:
        """Every name stored anywhere under ``scope`` (nested scopes included), by name."""
        return self._names_under(scope)[0]

    def loads_of(self, name: str, scope: ast.AST) -> list[ast.Name]:
        """Every read of ``name`` under ``scope`` (nested scopes included)."""
        return list(self._names_under(scope)[1].get(name, ()))

    def declared_outside(self, scope: ast.AST) -> frozenset[str]:
        """Names a ``global`` or ``nonlocal`` statement anywhere under ``scope`` declares."""
        return self.memo(("declared", id(scope)), lambda: frozenset(
            name for s in ast.walk(scope) if isinstance(s, (ast.Global, ast.Nonlocal)) for name in s.names))

    def module_binding(self, name: str) -> ast.expr | None:
        """The value a module-level ``NAME = value`` gives ``name`` (the last such assignment); also
        one name of ``A, B = 0.0, 1.0``, a tuple or list of names unpacked from a tuple or list
        display of as many items, none starred (Python binds each name to its item)."""

        def bindings() -> dict[str, ast.expr]:
            found: dict[str, ast.expr] = {}
            for stmt in self.tree.body:
                if isinstance(stmt, ast.Assign):
                    for t in stmt.targets:
                        if isinstance(t, ast.Name):
                            found[t.id] = stmt.value
                        elif isinstance(t, (ast.Tuple, ast.List)) and isinstance(stmt.value, (ast.Tuple, ast.List)) \
                                and len(t.elts) == len(stmt.value.elts) \
                                and not any(isinstance(e, ast.Starred) for e in [*t.elts, *stmt.value.elts]):
                            found.update((n.id, v) for n, v in zip(t.elts, stmt.value.elts) if isinstance(n, ast.Name))
            return found

        return self.memo("module bindings", bindings).get(name)

    def bound_before(self, name: str, node: ast.AST) -> bool:
        """Whether ``name`` has a value when ``node`` runs: a parameter, an earlier store in
        the same function, a global/nonlocal declaration or a module-level binding."""
        scope = self.scope_of(node)
        if isinstance(scope, _FUNCTIONS):
            args = scope.args
            params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
            params += [a for a in (args.vararg, args.kwarg) if a is not None]
            if any(p.arg == name for p in params):
                return True
        here = (node.lineno, node.col_offset)  # type: ignore[attr-defined]
        if name in self.declared_outside(scope):
            return True
        if any((sub.lineno, sub.col_offset) < here and self.scope_of(sub) is scope
               for sub in self.stores_in(scope).get(name, ())):
            return True
        if scope is not self.tree:
            return self.module_binding(name) is not None or self._bound_in_enclosing(name, scope)
        return False

    def _bound_in_enclosing(self, name: str, scope: ast.AST) -> bool:
        """Bound directly in an enclosing function (a closure variable)."""
        outer = self.scope_of(scope)
        while not isinstance(outer, ast.Module):
            args = outer.args
            if any(a.arg == name for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]):
                return True
            if any(self.scope_of(sub) is outer for sub in self.stores_in(outer).get(name, ())):
                return True
            outer = self.scope_of(outer)
        return False

    def local_binding(self, name: str, node: ast.AST) -> ast.expr | None:
        """The value of the single assignment ``name = value`` that reaches ``node`` in its
        function, when exactly one plain assignment to ``name`` precedes ``node`` there."""
        scope = self.scope_of(node)
        here = (node.lineno, node.col_offset)  # type: ignore[attr-defined]
        found: list[ast.Assign] = []
        for sub in self.stores_in(scope).get(name, ()):
            parent = self.parents.get(sub)
            if not (isinstance(parent, ast.Assign) and parent.targets == [sub]):
                if self.scope_of(sub) is scope:
                    return None  # tuple unpacking, loop target, augmented assignment: unknown
                continue
            if self.scope_of(sub) is scope:
                found.append(parent)
        # An assignment binds reads after it, not those in its own right-hand side (`x = f(x)`).
        before = [a for a in found if (a.end_lineno, a.end_col_offset) <= here]
        if len(found) == 1 and len(before) == 1:
            return before[0].value
        return None

    def straight_line_binding(self, use: ast.Name) -> ast.expr | None:
        """The value of the last plain ``name = value`` before ``use`` in its scope, where that
        statement sits in a block around ``use`` (straight-line code: ``ds = make(); ds = ds.batch(4)``);
        None when the scope binds the name any other way (a loop target, ``+=``, a tuple target).
        Unlike ``local_binding``, several assignments may precede ``use``: the last one wins.
        None too when a loop around ``use`` rebinds the name after it (the next iteration reads
        that value)."""
        scope = self.function_of(use) or self.tree
        ancestors = {id(a) for a in self.ancestors(use)}
        # loops whose next iteration reads `use` again (a `for` evaluates its iterable once)
        loops = [a for a in self.ancestors(use) if isinstance(a, ast.While) or (
            isinstance(a, (ast.For, ast.AsyncFor)) and any(id(b) in ancestors for b in a.body))]
        best: ast.Assign | None = None
        for node in self.scope_nodes(scope):
            if not isinstance(node, ast.Name) or node.id != use.id or not isinstance(node.ctx, ast.Store):
                continue
            stmt = self.parent(node)
            if not (isinstance(stmt, ast.Assign) and stmt.targets == [node]):
                return None
            after = (stmt.end_lineno, stmt.end_col_offset) > (use.lineno, use.col_offset)
            if after and any(loop.lineno < stmt.lineno <= (loop.end_lineno or loop.lineno) for loop in loops):
                return None
            if stmt.lineno < use.lineno and id(self.parent(stmt)) in ancestors and (
                    best is None or stmt.lineno > best.lineno):
                best = stmt
        return best.value if best is not None else None

    def literal_of(self, node: ast.expr) -> ast.expr | None:
        """The literal (a constant, or a tuple of constants) that a read of ``node`` has, as far as this
        file says: the literal itself; a module constant bound to one; ``self.<attr>`` that its class
        assigns exactly once, in ``__init__``, from such a value; a parameter of a class's ``__init__``
        left at its literal default (never rebound there, and every construction of the class in this
        file passes nothing for it or the same literal). None when unknown."""
        if _is_literal(node):
            return node
        if isinstance(node, ast.Name):
            bound = self.module_constant(node)
            if bound is not None:
                return bound if _is_literal(bound) else None
            return self._init_default(node)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            method = next((a for a in self.ancestors(node) if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))
                           and isinstance(self.parent(a), ast.ClassDef)), None)
            cls = self.parent(method) if method is not None else None
            if not isinstance(cls, ast.ClassDef) or node.value.id != _receiver(method):
                return None
            stores = self.self_assignments(cls).get(node.attr, [])
            if len(stores) != 1 or stores[0][0].name != "__init__" or stores[0][1] is None:
                return None  # (assigned in another method too, or by a form with no one value)
            return self.literal_of(stores[0][1])
        return None

    def self_assignments(self, cls: ast.ClassDef) -> dict[str, list[tuple[ast.FunctionDef | ast.AsyncFunctionDef,
                                                                          ast.expr | None]]]:
        """``attr`` -> (method, value) for every ``self.attr = value`` / ``self.attr += value`` (value None
        for other binding forms: a tuple target, ``for self.attr in``) in the methods of ``cls``."""

        def compute() -> dict[str, list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, ast.expr | None]]]:
            found: dict[str, list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, ast.expr | None]]] = {}
            for method in cls.body:
                if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                receiver = _receiver(method)
                for n in ast.walk(method):
                    targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(
                        n, (ast.AugAssign, ast.AnnAssign)) else []
                    for t in targets:
                        for sub in ast.walk(t):
                            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) \
                                    and sub.value.id == receiver and isinstance(sub.ctx, ast.Store):
                                value = n.value if sub is t else None  # type: ignore[attr-defined]
                                found.setdefault(sub.attr, []).append((method, value))
            return found

        return self.memo(("self assignments", id(cls)), compute)

    def _init_default(self, node: ast.Name) -> ast.expr | None:
        func = self.function_of(node)
        if not isinstance(func, ast.FunctionDef) or func.name != "__init__":
            return None
        cls = self.parent(func)
        if not isinstance(cls, ast.ClassDef) or self.stores_in(func).get(node.id):
            return None
        args = func.args
        positional = args.posonlyargs + args.args
        defaults = dict(zip([a.arg for a in positional][len(positional) - len(args.defaults):], args.defaults))
        defaults.update((a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None)
        default = defaults.get(node.id)
        if default is None or not _is_literal(default):
            return None
        position = next((i - 1 for i, a in enumerate(positional) if a.arg == node.id), None)  # (after self)
        for call in self.nodes:
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == cls.name:
                if any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args):
                    return None
                given = next((k.value for k in call.keywords if k.arg == node.id), None)
                if given is None and position is not None and 0 <= position < len(call.args):
                    given = call.args[position]
                if given is not None and ast.dump(given) != ast.dump(default):
                    return None
        return default

    def module_constant(self, node: ast.Name) -> ast.expr | None:
        """The value a read of ``node`` certainly has when it names a module constant: ``name``
        is assigned exactly once in the file, at module level, is not an import alias, and no
        enclosing function takes a parameter of that name; None otherwise."""
        stores = self.stores_in(self.tree).get(node.id, [])
        bound = self.module_binding(node.id)
        if len(stores) != 1 or bound is None or self.scope_of(stores[0]) is not self.tree:
            return None
        aliases = self.memo("import aliases", lambda: frozenset(
            a.asname or a.name for a in self.nodes if isinstance(a, ast.alias)))
        if node.id in aliases:
            return None
        for scope in self.ancestors(node):
            if isinstance(scope, _FUNCTIONS) and any(
                    a.arg == node.id for a in ast.walk(scope.args) if isinstance(a, ast.arg)):
                return None
        return bound


def _is_literal(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) or isinstance(node, ast.Tuple) and all(
        isinstance(e, ast.Constant) for e in node.elts)


def _receiver(method: ast.FunctionDef | ast.AsyncFunctionDef | None) -> str | None:
    """The name a method's first parameter gives the object (``self`` by convention, any name to Python);
    None for a static method or one without parameters."""
    if method is None or any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in method.decorator_list):
        return None
    params = method.args.posonlyargs + method.args.args
    return params[0].arg if params else None
