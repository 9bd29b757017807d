"""XLA403: a Python number or list whose value changes, passed to a ``tf.function``."""

from __future__ import annotations

import ast
from collections import defaultdict

from xlacheck.analysis.module_index import ModuleIndex, TfFunction
from xlacheck.analysis.objects import returns_new_object
from xlacheck.analysis.scopes import target_names
from xlacheck.analysis.tables import NUMPY_GENERATOR_SCALAR_DRAWS, NUMPY_SCALAR_DRAWS, STDLIB_RANDOM_DRAWS
from xlacheck.diagnostics import Applicability, Edit, Fix, Location, Severity
from xlacheck.rules.base import INLINE, Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Builtins that always return a Python number on the host.
_NUMBER_BUILTINS = frozenset({"float", "int", "len", "round"})
# Builtins whose result is a Python number when one argument is.
_NUMBER_COMBINERS = frozenset({"max", "min", "abs", "sum", "pow"})
_STDLIB_NUMBER_MODULES = ("math.", "random.")  # (numpy scalars are traced as tensors: not listed)
_STRONG, _WEAK = 2, 1  # a value known to be a Python number / only a literal constant
# What a NumPy random generator object is built with -> the draws that return Python numbers on it.
_GENERATOR_TABLES: dict[str, dict[str, int]] = {
    "np.random.default_rng": NUMPY_GENERATOR_SCALAR_DRAWS, "np.random.Generator": NUMPY_GENERATOR_SCALAR_DRAWS,
    "np.random.RandomState": NUMPY_SCALAR_DRAWS,
}


