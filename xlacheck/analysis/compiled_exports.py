"""Compiled callables across the modules of a project: which module-level names of one file are
compiled functions (``@jax.jit``, ``@partial(jax.jit, static_argnames=...)``, ``@tf.function``,
``step = jax.jit(train_step, donate_argnums=0)``, ``predict = tf.function(predict, jit_compile=True)``),
and what another file that imports them (``from pkg.train import step``, ``from pkg import train``
then ``train.step(...)``, ``import pkg.train as t`` then ``t.step(...)``) needs to know to treat
its calls of them as calls of a compiled function: the framework, the signature, the static
parameters and the wrapper's options.

The defining file's :class:`~xlacheck.analysis.project.Summary` lists its
:class:`CompiledCallable` (:func:`compiled_callables`, from that file alone);
:func:`xlacheck.analysis.project.compiled_imports` joins them to the files that import them; the
engine sets the result on :attr:`~xlacheck.analysis.contexts.ModuleFacts.imported_compiled`, and
the recompile rules' call resolvers (``jax_jitted_callee``, ``ModuleIndex.tf_function_called``)
answer for these calls with a stand-in of the compiled function (:func:`stand_in`, :func:`tf_wrapper`):
its signature only, no body, so nothing that needs the body's evidence fires on it.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from xlacheck.analysis import dotted
from xlacheck.analysis.contexts import Certainty, FunctionInfo, Level, ModuleFacts
from xlacheck.analysis.tables import JAX_JIT_NAMES, JIT_COMPILE_KEYWORDS, TF_FUNCTION_NAMES

# tf.function keywords a stand-in keeps when the defining file sets them to a literal True
_TF_OPTIONS = ("jit_compile", "reduce_retracing", "experimental_relax_shapes")


@dataclass(frozen=True)
class CompiledCallable:
    """A module-level name of one file that is a compiled function."""

    name: str  # the module-level name callers import
    jax: bool  # jax.jit / jax.pmap (else tf.function)
    known: bool  # the Python function's signature is known (a def of that file)
    params: tuple[str, ...] = ()  # its positional parameters
    kwonly: tuple[str, ...] = ()  # its keyword-only parameters
    static: tuple[str, ...] = ()  # jax.jit static parameters
    static_unknown: bool = False  # a jax.jit that names static arguments in a way not read here
    options: tuple[str, ...] = ()  # tf.function keywords set to True (jit_compile, ...); "input_signature"
    line: int = 0
    where: str = ""  # "pkg/train.py:12", set by the project pass
    # the module-level class whose instances have it as a method or attribute ("" for a function);
    # ``params`` then leave out ``self``: the instance is bound
    owner: str = ""

    @property
    def key(self) -> str:
        """How the defining file names it: ``step``, or ``Trainer().step`` for an instance's."""
        return f"{self.owner}().{self.name}" if self.owner else self.name

    def to_json(self) -> list[object]:
        return [self.name, self.jax, self.known, list(self.params), list(self.kwonly), list(self.static),
                self.static_unknown, list(self.options), self.line, self.where, self.owner]

    @classmethod
    def from_json(cls, data: list[Any]) -> CompiledCallable:
        name, jax, known, params, kwonly, static, unknown, options, line, where, owner = data
        return cls(str(name), bool(jax), bool(known), tuple(params), tuple(kwonly), tuple(static), bool(unknown),
                   tuple(options), int(line), str(where), str(owner))


def _is_partial(func: ast.expr, resolve: Any) -> bool:
    return resolve(func) == "functools.partial" or (isinstance(func, ast.Name) and func.id == "partial")


def _wrapper_kind(wrapper: ast.expr, resolve: Any) -> tuple[bool, ast.Call | None] | None:
    """(jax?, the call that holds the options) when ``wrapper`` (a decorator, or the function of a
    wrapping call) is jax.jit/jax.pmap/tf.function, bare, called with options, or a
    ``partial(jax.jit, ...)``; None otherwise."""
    target = wrapper.func if isinstance(wrapper, ast.Call) else wrapper
    call = wrapper if isinstance(wrapper, ast.Call) else None
    name = resolve(target)
    if name in JAX_JIT_NAMES:
        return True, call
    if name in TF_FUNCTION_NAMES:
        return False, call
    if call is not None and call.args and _is_partial(call.func, resolve):
        inner = resolve(call.args[0])
        if inner in JAX_JIT_NAMES:
            return True, call
        if inner in TF_FUNCTION_NAMES:
            return False, call
    return None


