"""A host read inside a torch_xla step whose value is only printed or recorded, deferred to a
step closure (XLA350's fix; built by the rule's check, so no ``@rewriter`` here).

``print(f"loss {loss.item():.4f}")`` in a torch_xla step reads the loss on the host now: the pending
graph runs, the value is copied, and the step is cut in two graphs. ``xm.add_step_closure(fn,
args=...)`` queues ``fn(*args)`` to run at the step's sync (``torch_xla.sync()``, ``xm.mark_step()``,
and each step of an ``MpDeviceLoader``), after the step's graph ran: the tensors in ``args`` are then
device data, and reading them costs a copy, not an execution, and does not cut the graph.

The rewrite::

    sink(read(e1), a, g(y))  ->  xm.add_step_closure(lambda t, a, g_2: sink(read(t), a, g_2), args=(e1, a, g(y)))

Why the same value reaches the sink:

* every sub-expression of the statement that holds no host read (the read's tensor operand ``e1``,
  the names and calls around it, the sink's receiver) is evaluated now, in source order, as an
  element of ``args``, so it has the value it had in the original; the lambda keeps only the reads
  (applied to those values), the operators, f-strings, displays and pure functions (builtins,
  ``math``, ``numpy``, ``str.format``) that combine their results, constants, and names no step
  rebinds (builtins, module-level imports, functions and classes);
* a read of a tensor the step computed gives the same value after the sync as inside the step
  (checked on torch_xla by running both versions, tests/xlacheck/test_torch_fixes.py);
* the statement is a call to a sink whose result is discarded (``print``, logging, TensorBoard
  writers, tqdm, ``list.append``/``extend`` of a list nothing in the step reads afterwards), so
  nothing in the step depends on it having run.

Refused: a read whose value steers control flow (``if t:``, ``and``/``or``, a conditional
expression: the branch is taken now), short-circuiting around a read, comprehensions, and
f-string parts that would need an edit (Python 3.11's positions inside f-strings are not exact).

What changes, so the fix is UNSAFE: *when* the sink runs, at the sync instead of at that line: its
output comes after the step's other prints, a list holds the value only once the step synced, and
when the same code runs on a CPU or GPU device the closure waits for the next torch_xla sync.
Steps that never sync each iteration (a loop that only calls ``xm.optimizer_step``, no sync at all)
and ``torch.compile`` steps (dynamo breaks the graph at the closure) get no fix.
"""

from __future__ import annotations

import ast
import builtins
import keyword
from collections.abc import Callable, Iterable

from xlacheck.analysis import walk
from xlacheck.analysis.torch_model import GRAPH_SYNCS
from xlacheck.diagnostics import Edit, Fix, Location
from xlacheck.rewrites._fix import make_fix

XLA_MODEL = "torch_xla.core.xla_model"

# Sinks: calls that print or record a value and whose result nobody uses.
_PRINT_FUNCTIONS = frozenset({"print", "logging.debug", "logging.info", "logging.warning", "logging.warn",
                              "logging.error", "logging.critical", "logging.exception", "logging.log",
                              f"{XLA_MODEL}.master_print", "wandb.log", "tqdm.tqdm.write", "tqdm.write"})
_PRINT_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "critical", "exception", "log",
                            "add_scalar", "add_scalars", "add_histogram", "add_text", "log_metrics",
                            "set_postfix", "set_postfix_str", "set_description", "set_description_str",
                            "print", "write"})
_RECORD_METHODS = frozenset({"append", "extend"})  # the receiver must not be read later in the step
# Pure functions the closure may call on read results.
_PURE_BUILTINS = frozenset({"abs", "bool", "dict", "float", "format", "int", "len", "list", "max", "min", "repr",
                            "round", "sorted", "str", "sum", "tuple"})
_PURE_MODULES = ("math.", "numpy.")
_COMBINATORS = (ast.BinOp, ast.UnaryOp, ast.Compare, ast.Dict, ast.List,
                ast.Tuple, ast.Set, ast.Subscript, ast.Attribute, ast.Call)

UNSAFE_REASON = ("the call runs at the step's sync, after the graph ran, not at this line: its output comes after "
                 "the step's other prints, what it records is there only once the step synced, and on a non-XLA "
                 "device it waits for the next torch_xla sync")


