"""Parameters that every call of a function leaves at one literal: the branches they rule out never run.

A function's every call is in view when nothing outside its file can name it: a function nested in
another, or a private one (``_sinkhorn``, ``_pad``: a leading underscore, not a dunder), whose name the
file uses only as the callee of calls (``_f(...)``, ``self._f(...)``, ``Cls._f(...)``; never handed on as
a value, never spelled as a string for ``getattr``). For such a function, a parameter with a literal
default (``tol=None``) that no call passes (no keyword, no positional argument that reaches it, no
``*args``/``**kwargs``) is that literal at every run, and so is one that every call passes as the same
literal; :func:`literal_test` then decides ``if tol is not None:`` / ``if p:`` / ``if mode == "cpu":``
on it. Private names are a convention, not a fence: a module that imports ``_f`` and passes other
literals is not seen (a single-file fact; decorated functions are left out, since a decorator may call
its function with arguments of its own, but for decorators that pass the caller's arguments through:
``@torch.no_grad()``, ``@functools.lru_cache``). Across the project (:func:`project_literals`) an
``nn.Module``'s ``forward`` counts the calls of its instances where every instance is bound to one name
that is only called (``self.encoder = Encoder()`` ... ``self.encoder(x)``).
A branch that can never run is code the project never runs (docs/real-code-judgments-11.md:
the only caller of ``RouterSinkhorn._sinkhorn`` does not pass ``tol``, so its ``float(error)`` check
never reads the device). A parameter the function rebinds is left out.

:func:`closed_call_literals` is computed once per file; the PyTorch adapter
(:mod:`xlacheck.analysis.torch_model`) walks the ruled-out branches for their bindings only.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from xlacheck.analysis import walk
from xlacheck.analysis.scopes import parameter_defaults

if TYPE_CHECKING:
    from xlacheck.analysis.contexts import FunctionInfo

_UNKNOWN = object()  # a parameter two calls pass differently, or pass as a non-literal
_UNSET = object()  # no call seen yet


def number_literal(e: ast.AST | None) -> int | float | None:
    """The value of a Python int or float literal with its sign (``3``, ``-1``, ``+0.5``); None for
    anything else, booleans included. The one reader of numeric literals that rules and the model share."""
    sign = 1
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
        sign, e = (-1 if isinstance(e.op, ast.USub) else 1), e.operand
    if isinstance(e, ast.Constant) and isinstance(e.value, (int, float)) and not isinstance(e.value, bool):
        return sign * e.value
    return None


def int_literal(e: ast.AST | None) -> int | None:
    """:func:`number_literal` when it is an int."""
    value = number_literal(e)
    return value if isinstance(value, int) else None


def _literal(e: ast.expr | None) -> object:
    """The value of a literal (``None``, ``True``, ``0``, ``-1``, ``"cpu"``), else ``_UNKNOWN``. Bytes,
    ``...`` and complex numbers are unknown: the call index is cached as JSON, which has none of them."""
    if isinstance(e, ast.Constant) and not isinstance(e.value, (bytes, complex)) and e.value is not Ellipsis:
        return e.value
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        value = number_literal(e)
        return _UNKNOWN if value is None else value
    return _UNKNOWN


def _is_static(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


def _through_class(c: ast.Call) -> bool:
    """``Cls.method(obj, ...)``: a plain method called through its class takes its receiver positionally."""
    f = c.func
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id[:1].isupper()


def names_rebound(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Names the function (or a function nested in it) stores to, or declares nonlocal/global."""
    out: set[str] = set()
    for n in walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(n.id)
        elif isinstance(n, (ast.Nonlocal, ast.Global)):
            out.update(n.names)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in n.names)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n is not node:
            out.add(n.name)
        elif isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name:
            out.add(n.name)
        elif isinstance(n, ast.MatchMapping) and n.rest:
            out.add(n.rest)
    return out