def _options(call: ast.Call | None) -> tuple[str, ...]:
    if call is None:
        return ()
    out: set[str] = set()
    for kw in call.keywords:
        value = kw.value
        if kw.arg in JIT_COMPILE_KEYWORDS and isinstance(value, ast.Constant) and value.value is True:
            out.add("jit_compile")
        elif kw.arg in _TF_OPTIONS and isinstance(value, ast.Constant) and value.value is True:
            out.add(kw.arg)
        elif kw.arg == "input_signature" and not (isinstance(value, ast.Constant) and value.value is None):
            out.add("input_signature")
    return tuple(sorted(out))


def _signature(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[tuple[str, ...], tuple[str, ...]]:
    args = node.args
    return tuple(a.arg for a in args.posonlyargs + args.args), tuple(a.arg for a in args.kwonlyargs)


def _module_statements(tree: ast.Module) -> list[ast.stmt]:
    """Module-level statements, also under module-level ``if``/``try`` (a guarded import's fallback)."""
    out: list[ast.stmt] = []
    stack = list(reversed(tree.body))
    while stack:
        stmt = stack.pop()
        out.append(stmt)
        if isinstance(stmt, ast.If):
            stack.extend(reversed(stmt.body + stmt.orelse))
        elif isinstance(stmt, ast.Try):
            stack.extend(reversed(stmt.body + stmt.orelse + stmt.finalbody))
    return out


def _decorated(stmt: ast.FunctionDef | ast.AsyncFunctionDef, info: FunctionInfo | None, resolve: Any,
               owner: str = "") -> CompiledCallable | None:
    """``stmt`` as a compiled callable when a decorator of it is a compiler (the first such one);
    ``info`` is its FunctionInfo (static parameters), ``owner`` its class for a method (whose
    ``self`` is no argument a caller passes)."""
    for dec in stmt.decorator_list:
        kind = _wrapper_kind(dec, resolve)
        if kind is None:
            continue
        jax, call = kind
        params, kwonly = _signature(stmt)
        static_set = info.static_params if info is not None and jax else frozenset()
        unknown = bool(info is not None and jax and info.static_params_unknown)
        return CompiledCallable(stmt.name, jax, True, params[1:] if owner else params, kwonly,
                                tuple(sorted(static_set)), unknown, () if jax else _options(call), stmt.lineno,
                                owner=owner)
    return None


def compiled_callables(facts: ModuleFacts, tree: ast.Module) -> tuple[CompiledCallable, ...]:
    """The module-level names of this file that are compiled functions: a def decorated with a
    compiler, or a module-level ``name = jax.jit(f, ...)``/``tf.function(f, ...)`` (also
    ``partial(jax.jit, ...)(f)``). A name bound twice at module level is left out (which binding
    callers get is not known here)."""
    resolve = facts.aliases.resolve
    found: dict[str, CompiledCallable | None] = {}

    def add(c: CompiledCallable) -> None:
        found[c.name] = c if c.name not in found else None

    for stmt in _module_statements(tree):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            decorated = _decorated(stmt, facts.module_funcs.get(stmt.name), resolve)
            if decorated is not None:
                add(decorated)
            elif stmt.name in found:
                found[stmt.name] = None  # redefined as a plain function
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and isinstance(stmt.value, ast.Call) and stmt.value.args:
            name, call = stmt.targets[0].id, stmt.value
            kind = _wrapper_kind(call.func, resolve) if isinstance(call.func, ast.Call) else _wrapper_kind(
                call, resolve)
            if kind is None:
                if name in found:
                    found[name] = None
                continue
            jax, options_call = kind
            wrapped = call.args[0]
            info = facts.module_funcs.get(wrapped.id) if isinstance(wrapped, ast.Name) else None
            node = info.node if info is not None and not isinstance(info.node, ast.Lambda) else None
            params, kwonly = _signature(node) if node is not None else ((), ())
            static_kw = any(kw.arg is None or kw.arg.startswith("static_") for kw in call.keywords)
            if isinstance(call.func, ast.Call):
                static_kw = static_kw or any(kw.arg is None or kw.arg.startswith("static_")
                                             for kw in call.func.keywords)
            static = tuple(sorted(info.static_params)) if info is not None and jax else ()
            unknown = jax and (bool(info.static_params_unknown) if info is not None else static_kw)
            add(CompiledCallable(name, jax, node is not None, params, kwonly, static, unknown,
                                 () if jax else _options(options_call), stmt.lineno))
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for t in targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name) and n.id in found:
                        found[n.id] = None
        elif isinstance(stmt, ast.ClassDef) and stmt.name in facts.classes_by_name:
            for c in _compiled_methods(facts, stmt):
                add(c)
    return tuple(c for c in found.values() if c is not None)


