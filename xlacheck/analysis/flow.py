"""Walk one compiled function in source order, keep its value facts current, dispatch to rules.

This is the only per-node walk of compiled code: statements update the :class:`ValueEnv`
(assignments, loop targets), compound statements push what rules ask about (tensor branches,
staged loops, Python loops), and every node whose type some rule subscribes to is handed to
those rules. Code guarded by ``if tf.executing_eagerly():`` (or ``hasattr(x, "numpy")``, or
inside ``with tf.init_scope():``) runs eagerly and is skipped.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from xlacheck.analysis import TRY_STATEMENTS, child_nodes, walk
from xlacheck.analysis.compiled_exports import enum_names, nonnumeric_enum_names
from xlacheck.analysis.contexts import FunctionInfo, ModuleFacts
from xlacheck.analysis.imports import AliasTable
from xlacheck.analysis.pytrees import leaf_field_names, static_field_names
from xlacheck.analysis.tracers import jax_op_functions
from xlacheck.analysis.truth import passed_whole_jit_argument
from xlacheck.analysis.type_guards import python_number_names, python_type_guard
from xlacheck.analysis.values import (
    DATA,
    LEAVES_AND_TREEDEF,
    LOOP,
    OP,
    OPAQUE,
    PYLIST,
    PYLIST_EMPTY,
    PYTHON,
    RANDOM,
    SHAPE,
    TENSOR,
    TENSOR_MEMBER_NAMES,
    ValueEnv,
    array_evidence,
    is_tensor,
    merge_flags,
    param_flags,
    reduction_functions,
    without_opaque,
)
from xlacheck.rules.base import Rule, RuleContext

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_SKIP_STMTS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)
_EAGER_CHECKS = frozenset({"tf.executing_eagerly", "tf.compat.v1.executing_eagerly"})


_SETUP_METHODS = frozenset({"__init__", "build"})  # assign weights and sub-layers, not step values


class RuleCrash(Exception):
    """A rule raised: the engine turns this into a FileError naming the rule."""

    def __init__(self, code: str, error: BaseException) -> None:
        super().__init__(f"{code}: {type(error).__name__}: {error}")
        self.code = code
        self.error = error


def _ends(body: Sequence[ast.stmt]) -> bool:
    """The block never falls through: its last statement returns or raises, or is an ``if`` both of
    whose branches end so."""
    if not body:
        return False
    last = body[-1]
    if type(last) in (ast.Return, ast.Raise):
        return True
    return type(last) is ast.If and bool(last.orelse) and _ends(last.body) and _ends(last.orelse)


def _const_param_test(test: ast.expr, const_params: dict[str, bool]) -> bool | None:
    """The truth of ``p`` / ``not p`` for a parameter the compiled callers set to a literal."""
    if not const_params:
        return None
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _const_param_test(test.operand, const_params)
        return None if inner is None else not inner
    if isinstance(test, ast.Name):
        return const_params.get(test.id)
    return None


# Bases of Enum classes (resolved, or as spelled when imported from enum by name)
_ENUM_BASES = frozenset({"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag", "Enum", "IntEnum",
                         "StrEnum", "Flag", "IntFlag"})


def _annotated_with(node: ast.AST, classes: frozenset[str]) -> list[str]:
    """Parameters of ``node`` annotated with one of ``classes`` (``m: Mode``, ``m: Optional[Mode]``)."""
    args = getattr(node, "args", None)
    if not classes or args is None or isinstance(node, ast.Lambda):
        return []
    out = []
    for a in args.posonlyargs + args.args + args.kwonlyargs:
        ann = a.annotation
        if isinstance(ann, ast.Subscript) and isinstance(ann.value, ast.Name) and ann.value.id == "Optional":
            ann = ann.slice
        if isinstance(ann, ast.Name) and ann.id in classes:
            out.append(a.arg)
    return out


def numpy_guard(test: ast.expr, aliases: AliasTable) -> bool | None:
    """True if ``test`` holds only for NumPy arrays (``isinstance(x, np.ndarray)``,
    ``hasattr(x, "astype")``), False if only for other values: a type dispatch whose NumPy branch
    never runs on a traced tensor, like the eager branch of ``tf.executing_eagerly()``."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = numpy_guard(test.operand, aliases)
        return None if inner is None else not inner
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and len(test.args) == 2):
        return None
    kind = test.args[1]
    if test.func.id == "hasattr":
        return True if isinstance(kind, ast.Constant) and kind.value == "astype" else None
    if test.func.id == "isinstance":
        return True if aliases.resolve(kind) in ("np.ndarray", "np.generic") else None
    return None