def _mentions(tree: ast.Module, names: set[str]) -> tuple[dict[str, list[ast.Call]], set[str]]:
    """For each name: the calls whose callee spells it (``f(...)``, ``x.f(...)``), and the names the
    file also uses otherwise (as a value, an attribute read that is not called, a string constant)."""
    calls: dict[str, list[ast.Call]] = {}
    callee_ids: set[int] = set()
    for n in walk(tree):
        if isinstance(n, ast.Call):
            f = n.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name in names:
                calls.setdefault(name, []).append(n)
                callee_ids.add(id(f))
    other: set[str] = set()
    for n in walk(tree):
        if id(n) in callee_ids:
            continue
        if isinstance(n, ast.Name) and n.id in names or isinstance(n, ast.Attribute) and n.attr in names:
            other.add(n.id if isinstance(n, ast.Name) else n.attr)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in names:
            other.add(n.value)
    return calls, other


@dataclass(frozen=True)
class CallShape:
    """One call as far as literal arguments go: each positional argument's literal (``_UNKNOWN`` for
    anything else), each keyword's, whether it unpacks ``*args``/``**kwargs`` (``open``: it may pass
    anything), and whether it names a class before the method (``Cls.method(obj, ...)``)."""

    positional: tuple[object, ...]
    keywords: tuple[tuple[str, object], ...]
    open: bool
    through_class: bool

    @classmethod
    def of(cls, c: ast.Call) -> CallShape:
        return cls(tuple(_literal(a) for a in c.args), tuple((k.arg, _literal(k.value)) for k in c.keywords if k.arg),
                   any(isinstance(x, ast.Starred) for x in c.args) or any(k.arg is None for k in c.keywords),
                   _through_class(c))

    def to_json(self) -> list[object]:
        return [[_enc(v) for v in self.positional], [[k, _enc(v)] for k, v in self.keywords], self.open,
                self.through_class]

    @classmethod
    def from_json(cls, data: list[Any]) -> CallShape:
        positional, keywords, is_open, through = data
        return cls(tuple(_dec(v) for v in positional), tuple((str(k), _dec(v)) for k, v in keywords), bool(is_open),
                   bool(through))


def _enc(v: object) -> list[object]:
    return [] if v is _UNKNOWN else [v]  # JSON: [] unknown, [literal] known


def _dec(v: list[object]) -> object:
    return v[0] if v else _UNKNOWN


@dataclass(frozen=True)
class Candidate:
    """A public function or method of one file whose parameters with literal defaults the calls of the
    whole project may fix (:func:`project_literals`): ``qualname`` (``f`` or ``Cls.f``), the name calls
    spell, how many receiver slots a call through an attribute fills first (``shift``), each parameter
    (name, positional index or -1, default literal), and for a method its class's bases (last names)."""

    qualname: str
    name: str
    shift: int
    params: tuple[tuple[str, int, object], ...]
    bases: tuple[str, ...] | None

    def to_json(self) -> list[object]:
        return [self.qualname, self.name, self.shift, [[p, i, _enc(d)] for p, i, d in self.params],
                None if self.bases is None else list(self.bases)]

    @classmethod
    def from_json(cls, data: list[Any]) -> Candidate:
        qualname, name, shift, params, bases = data
        return cls(str(qualname), str(name), int(shift), tuple((str(p), int(i), _dec(d)) for p, i, d in params),
                   None if bases is None else tuple(str(b) for b in bases))


@dataclass(frozen=True)
class CallIndex:
    """What one file tells the project about calls by name (:func:`index_calls`): the calls per callee
    name, the names it uses otherwise (a value, an attribute read not called, a string constant), its
    classes with their bases (last names) and its candidate functions. JSON-able, for the cache."""

    calls: tuple[tuple[str, tuple[CallShape, ...]], ...] = ()
    other: frozenset[str] = frozenset()
    classes: tuple[tuple[str, tuple[str, ...]], ...] = ()
    candidates: tuple[Candidate, ...] = ()
    # per callee name, the name each call's result is bound to ("" where it is not one plain
    # ``x = C(...)``/``self.x = C(...)``); and ``other`` less the targets of those bindings
    binds: tuple[tuple[str, tuple[str, ...]], ...] = ()
    loads: frozenset[str] = frozenset()

    def to_json(self) -> list[object]:
        return [[[n, [c.to_json() for c in cs]] for n, cs in self.calls], sorted(self.other),
                [[n, list(b)] for n, b in self.classes], [c.to_json() for c in self.candidates],
                [[n, list(b)] for n, b in self.binds], sorted(self.loads)]

    @classmethod
    def from_json(cls, data: list[Any]) -> CallIndex:
        calls, other, classes, candidates, binds, loads = data
        return cls(tuple((str(n), tuple(CallShape.from_json(c) for c in cs)) for n, cs in calls),
                   frozenset(str(o) for o in other), tuple((str(n), tuple(str(x) for x in b)) for n, b in classes),
                   tuple(Candidate.from_json(c) for c in candidates),
                   tuple((str(n), tuple(str(x) for x in b)) for n, b in binds), frozenset(str(o) for o in loads))