def _compiled_methods(facts: ModuleFacts, cls: ast.ClassDef) -> list[CompiledCallable]:
    """What an instance of the module-level class ``cls`` calls compiled: a method decorated with a
    compiler (not a static or class method), or an attribute a method binds to one
    (``self.step = jax.jit(self._step, static_argnums=1)``, ``self.predict = tf.function(self._predict,
    jit_compile=True)``). Keyed ``Class().name``; a name bound twice is left out."""
    resolve = facts.aliases.resolve
    info = facts.classes_by_name[cls.name]
    found: dict[str, CompiledCallable | None] = {}

    def add(c: CompiledCallable) -> None:
        found[c.name] = c if c.name not in found else None

    for stmt in cls.body:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in stmt.decorator_list):
            continue
        decorated = _decorated(stmt, info.methods.get(stmt.name), resolve, owner=cls.name)
        if decorated is not None:
            add(decorated)
    for stmt in cls.body:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(stmt):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call)
                    and node.value.args):
                continue
            target, call = node.targets[0], node.value
            if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                    and target.value.id == "self"):
                continue
            kind = _wrapper_kind(call.func, resolve) if isinstance(call.func, ast.Call) else _wrapper_kind(
                call, resolve)
            if kind is None:
                continue
            jax, options_call = kind
            wrapped = call.args[0]
            def_node: ast.FunctionDef | ast.AsyncFunctionDef | None = None
            wrapped_info = None
            bound = False
            if isinstance(wrapped, ast.Attribute) and isinstance(wrapped.value, ast.Name) \
                    and wrapped.value.id == "self" and wrapped.attr in info.methods:
                wrapped_info, bound = info.methods[wrapped.attr], True
            elif isinstance(wrapped, ast.Name) and wrapped.id in facts.module_funcs:
                wrapped_info = facts.module_funcs[wrapped.id]
            if wrapped_info is not None and not isinstance(wrapped_info.node, ast.Lambda):
                def_node = wrapped_info.node
            params, kwonly = _signature(def_node) if def_node is not None else ((), ())
            if bound:
                params = params[1:]
            static_kw = any(kw.arg is None or kw.arg.startswith("static_") for kw in call.keywords)
            static = tuple(sorted(wrapped_info.static_params)) if wrapped_info is not None and jax else ()
            unknown = jax and (bool(wrapped_info.static_params_unknown) if wrapped_info is not None else static_kw)
            add(CompiledCallable(target.attr, jax, def_node is not None, params, kwonly, static, unknown,
                                 () if jax else _options(options_call), node.lineno, owner=cls.name))
    return [c for c in found.values() if c is not None]


@dataclass(frozen=True)
class Imported:
    """What one file imports from other modules of the project (:func:`xlacheck.analysis.project.imports`):
    compiled functions by the name its calls use, and plain Enum classes by the name its code uses
    (``BCType``, ``halo_exchange_utils.BCType``)."""

    compiled: Mapping[str, CompiledCallable]
    enums: frozenset[str] = frozenset()
    # Enum classes whose members are no number (plain ones included: :func:`nonnumeric_enums`)
    nonnumeric_enums: frozenset[str] = frozenset()
    # functions that return CUDA autocast's state, False on XLA (analysis.torch_model.cuda_autocast_helpers)
    cuda_queries: frozenset[str] = frozenset()


def compiled_key(imported: Imported | None) -> bytes:
    """Canonical bytes of what one file imports, for its cache key."""
    if imported is None:
        return b""
    import json

    return b"\0imported:" + json.dumps([sorted([k, c.to_json()] for k, c in imported.compiled.items()),
                                         sorted(imported.enums), sorted(imported.nonnumeric_enums),
                                         sorted(imported.cuda_queries)]).encode()