class _Scope:
    """Bindings of one function (or the module) that decide what a name holds."""

    def __init__(self, index: ModuleIndex, scope: ast.AST) -> None:
        self.index = index
        self.scope = scope
        self.bindings = index.own_bindings(scope)  # name -> Assign/AugAssign/AnnAssign/For nodes
        self.params: dict[str, ast.expr | None] = {}  # name -> default (None when no default)
        self.numeric_params: set[str] = set()
        self.sequence_params: set[str] = set()  # annotated list[float], Sequence[int], tuple[float, ...]
        self.nested_sequence_params: set[str] = set()  # annotated list[list[float]]
        self.comprehension_names = index.comprehension_names(scope)
        self._visiting: set[str] = set()  # names being classified (cycles: `t = max(1.0, t * decay)`)
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = scope.args
            positional = args.posonlyargs + args.args
            defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
            for a, d in list(zip(positional, defaults)) + list(zip(args.kwonlyargs, args.kw_defaults)):
                self.params[a.arg] = d
                annotation = a.annotation
                if (isinstance(d, ast.Constant) and type(d.value) in (int, float)) or (
                        isinstance(annotation, ast.Name) and annotation.id in ("int", "float")):
                    self.numeric_params.add(a.arg)
                elif _number_sequence_annotation(annotation):
                    self.sequence_params.add(a.arg)
                elif isinstance(annotation, ast.Subscript) and _number_sequence_annotation(annotation.slice):
                    self.nested_sequence_params.add(a.arg)  # list[list[float]]
        # name -> the iterables a `for` statement or a comprehension of this scope binds it from
        self.loop_iters: dict[str, list[ast.expr]] = {}
        for node in index.scope_nodes(scope):
            if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                for name, iterable in _loop_sources(node.target, node.iter):
                    self.loop_iters.setdefault(name, []).append(iterable)
        self.globals_updated = frozenset(  # `global STEP` + `STEP += 1` here: a module counter
            name for name in index.declared_outside(scope) if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef))
            and any(isinstance(b, (ast.AugAssign, ast.Assign)) for b in self.bindings.get(name, ())))

    # -- what a loop variable counts -------------------------------------------------------
    def counter_loop(self, name: str) -> ast.For | None:
        """The ``for`` that binds ``name`` to ``range(...)`` values or an ``enumerate`` index."""
        return next((node for node in self.bindings.get(name, ()) if isinstance(node, ast.For) and _counts(node, name)),
                    None)

    def comprehension_counter(self, name: str) -> bool:
        """``name`` is bound only by comprehensions of this scope, each to ``range(...)`` values or
        an ``enumerate`` index (``[step(x, k) for k in range(n)]``), and by nothing else here."""
        if name not in self.comprehension_names or name in self.bindings or name in self.params:
            return False
        heads = [c for c in self.index.scope_nodes(self.scope) if isinstance(c, ast.comprehension)
                 and name in target_names(c.target)]
        return bool(heads) and all(_counts(c, name) for c in heads)

    # -- classification --------------------------------------------------------------------
    def number(self, node: ast.expr, depth: int = 0) -> int:
        """_STRONG: certainly a Python number; _WEAK: a literal; 0: unknown or a tensor."""
        if depth > 8:
            return 0
        if isinstance(node, ast.Constant):
            return _WEAK if type(node.value) in (int, float) else 0
        if isinstance(node, ast.Name):
            rebound = self._rebound_in_loop(node)
            if rebound is not None:  # `step = tf.convert_to_tensor(step)` before the use: that value reaches it
                return self.number(rebound, depth + 1) if rebound is not node else 0
            if self.counter_loop(node.id) is not None or node.id in self.numeric_params \
                    or self.comprehension_counter(node.id):
                return _STRONG
            if node.id in self.globals_updated and self._module_constant(node.id) and all(
                    self.number(b.value, depth + 1) for b in self.bindings.get(node.id, ())
                    if isinstance(b, (ast.Assign, ast.AugAssign))):
                return _STRONG  # a module-level number this function updates
            if node.id in self._visiting:
                return _WEAK  # the other bindings decide
            values = [b.value for b in self.bindings.get(node.id, ())
                      if isinstance(b, (ast.Assign, ast.AnnAssign)) and b.value is not None]
            if not values and node.id not in self.params and self.loop_iters.get(node.id) and all(
                    self.number_collection(it, depth + 1) for it in self.loop_iters[node.id]):
                return _STRONG  # `for s in values` with `values: Sequence[float]`: each one a Python number
            self._visiting.add(node.id)
            try:
                known = bool(values) and all(self.number(v, depth + 1) for v in values)
            finally:
                self._visiting.discard(node.id)
            if known:
                return _STRONG
            if isinstance(self.scope, ast.Module):
                return 0
            if node.id in self.params:
                return self._param_number(node.id, depth) if not values else 0
            return self._module_constant(node.id)
        if self._self_attribute(node) is not None:
            return self._self_number(node.attr, depth)  # type: ignore[attr-defined]
        if self.member(node) is not None:
            return self._member_number(node, depth)  # type: ignore[arg-type]
        if isinstance(node, ast.Call) and (self._stdlib_number(node.func) or self.random_draw(node) is not None):
            return _STRONG  # math.cos(...), random.uniform(...), np.random.beta(a, a): Python floats
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "item" \
                and not node.args and not node.keywords:
            return _STRONG  # array.item() / tensor.numpy().item(): a Python int or float
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in _NUMBER_BUILTINS:
                return _STRONG
            helper = self.index_function(node.func.id)
            if helper is not None and _returns_arithmetic(self.index, helper) and node.args and all(
                    self.number(a, depth + 1) for a in [*node.args, *(k.value for k in node.keywords)]):
                return _STRONG  # schedule(step): a function of this file doing Python arithmetic on numbers
            if node.func.id in _NUMBER_COMBINERS and node.args:
                kinds = [self.number(a, depth + 1) for a in node.args]
                return _STRONG if all(kinds) or (max(kinds) == _STRONG and not self._any_tensorish(node.args)) else 0
            return 0
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            return self.number(node.operand, depth + 1)
        if isinstance(node, ast.BinOp):
            sides = [node.left, node.right]
            if self._any_tensorish(sides):
                return 0
            kinds = [self.number(s, depth + 1) for s in sides]
            if all(k == _WEAK for k in kinds):
                return _WEAK
            # a number combined with a name we know nothing about (a comprehension variable)
            if _STRONG in kinds and all(k or self._neutral(s) for k, s in zip(kinds, sides)):
                return _STRONG
            return 0
        if isinstance(node, ast.IfExp):
            kinds = [self.number(node.body, depth + 1), self.number(node.orelse, depth + 1)]
            return min(kinds)
        return 0

    # -- Python numbers kept on ``self`` -------------------------------------------------------
    def _self_attribute(self, node: ast.AST) -> str | None:
        """``self.X`` read in a method of a class of this file: ``X``."""
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self" \
                and isinstance(node.ctx, ast.Load) and self.owner_class() is not None:
            return node.attr
        return None

    def owner_class(self) -> ast.ClassDef | None:
        parent = self.index.parent(self.scope)
        return parent if isinstance(parent, ast.ClassDef) else None

    def self_assignments(self, attr: str) -> list[tuple[ast.AST, ast.expr | None]]:
        """(method, value) for every ``self.attr = value`` / ``self.attr += value`` (value None
        for other binding forms) in the methods of the class around this scope."""
        cls = self.owner_class()
        if cls is None:
            return []
        return list(self.index.self_assignments(cls).get(attr, []))

    def _self_number(self, attr: str, depth: int) -> int:
        """_STRONG when every assignment to ``self.attr`` in the class gives a Python number
        (``self.lr = 0.1`` in ``__init__``, ``self.lr *= 0.5`` or ``self.lr = self.lr * 0.5`` later)."""
        key = "self." + attr
        if key in self._visiting:
            return _WEAK  # the other assignments decide
        assignments = self.self_assignments(attr)
        if not assignments or any(value is None for _, value in assignments):
            return 0
        self._visiting.add(key)
        try:
            kinds = []
            for method, value in assignments:
                scope = self if method is self.scope else _Scope(self.index, method)
                if scope is not self:
                    scope._visiting = self._visiting
                kinds.append(scope.number(value, depth + 1))  # type: ignore[arg-type]
        finally:
            self._visiting.discard(key)
        if not all(kinds):
            return 0
        # a computed number, or literals assigned at several places: a number that changes
        return _STRONG if _STRONG in kinds or len(kinds) > 1 else _WEAK

    # -- Python numbers kept in an object or dict: local, or an attribute of self --------------
    def member(self, node: ast.AST) -> tuple[str, str] | None:
        """``obj.attr`` / ``d["key"]`` read where ``obj``/``d`` is a local name of this function
        (assigned, not a parameter, not ``self``) or an attribute of ``self`` (``self.hparams["lr"]``,
        ``self.config.lr``): (``obj`` or ``self.X``, ``.attr`` / ``["key"]``)."""
        if not isinstance(self.scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        if isinstance(node, ast.Attribute):
            holder, key = node.value, "." + node.attr
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                and isinstance(node.slice.value, (str, int)):
            holder, key = node.value, f"[{node.slice.value!r}]"
        else:
            return None
        if isinstance(holder, ast.Name) and holder.id != "self":
            binds = self.bindings.get(holder.id, ())
            if not binds or holder.id in self.params or not all(isinstance(b, ast.Assign) for b in binds):
                return None
            return holder.id, key
        if self._self_attribute(holder) is not None:
            return f"self.{holder.attr}", key  # type: ignore[attr-defined]
        return None

    def member_stores(self, base: str, key: str | None = None) -> list[tuple[ast.AST, ast.stmt, ast.expr]]:
        """(function, statement, value) for every ``base.attr = value`` / ``base[k] = value`` (and
        ``+=``): in this function for a local ``base``, in every method of the class for
        ``self.X``; ``key`` None: of any member of ``base`` (``d[i] = ...`` gives key None)."""
        def compute() -> list[tuple[str, str | None, ast.AST, ast.stmt, ast.expr]]:
            found: list[tuple[str, str | None, ast.AST, ast.stmt, ast.expr]] = []
            cls = self.owner_class()
            functions = [self.scope] + ([m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                                         and m is not self.scope] if cls is not None else [])
            for function in functions:
                for n in (self.index.scope_nodes(function) if function is self.scope else ast.walk(function)):
                    if isinstance(n, ast.Assign):
                        targets = n.targets
                    elif isinstance(n, ast.AugAssign):
                        targets = [n.target]
                    else:
                        continue
                    for t in targets:
                        if not isinstance(t, (ast.Attribute, ast.Subscript)):
                            continue
                        holder = t.value
                        if isinstance(holder, ast.Name) and holder.id != "self" and function is self.scope:
                            found.append((holder.id, self._member_key(t), function, n, n.value))
                        elif isinstance(holder, ast.Attribute) and isinstance(holder.value, ast.Name) \
                                and holder.value.id == "self":
                            found.append((f"self.{holder.attr}", self._member_key(t), function, n, n.value))
            return found

        stores = self.index.memo(("member stores", id(self.scope)), compute)
        return [(f, stmt, value) for b, k, f, stmt, value in stores if b == base and (key is None or k == key)]

    @staticmethod
    def _member_key(target: ast.Attribute | ast.Subscript) -> str | None:
        if isinstance(target, ast.Attribute):
            return "." + target.attr
        if isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, (str, int)):
            return f"[{target.slice.value!r}]"
        return None  # d[i] = ...: some item

    def _scope_of(self, function: ast.AST) -> _Scope:
        if function is self.scope:
            return self
        scope = _Scope(self.index, function)
        scope._visiting = self._visiting
        return scope

    def _member_number(self, node: ast.Attribute | ast.Subscript, depth: int) -> int:
        """A member of an object or dict holds a Python number: every value it can have (its
        initial one: the dict display's entry, or what the constructor of a class of this file
        assigns to ``self.attr``; and every assignment to it) is a number."""
        base, key = self.member(node)  # type: ignore[misc]
        visit = f"{base}{key}"
        if visit in self._visiting or depth > 8:
            return _WEAK  # the other values decide
        self._visiting.add(visit)
        try:
            initial = self._member_initial(base, key, depth)
            if initial is None:
                return 0
            if any(self._member_key(t) is None for _, stmt, _ in self.member_stores(base)  # d[i] = ...
                   for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])  # type: ignore[attr-defined]
                   if isinstance(t, ast.Subscript)):
                return 0
            kinds = [initial] + [self._scope_of(f).number(value, depth + 1)
                                 for f, _, value in self.member_stores(base, key)]
        finally:
            self._visiting.discard(visit)
        if not all(kinds):
            return 0
        return _STRONG if _STRONG in kinds or len(kinds) > 1 else _WEAK

    def _member_initial(self, base: str, key: str, depth: int) -> int | None:
        """The kind of a member's value where its holder is created (None: unknown): the single
        local assignment of ``base``, or every ``self.X = ...`` of the class."""
        if base.startswith("self."):
            made = self.self_assignments(base[len("self."):])
            if not made or any(value is None for _, value in made):
                return None
            kinds = [self._initial_from(value, key, self._scope_of(f), depth) for f, value in made]  # type: ignore[arg-type]
            if not kinds or any(k is None for k in kinds):
                return None
            return _STRONG if _STRONG in kinds or len(kinds) > 1 else kinds[0]
        binds = self.bindings.get(base, ())
        if len(binds) != 1:
            return None
        return self._initial_from(binds[0].value, key, self, depth)  # type: ignore[attr-defined]

    def _initial_from(self, value: ast.expr, key: str, scope: _Scope, depth: int) -> int | None:
        """The kind of member ``key`` of the object ``value`` makes (evaluated in ``scope``): the
        entry of a dict display, or the ``self.attr`` assignments of a class of this file (a
        constructor parameter counts as a number when its default is one and the call does not
        pass it, or passes a number)."""
        if isinstance(value, ast.Dict) and key.startswith("["):
            for k, v in zip(value.keys, value.values):
                if isinstance(k, ast.Constant) and f"[{k.value!r}]" == key:
                    return scope.number(v, depth + 1) or None
            return None
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and key.startswith(".")):
            return None
        classes = [c for c in self.index.tree.body if isinstance(c, ast.ClassDef) and c.name == value.func.id]
        if len(classes) != 1 or classes[0].decorator_list or any(
                not (isinstance(b, ast.Name) and b.id == "object") for b in classes[0].bases):
            return None
        init = next((m for m in classes[0].body if isinstance(m, ast.FunctionDef) and m.name == "__init__"), None)
        if init is None:
            return None
        kinds = []
        init_scope = _Scope(self.index, init)
        init_scope._visiting = self._visiting
        for method, assigned in init_scope.self_assignments(key[1:]):
            if assigned is None:
                return None
            if method is init and isinstance(assigned, ast.Name) and assigned.id in init_scope.params:
                kind = scope._constructor_argument(init, value, assigned.id, depth)
            else:
                kind = init_scope._scope_of(method).number(assigned, depth + 1)
            if not kind:
                return None
            kinds.append(kind)
        if not kinds:
            return None
        return _STRONG if _STRONG in kinds or len(kinds) > 1 else _WEAK

    def _constructor_argument(self, init: ast.FunctionDef, call: ast.Call, param: str, depth: int) -> int:
        """The kind of what ``Cls(...)`` (a call in this scope) binds to ``__init__``'s ``param``:
        the argument it passes (a number here), else the parameter's default."""
        positional = [a.arg for a in init.args.posonlyargs + init.args.args][1:]
        passed = next((kw.value for kw in call.keywords if kw.arg == param), None)
        if passed is None and param in positional:
            i = positional.index(param)
            if any(isinstance(a, ast.Starred) for a in call.args[:i + 1]):
                return 0
            passed = call.args[i] if i < len(call.args) else None
        if passed is not None:
            return _STRONG if self.number(passed, depth + 1) else 0
        defaults = dict(zip([a.arg for a in init.args.args][len(init.args.args) - len(init.args.defaults):],
                            init.args.defaults))
        default = defaults.get(param)
        return _STRONG if isinstance(default, ast.Constant) and type(default.value) in (int, float) else 0

    def _param_number(self, name: str, depth: int) -> int:
        """A parameter (without a numeric default or annotation) that every call site of this
        function in this file binds to a Python number (one level of callers): _STRONG."""
        func = self.scope
        visit = f"param:{name}"
        if visit in self._visiting or depth > 4 or not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return 0
        sites = _bound_at_sites(self.index, func, name)
        if not sites:
            return 0
        self._visiting.add(visit)
        try:
            for site, value in sites:
                if value is None:
                    default = self.params.get(name)
                    if not (isinstance(default, ast.Constant) and type(default.value) in (int, float)):
                        return 0
                    continue
                caller = _Scope(self.index, self.index.function_of(site) or self.index.enclosing_scope(site))
                caller._visiting = self._visiting
                if not caller.number(value, depth + 1):
                    return 0
        finally:
            self._visiting.discard(visit)
        return _STRONG

    def _rebound_in_loop(self, use: ast.Name) -> ast.expr | None:
        """The value of the last plain assignment to ``use.id`` inside the loop that counts it and
        before ``use`` (the definition that reaches ``use`` in that iteration)."""
        loop = self.counter_loop(use.id)
        if loop is None:
            return None
        last = None
        for b in self.bindings.get(use.id, ()):
            if isinstance(b, ast.Assign) and _inside(b, loop) and (b.end_lineno or b.lineno) < use.lineno:
                if last is None or b.lineno > last.lineno:
                    last = b
        return last.value if last is not None else None

    def index_function(self, name: str) -> ast.FunctionDef | None:
        """The module-level ``def name`` of this file (not a tf.function)."""
        if name in self.index.tf_functions:
            return None
        for stmt in self.index.tree.body:
            if isinstance(stmt, ast.FunctionDef) and stmt.name == name and not stmt.decorator_list:
                return stmt
        return None

    def new_object(self, node: ast.expr, depth: int = 0) -> str | None:
        """``Cls(...)`` of a class of this file, or a Keras object (layer, optimizer, metric, loss,
        model): tf.function keys traces on them by identity. The name of the class. (A new
        ``tf.Variable`` per call traces once: variables are traced by shape and dtype.)"""
        if not isinstance(node, ast.Call):
            return None
        resolved = self.index.aliases.resolve(node.func) or ""
        last = resolved.rsplit(".", 1)[-1]
        if resolved.startswith(("tf.keras.", "keras.")) and last[:1].isupper():
            return last
        if not isinstance(node.func, ast.Name):
            return None
        for stmt in self.index.tree.body:
            if isinstance(stmt, ast.ClassDef) and stmt.name == node.func.id:
                return stmt.name if _identity_keyed(stmt) else None
        # a function of this file that builds and returns a new such object on every call
        # (`model = build()` in the loop: new_plain_object_each_call in tf_retrace.json; the coverage
        # matrix's keras_model_rebuilt_per_step)
        helper = self.index_function(node.func.id) if depth < 3 and node.func.id not in self.bindings \
            and node.func.id not in self.params else None
        return returns_new_object(helper, lambda v: self.new_object(v, depth + 1)) if helper is not None else None

    def text(self, node: ast.expr) -> bool:
        """A string built from values at run time (an f-string, ``str(x)``, ``"..." % x``, ``.format``)."""
        if isinstance(node, ast.JoinedStr):
            return any(isinstance(v, ast.FormattedValue) for v in node.values)
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id in ("str", "repr"):
                return True
            return isinstance(node.func, ast.Attribute) and node.func.attr == "format" and isinstance(
                node.func.value, ast.Constant) and isinstance(node.func.value.value, str)
        return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(
            node.left, ast.Constant) and isinstance(node.left.value, str)

    def _module_constant(self, name: str) -> int:
        for stmt in self.index.tree.body:
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
                return _WEAK if isinstance(stmt.value, ast.Constant) and type(stmt.value.value) in (int, float) else 0
        return 0

    def random_draw(self, node: ast.AST) -> str | None:
        """``random.gauss(0, 1)``, ``np.random.beta(a, a)`` or ``rng.uniform(lo, hi)`` (``rng`` a
        ``np.random.default_rng``/``RandomState``) drawing one value, without ``size``: a call that
        returns a new Python number each time it runs (tables in :mod:`xlacheck.analysis.tables`,
        checked against NumPy); its text, or None."""
        if not isinstance(node, ast.Call) or any(isinstance(a, ast.Starred) for a in node.args) or any(
                k.arg is None or (k.arg == "size" and not (isinstance(k.value, ast.Constant) and k.value.value is None))
                for k in node.keywords):
            return None
        name = self.index.aliases.resolve(node.func) or ""
        if name.startswith("random.") and name.removeprefix("random.") in STDLIB_RANDOM_DRAWS:
            return name
        if name.startswith("np.random.") \
                and len(node.args) <= NUMPY_SCALAR_DRAWS.get(name.removeprefix("np.random."), -1):
            return name
        if isinstance(node.func, ast.Attribute):
            table = self._generator_table(node.func.value)
            if table is not None and len(node.args) <= table.get(node.func.attr, -1):
                return ast.unparse(node.func)
        return None

    def _generator_table(self, owner: ast.expr) -> dict[str, int] | None:
        """The scalar draws of the NumPy generator ``owner`` holds: a local or module-level name,
        or ``self.X``, every assignment of which builds one (``np.random.default_rng(seed)``)."""
        if isinstance(owner, ast.Name):
            bound = self.index.local_binding(owner.id, owner) or self.index.module_constant(owner)
            values: list[ast.expr | None] = [bound] if bound is not None else []
        elif isinstance(owner, ast.Attribute) and self._self_attribute(owner) is not None:
            values = [v for _, v in self.self_assignments(owner.attr)]
        else:
            return None
        tables = [_GENERATOR_TABLES.get(self.index.aliases.resolve(v.func) or "")
                  if isinstance(v, ast.Call) else None for v in values]
        return tables[0] if tables and all(t is not None and t is tables[0] for t in tables) else None

    def _draw_each_call(self, node: ast.expr, call: ast.Call) -> str | None:
        """A random draw in ``node`` that runs again before every call of the function: inside a
        loop around ``call``, or, where no loop is around it, in the function around ``call``
        (each run of that function draws and calls once). A draw made once before the loop is one
        value, one trace."""
        loops = self.index.loops_around(call)
        func = self.index.function_of(call)
        for sub in ast.walk(node):
            drawn = self.random_draw(sub)
            if drawn is None:
                continue
            if loops and any(self._inside(sub, loop) for loop in loops):
                return f"`{drawn}` draws a new value at every iteration of the loop that calls it"
            if not loops and isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                    and func.name not in ("__init__", "main") and self.index.function_of(sub) is func:
                return f"`{drawn}` draws a new value on every call of `{func.name}()`"
        return None

    def _neutral(self, node: ast.expr) -> bool:
        """Sub-expressions that are numbers in context: comprehension variables, len()/float() calls."""
        if isinstance(node, ast.Name):
            return node.id in self.comprehension_names
        if isinstance(node, ast.BinOp):
            return all(self.number(s) or self._neutral(s) for s in (node.left, node.right))
        return False

    def _stdlib_number(self, node: ast.expr) -> bool:
        name = self.index.aliases.resolve(node)
        return name is not None and name.startswith(_STDLIB_NUMBER_MODULES)

    def _any_tensorish(self, nodes: list[ast.expr]) -> bool:
        stack: list[ast.AST] = list(nodes)
        while stack:
            sub = stack.pop()
            if isinstance(sub, (ast.Attribute, ast.Subscript)) and (
                    self._self_attribute(sub) is not None or self.member(sub) is not None) and self.number(sub):
                continue  # self.lr, config.lr, hparams["lr"], self.meta["w"]: a number (its parts need no check)
            if isinstance(sub, ast.Call) and self.random_draw(sub) is not None:
                continue  # np.random.uniform(lo, hi): a Python float
            if isinstance(sub, ast.Call) and not (
                    isinstance(sub.func, ast.Name) and sub.func.id in _NUMBER_BUILTINS | _NUMBER_COMBINERS
                    or self._stdlib_number(sub.func)):
                return True
            if isinstance(sub, ast.Attribute) and not self._stdlib_number(sub) and not self._stdlib_number(sub.value):
                return True  # x.attr: a tensor, a config value... not provably a Python number
            stack.extend(ast.iter_child_nodes(sub))
        return False

    def number_collection(self, node: ast.expr, depth: int = 0, nested: bool = False) -> bool:
        """A parameter annotated as a sequence of Python numbers (``list[float]``, ``Sequence[int]``,
        ``tuple[float, ...]``; ``nested``: ``list[list[float]]``), read where nothing rebinds it:
        its items change with the caller's argument. (A loop over a fixed display or module
        constant is not listed: measured on TF 2.21, the first pass traces once per item and
        every later pass hits the cache, a bounded cost.)"""
        if depth > 6 or not isinstance(node, ast.Name) or node.id in self.bindings:
            return False
        return node.id in (self.nested_sequence_params if nested else self.sequence_params)

    def python_list(self, node: ast.expr, depth: int = 0) -> bool:
        """A list/tuple/dict display or comprehension of Python numbers (traced by value)."""
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return bool(node.elts) and all(self.number(e) for e in node.elts)
        if isinstance(node, ast.Dict):
            return bool(node.values) and all(v is not None and self.number(v) for v in node.values)
        if isinstance(node, ast.ListComp):
            return bool(self.number(node.elt)) or self._neutral(node.elt) and not self._any_tensorish([node.elt])
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "tolist" \
                and not node.args and not node.keywords:
            return True  # array.tolist(): a (nested) list of Python numbers, traced by value
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("list", "tuple") \
                and len(node.args) == 1 and isinstance(node.args[0], ast.Name):
            iters = self.loop_iters.get(node.args[0].id, ())
            return bool(iters) and node.args[0].id not in self.params and all(  # list(row) for row in rows
                self.number_collection(it, depth + 1, nested=True) for it in iters)
        if isinstance(node, ast.Name) and depth < 4:
            values = [b.value for b in self.bindings.get(node.id, ()) if isinstance(b, ast.Assign)]
            return bool(values) and all(self.python_list(v, depth + 1) for v in values)
        return False

    def varies(self, node: ast.expr, call: ast.Call, depth: int = 0) -> str | None:
        """Why this value differs between calls of the function (None: constant as far as we see)."""
        if depth > 8:
            return None
        loops = self.index.loops_around(call)
        comprehension_targets = {name for loop in loops if isinstance(loop, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp))
                                 for gen in loop.generators for name in target_names(gen.target)}
        why = self._draw_each_call(node, call)
        if why is not None:
            return why
        for sub in ast.walk(node):
            attr = self._self_attribute(sub)
            if attr is not None:
                why = self._self_varies(attr, loops)
                if why is not None:
                    return why
            why = self._member_varies(sub, loops)
            if why is not None:
                return why
            if not isinstance(sub, ast.Name) or not isinstance(sub.ctx, ast.Load):
                continue
            if sub.id in comprehension_targets:
                return f"`{sub.id}` changes every iteration of the comprehension that calls it"
            if sub.id in self.globals_updated:
                return f"`{sub.id}` is a module-level value this function updates on every call"
            counter = self.counter_loop(sub.id)
            if counter is not None and counter in loops:
                kind = "range()" if isinstance(counter.iter, ast.Call) and getattr(counter.iter.func, "id", "") == "range" else "enumerate()"
                return f"`{sub.id}` counts the iterations of {kind}"
            binds = self.bindings.get(sub.id, ())
            # every binding assigns the same literal (`temperature = 0.7` in the loop body): one value
            literals = [b.value for b in binds if isinstance(b, ast.Assign) and isinstance(b.value, ast.Constant)]
            same_literal = sub.id not in self.params and bool(binds) and len(literals) == len(binds) \
                and len({repr(c.value) for c in literals}) == 1
            for b in binds:
                if isinstance(b, (ast.For, ast.AsyncFor)) and b in loops:
                    return f"`{sub.id}` changes every iteration of the loop that calls it"
                if not isinstance(b, (ast.Assign, ast.AugAssign, ast.AnnAssign)) or same_literal:
                    continue
                if any(self._inside(b, loop) for loop in loops if isinstance(loop, (ast.For, ast.AsyncFor, ast.While))):
                    return f"`{sub.id}` is reassigned in the loop that calls it"
            if sub.id in self.params and sub is not node and depth > 0:
                return f"it is computed from the argument `{sub.id}` of the enclosing function"
            for b in binds:
                value = getattr(b, "value", None)
                if isinstance(b, ast.Assign) and value is not None:
                    why = self.varies(value, call, depth + 1)
                    if why is not None:
                        return why
        return None

    def _member_varies(self, node: ast.AST, loops: list[ast.AST]) -> str | None:
        """``obj.attr`` / ``d["key"]`` (of a local or of ``self.X``) assigned in a loop around the
        call (``config.temperature *= decay`` per step), or by a method of the class that such a
        loop calls; or a local dict/list passed whole while that loop assigns one of its items
        (``hparams["lr"] = ...`` per epoch)."""
        stmt_loops = [loop for loop in loops if isinstance(loop, (ast.For, ast.AsyncFor, ast.While))]
        if not stmt_loops:
            return None
        member = self.member(node)
        if member is not None:
            base, key = member
            stores = self.member_stores(base, key)
            shown = f"`{base}{key}`"
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in self.params \
                and any(isinstance(b, ast.Assign) and isinstance(b.value, (ast.Dict, ast.List))
                        for b in self.bindings.get(node.id, ())):
            stores = [(f, stmt, value) for f, stmt, value in self.member_stores(node.id)
                      if any(isinstance(t, ast.Subscript) for t in getattr(stmt, "targets", [getattr(stmt, "target", None)]))]
            if not all(self.number(value) for _, _, value in stores):
                return None  # an item set to a tensor: traced by shape and dtype, the numbers stay
            shown = f"an item of `{node.id}`"
        else:
            return None
        if any(f is self.scope and self._inside(stmt, loop) for f, stmt, _ in stores for loop in stmt_loops):
            return f"{shown} is reassigned in the loop that calls it"
        updaters = {getattr(f, "name", "") for f, _, _ in stores if f is not self.scope} - {"__init__"}
        for loop in stmt_loops:
            for n in ast.walk(loop):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                        and isinstance(n.func.value, ast.Name) and n.func.value.id == "self" \
                        and n.func.attr in updaters:
                    return f"{shown} is updated by `self.{n.func.attr}()` in the loop that calls it"
        return None

    def _self_varies(self, attr: str, loops: list[ast.AST]) -> str | None:
        """``self.attr`` is reassigned in a loop around the call, or by a method of the class
        that such a loop calls (``self.decay()``), or updated from its own value by the calling
        method itself (``self.global_step += 1`` in ``train_on_batch``: a new value every call, as
        ``global STEP; STEP += 1`` is for a module-level number)."""
        stmt_loops = [loop for loop in loops if isinstance(loop, (ast.For, ast.AsyncFor, ast.While))]
        func = self.scope
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) and func.name not in ("__init__", "build"):
            for n in self.index.scope_nodes(func):
                target = n.target if isinstance(n, ast.AugAssign) else n.targets[0] if isinstance(
                    n, ast.Assign) and len(n.targets) == 1 else None
                if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                        and target.value.id == "self" and target.attr == attr):
                    continue
                if isinstance(n, ast.AugAssign) or isinstance(n, ast.Assign) and any(  # self.t = self.t * decay
                        isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == "self"
                        and sub.attr == attr for sub in ast.walk(n.value)):
                    return f"`self.{attr}` is updated from its own value on every call of `{func.name}()`"
        if not stmt_loops:
            return None
        assignments = self.self_assignments(attr)
        for method, value in assignments:
            if method is self.scope and any(value is not None and self._inside(value, loop) for loop in stmt_loops):
                return f"`self.{attr}` is reassigned in the loop that calls it"
        updaters = {getattr(m, "name", "") for m, _ in assignments if m is not self.scope} - {"__init__"}
        for loop in stmt_loops:
            for n in ast.walk(loop):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                        and isinstance(n.func.value, ast.Name) and n.func.value.id == "self" \
                        and n.func.attr in updaters:
                    return f"`self.{attr}` is updated by `self.{n.func.attr}()` in the loop that calls it"
        return None

    @staticmethod
    def _inside(node: ast.AST, loop: ast.AST) -> bool:
        return loop.lineno <= node.lineno <= (loop.end_lineno or loop.lineno) and node is not loop  # type: ignore[attr-defined]