def _base_name(b: ast.expr) -> str:
    return b.attr if isinstance(b, ast.Attribute) else b.id if isinstance(b, ast.Name) else "?"


def _literal_params(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[str, int, object]]:
    """(parameter, positional index or -1, default literal or ``_UNKNOWN``) for the parameters with a
    default that the function never rebinds."""
    positional = [p.arg for p in [*node.args.posonlyargs, *node.args.args]]
    rebound = names_rebound(node)
    return [(p, positional.index(p) if p in positional else -1, _literal(d))
            for p, d in parameter_defaults(node).items() if p not in rebound]


# decorators that call the function with the caller's own arguments, unchanged (grad-mode and autocast
# contexts, TorchScript markers, memoising caches, compiler opt-outs); spelled as written, with or
# without the call (``@torch.no_grad()``, ``@torch.no_grad``)
_PASS_THROUGH_DECORATORS = frozenset({
    *(f"{m}.{n}" for m in ("torch", "torch.autograd", "torch.autograd.grad_mode")
      for n in ("no_grad", "enable_grad", "inference_mode")),
    "no_grad", "enable_grad", "inference_mode", "torch.autocast", "torch.amp.autocast", "torch.cuda.amp.autocast",
    "torch.jit.ignore", "torch.jit.unused", "torch.jit.export", "torch.compiler.disable", "torch._dynamo.disable",
    "functools.cache", "functools.lru_cache", "lru_cache", "staticmethod", "classmethod"})


def _spelled(e: ast.expr) -> str:
    """``a.b.c`` of a name or attribute chain; "" for anything else."""
    parts: list[str] = []
    while isinstance(e, ast.Attribute):
        parts.append(e.attr)
        e = e.value
    if not isinstance(e, ast.Name):
        return ""
    return ".".join([e.id, *reversed(parts)])