# Enum bases whose members convert to no tensor (an IntEnum or StrEnum member is an int or a str, and so
# is one of `class Pool(int, enum.Enum)`: only classes with no other base count)
_PLAIN_ENUM_BASES = frozenset({"enum.Enum", "Enum", "enum.Flag", "Flag"})
# Enum bases whose members are no number: jax.jit refuses such a member as a non-static argument
# ("Error interpreting argument ... as an abstract array", TypeError; measured on jax 0.10.2 for
# members of Enum, Flag, StrEnum and `(str, Enum)` classes, and for a plain str), while it traces
# members of IntEnum, IntFlag, `(int, Enum)` and `(float, Enum)` classes as arrays
# (tests/xlacheck/test_jax_enum_default_truth.py)
_NONNUMERIC_ENUM_BASES = _PLAIN_ENUM_BASES | {"enum.StrEnum", "StrEnum", "str"}
_ENUM_ROOTS = frozenset({"enum.Enum", "Enum", "enum.Flag", "Flag", "enum.StrEnum", "StrEnum"})


def _file_enums(bases_of: Mapping[str, frozenset[str] | None], allowed: frozenset[str],
                known: frozenset[str] = frozenset()) -> set[str]:
    """The classes (name -> bases as spelled or resolved, None when a base is not read) deriving only
    from ``allowed`` bases, ``known`` Enum classes or such classes, one of them an Enum."""
    out: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, bases in bases_of.items():
            enums = (allowed & _ENUM_ROOTS) | known | out
            if name in out or not bases or not bases <= (allowed | enums) or not bases & enums:
                continue
            out.add(name)
            changed = True
    return out


def _named_enums(facts: ModuleFacts, imported: frozenset[str], allowed: frozenset[str]) -> frozenset[str]:
    """Such Enum classes this file's code names: its own, the imported ones and module-level aliases."""
    out = set(imported) | _file_enums({c.node.name: frozenset(c.bases) for c in facts.classes}, allowed, imported)
    for name, value in facts.module_values.items():
        if isinstance(value, (ast.Name, ast.Attribute)) and name not in out:
            try:
                spelled = ast.unparse(value)
            except (ValueError, RecursionError):
                continue
            if spelled in out:
                out.add(name)
    return frozenset(out)


def enum_names(facts: ModuleFacts) -> frozenset[str]:
    """The plain Enum classes this file's code names (for the value model): its own (any class of the
    file deriving only from ``enum.Enum``/``enum.Flag`` or from such classes), those it imports from other
    modules of the project (:attr:`~xlacheck.analysis.contexts.ModuleFacts.imported_enums`), and
    module-level aliases of either (``BCType = halo_exchange_utils.BCType``)."""
    if facts.plain_enum_names is None:
        facts.plain_enum_names = _named_enums(facts, facts.imported_enums, _PLAIN_ENUM_BASES)
    return facts.plain_enum_names


def nonnumeric_enum_names(facts: ModuleFacts) -> frozenset[str]:
    """The Enum classes whose members are no number that this file's code names (:func:`enum_names`'
    plain ones, ``StrEnum`` and ``(str, Enum)`` classes), its own, imported and aliased: a member is
    a Python value that ``jax.jit`` refuses as an argument."""
    if facts.nonnumeric_enum_names is None:
        facts.nonnumeric_enum_names = _named_enums(facts, facts.imported_enums | facts.imported_nonnumeric_enums,
                                                   _NONNUMERIC_ENUM_BASES)
    return facts.nonnumeric_enum_names


def _spelled_bases(c: ast.ClassDef) -> frozenset[str] | None:
    bases = set()
    for b in c.bases:
        try:
            bases.add(ast.unparse(b))
        except (ValueError, RecursionError):
            return None
    return frozenset(bases) if len(bases) == len(c.bases) else None


def plain_enums(tree: ast.Module) -> tuple[str, ...]:
    """Module-level classes of this file that derive only from ``enum.Enum``/``enum.Flag`` (spelled so,
    or ``Enum``/``Flag``) or from such classes of this file (not ``class Pool(int, enum.Enum)``):
    ``x == Mode.TRAIN`` compares ``x`` with a Python object that ``tf.convert_to_tensor`` and
    ``jnp.asarray`` reject, so in code that runs ``x`` is no tensor. Syntactic (a file that names no
    framework is not analyzed, yet may define them)."""
    classes = {s.name: _spelled_bases(s) for s in _module_statements(tree) if isinstance(s, ast.ClassDef)}
    return tuple(sorted(_file_enums(classes, _PLAIN_ENUM_BASES)))