_ARITHMETIC_CALLS = _NUMBER_BUILTINS | _NUMBER_COMBINERS


def _counts(head: ast.For | ast.AsyncFor | ast.comprehension, name: str) -> bool:
    """The loop head binds ``name`` to ``range(...)`` values or to the index of ``enumerate(...)``."""
    it = head.iter
    if not isinstance(it, ast.Call) or not isinstance(it.func, ast.Name):
        return False
    if it.func.id == "range":
        return isinstance(head.target, ast.Name) and head.target.id == name
    return it.func.id == "enumerate" and isinstance(head.target, ast.Tuple) and bool(head.target.elts) \
        and isinstance(head.target.elts[0], ast.Name) and head.target.elts[0].id == name


def _loop_sources(target: ast.expr, iterable: ast.expr) -> list[tuple[str, ast.expr]]:
    """(name, the iterable its values come from) for a loop target: ``for x in xs``,
    ``for i, x in enumerate(xs)``, ``for a, b in zip(xs, ys)``."""
    if isinstance(target, ast.Name):
        return [(target.id, iterable)]
    if not (isinstance(target, ast.Tuple) and isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name)):
        return []
    elts, func, args = target.elts, iterable.func.id, iterable.args
    if func == "enumerate" and len(elts) == 2 and len(args) == 1 and isinstance(elts[1], ast.Name):
        return [(elts[1].id, args[0])]
    if func == "zip" and len(elts) == len(args) and not iterable.keywords:
        return [(e.id, a) for e, a in zip(elts, args) if isinstance(e, ast.Name)]
    return []