def _plainly_decorated(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """No decorator but those that pass the caller's arguments through unchanged
    (:data:`_PASS_THROUGH_DECORATORS`: ``staticmethod``, ``@torch.no_grad()``, ``@functools.lru_cache``):
    other decorators may call it with arguments of their own."""
    return all(_spelled(d.func if isinstance(d, ast.Call) else d) in _PASS_THROUGH_DECORATORS
               for d in node.decorator_list)


def index_calls(tree: ast.Module, functions: Iterable[FunctionInfo] = ()) -> CallIndex:
    """The file's :class:`CallIndex`: every call by name, every other use of a name, its module-level
    classes and its candidates (module-level functions and methods of module-level classes, public or
    not, not dunders, with a parameter of literal default)."""
    calls: dict[str, list[CallShape]] = {}
    callee_ids: set[int] = set()
    bound: dict[int, ast.Name | ast.Attribute] = {}  # id(call) -> the one plain target its result is assigned to
    for n in walk(tree):
        if isinstance(n, (ast.Assign, ast.AnnAssign)) and isinstance(n.value, ast.Call):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            if len(targets) == 1 and isinstance(targets[0], (ast.Name, ast.Attribute)):
                bound[id(n.value)] = targets[0]
    binds: dict[str, list[str]] = {}
    for n in walk(tree):
        if isinstance(n, ast.Call):
            f = n.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name is not None:
                calls.setdefault(name, []).append(CallShape.of(n))
                callee_ids.add(id(f))
                target = bound.get(id(n))
                binds.setdefault(name, []).append(
                    "" if target is None else target.id if isinstance(target, ast.Name) else target.attr)
    not_loads = {id(t) for t in bound.values()}
    # `super(Cls, self)`: the class named for the method lookup, not handed on
    not_loads |= {id(n.args[0]) for n in walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                    and n.func.id == "super" and n.args}
    other: set[str] = set()
    loads: set[str] = set()
    for n in walk(tree):
        if id(n) in callee_ids:
            continue
        if isinstance(n, (ast.Name, ast.Attribute)) and id(n) not in not_loads:
            loads.add(n.id if isinstance(n, ast.Name) else n.attr)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.isidentifier():
            loads.add(n.value)
        if isinstance(n, ast.Name):
            other.add(n.id)
        elif isinstance(n, ast.Attribute):
            other.add(n.attr)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.isidentifier():
            other.add(n.value)
        elif isinstance(n, ast.alias) and n.asname is not None and n.asname != n.name.rsplit(".", 1)[-1]:
            other.add(n.name.rsplit(".", 1)[-1])  # `import f as g`: its calls are spelled g(...), not seen as f's
            loads.add(n.name.rsplit(".", 1)[-1])
    classes = tuple((c.name, tuple(_base_name(b) for b in c.bases)) for c in tree.body if isinstance(c, ast.ClassDef))
    candidates: list[Candidate] = []
    for info in functions:
        node = info.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or info.parent is not None \
                or info.name.startswith("__") and info.name.endswith("__") or not _plainly_decorated(node):
            continue
        if info.cls is not None and info.cls.node not in tree.body:
            continue  # a method of a nested class
        params = _literal_params(node)
        if not params:
            continue
        bases = None if info.cls is None else tuple(_base_name(b) for b in info.cls.node.bases)
        qualname = info.qualname
        shift = 1 if info.cls is not None and not _is_static(node) else 0
        candidates.append(Candidate(qualname, info.name, shift, tuple(params), bases))
    return CallIndex(tuple((n, tuple(cs)) for n, cs in sorted(calls.items())), frozenset(other), classes,
                     tuple(candidates), tuple((n, tuple(b)) for n, b in sorted(binds.items())), frozenset(loads))


def _fixed(sites: Iterable[CallShape], index: int, shift: int, default: object, param: str) -> object:
    """The literal ``param`` is at every one of ``sites`` (its default where a call does not pass it),
    ``_UNKNOWN`` where calls differ or pass something else, ``_UNSET`` with no site."""
    value: object = _UNSET
    for c in sites:
        if c.open or shift and c.through_class:
            return _UNKNOWN
        passed = next((v for k, v in c.keywords if k == param), _UNSET)
        if passed is _UNSET and index >= 0 and index < len(c.positional) + shift:
            at = index - shift
            if at < 0:  # the receiver slot: anything
                return _UNKNOWN
            passed = c.positional[at]
        got = default if passed is _UNSET else passed
        if got is _UNKNOWN or value is not _UNSET and (got != value or type(got) is not type(value)):
            return _UNKNOWN
        value = got
    return value


# nn.Module calls some of its own methods with arguments of its own (``eval()`` -> ``self.train(False)``):
# a method of one of these names may be called with anything (tools/generate_torch_module_table.py)
_MODULE_METHODS: frozenset[str] | None = None


def module_methods() -> frozenset[str]:
    global _MODULE_METHODS
    if _MODULE_METHODS is None:
        from xlacheck._data import load_json

        _MODULE_METHODS = frozenset(load_json("torch_module.json")["methods"]) | {"forward"}
    return _MODULE_METHODS


def project_literals(indexes: Mapping[str, CallIndex]) -> dict[str, dict[str, dict[str, object]]]:
    """Per file path: {qualname: {parameter: the literal it is at every call of the project}}, for the
    candidates whose every call the project shows: the name is spelled only as a callee in every file
    of the run (never a value, an attribute read or a string), at least one call, and, for a method, a
    class whose bases are ``object``, ``nn.Module`` or such classes of the project (a method that
    overrides a framework class's may be called by the framework with anything); nn.Module's own
    method names and ``forward`` are left out (the module calls them itself). Calls are matched by the
    spelled name, so every same-named function's calls count for each: more calls, fewer facts."""
    calls: dict[str, list[CallShape]] = {}
    other: set[str] = set()
    loads: set[str] = set()
    bases: dict[str, list[tuple[str, ...]]] = {}
    binds: dict[str, list[str]] = {}
    for ix in indexes.values():
        for name, shapes in ix.calls:
            calls.setdefault(name, []).extend(shapes)
        other |= ix.other
        loads |= ix.loads
        for name, b in ix.classes:
            bases.setdefault(name, []).append(b)
        for name, names in ix.binds:
            binds.setdefault(name, []).extend(names)
    subclassed = {b for defs in bases.values() for d in defs for b in d}
    closed: dict[str, bool] = {}

    def is_closed(name: str, seen: frozenset[str] = frozenset()) -> bool:
        if name in ("object", "Module"):
            return True
        if name in seen or name not in bases:
            return False
        if name not in closed:
            closed[name] = all(is_closed(b, seen | {name}) for defs in bases[name] for b in defs)
        return closed[name]

    def forward_sites(cand: Candidate) -> list[CallShape] | None:
        """The calls that run an ``nn.Module`` class's ``forward``: its instances' calls, where every
        instance the project builds is bound to one name (``self.enc = Enc(...)``) that is used only as
        a callee (``self.enc(x)``; never read otherwise: handed on, wrapped, its attributes read), the
        class is named nowhere else and nothing subclasses it; plus explicit ``.forward(...)`` calls and
        a module calling itself (``self(x, n)``, ``self.__call__(x)`` in any class: more calls, fewer facts).
        None when the project does not show them all."""
        cls = cand.qualname.split(".", 1)[0]
        names = binds.get(cls, [])
        if (cand.bases is None or cls in loads or cls in subclassed or not names or "" in names
                or any(n in loads or n == cls for n in names)):
            return None
        sites = [c for n in {*names, "forward", "self", "__call__"} for c in calls.get(n, [])]
        return sites or None

    out: dict[str, dict[str, dict[str, object]]] = {}
    for path, ix in indexes.items():
        for cand in ix.candidates:
            sites = calls.get(cand.name)
            if cand.name == "forward" and cand.bases is not None and all(is_closed(b) for b in cand.bases):
                sites = forward_sites(cand)
                if not sites:
                    continue
            elif cand.name in other or not sites:
                continue
            elif cand.bases is not None and (cand.name in module_methods()
                                             or not all(is_closed(b) for b in cand.bases)):
                continue
            known = {}
            for param, index, default in cand.params:
                value = _fixed(sites, index, cand.shift, default, param)
                if value is not _UNKNOWN and value is not _UNSET:
                    known[param] = value
            if known:
                out.setdefault(path, {})[cand.qualname] = known
    return out


def closed_call_literals(tree: ast.Module, functions: Iterable[FunctionInfo],
                         project: Mapping[str, Mapping[str, object]] | None = None) -> dict[int, dict[str, object]]:
    """id(function node) -> {parameter: the literal it is at every call}, for the functions whose every
    call the file shows (see the module docstring), and ``project``'s (:func:`project_literals` of this
    file: {qualname: {parameter: literal}}) for those whose every call the project shows. Functions with
    no call at all get nothing."""
    functions = list(functions)
    out: dict[int, dict[str, object]] = {}
    if project:
        for f in functions:
            if f.parent is None and isinstance(f.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                qualname = f.name if f.cls is None else f"{f.cls.node.name}.{f.name}"
                if qualname in project:
                    out[id(f.node)] = dict(project[qualname])
    closed = [f for f in functions if isinstance(f.node, (ast.FunctionDef, ast.AsyncFunctionDef))
              and (f.parent is not None and f.cls is None
                   or f.name.startswith("_") and not (f.name.startswith("__") and f.name.endswith("__")))
              and _plainly_decorated(f.node)]
    if not closed:
        return _with_locals(out, functions)
    calls, other = _mentions(tree, {f.name for f in closed})
    for f in closed:
        node = f.node
        assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        sites = [CallShape.of(c) for c in calls.get(f.name, [])]
        if not sites or f.name in other:
            continue
        # a method called through an attribute binds its receiver first; count it as passed positionally
        # (conservative: ``Cls.method(obj, x)`` reaches one parameter further than ``obj.method(x)``)
        shift = 1 if f.cls is not None and not _is_static(node) else 0
        known: dict[str, object] = {}
        for param, index, default in _literal_params(node):
            value = _fixed(sites, index, shift, default, param)
            if value is not _UNKNOWN and value is not _UNSET:
                known[param] = value
        if known:
            out[id(node)] = {**known, **out.get(id(node), {})}
    return _with_locals(out, functions)


def _with_locals(out: dict[int, dict[str, object]], functions: list[FunctionInfo]) -> dict[int, dict[str, object]]:
    """``out`` with, per function, the locals it binds once to one of its literals (:func:`_bound_once_to`)."""
    for f in functions:
        if id(f.node) in out and isinstance(f.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out[id(f.node)].update(_bound_once_to(f.node, out[id(f.node)]))
    return out


def _bound_once_to(fn: ast.FunctionDef | ast.AsyncFunctionDef, literals: Mapping[str, object]) -> dict[str, object]:
    """The locals ``fn`` binds once, to a read of one of its ``literals`` (``use = self.flag``, or an element of a
    tuple assignment, ``n, use = x.shape[1], self.flag``): that literal wherever they are read. A name bound
    anywhere else in ``fn`` (nested defs included), declared global or nonlocal, or a parameter, is left out."""
    a = fn.args
    params = {p.arg for p in [*a.posonlyargs, *a.args, *a.kwonlyargs, *([a.vararg] if a.vararg else []),
                              *([a.kwarg] if a.kwarg else [])]}
    stores = binding_counts(fn)
    pairs: list[tuple[str, ast.expr]] = []
    for n in walk(fn):
        if isinstance(n, ast.Assign) and len(n.targets) == 1:
            t, v = n.targets[0], n.value
            if isinstance(t, ast.Name):
                pairs.append((t.id, v))
            elif isinstance(t, ast.Tuple) and isinstance(v, ast.Tuple) and len(t.elts) == len(v.elts) \
                    and not any(isinstance(e, ast.Starred) for e in [*t.elts, *v.elts]):
                pairs.extend((e.id, x) for e, x in zip(t.elts, v.elts) if isinstance(e, ast.Name))
    out: dict[str, object] = {}
    for name, v in pairs:
        key = _literal_key(v)
        if name not in params and stores.get(name) == 1 and key is not None and key != name and key in literals:
            out[name] = literals[key]
    return out


def _literal_key(e: ast.expr) -> str | None:
    """How ``literals`` name what ``e`` reads: a parameter ``p`` as ``"p"``, the instance's copy of one
    (``self.p``, :func:`xlacheck.analysis.project.unset_flags`) as ``"self.p"``, and the copy another instance
    keeps (``self.net.p``) as ``"self.net.p"``; None for anything else."""
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "self":
        return f"self.{e.attr}"
    if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Attribute) and isinstance(e.value.value, ast.Name) \
            and e.value.value.id == "self":
        return f"self.{e.value.attr}.{e.attr}"  # a flag an instance the instance holds keeps (``self.net.flag``)
    return None


def binding_counts(tree: ast.AST) -> dict[str, int]:
    """How many times ``tree`` (a module, or a function with the functions nested in it) binds each name anywhere:
    defs and classes inside it, imports, stores, ``except ... as`` names; a ``global``/``nonlocal`` declaration
    counts twice (the name is bound elsewhere too). A helper read from its body is known by its name only where
    the name is bound once."""
    bound: dict[str, int] = {}
    for n in walk(tree):
        if isinstance(n, (ast.Global, ast.Nonlocal)):
            for declared in n.names:
                bound[declared] = bound.get(declared, 0) + 2
            continue
        defined = n if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n is not tree else None
        name: str | None = defined.name if defined is not None else (
            n.asname or n.name.split(".")[0] if isinstance(n, ast.alias) else
            n.id if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) else
            n.name if isinstance(n, ast.ExceptHandler) and n.name else None)
        if name is not None:
            bound[name] = bound.get(name, 0) + 1
    return bound


def none_test_helpers(tree: ast.Module) -> dict[str, bool]:
    """The module's own None tests: ``def exists(v): return v is not None`` (True) and ``def missing(v): return v is
    None`` (False), a def of one parameter whose body is that return alone (a docstring aside), by name; a name the
    module binds more than once is left out. :func:`literal_test` reads ``exists(p)`` as ``p is not None``."""
    out: dict[str, bool] = {}
    bound = binding_counts(tree)
    for f in tree.body:
        if not isinstance(f, ast.FunctionDef) or f.decorator_list:
            continue
        a = f.args
        params = [*a.posonlyargs, *a.args]
        body = [s for s in f.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if len(params) != 1 or a.vararg or a.kwarg or a.kwonlyargs or len(body) != 1:
            continue
        r = body[0].value if isinstance(body[0], ast.Return) else None
        if isinstance(r, ast.Compare) and len(r.ops) == 1 and isinstance(r.ops[0], (ast.Is, ast.IsNot)) \
                and isinstance(r.left, ast.Name) and r.left.id == params[0].arg \
                and isinstance(r.comparators[0], ast.Constant) and r.comparators[0].value is None:
            out[f.name] = isinstance(r.ops[0], ast.IsNot)
    return {k: v for k, v in out.items() if bound.get(k) == 1}


def literal_test(test: ast.expr, literals: Mapping[str, object],
                 none_tests: Mapping[str, bool] | None = None) -> bool | None:
    """The truth of a test on parameters known to be literals: ``p``, ``not p``, ``p is None``,
    ``p is not None``, ``p == "cpu"``, ``p != 0``, ``p > 0`` (numbers), ``exists(p)`` for a module's own None
    test (``none_tests``: :func:`none_test_helpers`), and ``and``/``or`` of such tests; None when the test
    depends on anything else. ``self.p`` reads the instance's copy of a parameter where ``literals`` hold
    one (``"self.p"``)."""
    if not literals:
        return None
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = literal_test(test.operand, literals, none_tests)
        return None if inner is None else not inner
    if isinstance(test, ast.BoolOp):
        parts = [literal_test(v, literals, none_tests) for v in test.values]
        decisive = isinstance(test.op, ast.Or)  # the value that decides an `or` (True) or an `and` (False)
        if decisive in parts:
            return decisive
        return None if None in parts else not decisive
    key = _literal_key(test)
    if key is not None:
        value = literals.get(key, _UNKNOWN)
        return None if value is _UNKNOWN else bool(value)
    if none_tests and isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id in none_tests \
            and len(test.args) == 1 and not test.keywords:
        value = literals.get(_literal_key(test.args[0]) or "", _UNKNOWN)  # exists(p): p is not None
        return None if value is _UNKNOWN else (value is not None) == none_tests[test.func.id]
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, right, op = test.left, test.comparators[0], test.ops[0]
        if isinstance(left, ast.Constant):
            left, right = right, left
        key = _literal_key(left)
        if key is None or key not in literals:
            return None
        value, other = literals[key], _literal(right)
        if other is _UNKNOWN:
            return None
        if isinstance(op, (ast.Is, ast.IsNot)):
            if other is not None and value is not None:
                return None  # (identity of other literals is an implementation detail)
            return (value is other) == isinstance(op, ast.Is)
        if isinstance(op, (ast.Eq, ast.NotEq)) and type(value) is type(other):
            return (value == other) == isinstance(op, ast.Eq)
        if type(op) in _ORDER and _number(value) and _number(other):
            return bool(_ORDER[type(op)](value, other) if left is test.left else _ORDER[type(op)](other, value))
    return None


# an order comparison of two numbers is decided as Python decides it (``every > 0`` with ``every`` 0: False)
_ORDER: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}


def _number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)