def nonnumeric_enums(tree: ast.Module) -> tuple[str, ...]:
    """Module-level Enum classes of this file whose members are no number: :func:`plain_enums`' and those
    deriving only from ``enum.StrEnum``, ``str`` and such classes (``class Norm(str, Enum)``), not from
    ``int``/``float``/``IntEnum``/``IntFlag`` or a base not read here. Syntactic."""
    classes = {s.name: _spelled_bases(s) for s in _module_statements(tree) if isinstance(s, ast.ClassDef)}
    return tuple(sorted(_file_enums(classes, _NONNUMERIC_ENUM_BASES)))


def _stub_def(c: CompiledCallable) -> ast.FunctionDef:
    """A def with the signature of ``c`` and no body (``...``), at the defining file's line."""
    parts = [*c.params, *(["*", *c.kwonly] if c.kwonly else [])] if c.known else ["*args", "**kwargs"]
    args = ", ".join(parts)
    node = ast.parse(f"def {c.name}({args}):\n    ...\n").body[0]
    assert isinstance(node, ast.FunctionDef)
    for sub in ast.walk(node):
        if hasattr(sub, "lineno"):
            sub.lineno = sub.end_lineno = c.line  # type: ignore[attr-defined]
    return node


def stand_in(c: CompiledCallable) -> FunctionInfo:
    """A jitted function of another module, as the JAX recompile rules read one: its signature and
    static parameters; its body is empty."""
    assert c.jax
    return FunctionInfo(_stub_def(c), c.name, None, None, certainty=Certainty.COMPILED, jit_entry=True, jax=True,
                        static_params=frozenset(c.static), static_params_unknown=c.static_unknown or not c.known,
                        no_autograph=True, level=Level.CERTAIN, why=f"jitted in {c.where}", traced_args=True)


def tf_wrapper(c: CompiledCallable) -> tuple[ast.Call, ast.FunctionDef | None]:
    """A ``tf.function`` of another module, as the TensorFlow recompile rules read one: the wrapper
    call with the options the defining file sets to True (``tf.function(jit_compile=True)``; an
    input signature as ``input_signature=[...]``), and the def's signature (None when unknown)."""
    assert not c.jax
    keywords = ", ".join("input_signature=[...]" if o == "input_signature" else f"{o}=True" for o in c.options)
    call = ast.parse(f"tf.function({keywords})").body[0]
    assert isinstance(call, ast.Expr) and isinstance(call.value, ast.Call)
    for sub in ast.walk(call):
        if hasattr(sub, "lineno"):
            sub.lineno = sub.end_lineno = c.line  # type: ignore[attr-defined]
    return call.value, _stub_def(c) if c.known else None


def imported_callable(facts: ModuleFacts, func: ast.expr, shadowed: Any = None) -> CompiledCallable | None:
    """The compiled callable of another module that ``func`` names (``step``, ``train.step``,
    ``pkg.train.step``), from the project pass; ``shadowed(name, node)``: whether a local binding
    hides the imported name where ``func`` is."""
    imported = facts.imported_compiled
    if not imported:
        return None
    name = dotted(func)
    if name is None:
        return None
    hit = imported.get(name)
    if hit is None or (shadowed is not None and shadowed(name.partition(".")[0], func)):
        return None
    return hit


def imported_method(facts: ModuleFacts, func: ast.expr, built: ast.expr | None, shadowed: Any = None
                    ) -> CompiledCallable | None:
    """The compiled method or attribute of an imported class that ``func`` (``trainer.step``) names,
    where ``built`` is what the receiver is bound to: a call of the imported class
    (``trainer = Trainer(cfg)``, ``trainer = train.Trainer(cfg)``)."""
    if not facts.imported_compiled or not isinstance(func, ast.Attribute) or not isinstance(built, ast.Call):
        return None
    name = dotted(built.func)
    if name is None:
        return None
    hit = facts.imported_compiled.get(f"{name}().{func.attr}")
    if hit is None or (shadowed is not None and shadowed(name.partition(".")[0], built)):
        return None
    return hit