def step_syncs_each_iteration(why: str, node: ast.AST, resolve: Callable[[ast.expr], str | None]) -> bool:
    """Whether the step runs queued closures at the end of every iteration: it iterates an
    MpDeviceLoader, its loop calls ``torch_xla.sync()``/``xm.mark_step()``, it is a ``with
    torch_xla.step()`` block or a ``torch_xla.compile`` function, or it is a step function whose
    caller syncs (declared torch_xla code). Not a loop that only calls ``xm.optimizer_step``, nor a
    loop without any sync, nor ``torch.compile`` (dynamo)."""
    if "torch.compile" in why or "a training loop on the XLA device" in why:
        return False
    if isinstance(node, (ast.For, ast.While)) and why.startswith("a loop that calls"):
        return any(isinstance(c, ast.Call) and resolve(c.func) in GRAPH_SYNCS for c in walk(node))
    return "xm.optimizer_step" not in why


def _module_free_names(tree: ast.Module) -> set[str]:
    """Names the closure may read late: builtins not rebound anywhere, and module-level names bound
    only by imports, ``def`` and ``class`` (never reassigned)."""
    stored: set[str] = set()
    for n in walk(tree):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            stored.add(n.id)
        elif isinstance(n, ast.arg):
            stored.add(n.arg)
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            stored.update(n.names)
    fixed: set[str] = set()
    for s in tree.body:
        if isinstance(s, (ast.Import, ast.ImportFrom)):
            fixed.update((a.asname or a.name.split(".")[0]) for a in s.names)
        elif isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            fixed.add(s.name)
    return (fixed | set(dir(builtins))) - stored


def _module_level(tree: ast.Module) -> list[ast.stmt]:
    """Module-level statements, with the bodies of top-level ``try:`` and ``if`` blocks in line
    (``try: import torch_xla.core.xla_model as xm`` guards an optional dependency), in line order."""
    out: list[ast.stmt] = []
    for s in tree.body:
        if isinstance(s, ast.Try):
            out += [*s.body, *(b for h in s.handlers for b in h.body), *s.orelse]
        elif isinstance(s, ast.If):
            out += [*s.body, *s.orelse]
        else:
            out.append(s)
    return sorted(out, key=lambda n: n.lineno)


def xla_model_name(tree: ast.Module, before_line: int) -> tuple[str | None, Edit | None]:
    """How the file names ``torch_xla.core.xla_model`` at module level before ``before_line``, or the
    edit that imports it as ``xm`` after the last such import (None, None: no safe place or name)."""
    last_import: ast.stmt | None = None
    for s in _module_level(tree):
        if s.lineno >= before_line:
            break
        if isinstance(s, ast.Import):
            last_import = s
            for a in s.names:
                if a.name == XLA_MODEL:
                    return (a.asname or XLA_MODEL), None
        elif isinstance(s, ast.ImportFrom):
            last_import = s
            if s.module == "torch_xla.core" and not s.level:
                for a in s.names:
                    if a.name == "xla_model":
                        return (a.asname or "xla_model"), None
    if last_import is None or last_import.end_lineno is None or last_import not in tree.body:
        return None, None  # (after a guarded import, an unguarded one would change what the module needs)
    used = {n.id for n in walk(tree) if isinstance(n, ast.Name)} | {n.arg for n in walk(tree) if isinstance(n, ast.arg)}
    used |= {a.asname or a.name.split(".")[0] for n in walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
             for a in n.names}
    if "xm" in used:
        return None, None
    at = Location(last_import.end_lineno + 1, 0)
    return "xm", Edit(at, at, f"import {XLA_MODEL} as xm\n")