_SEQUENCE_TYPES = frozenset({"list", "tuple", "List", "Tuple", "Sequence", "Iterable", "Collection"})


def _number_sequence_annotation(annotation: ast.expr | None) -> bool:
    """``list[float]``, ``Sequence[int]``, ``typing.List[float]``, ``tuple[float, ...]``."""
    if not isinstance(annotation, ast.Subscript):
        return False
    base = annotation.value
    name = base.id if isinstance(base, ast.Name) else base.attr if isinstance(base, ast.Attribute) else ""
    if name not in _SEQUENCE_TYPES:
        return False
    items = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
    return bool(items) and all(isinstance(i, ast.Name) and i.id in ("int", "float")
                               or isinstance(i, ast.Constant) and i.value is Ellipsis for i in items) and any(
        isinstance(i, ast.Name) for i in items)


def _returns_arithmetic(index: ModuleIndex, func: ast.FunctionDef) -> bool:
    """Every ``return`` of ``func`` gives Python arithmetic over its parameters (numbers in, number
    out): constants, parameters, local names assigned such arithmetic, operators, and number
    builtins or ``math``/``random`` calls only."""
    params = {a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs}
    assigned: dict[str, list[ast.expr]] = {}
    for n in index.scope_nodes(func):
        if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            for t in targets:
                for sub in ast.walk(t):
                    if isinstance(sub, ast.Name):
                        assigned.setdefault(sub.id, []).append(n.value if n.value is not None else t)
        elif isinstance(n, (ast.For, ast.AsyncFor, ast.With, ast.NamedExpr)):
            return False  # loop targets, context managers, walrus: not followed
    returns = [n for n in index.scope_nodes(func) if isinstance(n, ast.Return)]
    values = [r.value for r in returns if r.value is not None]
    if not returns or len(values) != len(returns):
        return False
    return all(_arithmetic(index, value, params, assigned, 0) for value in values)


def _arithmetic(index: ModuleIndex, node: ast.expr, params: set[str], assigned: dict[str, list[ast.expr]],
                depth: int) -> bool:
    if depth > 3:
        return False
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            name = index.aliases.resolve(sub.func) or ""
            if not ((isinstance(sub.func, ast.Name) and sub.func.id in _ARITHMETIC_CALLS)
                    or name.startswith(_STDLIB_NUMBER_MODULES)):
                return False
        elif isinstance(sub, ast.Attribute):
            if not (index.aliases.resolve(sub) or "").startswith(_STDLIB_NUMBER_MODULES):
                return False
        elif isinstance(sub, (ast.Subscript, ast.List, ast.Tuple, ast.Dict, ast.Lambda, ast.JoinedStr)):
            return False
        elif isinstance(sub, ast.Constant) and not isinstance(sub.value, (int, float)):
            return False
        elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load) and sub.id not in _ARITHMETIC_CALLS:
            if sub.id in assigned:
                if not all(_arithmetic(index, v, params, assigned, depth + 1) for v in assigned[sub.id]):
                    return False
            elif sub.id not in params and index.aliases.resolve(sub) is None:
                return False  # a module global or builtin we cannot see the value of
    return True


def _identity_keyed(cls: ast.ClassDef) -> bool:
    """tf.function keys a trace on such an instance by identity. Measured on TF 2.21: a plain
    class, one defining ``__eq__``/``__hash__`` and a frozen dataclass all trace once per new
    object; a NamedTuple is a nest and traces by the values of its fields. So: any class of this
    file except NamedTuples, ``__tf_tracing_type__`` implementers and classes with a base we
    cannot see (an ExtensionType, a TypeSpec...)."""
    if any(n.name == "__tf_tracing_type__" for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
        return False
    return all(isinstance(b, ast.Name) and b.id == "object" for b in cls.bases) and not cls.keywords


def _inside(node: ast.AST, loop: ast.AST) -> bool:
    return loop.lineno < node.lineno <= (loop.end_lineno or loop.lineno)  # type: ignore[attr-defined]


def _created_in_caller(index: ModuleIndex, tfn: TfFunction, call: ast.Call) -> bool:
    """``tfn`` is a ``tf.function`` created in the body of the function that calls it (a local
    ``@tf.function`` def, or ``f = tf.function(g)`` there): its trace cache lives for one call of
    that function. Under an outer trace (a TPU step) the traces are inlined into the outer
    function's one compilation; eagerly, the new function per call is XLA404's finding."""
    if tfn.is_method:
        return False
    decorated = tfn.definition is not None and tfn.wrapper in tfn.definition.decorator_list
    owner = index.function_of(tfn.definition if decorated and tfn.definition is not None else tfn.wrapper)
    return owner is not None and index.function_of(call) is owner


def _fixed_per_creation(scope: _Scope, arg: ast.expr) -> bool:
    """``arg`` takes the same fixed values in every call of the enclosing function: a literal, or
    the counter of loops over ``range`` of literals or over a display of literals (`for dim in
    range(3)`): a fixed number of traces per creation of a local tf.function, not a growing one."""
    if isinstance(arg, ast.Constant):
        return True
    if not isinstance(arg, ast.Name) or arg.id in scope.params:
        return False
    binds = scope.bindings.get(arg.id, ())
    return bool(binds) and all(
        isinstance(b, ast.For) and isinstance(b.target, ast.Name) and b.target.id == arg.id
        and _literal_iterable(b.iter) for b in binds)


def _literal_iterable(node: ast.expr) -> bool:
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(isinstance(e, ast.Constant) for e in node.elts)
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range"
            and not node.keywords and all(isinstance(a, ast.Constant) and type(a.value) is int for a in node.args))


def _tf_alias(ctx: ModuleContext) -> str | None:
    for local, canon in ctx.facts.aliases.names.items():
        if canon == "tf":
            return local
    return None


def _kind(scope: _Scope, arg: ast.expr) -> str | None:
    """What Python value ``arg`` certainly holds: "list", "dict", "number", "string", or None."""
    if isinstance(arg, (ast.List, ast.Tuple, ast.Dict, ast.ListComp, ast.Name, ast.Call)) and scope.python_list(arg):
        bound = [b.value for b in scope.bindings.get(arg.id, ()) if isinstance(b, ast.Assign)] \
            if isinstance(arg, ast.Name) else [arg]
        return "dict" if bound and all(isinstance(v, ast.Dict) for v in bound) else "list"
    if scope.number(arg) == _STRONG:
        return "number"
    if scope.text(arg):
        return "string"
    if _python_bool(scope, arg):
        return "bool"
    return None


def _python_bool(scope: _Scope, arg: ast.expr, depth: int = 0) -> bool:
    """``arg`` is a Python bool computed from Python numbers: a comparison whose every operand is a
    number and one certainly a number on the host (``step % 2 == 0``, ``i == len(batches) - 1``),
    ``not``/``and``/``or`` of such comparisons, or a local name every assignment binds to one. A
    bool that changes between calls traces and compiles the function once per value (measured:
    ``python_bool_changes`` in xlacheck/data/tf_retrace.json)."""
    if depth > 4:
        return False
    if isinstance(arg, ast.Compare):
        sides = [arg.left, *arg.comparators]
        if scope._any_tensorish(sides) or not all(isinstance(op, (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE))
                                                   for op in arg.ops):
            return False
        kinds = [scope.number(side) for side in sides]
        return _STRONG in kinds and all(k or scope._neutral(side) for k, side in zip(kinds, sides))
    if isinstance(arg, ast.UnaryOp) and isinstance(arg.op, ast.Not):
        return _python_bool(scope, arg.operand, depth + 1)
    if isinstance(arg, ast.BoolOp):
        return all(_python_bool(scope, v, depth + 1) for v in arg.values)
    if isinstance(arg, ast.Name) and arg.id not in scope.params:
        values = [b.value if isinstance(b, ast.Assign) else None for b in scope.bindings.get(arg.id, ())]
        return bool(values) and all(v is not None and _python_bool(scope, v, depth + 1) for v in values)
    return False


# What a parameter annotation of the compiled function says its argument is (the author's
# declaration): a Python number or string is part of the trace key by value (measured rows
# ``python_float_value_changes``, ``python_int_value_changes``, ``python_str_changes``); a bool
# takes two values (bounded) and is left out.
_ANNOTATED_KINDS = {"float": "number", "int": "number", "str": "string"}