def eager_guard(test: ast.expr, aliases: AliasTable) -> bool | None:
    """True if ``test`` holds only when running eagerly, False if only in graphs, else None."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = eager_guard(test.operand, aliases)
        return None if inner is None else not inner
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return True if any(eager_guard(v, aliases) is True for v in test.values) else None
    if isinstance(test, ast.Call):
        name = aliases.resolve(test.func)
        if name in _EAGER_CHECKS:
            return True
        if name == "tf.inside_function":
            return False
        if (isinstance(test.func, ast.Name) and test.func.id == "hasattr" and len(test.args) == 2
                and isinstance(test.args[1], ast.Constant) and test.args[1].value == "numpy"):
            return True
    return None


def _is_none_test(test: ast.expr) -> str | None:
    """The name tested by ``name is None``, else None."""
    if (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Is) and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None):
        return test.left.id
    return None


_TENSOR_TYPES = frozenset({"tf.Tensor", "tf.Variable", "tf.RaggedTensor", "tf.SparseTensor",
                           "tf.experimental.numpy.ndarray", "jax.Array", "jax.core.Tracer", "jnp.ndarray",
                           "jax.numpy.ndarray"})


def _tensor_type_test(test: ast.expr, aliases: AliasTable) -> str | None:
    """The name that ``test`` finds to be a tensor: ``hasattr(x, "shape")`` / ``"dtype"``,
    ``isinstance(x, tf.Tensor)``, ``tf.is_tensor(x)``. Its else branch handles other values (a
    ``TensorShape``, a Python list): a type dispatch, so ``x`` is no tensor there."""
    if not (isinstance(test, ast.Call) and test.args and isinstance(test.args[0], ast.Name)):
        return None
    name = test.args[0].id
    if isinstance(test.func, ast.Name) and len(test.args) == 2:
        kind = test.args[1]
        if test.func.id == "hasattr" and isinstance(kind, ast.Constant) and kind.value in ("shape", "dtype"):
            return name
        if test.func.id == "isinstance":
            kinds = kind.elts if isinstance(kind, ast.Tuple) else [kind]
            if kinds and all(aliases.resolve(k) in _TENSOR_TYPES for k in kinds):
                return name
        return None
    return name if aliases.resolve(test.func) in ("tf.is_tensor", "tf.is_symbolic_tensor") else None


def _isinstance_sequence(test: ast.expr) -> str | None:
    """The name tested by ``isinstance(name, list/tuple/dict)``, else None."""
    return next((name for name, kind in python_type_guard(test) if kind == "sequence"), None)


class FunctionWalker:
    """Walks one function body; rules see each subscribed node with the facts valid there."""

    def __init__(self, ctx: RuleContext, dispatch: dict[type, list[Rule]], facts: ModuleFacts | None = None) -> None:
        self.ctx = ctx
        self.facts = facts
        self.values = ctx.values
        self.env = ctx.values.env
        self.dispatch = dispatch
        self.depth = 0  # inside a branch or loop: assignments merge with what was there
        # the two-way `if`s being walked, innermost first: (values before it, the `if`, the names its
        # test refines)
        self._exclusive: list[tuple[dict[str, int], ast.If, set[str]]] = []
        self.loop_flag = 0
        # names the function uses as one array and binds once (values.array_evidence): a
        # tensor-or-structure bound to one is a tensor
        self.arrays: frozenset[str] = frozenset()

    # -- dispatch ----------------------------------------------------------------------------
    def _emit(self, node: ast.AST) -> None:
        rules = self.dispatch.get(type(node))
        if rules:
            for rule in rules:
                try:
                    rule.check(node, self.ctx)
                except RecursionError:
                    raise
                except Exception as exc:  # noqa: BLE001 - reported as a FileError naming the rule
                    raise RuleCrash(rule.code, exc) from exc

    # -- expressions -------------------------------------------------------------------------
    def expr(self, node: ast.AST | None) -> None:
        if node is None:
            return
        dispatch = self.dispatch
        stack = [node]
        while stack:
            n = stack.pop()
            t = type(n)
            if t is ast.Lambda:
                continue  # walked as its own function when compiled
            if t in dispatch:
                self._emit(n)
            if t is ast.Call and self.facts is not None:
                self._record_call(n)  # type: ignore[arg-type]
            if t in _COMPREHENSIONS:
                self._comprehension(n)
                continue
            stack.extend(child_nodes(n))

    def _record_call(self, call: ast.Call) -> None:
        """Remember what this compiled code passes to a same-file function (its parameters' flags)."""
        assert self.facts is not None
        found = self.facts.callee(call, self.ctx.function)
        if found is None:
            if id(call) in self.facts.external_call_ids:
                self._record_external(call)
            return
        callee, is_method = found
        node = callee.node
        if isinstance(node, ast.Lambda):
            return
        params = [a.arg for a in node.args.posonlyargs + node.args.args]
        static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
        if not static and (is_method or (callee.cls is not None and params and params[0] in ("self", "cls"))):
            params = params[1:]
        record = self.facts.call_flags.setdefault(id(callee), {})
        dtypes = self.facts.call_dtypes.setdefault(id(callee), {})
        leaves = self.facts.jit_leaf_args.setdefault(id(callee), {})
        facts, caller = self.facts, self.ctx.function

        def local(c: ast.Call) -> bool:  # a call of a function of this file
            return facts.callee(c, caller) is not None

        for name, arg in zip(params, call.args):
            if isinstance(arg, ast.Starred):
                break
            record[name] = merge_flags(record.get(name), self.values.flags(arg))
            self._record_dtype(dtypes, name, arg)
            leaf = isinstance(arg, ast.Name) and passed_whole_jit_argument(self.ctx.function, arg.id, local)
            leaves[name] = leaves.get(name, True) and leaf
        for kw in call.keywords:  # a keyword argument is no positional leaf: the parameter is not one
            if kw.arg is not None:
                leaves[kw.arg] = False
        named = set(params) | {a.arg for a in node.args.kwonlyargs}
        # what lands in `*args` / `**kwargs`: a tuple / dict of the passed values
        rest = call.args[len(params):] if node.args.vararg is not None else []
        extra = [kw.value for kw in call.keywords if kw.arg is not None and kw.arg not in named] \
            if node.args.kwarg is not None else []
        for pack, values in ((node.args.vararg, rest), (node.args.kwarg, extra)):
            if pack is not None and values and not any(isinstance(v, ast.Starred) for v in values):
                packed: int | None = None
                for v in values:
                    packed = merge_flags(packed, self.values.flags(v))
                record[pack.arg] = merge_flags(record.get(pack.arg), (packed or 0) | PYLIST)
        for kw in call.keywords:
            if kw.arg is not None and kw.arg in named:
                record[kw.arg] = merge_flags(record.get(kw.arg), self.values.flags(kw.value))
                self._record_dtype(dtypes, kw.arg, kw.value)

    def _record_dtype(self, dtypes: dict[str, str | None], name: str, arg: ast.expr) -> None:
        """Merge the proven dtype of ``arg`` into what callers pass parameter ``name``: kept while
        every call passes that one dtype, None once a call passes another or an unproven one."""
        dtype = self.values.dtype(arg)
        dtypes[name] = dtype if dtypes.get(name, dtype) == dtype else None

    def _record_external(self, call: ast.Call) -> None:
        """What this code passes to a function of another module (for its facts, analysis.project)."""
        assert self.facts is not None
        record: dict[str, int] = {}
        consts: dict[str, bool] = {}
        passed = [(str(i), arg) for i, arg in enumerate(call.args)]
        if any(isinstance(arg, ast.Starred) for arg in call.args):
            passed = passed[:[isinstance(arg, ast.Starred) for arg in call.args].index(True)]
        passed += [(kw.arg, kw.value) for kw in call.keywords if kw.arg is not None]
        for key, arg in passed:
            record[key] = self.values.flags(arg)
            if isinstance(arg, ast.Constant):
                consts[key] = bool(arg.value)
        self.facts.external_args[id(call)] = record
        if consts:
            self.facts.external_consts[id(call)] = consts

    def _comprehension(self, node: ast.AST) -> None:
        saved: dict[str, int | None] = {}
        for gen in node.generators:  # type: ignore[attr-defined]
            self.expr(gen.iter)
            for name, k in self.values.target_bindings(gen.target, gen.iter):
                saved.setdefault(name, self.env.get(name))
                self.env[name] = k
            self.values.invalidate()
            for cond in gen.ifs:
                self.expr(cond)
        if isinstance(node, ast.DictComp):
            self.expr(node.key)
            self.expr(node.value)
        else:
            self.expr(node.elt)  # type: ignore[attr-defined]
        for name, old in saved.items():
            if old is None:
                self.env.pop(name, None)
            else:
                self.env[name] = old
        self.values.invalidate()

    # -- bindings ----------------------------------------------------------------------------
    def bind(self, target: ast.expr, flags: int, value: ast.expr | None = None) -> None:
        t = type(target)
        if t is ast.Name:
            name = target.id  # type: ignore[attr-defined]
            flags |= self.loop_flag if flags & TENSOR else 0
            if name in self.arrays:
                flags = without_opaque(flags)
            if self.depth:
                # a list stays a list; tensors merge conservatively; proven Python on both paths only
                flags = merge_flags(self.env.get(name), flags)
            self.env[name] = flags
        elif t is ast.Tuple or t is ast.List:
            elts = target.elts  # type: ignore[attr-defined]
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(elts) \
                    and not any(isinstance(e, ast.Starred) for e in elts):
                for sub, v in zip(elts, value.elts):
                    self.bind(sub, self.values.flags(v), v)
            elif len(elts) == 2 and type(value) is ast.Call \
                    and self.ctx.aliases.resolve(value.func) in LEAVES_AND_TREEDEF:
                self.bind(elts[0], flags)  # `leaves, treedef = jax.tree.flatten(tree)`: a list of leaves
                self.bind(elts[1], 0)  # and a PyTreeDef
            else:
                item = flags & ~(PYLIST | PYLIST_EMPTY)
                # `padding_len, ids = self._pad(ids)`: the items a helper here returns as static facts
                static = self.values.static_returns(value) if flags & OPAQUE and not any(
                    isinstance(sub, ast.Starred) for sub in elts) else {}
                for i, sub in enumerate(elts):
                    self.bind(sub, static.get(i, item))
        elif t is ast.Starred:
            self.bind(target.value, flags | PYLIST)  # type: ignore[attr-defined]
        elif isinstance(target, ast.Attribute) and type(target.value) is ast.Name and target.value.id == "self":
            cls = self.values.cls
            if cls is not None and self.ctx.function.name not in _SETUP_METHODS:
                cls.walked_attrs[target.attr] = merge_flags(cls.walked_attrs.get(target.attr), flags)
        self.values.invalidate()

    # -- statements --------------------------------------------------------------------------
    def block(self, body: Sequence[ast.stmt]) -> None:
        blocks = self.ctx.blocks
        blocks.append((body, 0))  # type: ignore[arg-type]
        exits: list[tuple[str, int]] = []
        for i, stmt in enumerate(body):
            blocks[-1] = (body, i)  # type: ignore[assignment]
            self.stmt(stmt)
            if type(stmt) is ast.If:
                live = self._live_branch(stmt)
                if live and type(live[-1]) in (ast.Return, ast.Raise):
                    break  # `if jittable: return c` with jittable=True: what follows never runs here
                typed = _tensor_type_test(stmt.test, self.ctx.aliases)
                if typed is not None and not stmt.orelse and stmt.body and type(stmt.body[-1]) in (
                        ast.Return, ast.Raise):
                    # `if isinstance(x, jax.core.Tracer): return lax.cond(...)`: what follows is the
                    # else branch of the type dispatch, where x is no tensor (until rebound)
                    exits.append((typed, self.env.get(typed, 0)))
                    self.env[typed] = 0
                    self.values.invalidate()
        for name, saved in reversed(exits):
            if self.env.get(name, 0) == 0:
                self.env[name] = saved
        if exits:
            self.values.invalidate()
        blocks.pop()

    def _live_branch(self, s: ast.If) -> list[ast.stmt] | None:
        """The only branch of ``s`` that compiled code runs, when the test says so: a parameter
        every compiled caller sets to a literal, or an eager / NumPy-only guard."""
        known = _const_param_test(s.test, self.ctx.function.const_params)
        if known is None:
            guard = eager_guard(s.test, self.ctx.aliases)
            if guard is None:
                guard = numpy_guard(s.test, self.ctx.aliases)
            known = None if guard is None else not guard
        return None if known is None else s.body if known else s.orelse

    def stmt(self, s: ast.stmt) -> None:
        t = type(s)
        if t in _SKIP_STMTS:
            return
        if t in self.dispatch:
            self._emit(s)
        if isinstance(s, ast.Assign):
            self.expr(s.value)
            for target in s.targets:
                if not isinstance(target, ast.Name):
                    self.expr(target)
            k = self.values.flags(s.value)
            for target in s.targets:
                self.bind(target, k, s.value)
        elif isinstance(s, ast.AugAssign):
            self.expr(s.value)
            if not isinstance(s.target, ast.Name):
                self.expr(s.target)
                return
            old = self.env.get(s.target.id, 0)
            if not old & PYLIST:  # `xs += [...]` keeps a list a list
                k = old | self.values.flags(s.value)
                self.env[s.target.id] = (k & ~(PYLIST | PYLIST_EMPTY)) | (self.loop_flag if k & TENSOR else 0)
                self.values.invalidate()
        elif isinstance(s, ast.AnnAssign):
            if s.value is not None:
                self.expr(s.value)
                self.bind(s.target, self.values.flags(s.value), s.value)
        elif isinstance(s, ast.If):
            self._if(s)
        elif isinstance(s, (ast.For, ast.AsyncFor)):
            self._for(s)
        elif isinstance(s, ast.While):
            self._while(s)
        elif isinstance(s, (ast.With, ast.AsyncWith)):
            eager = False
            for item in s.items:
                self.expr(item.context_expr)
                if isinstance(item.context_expr, ast.Call) and \
                        self.ctx.resolve(item.context_expr.func) == "tf.init_scope":
                    eager = True  # `with tf.init_scope():` runs eagerly
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, 0)
            if not eager:
                self.block(s.body)
        elif isinstance(s, TRY_STATEMENTS):
            self.depth += 1
            self.block(s.body)
            for h in s.handlers:
                if h.name:
                    self.env[h.name] = 0
                self.block(h.body)
            self.block(s.orelse)
            self.depth -= 1
            self.block(s.finalbody)
        elif isinstance(s, ast.Match):
            self.expr(s.subject)
            self._cases(s)
        else:
            for child in child_nodes(s):
                if isinstance(child, ast.expr):
                    self.expr(child)

    def _if(self, s: ast.If) -> None:
        guard = eager_guard(s.test, self.ctx.aliases)
        if guard is None:
            guard = numpy_guard(s.test, self.ctx.aliases)
        known = _const_param_test(s.test, self.ctx.function.const_params)
        if known is not None:  # `if jittable:` where every compiled caller passes a literal
            self._branch(s.body if known else s.orelse, None)
            return
        self.expr(s.test)
        if guard is True:
            self._branch(s.orelse, None)
            return
        if guard is False:
            self._branch(s.body, None)
            return
        self._exclusive = [(dict(self.env), s, set())] + self._exclusive
        try:
            self._two_way(s)
        finally:
            self._exclusive.pop(0)

    def _two_way(self, s: ast.If) -> None:
        none = _is_none_test(s.test)
        if none is not None:  # `if x is None:` x is None (a Python value) in the body
            self._exclusive[0][2].add(none)
            saved = self.env.get(none, 0)
            self.env[none] = 0
            self.values.invalidate()
            self._branch(s.body, None)
            self.env[none] = self.env.get(none, 0) | saved
            self.values.invalidate()
            self._else_branch(s.orelse, None)
            return
        typed = _tensor_type_test(s.test, self.ctx.aliases)
        if typed is not None:  # `if hasattr(x, "shape"): ... else:` x is no tensor in the else branch
            self._exclusive[0][2].add(typed)
            saved = self.env.get(typed, 0)
            self._branch(s.body, None)
            self.env[typed] = 0
            self.values.invalidate()
            self._else_branch(s.orelse, None)
            self.env[typed] = saved
            self.values.invalidate()
            return
        listed = _isinstance_sequence(s.test)
        if listed is not None:  # `if isinstance(x, (list, tuple)):` x is a Python sequence there
            self._exclusive[0][2].add(listed)
            saved = self.env.get(listed, 0)
            self.env[listed] = (saved & ~TENSOR) | PYLIST
            self.values.invalidate()
            self._branch(s.body, None)
            self.env[listed] = saved
            self.values.invalidate()
            self._else_branch(s.orelse, None)
            return
        tensor = is_tensor(self.values.flags(s.test))
        numbers = python_number_names(s.test)
        if numbers:  # `if isinstance(n, int):` n is a Python number in the body
            self._exclusive[0][2].update(numbers)
            saved_numbers = {name: self.env.get(name, 0) for name in numbers}
            for name in numbers:
                self.env[name] = PYTHON
            self.values.invalidate()
            self._branch(s.body, s if tensor else None)
            self.env.update(saved_numbers)
            self.values.invalidate()
            self._else_branch(s.orelse, s if tensor else None)
            return
        self._branch(s.body, s if tensor else None)
        self._else_branch(s.orelse, s if tensor else None)

    def _else_branch(self, orelse: list[ast.stmt], tensor_if: ast.If | None) -> None:
        """Walk the else branch of the innermost two-way ``if`` from the values before it (the body's
        bindings do not reach it), then join: a name holds what either branch left, and a branch
        that returns or raises leaves nothing to the code after the ``if``. The names the test
        refines (``x is None``, ``isinstance``) keep the handling of :meth:`_two_way`."""
        pre, s, tested = self._exclusive[0]
        env = self.env
        after_body = dict(env)
        for name in set(pre) | set(after_body):
            if name in tested or pre.get(name) == after_body.get(name):
                continue
            if name in pre:
                env[name] = pre[name]
            else:
                del env[name]
        self.values.invalidate()
        self._branch(orelse, tensor_if)
        body_ends, else_ends = _ends(s.body), _ends(orelse)
        if body_ends and else_ends:
            return  # nothing after the `if` runs on either path; keep the else branch's values
        for name in set(after_body) | set(env):
            if name in tested:
                continue
            b, e = after_body.get(name), env.get(name)
            if body_ends:
                k = e
            elif else_ends:
                k = b
            else:
                k = b if e is None else merge_flags(b, e)
            if k is None:
                env.pop(name, None)
            else:
                env[name] = k
        self.values.invalidate()

    def _cases(self, s: ast.Match) -> None:
        """Each case of a ``match`` starts from the values before it (the cases are exclusive); after it
        a name holds what it held before (no case matched) or what a case that falls through left."""
        pre = dict(self.env)
        joined = dict(pre)
        self.depth += 1
        for case in s.cases:
            self._restore(pre)
            self.block(case.body)
            if not _ends(case.body):
                for name, k in self.env.items():
                    joined[name] = merge_flags(joined.get(name), k)
        self.depth -= 1
        self._restore(joined)

    def _restore(self, values: dict[str, int]) -> None:
        self.env.clear()
        self.env.update(values)
        self.values.invalidate()

    def _branch(self, body: list[ast.stmt], tensor_if: ast.If | None) -> None:
        if not body:
            return
        if tensor_if is not None:
            self.ctx.tensor_branches.append(tensor_if)
        self.depth += 1
        self.block(body)
        self.depth -= 1
        if tensor_if is not None:
            self.ctx.tensor_branches.pop()

    def _for(self, s: ast.For | ast.AsyncFor) -> None:
        self.expr(s.iter)
        it = s.iter
        it_flags = self.values.flags(it)
        staged = (isinstance(it, ast.Call) and self.ctx.resolve(it.func) == "tf.range") or (
            # a computed tensor (not a parameter or layer output, which may be a Python tuple)
            self.ctx.converted and is_tensor(it_flags) and bool(it_flags & (DATA | LOOP | RANDOM))
        ) or (
            # `range(n)` of a tensor computed by an op (`tf.shape(x)[0]`): AutoGraph turns it into
            # tf.range, a staged loop (TF 2.21: a tensor `break` in it traces and compiles)
            self.ctx.converted and isinstance(it, ast.Call) and type(it.func) is ast.Name and it.func.id == "range"
            and "range" not in self.env
            and any(is_tensor(k := self.values.flags(a)) and bool(k & (OP | DATA | LOOP | SHAPE)) for a in it.args)
        )
        self.depth += 1
        saved_loop = self.loop_flag
        if staged:
            self.loop_flag = LOOP
            self.ctx.staged_loops.append(s)  # type: ignore[arg-type]
        else:
            self.ctx.python_loops.append(s)  # type: ignore[arg-type]
        for name, k in self.values.target_bindings(s.target, s.iter):
            self.env[name] = k | (LOOP if staged and k & TENSOR else 0) | (self.env.get(name, 0) if self.depth > 1 else 0)
        self.values.invalidate()
        self.block(s.body)
        if staged:
            self.ctx.staged_loops.pop()
        else:
            self.ctx.python_loops.pop()
        self.loop_flag = saved_loop
        self.block(s.orelse)
        self.depth -= 1

    def _while(self, s: ast.While) -> None:
        self.expr(s.test)
        staged = self.ctx.converted and is_tensor(self.values.flags(s.test))
        self.depth += 1
        saved_loop = self.loop_flag
        if staged:
            self.loop_flag = LOOP
            self.ctx.staged_loops.append(s)
            self.ctx.tensor_branches.append(s)
        self.block(s.body)
        if staged:
            self.ctx.staged_loops.pop()
            self.ctx.tensor_branches.pop()
        self.loop_flag = saved_loop
        self.block(s.orelse)
        self.depth -= 1