class _Closure:
    """Splits one sink call into what is evaluated now (``args``) and what the closure does."""

    def __init__(self, reads: set[int], free: set[str],
                 resolve: Callable[[ast.expr], str | None], taken: set[str]) -> None:
        self.reads = reads  # ids of read calls (x.item(), float(x)) and f-strings that format a tensor
        self.free = free
        self.resolve = resolve
        self.taken = taken  # names the closure's text uses: a fresh parameter must differ
        self.params: list[str] = []
        self.args: list[str] = []
        self.edits: list[Edit] = []
        self.fstring_depth = 0

    def has_read(self, node: ast.AST) -> bool:
        return any(id(n) in self.reads for n in walk(node))

    def hoist(self, e: ast.expr) -> bool:
        """Evaluate ``e`` now and pass it in: a Name keeps its name, anything else gets a fresh one."""
        if isinstance(e, ast.Constant) or isinstance(e, ast.Name) and e.id in self.free:
            return True
        if isinstance(e, ast.Name):
            if e.id not in self.params:
                self.params.append(e.id)
                self.args.append(e.id)
            return True
        if self.fstring_depth or e.end_lineno is None or e.end_col_offset is None:
            return False
        name = self._fresh(e)
        self.params.append(name)
        self.args.append(ast.unparse(e))
        self.edits.append(Edit(Location(e.lineno, e.col_offset), Location(e.end_lineno, e.end_col_offset), name))
        return True

    def _fresh(self, e: ast.expr) -> str:
        base = e
        while isinstance(base, (ast.Subscript, ast.Call)):
            base = base.value if isinstance(base, ast.Subscript) else base.func
        stem = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else "value"
        stem = stem.strip("_") or "value"
        name, i = stem, 1
        while name in self.taken or name in self.params or keyword.iskeyword(name) or name in self.free:
            i += 1
            name = f"{stem}_{i}"
        self.taken.add(name)
        return name

    def build(self, e: ast.AST) -> bool:
        """Keep ``e`` in the closure: its read-free parts are hoisted, reads and combinators stay."""
        if not isinstance(e, ast.expr):
            return all(self.build(c) for c in ast.iter_child_nodes(e))  # keyword, comprehension parts
        if isinstance(e, ast.JoinedStr):  # formatted in the closure; its names are passed in
            self.fstring_depth += 1
            ok = all(self.build(v) for v in e.values)
            self.fstring_depth -= 1
            return ok
        if isinstance(e, ast.FormattedValue):
            return self.build(e.value) and (e.format_spec is None or self.build(e.format_spec))
        if not self.has_read(e):
            return self.hoist(e)
        if id(e) in self.reads and isinstance(e, ast.Call):  # x.item() / float(x): hoist the tensor
            operand = e.func.value if isinstance(e.func, ast.Attribute) else e.args[0]
            return self.build(operand)
        if not isinstance(e, _COMBINATORS):
            return False  # IfExp, BoolOp (short-circuit), comprehensions, lambdas, await ...
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            return False
        if isinstance(e, ast.Call):  # a pure function of read results: its name stays, its arguments are built
            if any(isinstance(a, ast.Starred) for a in e.args) or any(k.arg is None for k in e.keywords):
                return False
            if isinstance(e.func, ast.Attribute) and self.has_read(e.func.value):
                ok = self.build(e.func.value)  # t.cpu().numpy().round(4): a method of the fresh host copy
            else:
                ok = self._pure_call(e)
            return ok and all(self.build(a) for a in [*e.args, *(k.value for k in e.keywords)])
        if isinstance(e, ast.Attribute):
            return self.build(e.value)
        return all(self.build(c) for c in ast.iter_child_nodes(e) if isinstance(c, (ast.expr, ast.keyword)))

    def _pure_call(self, call: ast.Call) -> bool:
        f = call.func
        if isinstance(f, ast.Name):
            return f.id in _PURE_BUILTINS and f.id in self.free
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Constant) and isinstance(f.value.value, str):
            return f.attr in ("format", "join")  # "loss {}".format(...)
        return (self.resolve(f) or "").startswith(_PURE_MODULES)

    def sink(self, call: ast.Call) -> bool:
        """The sink itself stays in the closure; its receiver (``writer`` in ``writer.add_scalar``)
        is evaluated now."""
        f = call.func
        if isinstance(f, ast.Attribute) and not self.hoist(f.value):
            return False
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return False
        return all(self.build(a) for a in [*call.args, *(k.value for k in call.keywords)])


def sink_kind(call: ast.Call, resolve: Callable[[ast.expr], str | None], is_tensor: Callable[[ast.AST], bool],
              free: set[str]) -> str | None:
    """"print" for a call that prints or logs, "record" for ``list.append``/``extend``, else None."""
    f = call.func
    if isinstance(f, ast.Name):
        return "print" if f.id == "print" and "print" in free else None
    name = resolve(f) or ""
    if name in _PRINT_FUNCTIONS:
        return "print"
    if not isinstance(f, ast.Attribute) or is_tensor(f.value) or name.startswith(("torch", "numpy", "math")):
        return None
    if f.attr in _PRINT_METHODS:
        return "print"
    if f.attr in _RECORD_METHODS:
        return "record"
    return None


def _simple(e: ast.expr) -> bool:
    """A name, an attribute chain or a constant: evaluating it has no effect, in any order."""
    while isinstance(e, ast.Attribute):
        e = e.value
    return isinstance(e, (ast.Name, ast.Constant))