def _annotated_param(tfn: TfFunction, slot: object) -> ast.arg | None:
    """The compiled function's parameter that ``slot`` (a position or a keyword) binds, when its
    annotation says a Python number, string or sequence of numbers (:func:`_annotated_kind`)."""
    func = tfn.definition
    if func is None or slot is None:
        return None
    positional = [*func.args.posonlyargs, *func.args.args]
    if tfn.is_method and positional:
        positional = positional[1:]  # `self`, bound by the attribute access
    param: ast.arg | None
    if isinstance(slot, int):
        param = positional[slot] if slot < len(positional) else None
    else:
        param = next((a for a in (*positional, *func.args.kwonlyargs) if a.arg == slot), None)
    return param if param is not None and _annotated_kind(param) is not None else None


def _annotated_kind(param: ast.arg) -> str | None:
    """"number"/"string"/"list" for a parameter annotated ``float``/``int``, ``str``, or a sequence
    of numbers (``list[float]``); None otherwise."""
    annotation = param.annotation
    if isinstance(annotation, ast.Name) and annotation.id in _ANNOTATED_KINDS:
        return _ANNOTATED_KINDS[annotation.id]
    if _number_sequence_annotation(annotation):
        return "list"
    return None


def _rebound_per_iteration(scope: _Scope, arg: ast.expr, call: ast.Call) -> bool:
    """A name in ``arg`` takes a new value on every pass of a loop around ``call``: a target of that
    loop (or comprehension), or assigned inside it. (What an annotation alone is trusted with: a
    value computed once from the caller's arguments, a model's output size, does not change.)"""
    loops = scope.index.loops_around(call)
    if not loops:
        return False
    targets = {name for loop in loops for gen in getattr(loop, "generators", [])
               for name in target_names(gen.target)}
    for sub in ast.walk(arg):
        if not isinstance(sub, ast.Name):
            continue
        if sub.id in targets:
            return True
        for b in scope.bindings.get(sub.id, ()):
            if isinstance(b, (ast.For, ast.AsyncFor)) and b in loops:
                return True
            if isinstance(b, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and any(
                    scope._inside(b, loop) for loop in loops if isinstance(loop, (ast.For, ast.AsyncFor, ast.While))):
                return True
    return False


def _host_value(scope: _Scope, arg: ast.expr) -> bool:
    """``arg`` is a name (or arithmetic on names and numbers) that nothing here binds from a call or
    an attribute: not a tensor this file made (``tf.constant(lr)``), so the callee's annotation says
    what it is."""
    if not isinstance(arg, (ast.Name, ast.BinOp, ast.UnaryOp)) or scope._any_tensorish([arg]):
        return False
    for sub in ast.walk(arg):
        if isinstance(sub, ast.Name) and any(
                isinstance(b, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and b.value is not None
                and scope._any_tensorish([b.value]) for b in scope.bindings.get(sub.id, ())):
            return False
    return True


def _bound_at_sites(index: ModuleIndex, func: ast.FunctionDef | ast.AsyncFunctionDef,
                    param: str) -> list[tuple[ast.Call, ast.expr | None]]:
    """(call site, the argument it binds to ``param``, None when it passes none) for every call of
    ``func`` in this file (``obj.method(...)`` for a method), recursive calls left out. Empty when
    a site passes ``*args``/``**kwargs`` that may bind it."""
    positional = [a.arg for a in func.args.posonlyargs + func.args.args]
    method = isinstance(index.parent(func), ast.ClassDef)
    found: list[tuple[ast.Call, ast.expr | None]] = []
    for site, _ in index.calls:
        target = site.func
        if method and isinstance(target, ast.Attribute) and target.attr == func.name:
            slots = positional[1:]  # obj.method(a, b): self is bound
        elif not method and isinstance(target, ast.Name) and target.id == func.name:
            slots = positional
        else:
            continue
        if index.function_of(site) is func:
            continue  # recursion
        value = next((kw.value for kw in site.keywords if kw.arg == param), None)
        if value is None and param in slots:
            position = slots.index(param)
            if any(isinstance(a, ast.Starred) for a in site.args[:position + 1]):
                return []
            if position < len(site.args):
                value = site.args[position]
        if value is None and any(kw.arg is None for kw in site.keywords):
            return []
        found.append((site, value))
    return found


def _new_object_bound(scope: _Scope, call: ast.Call, arg: ast.Name) -> str | None:
    """The class of the new object ``arg`` holds at ``call`` when every binding of ``arg`` in the
    function builds one (``cfg = Config(...)``) inside the loop around ``call`` (or, outside loops, in
    the function around it); None when it is built before the loop (one object, one trace key)."""
    binds = scope.bindings.get(arg.id, ())
    classes = [scope.new_object(b.value) if isinstance(b, ast.Assign) else None for b in binds]
    if not binds or any(c is None for c in classes) or isinstance(scope.scope, ast.Module):
        return None
    loops = [loop for loop in scope.index.loops_around(call) if isinstance(loop, (ast.For, ast.AsyncFor, ast.While))]
    if loops and not any(scope._inside(b, loops[0]) for b in binds):
        return None  # built before the loop: the same object every iteration
    if scope.index.loops_around(call) and not loops:
        return None  # a comprehension over an object built outside it
    return classes[0]


def _computed_through_callers(scope: _Scope, arg: ast.expr, scopes: dict[int, _Scope]) -> str | None:
    """Why a Python value computed at the call from parameters of the function around it changes
    between calls: a parameter it reads (not rebound in that function) is passed, by a call site of
    this file, a value that changes between calls (``run_step(i)`` in ``for i in range(steps)``,
    then ``step(x, 0.1 / (i + 1))`` in ``run_step``). The value model's loop-variable fact, one
    level of callers further (the helper site of benchmarks/retrace_coverage.py)."""
    seen: set[str] = set()
    for sub in ast.walk(arg):
        if not isinstance(sub, ast.Name) or not isinstance(sub.ctx, ast.Load) or sub.id in seen \
                or sub.id not in scope.params or scope.bindings.get(sub.id):
            continue
        seen.add(sub.id)
        found = _through_callers(scope, sub.id, scopes)
        if found is not None and found[0] != "object":
            return f"it is computed from the argument `{sub.id}`: {found[1]}"
    return None


def _through_callers(scope: _Scope, param: str, scopes: dict[int, _Scope]) -> tuple[str, str] | None:
    """``param`` of the function around the call is a Python value that changes: a call site of
    that function in this file passes it one that changes between calls (a loop counter, a
    number reassigned in the loop...). (kind, why), or None. One level of callers."""
    func = scope.scope
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) or func.name in ("__init__", "__post_init__"):
        return None
    index = scope.index
    for site, value in _bound_at_sites(index, func, param):
        if value is None:
            continue
        caller_node = index.function_of(site) or index.enclosing_scope(site)
        caller = scopes.get(id(caller_node))
        if caller is None:
            caller = scopes[id(caller_node)] = _Scope(index, caller_node)
        kind = _kind(caller, value)
        why = caller.varies(value, site) if kind is not None else None
        if kind is not None and why is not None:
            return kind, f"`{func.name}()` receives it from line {site.lineno}, where {why}"
        cls = caller.new_object(value) or (_new_object_bound(caller, site, value) if isinstance(value, ast.Name)
                                           else None)
        if cls is not None and index.loops_around(site):
            # a new identity-keyed object per iteration (new_plain_object_each_call in tf_retrace.json)
            return "object", (f"`{func.name}()` receives a new `{cls}` from line {site.lineno}, built in the loop that "
                              "calls it; it compares by identity")
    return None


class PythonScalarToTfFunction(ModuleRule):
    """
    ## What it does
    Flags a call of a `tf.function` defined in the same file (decorated, or
    `name = tf.function(f)`) that passes a Python `int`, `float`, list, dict or run-time string
    (f-string, `str(...)`, `%`/`.format`) whose value changes from call to call: the counter of
    a `range()`/`enumerate()` loop or comprehension (`[step(x, k) for k in range(n)]`), a Python
    number reassigned in the loop around the call, a
    number computed by a helper of this file doing Python arithmetic (`warmup(step)`), a number or
    list computed from the caller's arguments, each item of a parameter annotated as a sequence of
    numbers (`values: Sequence[float]`, `list(row)` for `rows: list[list[float]]`), a parameter of
    the enclosing function that a call site of this file feeds such a changing value (one level of
    callers: a loss helper handed the epoch's weight, or a new object built in the caller's loop; also a
    number computed at the call from such a parameter: `step(x, 0.1 / (i + 1))` in a helper called as
    `run_step(x, i)` in `for i in range(steps)`), or
    literals that differ between call sites.
    A number kept on `self` (every assignment to `self.X` in the class gives a Python number)
    and reassigned in the loop around the call, or by a method of the class that loop calls
    (`self.anneal()` per epoch), a number on `self` that the calling method updates from its own
    value (`self.global_step += 1` in `train_on_batch`), and a module-level number the calling
    function updates (`global STEP; STEP += 1`), are followed the same way; so are a number kept in a local object
    or dict (`config.temperature`, `hparams["lr"]`: every value it can have, from the dict display
    or the constructor of a class of this file to each assignment in the function, is a number)
    that the loop around the call reassigns, and a local dict or list passed whole while that loop
    reassigns one of its items. A parameter that every call site of its function in this file binds
    to a Python number counts as one (`train(w, grads, 0.1, 4)` makes
    `base_lr * min(1.0, (i + 1) / warmup)` a number), and so do `array.item()` (a Python scalar;
    a NumPy scalar itself is traced as a tensor, measured) and `array.tolist()` (a list of them).
    `enumerate`/`zip` loop targets take
    their items from the sequences they iterate. Where nothing here says what a changing argument
    is, a parameter annotation of the compiled function does (`temperature: float`, `tag: str`,
    `weights: list[float]`): a name bound from no call or attribute (not a tensor this file made)
    passed there is taken for the declared Python value (`bool` is left out: two values, bounded).
    A random draw that returns a Python number
    (`random.uniform(...)`, `np.random.beta(a, a)`, `rng.normal()` on a `np.random.default_rng` or
    `RandomState`, each without `size`: tables in `xlacheck/analysis/tables.py`, checked against NumPy;
    `np.random.choice` and `Generator.integers` return NumPy scalars and are not listed) is a new
    value at every call when it is drawn in the loop around the call, or, with no loop, in the
    calling function (measured, `numpy_random_draw_each_call` in `xlacheck/data/tf_retrace.json`); a
    draw made once before the loop is one value.
    A loop over a fixed display or module constant is not flagged: each item traces once and
    later passes hit the cache (measured), a bounded cost. Nor are literals and counters of loops
    over `range` of literals or a display of literals passed to a `tf.function` created in the
    body that calls it (a local `@tf.function` def): its cache lives for one call of that body,
    which traces the same fixed values each time; under an outer trace (a TPU step) they are
    inlined into its one compilation, and eagerly the new function per call is XLA404's finding. Also
    flags a new object of a class of this file (not a NamedTuple) or a new Keras object (layer,
    optimizer, metric, loss, model) created at the call, or bound to the name passed inside the
    loop that calls (or the function around a call outside loops), directly or by a function of
    this file that builds and returns a new one on every call (`model = build()`; not a decorated
    builder such as an `lru_cache`d one, nor one that may return a kept object), in a loop or on every call
    of the enclosing function: tf.function keys traces on such objects by identity, even when the class
    defines `__eq__`/`__hash__` or is a frozen dataclass (measured on TF 2.21; a new
    `tf.Variable` is traced by shape and dtype and does not retrace). Functions with an `input_signature` are not flagged (their arguments are
    converted to tensors). `experimental_follow_type_hints=True` with a `tf.Tensor` annotation is
    no such conversion on TF 2.21 (measured: three Python floats trace three times,
    ``python_float_follow_type_hints_tensor`` in `xlacheck/data/tf_retrace.json`), so those
    functions are flagged like the others; so is a Python float handed on to a Keras loss
    hyperparameter (`label_smoothing=s`, ``python_float_keras_loss_hyperparameter``).
    With `--preview`, also a Python bool computed from such numbers (`i % 100 == 0`: two values,
    one more trace and compilation than a tensor, ``python_bool_changes``): on real code these were
    first-step flags passed on purpose (Horovod's variable broadcast at `batch == 0`).

    ## Why is this bad?
    A `tf.function` keys its trace cache on the *values* of Python arguments: every new step
    number, temperature or weight list traces the function again and, with
    `jit_compile=True` or on a TPU, compiles it again with XLA. Training slows to a crawl and
    TensorFlow warns about excessive retracing only after several. NumPy arrays and tensors are
    traced by shape and dtype, once.

    ## Example
    ```python
    for step, (x, y) in enumerate(batches):
        w, loss = train_step(w, x, y, step)
    ```

    ## Use instead
    ```python
    for step, (x, y) in enumerate(batches):
        w, loss = train_step(w, x, y, tf.constant(step))  # or keep it in a tf.Variable
    ```

    ## Fix safety
    The fix wraps the argument in `tf.constant(...)` and is unsafe: inside the function the value
    becomes a tensor, so Python uses of it (`range(n)`, a shape, `0.99 ** step` with an int32
    tensor) may need changes.
    """

    code = "XLA403"
    fix = INLINE  # check() builds the fix from the node it flags
    name = "python-scalar-to-tf-function"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(w, x, i):\n    return w * x + tf.cast(i, tf.float32)\n"
                "def train(w, batches):\n    for i, x in enumerate(batches):\n        w = step(w, x, tf.constant(i))\n    return w\n"),
        Example("import tensorflow as tf\n@tf.function\ndef scale(x, factor):\n    return x * factor\n"
                "def run(xs):\n    return [scale(x, 2.0) for x in xs]\n"),
        Example("import tensorflow as tf\n@tf.function(input_signature=[tf.TensorSpec([], tf.int64)])\ndef f(i):\n    return i + 1\n"
                "for i in range(10):\n    f(i)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef update(grad, step):\n"
                "    return -0.01 * tf.cast(step, tf.float32) * grad\n"
                "def train(grad, steps):\n    for step in range(steps):\n"
                "        step = tf.convert_to_tensor(step, dtype=tf.int64)\n        update(grad, step)\n"),
        Example("import typing\nimport tensorflow as tf\nclass Margin(typing.NamedTuple):\n    m: float\n"
                "@tf.function(jit_compile=True)\ndef hinge(s, cfg):\n    return tf.nn.relu(cfg.m - s)\n"
                "def losses(scores):\n    return [hinge(s, Margin(1.0)) for s in scores]\n"),
        Example("import tensorflow as tf\ndef warmup(step, base=0.1):\n    step = tf.cast(step, tf.float32)\n"
                "    return base * tf.minimum(1.0, (step + 1.0) / 4.0)\n"
                "@tf.function(jit_compile=True)\ndef update(w, g, lr):\n    return w - lr * g\n"
                "def train(w, grads):\n    for i, g in enumerate(grads):\n        w = update(w, g, warmup(i))\n    return w\n"),
        Example("import tensorflow as tf\nSWEEP = (0.0, 0.1, 0.2)\n@tf.function(jit_compile=True)\n"
                "def loss(y, p, smoothing):\n    return tf.reduce_mean(y - p) * smoothing\n"
                "def sweep(y, p):\n    return [loss(y, p, s) for s in SWEEP]\n"),
        Example("import tensorflow as tf\nclass Trainer:\n    def __init__(self, lr):\n        self.lr = lr\n"
                "    @tf.function(jit_compile=True)\n    def step(self, x, lr):\n        return x * lr\n"
                "    def fit(self, batches, epochs):\n        for _ in range(epochs):\n"
                "            self.lr = self.lr * 0.5\n"
                "            for x in batches:\n                self.step(x, self.lr)\n"),
        Example("import tensorflow as tf\nclass Config:\n    def __init__(self, temperature=1.0):\n"
                "        self.temperature = temperature\n@tf.function(jit_compile=True)\n"
                "def sample(logits, temperature):\n    return tf.nn.softmax(logits / temperature)\n"
                "def run(logits, steps):\n    config = Config()\n    for _ in range(steps):\n"
                "        sample(logits, config.temperature)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef update(w, g, lr):\n"
                "    return w - lr * g\ndef train(w, grads, base_lr, warmup):\n"
                "    for i, g in enumerate(grads):\n        lr = base_lr * min(1.0, (i + 1) / warmup)\n"
                "        w = update(w, g, lr)\n    return w\ndef main(w, grads):\n"
                "    return train(w, grads, tf.constant(0.1), 4)\n"),
        Example('import tensorflow as tf\nclass GanTrainer:\n    def __init__(self):\n'
                '        self.meta = {"weight_gen_advers": 0.001}\n'
                '    @tf.function(jit_compile=True)\n    def loss(self, content, advers, weight):\n'
                '        return content + weight * advers\n'
                '    def fit(self, content, advers, epochs):\n        for _ in range(epochs):\n'
                '            self.loss(content, advers, self.meta["weight_gen_advers"])\n'),
        Example('import numpy as np\nimport tensorflow as tf\n@tf.function(jit_compile=True)\n'
                'def step(x, w):\n    return x * tf.cast(w, tf.float32)\ndef run(xs, weights):\n'
                '    for x, w in zip(xs, np.asarray(weights)):\n        step(x, w)\n'),
        Example('import tensorflow as tf\nclass Trainer:\n    def __init__(self):\n'
                '        self.global_step = tf.Variable(0)\n    @tf.function(jit_compile=True)\n'
                '    def step(self, x, step_number):\n'
                '        return x * tf.cast(step_number, tf.float32)\n'
                '    def train_on_batch(self, x):\n        self.global_step.assign_add(1)\n'
                '        return self.step(x, self.global_step)\n'),
        # drawn once before the loop, drawn as an array (`size`), or wrapped in a NumPy scalar (traced as a tensor)
        Example("import numpy as np\nimport tensorflow as tf\n@tf.function(jit_compile=True)\n"
                "def mix(x1, x2, lam):\n    return lam * x1 + (1.0 - lam) * x2\ndef train(pairs):\n"
                "    lam = np.random.beta(0.2, 0.2)\n    out = [mix(a, b, lam) for a, b in pairs]\n"
                "    out += [mix(a, b, np.random.beta(0.2, 0.2, size=(2, 1))) for a, b in pairs]\n"
                "    return out + [mix(a, b, np.float32(np.random.beta(0.2, 0.2))) for a, b in pairs]\n"),
        # a parameter declared `float`, fed a tensor this file made, or one value for every call
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef scaled(x, temperature: float):\n"
                "    return x / temperature\ndef run(xs, temperatures, t0):\n    out = []\n"
                "    for x, t in zip(xs, temperatures):\n        tt = tf.constant(t)\n"
                "        out.append(scaled(x, tt) + scaled(x, t0))\n    return out\n"),
        # reassigned in the loop, but always to the same literal: one value, one trace
        Example("import tensorflow as tf\n@tf.function\ndef scaled(x, temperature):\n    return x / temperature\n"
                "def run(xs):\n    out = []\n    for x in xs:\n        temperature = 0.7\n"
                "        out.append(scaled(x, temperature))\n    return out\n"),
        # the per-step bool passed as a tensor (tf-retrace13)
        Example("""
            import tensorflow as tf
            @tf.function(jit_compile=True)
            def step(x, log):
                return tf.reduce_sum(x) * tf.cast(log, tf.float32)
            def train(x, steps):
                for i in range(steps):
                    step(x, tf.constant(i % 100 == 0))
        """),
        # a tf.function created in the body that calls it: its trace cache lives for one call of
        # `momentum`, and every call passes the same fixed values (inlined under an outer trace)
        Example("""
            import tensorflow as tf
            def momentum(u, v):
                @tf.function
                def rhs(dim, face):
                    return tf.roll(u, 1, dim) * face + v
                out = [rhs(0, 1.0), rhs(1, 1.0)]
                for dim in range(3):
                    for face in (0.0, 1.0):
                        out.append(rhs(dim, face))
                return out
        """),
        # the helper's parameter is the same number at every call: one trace
        Example("""
            import tensorflow as tf
            @tf.function(jit_compile=True)
            def step(x, lr):
                return x - lr * x
            def run_step(x, base):
                return step(x, base / 10)
            def train(x, steps):
                for i in range(steps):
                    x = run_step(x, 1.0)
        """),
        # a builder that keeps its model (lru_cache) or hands back one built once: the same object, one trace
        Example("""
            import functools
            import tensorflow as tf
            MODEL = tf.keras.Sequential([tf.keras.layers.Dense(2)])
            MODEL.build((None, 3))
            @functools.lru_cache(maxsize=None)
            def build():
                model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
                model.build((None, 3))
                return model
            def shared():
                return MODEL
            @tf.function
            def step(model, x):
                return model(x)
            def train(x, steps):
                for i in range(steps):
                    step(build(), x)
                    model = shared()
                    step(model, x)
        """),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(w, x, i):\n    return w * x * (0.99 ** i)\n"
                "def train(w, batches):\n    for i, x in enumerate(batches):\n        w = step(w, x, i)\n    return w\n",
                expected=(
                    (7, 24, 'Python number `i` passed to tf.function `step` changes between calls (`i` counts the '
                            'iterations of enumerate()): each new value traces and compiles the function again; pass '
                            'a tensor (tf.constant / tf.Variable)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef loss(a, b, temperature):\n    return tf.reduce_sum(a / temperature - b)\n"
                "def epoch(batches, t=4.0):\n    for a, b in batches:\n        loss(a, b, t)\n        t = max(1.0, t * 0.9)\n",
                expected=(
                    (7, 20, 'Python number `t` passed to tf.function `loss` changes between calls (`t` is reassigned '
                            'in the loop that calls it): each new value traces and compiles the function again; pass '
                            'a tensor (tf.constant / tf.Variable)'),
                )),
        Example("import tensorflow as tf\n@tf.function\ndef weighted(x, w):\n    return x * tf.constant(w)\n"
                "def run(x, counts):\n    total = float(sum(counts))\n    w = [total / c for c in counts]\n    return weighted(x, w)\n",
                expected=(
                    (8, 24, 'Python list `w` passed to tf.function `weighted` changes between calls (it is computed '
                            'from the argument `counts` of the enclosing function): each new value traces and '
                            'compiles the function again; pass a tensor (tf.constant / tf.Variable)'),
                )),
        Example("import math\nimport tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(x, lr):\n    return x * lr\n"
                "def train(xs, total):\n    for i, x in enumerate(xs):\n"
                "        lr = 0.5 * (1 + math.cos(math.pi * i / total))\n        step(x, lr)\n",
                expected=(
                    (9, 17, 'Python number `lr` passed to tf.function `step` changes between calls (`lr` is '
                            'reassigned in the loop that calls it): each new value traces and compiles the function '
                            'again; pass a tensor (tf.constant / tf.Variable)'),
                )),
        Example("import tensorflow as tf\n@tf.function\ndef step(x, n):\n    return x / n\n"
                "def run(batches):\n    for x in batches:\n        step(x, len(x))\n",
                expected=(
                    (7, 17, 'Python number `len(x)` passed to tf.function `step` changes between calls (`x` changes '
                            'every iteration of the loop that calls it): each new value traces and compiles the '
                            'function again; pass a tensor (tf.constant / tf.Variable)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef scaled(x, tag):\n    return x * 2.0\n"
                "def run(xs):\n    return [scaled(x, f'step_{i}') for i, x in enumerate(xs)]\n",
                expected=(
                    (6, 23, "Python string `f'step_{i}'` passed to tf.function `scaled` changes between calls (`i` "
                            'changes every iteration of the comprehension that calls it): each new value traces and '
                            "compiles the function again; keep strings out of the compiled function's arguments"),
                )),
        Example("import tensorflow as tf\nclass Margin:\n    def __init__(self, m):\n        self.m = m\n"
                "@tf.function(jit_compile=True)\ndef hinge(s, cfg):\n    return tf.nn.relu(cfg.m - s)\n"
                "def losses(scores):\n    return [hinge(s, Margin(1.0)) for s in scores]\n",
                expected=(
                    (9, 22, 'a new `Margin` object is passed to tf.function `hinge` in a loop: `Margin` compares by '
                            'identity, so every new object traces and compiles the function again; create it once '
                            'and reuse it, or pass its numbers as tensors'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef apply(x, loss_fn):\n    return loss_fn(x, 2.0 * x)\n"
                "def run(xs):\n    return [apply(x, tf.keras.losses.Huber()) for x in xs]\n",
                expected=(
                    (6, 22, 'a new `Huber` object is passed to tf.function `apply` in a loop: `Huber` compares by '
                            'identity, so every new object traces and compiles the function again; create it once '
                            'and reuse it, or pass its numbers as tensors'),
                )),
        Example("import tensorflow as tf\ndef warmup(step, base=0.1):\n    return base * min(1.0, (step + 1) / 4)\n"
                "@tf.function(jit_compile=True)\ndef update(w, g, lr):\n    return w - lr * g\n"
                "def train(w, grads):\n    for i, g in enumerate(grads):\n        w = update(w, g, warmup(i))\n    return w\n",
                expected=(
                    (9, 26, 'Python number `warmup(i)` passed to tf.function `update` changes between calls (`i` '
                            'counts the iterations of enumerate()): each new value traces and compiles the function '
                            'again; pass a tensor (tf.constant / tf.Variable)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef total(a, b, w):\n    return a + w * b\n"
                "def combined(a, b, w):\n    return total(a, b, w)\n"
                "def run(a, b, epochs):\n    for epoch in range(epochs):\n        weight = 0.5 * 0.8 ** epoch\n"
                "        combined(a, b, weight)\n",
                expected=(
                    (6, 24, 'Python number `w` passed to tf.function `total` changes between calls (`combined()` '
                            'receives it from line 10, where `weight` is reassigned in the loop that calls it): each '
                            'new value traces and compiles the function again; pass a tensor (tf.constant / '
                            'tf.Variable)'),
                )),
        Example("import tensorflow as tf\nclass Trainer:\n    def __init__(self):\n        self.temperature = 4.0\n"
                "    @tf.function(jit_compile=True)\n    def step(self, x, t):\n        return x / t\n"
                "    def anneal(self):\n        self.temperature = max(1.0, self.temperature * 0.5)\n"
                "    def fit(self, batches, epochs):\n        for _ in range(epochs):\n            self.anneal()\n"
                "            for x in batches:\n                self.step(x, self.temperature)\n",
                expected=(
                    (14, 30, 'Python number `self.temperature` passed to tf.function `step` changes between calls '
                             '(`self.temperature` is updated by `self.anneal()` in the loop that calls it): each new '
                             'value traces and compiles the function again; pass a tensor (tf.constant / '
                             'tf.Variable)'),
                )),
        Example("from typing import Sequence\nimport tensorflow as tf\n@tf.function(jit_compile=True)\n"
                "def loss(y, p, smoothing):\n    return tf.reduce_mean(y - p) * smoothing\n"
                "def sweep(y, p, values: Sequence[float]):\n    return [loss(y, p, s) for s in values]\n",
                expected=(
                    (7, 24, 'Python number `s` passed to tf.function `loss` changes between calls (`s` changes every '
                            'iteration of the comprehension that calls it): each new value traces and compiles the '
                            'function again; pass a tensor (tf.constant / tf.Variable)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef fitness(model, x):\n"
                "    return tf.reduce_mean(model(x))\ndef evolve(x, widths):\n    for width in widths:\n"
                "        candidate = tf.keras.Sequential([tf.keras.layers.Dense(width)])\n"
                "        candidate.build(x.shape)\n        fitness(candidate, x)\n",
                expected=(
                    (9, 17, 'a new `Sequential` object is passed to tf.function `fitness` in a loop: `Sequential` '
                            'compares by identity, so every new object traces and compiles the function again; '
                            'create it once and reuse it, or pass its numbers as tensors'),
                )),
        Example("import tensorflow as tf\nSTEP = 0\n@tf.function(jit_compile=True)\ndef step(x, i):\n    return x * i\n"
                "def train_one(x):\n    global STEP\n    STEP += 1\n    return step(x, STEP)\n",
                expected=(
                    (9, 20, 'Python number `STEP` passed to tf.function `step` changes between calls (`STEP` is a '
                            'module-level value this function updates on every call): each new value traces and '
                            'compiles the function again; pass a tensor (tf.constant / tf.Variable)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(x, lr):\n    return x * lr\n"
                "def run(x, lrs: list[float]):\n    for epoch, lr in enumerate(lrs):\n        step(x, lr)\n",
                expected=(
                    (7, 17, 'Python number `lr` passed to tf.function `step` changes between calls (`lr` changes every '
                            'iteration of the loop that calls it): each new value traces and compiles the function '
                            'again; pass a tensor (tf.constant / tf.Variable)'),
                )),
        Example("import tensorflow as tf\nclass Config:\n    def __init__(self, temperature=1.0):\n"
                "        self.temperature = temperature\n@tf.function(jit_compile=True)\n"
                "def sample(logits, temperature):\n    return tf.nn.softmax(logits / temperature)\n"
                "def run(logits, steps):\n    config = Config()\n    for _ in range(steps):\n"
                "        sample(logits, config.temperature)\n"
                "        config.temperature = config.temperature * 0.5\n",
                expected=(
                    (11, 24, 'Python number `config.temperature` passed to tf.function `sample` changes between calls'
                             ' (`config.temperature` is reassigned in the loop that calls it): each new value traces '
                             'and compiles the function again; pass a tensor (tf.constant / tf.Variable)'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef loss(a, b, weight):\n"
                "    return tf.reduce_mean(a) + weight * tf.reduce_mean(b)\ndef train(a, b, epochs):\n"
                '    hparams = {"adv_weight": 0.001}\n    for _ in range(epochs):\n'
                '        loss(a, b, hparams["adv_weight"])\n        hparams["adv_weight"] *= 1.5\n',
                expected=(
                    (8, 20, "Python number `hparams['adv_weight']` passed to tf.function `loss` changes between calls"
                            " (`hparams['adv_weight']` is reassigned in the loop that calls it): each new value "
                            "traces and compiles the function again; pass a tensor (tf.constant / tf.Variable)"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef update(w, g, lr):\n"
                "    return w - lr * g\ndef train(w, grads, base_lr, warmup):\n"
                "    for i, g in enumerate(grads):\n        lr = base_lr * min(1.0, (i + 1) / warmup)\n"
                "        w = update(w, g, lr)\n    return w\ndef main(w, grads):\n"
                "    return train(w, grads, 0.1, 4)\n",
                expected=(
                    (8, 26, 'Python number `lr` passed to tf.function `update` changes between calls (`lr` is '
                            'reassigned in the loop that calls it): each new value traces and compiles the function '
                            'again; pass a tensor (tf.constant / tf.Variable)'),
                )),
        Example('import tensorflow as tf\nclass GanTrainer:\n    def __init__(self):\n'
                '        self.meta = {"weight_gen_advers": 0.001}\n'
                '    @tf.function(jit_compile=True)\n    def loss(self, content, advers, weight):\n'
                '        return content + weight * advers\n    def rebalance(self):\n'
                '        self.meta["weight_gen_advers"] = self.meta["weight_gen_advers"] * 1.5\n'
                '    def fit(self, content, advers, epochs):\n        for _ in range(epochs):\n'
                '            self.loss(content, advers, self.meta["weight_gen_advers"])\n'
                '            self.rebalance()\n',
                expected=(
                    (12, 40, "Python number `self.meta['weight_gen_advers']` passed to tf.function `loss` changes "
                             "between calls (`self.meta['weight_gen_advers']` is updated by `self.rebalance()` in the"
                             " loop that calls it): each new value traces and compiles the function again; pass a "
                             "tensor (tf.constant / tf.Variable)"),
                )),
        Example('import numpy as np\nimport tensorflow as tf\n@tf.function(jit_compile=True)\n'
                'def step(x, w):\n    return x * tf.cast(w, tf.float32)\ndef run(xs, weights):\n'
                '    for x, w in zip(xs, np.asarray(weights)):\n        step(x, w.item())\n',
                expected=(
                    (8, 17, 'Python number `w.item()` passed to tf.function `step` changes between calls (`w` changes'
                            ' every iteration of the loop that calls it): each new value traces and compiles the '
                            'function again; pass a tensor (tf.constant / tf.Variable)'),
                )),
        Example('import tensorflow as tf\nclass Trainer:\n    def __init__(self):\n'
                '        self.global_step = 0\n    @tf.function(jit_compile=True)\n'
                '    def step(self, x, step_number):\n'
                '        return x * tf.cast(step_number, tf.float32)\n'
                '    def train_on_batch(self, x):\n        self.global_step += 1\n'
                '        return self.step(x, self.global_step)\n',
                expected=(
                    (10, 29, 'Python number `self.global_step` passed to tf.function `step` changes between calls '
                             '(`self.global_step` is updated from its own value on every call of `train_on_batch()`):'
                             ' each new value traces and compiles the function again; pass a tensor (tf.constant / '
                             'tf.Variable)'),
                )),
        # a random draw that returns a Python float (measured: `numpy_random_draw_each_call`)
        Example("import numpy as np\nimport tensorflow as tf\n@tf.function(jit_compile=True)\n"
                "def mix(x1, x2, lam):\n    return lam * x1 + (1.0 - lam) * x2\ndef train(pairs):\n"
                "    return [mix(a, b, np.random.beta(0.2, 0.2)) for a, b in pairs]\n",
                expected=(
                    (7, 23, 'Python number `np.random.beta(0.2, 0.2)` passed to tf.function `mix` changes between '
                            'calls (`np.random.beta` draws a new value at every iteration of the loop that calls '
                            'it): each new value traces and compiles the function again; pass a tensor (tf.constant '
                            '/ tf.Variable)'),
                )),
        Example("import numpy as np\nimport tensorflow as tf\nRNG = np.random.default_rng(0)\n"
                "@tf.function(jit_compile=True)\ndef jitter(images, strength):\n    return images * strength\n"
                "def augment(images):\n    return jitter(images, RNG.uniform(0.8, 1.2))\n",
                expected=(
                    (8, 27, 'Python number `RNG.uniform(0.8, 1.2)` passed to tf.function `jitter` changes between '
                            'calls (`RNG.uniform` draws a new value on every call of `augment()`): each new value '
                            'traces and compiles the function again; pass a tensor (tf.constant / tf.Variable)'),
                )),
        # nothing here says what `t` is, but the compiled function declares a Python float
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef scaled(x, temperature: float):\n"
                "    return x / temperature\ndef run(xs, temperatures):\n"
                "    return [scaled(x, t) for x, t in zip(xs, temperatures)]\n",
                expected=(
                    (6, 23, 'Python number `t` passed to tf.function `scaled` changes between calls (`t` changes '
                            'every iteration of the comprehension that calls it, and `scaled` declares '
                            '`temperature: float`): each new value traces and compiles the function again; pass a '
                            'tensor (tf.constant / tf.Variable)'),
                )),
        # a comprehension that counts with range(): each count a new Python int
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef rollout(x, steps):\n"
                "    return x * tf.cast(steps, tf.float32)\ndef run(x, horizon):\n"
                "    return [rollout(x, steps=h) for h in range(1, horizon)]\n",
                expected=(
                    (6, 30, 'Python number `h` passed to tf.function `rollout` changes between calls (`h` changes '
                            'every iteration of the comprehension that calls it): each new value traces and compiles '
                            'the function again; pass a tensor (tf.constant / tf.Variable)'),
                )),
        # a new object per iteration handed to a helper that passes it on (tf-retrace13)
        Example("""
            import tensorflow as tf
            class Config:
                def __init__(self, scale):
                    self.scale = scale
            @tf.function(jit_compile=True)
            def step(x, cfg):
                return tf.reduce_sum(x) * cfg.scale
            def run_step(x, cfg):
                return step(x, cfg)
            def train(x, steps):
                for i in range(steps):
                    cfg = Config(0.5)
                    run_step(x, cfg)
        """,
                expected=(
                    (9, 20, 'Python object `cfg` passed to tf.function `step` changes between calls '
                            '(`run_step()` receives a new `Config` from line 13, built in the loop that calls '
                            'it; it compares by identity): each new value traces and compiles the function '
                            'again; create it once and reuse it, or pass its numbers as tensors'),
                )),
        # a local tf.function too, but the loop's count is the caller's: no fixed number of traces
        Example("""
            import tensorflow as tf
            def train(w, x, steps):
                @tf.function(jit_compile=True)
                def step(w, i):
                    return w * x * (0.99 ** i)
                for i in range(steps):
                    w = step(w, i)
                return w
        """,
                expected=(
                    (7, 21, 'Python number `i` passed to tf.function `step` changes between calls (`i` counts the '
                            'iterations of range()): each new value traces and compiles the function again; pass '
                            'a tensor (tf.constant / tf.Variable)'),
                )),
        # computed in a helper from its parameter, which the training loop passes its counter
        # (python_float_value_changes in tf_retrace.json, one level of callers)
        Example("""
            import tensorflow as tf
            @tf.function(jit_compile=True)
            def step(x, lr):
                return x - lr * x
            def run_step(x, i):
                return step(x, 0.1 / (i + 1))
            def train(x, steps):
                for i in range(steps):
                    x = run_step(x, i)
        """,
                expected=(
                    (6, 20, 'Python number `0.1 / (i + 1)` passed to tf.function `step` changes between calls (it is '
                            'computed from the argument `i`: `run_step()` receives it from line 9, where `i` counts '
                            'the iterations of range()): each new value traces and compiles the function again; '
                            'pass a tensor (tf.constant / tf.Variable)'),
                )),
        # a function of this file that builds and returns a new model on every call, called in the
        # loop (new_plain_object_each_call in tf_retrace.json): a new trace key per iteration
        Example("""
            import tensorflow as tf
            def build(width):
                model = tf.keras.Sequential([tf.keras.layers.Dense(width)])
                model.build((None, 3))
                return model
            @tf.function
            def step(model, x):
                return model(x)
            def train(x, steps):
                for i in range(steps):
                    model = build(2)
                    step(model, x)
        """,
                expected=(
                    (12, 14, 'a new `Sequential` object is passed to tf.function `step` in a loop: `Sequential` '
                             'compares by identity, so every new object traces and compiles the function again; '
                             'create it once and reuse it, or pass its numbers as tensors'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        if not index.tf_functions and not index.imports_tf_functions:
            return
        scopes: dict[int, _Scope] = {}
        literal_sites: dict[tuple[int, object], list[tuple[ast.expr, object]]] = defaultdict(list)
        for call, _ in index.calls:
            tfn = index.tf_function_called(call)
            if tfn is None or tfn.has_input_signature:
                continue
            scope_node = index.function_of(call) or index.enclosing_scope(call)
            scope = scopes.get(id(scope_node))
            if scope is None:
                scope = scopes[id(scope_node)] = _Scope(index, scope_node)
            slots: list[tuple[object, ast.expr]] = [(i, a) for i, a in enumerate(call.args) if not isinstance(a, ast.Starred)]
            slots += [(kw.arg, kw.value) for kw in call.keywords if kw.arg is not None]
            local = _created_in_caller(index, tfn, call)
            for slot, arg in slots:
                if local and _fixed_per_creation(scope, arg):
                    continue
                if isinstance(arg, ast.Constant) and type(arg.value) in (int, float):
                    literal_sites[(id(tfn.wrapper), slot)].append((arg, arg.value))
                    continue
                self._check_argument(ctx, scope, call, tfn, arg, scopes, slot)
        for sites in literal_sites.values():
            if len({value for _, value in sites}) > 1:
                for arg, value in sites:
                    ctx.report(self, arg, f"Python literal {value!r} passed to tf.function; other calls pass other "
                                          "values, and each distinct value traces and compiles the function again; "
                                          "pass a tensor")

    def _check_argument(self, ctx: ModuleContext, scope: _Scope, call: ast.Call, tfn: TfFunction, arg: ast.expr,
                        scopes: dict[int, _Scope], slot: object = None) -> None:
        cls = scope.new_object(arg)
        if cls is not None:
            self._report_new_object(ctx, scope, call, tfn, arg, cls)
            return
        if isinstance(arg, ast.Name) and self._new_object_by_name(ctx, scope, call, tfn, arg):
            return
        kind = _kind(scope, arg)
        declared = _annotated_param(tfn, slot) \
            if kind is None and _host_value(scope, arg) and _rebound_per_iteration(scope, arg, call) else None
        if declared is not None:
            kind = _annotated_kind(declared)
        why = scope.varies(arg, call) if kind is not None else None
        if why is not None and declared is not None:
            why += f", and `{tfn.name}` declares `{declared.arg}: {ast.unparse(declared.annotation)}`" \
                if declared.annotation is not None else ""
        if why is None and isinstance(arg, ast.Name) and arg.id in scope.params:
            found = _through_callers(scope, arg.id, scopes)
            if found is None:
                return
            kind, why = found
        elif why is None and kind is not None and not isinstance(arg, ast.Name):
            why = _computed_through_callers(scope, arg, scopes)
        if kind is None or why is None:
            return
        if kind == "bool" and not ctx.preview:
            return  # real code passes first-step flags on purpose (Horovod's broadcast at `batch == 0`)
        shown = ast.unparse(arg)
        if len(shown) > 40:
            shown = shown[:37] + "..."
        fix = None
        tf = _tf_alias(ctx)
        if tf is not None and kind in ("number", "list"):
            start = Location(arg.lineno, arg.col_offset)
            end = Location(arg.end_lineno or arg.lineno, arg.end_col_offset or arg.col_offset)
            fix = Fix(f"Pass `{tf}.constant({shown})`",
                      (Edit(start, start, f"{tf}.constant("), Edit(end, end, ")")), Applicability.UNSAFE)
        advice = {"string": "keep strings out of the compiled function's arguments",
                  "object": "create it once and reuse it, or pass its numbers as tensors"}.get(
            kind, "pass a tensor (tf.constant / tf.Variable)")
        cost = ("each of its two values traces and compiles the function (one more XLA compilation than a "
                "tensor needs)" if kind == "bool" else "each new value traces and compiles the function again")
        ctx.report(self, arg,
                   f"Python {kind} `{shown}` passed to tf.function `{tfn.name}` changes between calls ({why}): "
                   f"{cost}; {advice}",
                   fix=fix)

    def _new_object_by_name(self, ctx: ModuleContext, scope: _Scope, call: ast.Call, tfn: TfFunction,
                            arg: ast.Name) -> bool:
        """``model = tf.keras.Sequential(...)`` inside the loop that calls ``step(model, x)`` (or in
        the function around a call outside loops): a new identity-keyed object reaches every call.
        An object built once before the loop is one trace key, and is not reported."""
        cls = _new_object_bound(scope, call, arg)
        if cls is None:
            return False
        self._report_new_object(ctx, scope, call, tfn, arg, cls)
        return True

    def _report_new_object(self, ctx: ModuleContext, scope: _Scope, call: ast.Call, tfn: TfFunction,
                           arg: ast.expr, cls: str) -> None:
        """``step(x, Config(...))``: a new object per call is a new trace key, whatever its fields."""
        func = ctx.index.function_of(call)
        if ctx.index.loops_around(call):
            where = "in a loop"
        elif isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) and func.name not in ("__init__", "main"):
            where = f"on every call of `{func.name}()`"
        else:
            return  # module level or a one-off: one object, one trace
        ctx.report(self, arg, f"a new `{cls}` object is passed to tf.function `{tfn.name}` {where}: `{cls}` compares "
                              "by identity, so every new object traces and compiles the function again; create it "
                              "once and reuse it, or pass its numbers as tensors")