def static_call_params(facts: ModuleFacts) -> dict[int, dict[str, int]]:
    """Parameters of this module's private module-level functions (``_name``) that every call here
    binds to a proven Python value, whatever the caller: a literal, ``x.shape[...]``, ``x.shape.rank``,
    ``x.ndim``, ``x.dtype`` (``values.flags`` with no bindings at all, so only what is Python by its
    form counts; an unknown name is not a Python value here). A Python value passed to a function is
    that value inside it, traced or not: tracing only turns tensors into symbolic tensors (tf.function
    and jax.jit treat non-tensor arguments as constants of the trace). By PEP 8 a leading underscore
    marks a module's internal name, so its calls are the ones this module makes; a name that is used
    other than as the callee of a plain call (handed to ``tf.map_fn``, stored, decorated or called with
    ``*args``/``**kwargs``) gets nothing. Callers this module compiles still record what they pass
    (``call_flags``), which takes precedence. One pass over the module's nodes."""
    funcs = {name: f for name, f in facts.module_funcs.items()
             if name.startswith("_") and not name.startswith("__") and f.cls is None and f.parent is None
             and isinstance(f.node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not f.node.decorator_list}
    if not funcs:
        return {}
    callees: set[int] = set()
    calls: dict[str, list[ast.Call]] = {}
    loads: dict[str, int] = {}
    tree = facts.module_node
    for node in walk(tree) if tree is not None else ():
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in funcs:
            callees.add(id(node.func))
            calls.setdefault(node.func.id, []).append(node)
        elif isinstance(node, ast.Name) and node.id in funcs:
            loads[node.id] = loads.get(node.id, 0) + 1
    values = ValueEnv(facts.aliases, None, {})
    out: dict[int, dict[str, int]] = {}
    for name, f in funcs.items():
        sites = calls.get(name, [])
        if not sites or loads.get(name, 0) != len(sites) or any(
                any(isinstance(a, ast.Starred) for a in c.args) or any(k.arg is None for k in c.keywords)
                for c in sites):
            continue
        args = f.node.args
        params = [a.arg for a in args.posonlyargs + args.args]
        static: dict[str, int] | None = None
        for call in sites:
            bound = {p: values.flags(a) for p, a in zip(params, call.args)}
            bound.update((k.arg, values.flags(k.value)) for k in call.keywords if k.arg is not None)
            mine = {p for p, fl in bound.items() if fl == PYTHON}
            static = {p: PYTHON for p in mine} if static is None else {p: PYTHON for p in static if p in mine}
        if static:
            out[id(f)] = static
    return out


def _given_dtypes(info: FunctionInfo, facts: ModuleFacts, outer: ValueEnv | None) -> dict[str, str]:
    """Dtypes proven outside ``info`` for names it reads (:class:`~xlacheck.analysis.dtypes.DtypeModel`
    keeps those it does not bind): its parameters' from what every compiled caller here passes (not a
    traced entry's, which outside callers fill), and its free variables' in the enclosing function
    ``outer`` where ``info`` is defined."""
    given = {name: dtype for name, dtype in facts.call_dtypes.get(id(info), {}).items()
             if dtype is not None} if not info.jit_entry else {}
    node = info.node
    if outer is not None:
        body = [node.body] if isinstance(node, ast.Lambda) else node.body
        read = {n.id for stmt in body for n in ast.walk(stmt)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        for name in sorted(read - set(given)):
            dtype = outer.name_dtype(name, node.lineno, node.col_offset)
            if dtype is not None:
                given[name] = dtype
    return given


def walk_function(
    path: str,
    info: FunctionInfo,
    facts: ModuleFacts,
    dispatch: dict[type, list[Rule]],
    outer_env: dict[str, int] | None,
    outer_values: ValueEnv | None = None,
) -> RuleContext:
    """Walk ``info`` with ``outer_env`` (its closure) plus its parameters; return the context.
    ``outer_values``: the enclosing function's values, for the dtypes of its closure."""
    owner = info.cls
    scope = info.parent
    while owner is None and scope is not None:
        owner = scope.cls
        scope = scope.parent
    aliases = facts.aliases
    env = dict(outer_env) if outer_env else {}
    passed = None if info.jit_entry else facts.call_flags.get(id(info))
    if passed is None and not (info.jit_entry or info.traced_args or info.keras_method or info.loop_body):
        if facts.static_params is None:
            facts.static_params = static_call_params(facts)
        passed = facts.static_params.get(id(info))
    env.update(param_flags(info, passed, nonnumeric_enum_names(facts) if info.jax and info.jit_entry else frozenset()))
    if facts.enum_classes is None:
        facts.enum_classes = frozenset(c.node.name for c in facts.classes if set(c.bases) & _ENUM_BASES)
    for name in _annotated_with(info.node, facts.enum_classes):
        if name in env and not (passed and name in passed):
            env[name] = PYTHON  # `mode: Mode`, an Enum of this file: a member, a Python value
    arrays = array_evidence(info.node, aliases.resolve,
                            None if "torch" in aliases.frameworks else TENSOR_MEMBER_NAMES)
    for name in arrays:
        if name in env:
            env[name] = without_opaque(env[name])
    values = ValueEnv(aliases, owner, env, info.node)
    values.given_dtypes = _given_dtypes(info, facts, outer_values)
    values.converted = info.converted
    values.staged = info.jax
    if facts.reducers is None:
        facts.reducers = reduction_functions(facts.functions, aliases)._replace(
            jax_ops=jax_op_functions(facts.functions, aliases))
    values.reducers = facts.reducers
    if facts.static_fields is None:
        facts.static_fields = static_field_names([c.node for c in facts.classes])
    values.static_fields = facts.static_fields
    if facts.leaf_fields is None:
        facts.leaf_fields = leaf_field_names([c.node for c in facts.classes])
    values.leaf_fields = facts.leaf_fields
    values.plain_enums = enum_names(facts)
    ctx = RuleContext(path, info, aliases, values)
    ctx.module_values = facts.module_values
    ctx.module_built = facts.module_built
    ctx.module_classes = {name: (c.bases, frozenset(c.methods)) for name, c in facts.classes_by_name.items()}
    ctx.module_funcs = facts.module_funcs
    ctx.facts = facts
    if passed is not None:
        ctx.jit_leaf_params = frozenset(k for k, v in facts.jit_leaf_args.get(id(info), {}).items() if v)
    walker = FunctionWalker(ctx, dispatch, facts)
    walker.arrays = arrays
    node = info.node
    if isinstance(node, ast.Lambda):
        walker.expr(node.body)
    else:
        walker.block(node.body)
    return ctx