def closure_fix(stmt: ast.stmt, reads: Iterable[ast.AST], *, tree: ast.Module,
                resolve: Callable[[ast.expr], str | None], is_tensor: Callable[[ast.AST], bool],
                read_later: Callable[[ast.expr], bool]) -> Fix | None:
    """The step-closure rewrite of ``stmt``, or None: a statement calling a sink, or storing into an
    attribute or an item (``self.ema = 0.9 * self.ema + 0.1 * loss.item()``, ``postfix["loss"] =
    f"{loss.item():.4f}"``), which becomes ``setattr(obj, "ema", ...)`` / ``obj.__setitem__(key, ...)``
    in the closure (what the assignment statement calls).

    ``reads``: the host reads the rule found in ``stmt`` (calls, f-strings, ``print`` calls);
    ``read_later(e)``: whether the step names ``e`` (the list a sink appends to, the object stored
    into) after ``stmt`` before its sync."""
    free = _module_free_names(tree)
    target: ast.Attribute | ast.Subscript | None = None
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        root: ast.expr = stmt.value
        kind = sink_kind(stmt.value, resolve, is_tensor, free)
        if kind is None or kind == "record" and read_later(stmt.value.func.value):  # type: ignore[attr-defined]
            return None
    elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0], (ast.Attribute, ast.Subscript)):
        target, root, kind = stmt.targets[0], stmt.value, "store"
        key = target.slice if isinstance(target, ast.Subscript) else None
        if not _simple(target.value) or is_tensor(target.value) or key is not None and not _simple(key) \
                or read_later(target.value if isinstance(target, ast.Subscript) else target):
            return None  # (a store into a tensor is a graph op; a key with effects would move)
    else:
        return None
    read_ids: set[int] = set()
    for r in reads:
        if isinstance(r, ast.Call) and r is root and kind == "print":
            continue  # print(tensor): the sink itself formats the tensor in the closure
        if isinstance(r, ast.Call) and (isinstance(r.func, ast.Attribute) and not r.args
                                        or isinstance(r.func, ast.Name) and r.func.id != "print" and len(r.args) == 1):
            read_ids.add(id(r))
        elif isinstance(r, ast.JoinedStr):
            read_ids.add(id(r))
        else:
            return None  # a truth test or anything that is not a plain value read: no equal rewrite
    # f-strings that format a tensor inside print(...) were reported through the print: defer them too
    read_ids |= {id(n) for n in walk(root) if isinstance(n, ast.JoinedStr)
                 and any(isinstance(v, ast.FormattedValue) and is_tensor(v.value) for v in n.values)}
    if target is not None and any(id(n) in read_ids for n in walk(target)):
        return None
    name, import_edit = xla_model_name(tree, stmt.lineno)
    if name is None or root.end_lineno is None or root.end_col_offset is None:
        return None
    taken = {n.id for n in walk(stmt) if isinstance(n, ast.Name)} | {name.split(".")[0]}
    closure = _Closure(read_ids, free, resolve, taken)
    if target is None:
        if not closure.sink(stmt.value):  # type: ignore[arg-type]
            return None
        head = Location(root.lineno, root.col_offset)
        opening = [Edit(head, head, "")]
    else:
        key = target.slice if isinstance(target, ast.Subscript) else None
        if not closure.hoist(target.value) or key is not None and not closure.hoist(key) or not closure.build(root):
            return None
        head = Location(stmt.lineno, stmt.col_offset)
        obj_end = Location(target.value.end_lineno, target.value.end_col_offset)  # type: ignore[arg-type]
        value_start = Location(root.lineno, root.col_offset)
        if key is None:
            opening = [Edit(head, head, "setattr("),
                       Edit(obj_end, value_start, f', "{target.attr}", ')]  # type: ignore[union-attr]
        else:
            key_start = Location(key.lineno, key.col_offset)
            key_end = Location(key.end_lineno, key.end_col_offset)  # type: ignore[arg-type]
            opening = [Edit(head, head, ""), Edit(obj_end, key_start, ".__setitem__("), Edit(key_end, value_start, ", ")]
    if not closure.params:
        return None
    params = ", ".join(closure.params)
    args = ", ".join(closure.args) + ("," if len(closure.args) == 1 else "")
    end = Location(root.end_lineno, root.end_col_offset)
    lead = f"{name}.add_step_closure(lambda {params}: "
    opening[0] = Edit(opening[0].start, opening[0].end, lead + opening[0].content)
    close = ")" if target is not None else ""
    edits = [*opening, *closure.edits, Edit(end, end, f"{close}, args=({args}))")]
    if import_edit is not None:
        edits.insert(0, import_edit)
    return make_fix(f"Read it in a step closure: {name}.add_step_closure(lambda {params}: ..., args=({args})) "
                    "runs after the step's graph (no host read inside the step)", edits, [UNSAFE_REASON])
