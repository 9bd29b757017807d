"""Facts about a whole file for rules that look at host code (set-up, pipelines, training loops).

The XLA1xx-3xx rules look inside compiled functions; recompile hazards (XLA4xx) and TPU set-up
(XLA5xx) mostly live *around* them: ``model.compile(...)``, ``strategy.scope()``, ``ds.batch``,
the loop that calls a ``tf.function``. :class:`ModuleIndex` is the shared scope and binding
model (:class:`xlacheck.analysis.scopes.ScopeTree`: one walk of the tree, parents, scopes,
bindings) plus what those rules scan: every call with its canonical name, the ``tf.function``
objects the file defines, and which distribution strategies it creates. Everything here is
syntactic plus the file's import table; nothing follows values across files.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cached_property

from xlacheck.analysis.compiled_exports import CompiledCallable, imported_callable, imported_method, tf_wrapper
from xlacheck.analysis.contexts import ModuleFacts
from xlacheck.analysis.scopes import ScopeTree
from xlacheck.analysis.tables import JIT_COMPILE_KEYWORDS
from xlacheck.analysis.tables import TF_FUNCTION_NAMES as _TF_FUNCTION

_SCOPE_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)
_LOOPS = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
# Canonical names that mean "this file sets up or targets a TPU".
_TPU_NAMES = ("TPUStrategy", "TPUClusterResolver", "tf.tpu.experimental.initialize_tpu_system")
_TPU_HINT = "tpu"  # every name in _TPU_NAMES has it; only such nodes are resolved


@dataclass(frozen=True)
class TfFunction:
    """A ``tf.function`` the file defines: decorated def, or ``name = tf.function(f, ...)``."""

    name: str  # the name callers use (function name, or the assigned name/attribute)
    wrapper: ast.Call | ast.expr  # the decorator expression or the tf.function(...) call
    definition: ast.FunctionDef | ast.AsyncFunctionDef | None  # the Python function, when known here
    is_method: bool  # reached as ``obj.name(...)`` (decorated method or ``self.name = tf.function``)

    @property
    def has_input_signature(self) -> bool:
        return isinstance(self.wrapper, ast.Call) and any(
            kw.arg == "input_signature" and not (isinstance(kw.value, ast.Constant) and kw.value.value is None)
            for kw in self.wrapper.keywords)

    def keyword(self, name: str) -> ast.expr | None:
        """The value of a keyword of the wrapper; ``jit_compile`` also answers for its deprecated
        name ``experimental_compile``, which TF 2.21 still takes."""
        names = JIT_COMPILE_KEYWORDS if name == "jit_compile" else (name,)
        if isinstance(self.wrapper, ast.Call):
            for kw in self.wrapper.keywords:
                if kw.arg in names:
                    return kw.value
        return None


def is_true(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def keyword(call: ast.Call, name: str) -> ast.keyword | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw
    return None


def has_kwargs_splat(call: ast.Call) -> bool:
    """``f(**options)``: keywords we cannot see may be passed."""
    return any(kw.arg is None for kw in call.keywords)


def method_name(call: ast.Call) -> str | None:
    """``x.batch(...)`` -> ``"batch"`` (syntactic; the receiver's type is unknown)."""
    return call.func.attr if isinstance(call.func, ast.Attribute) else None


TOKENIZER_METHODS = frozenset({"pad", "batch_encode_plus", "encode_plus", "__call__", "enable_padding"})


def is_tokenizer(func: ast.expr) -> bool:
    """A call of a tokenizer (or of its padding/encoding methods), recognised by name (syntactic):
    ``tokenizer(...)``, ``self.tokenizer_2(...)``, ``tokenizer.pad(...)``."""
    if isinstance(func, ast.Attribute) and func.attr in TOKENIZER_METHODS:
        func = func.value
    return "tokenizer" in callee_text(func).lower()


def callee_text(node: ast.expr) -> str:
    """The last name of a call target: ``self.tokenizer.pad`` -> ``pad``; ``tok`` -> ``tok``."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


class ModuleIndex(ScopeTree):
    """The shared scope model (one walk of the module) plus the call sites and assignments the
    module-level rules scan; the rest is computed lazily, only when a rule asks."""

    def __init__(self, tree: ast.Module, facts: ModuleFacts) -> None:
        super().__init__(tree)
        self.facts = facts
        self.aliases = facts.aliases
        self.calls: list[tuple[ast.Call, str | None]] = []  # (call, canonical name or None)
        self.assignments: list[ast.Assign | ast.AugAssign] = []
        self.outer_declarations: list[ast.Global | ast.Nonlocal] = []
        self._tpu_refs: list[ast.expr] = []  # names/attributes that may denote a TPU API
        resolve = self.aliases.resolve
        Call, Assign, AugAssign, Attribute, Name = ast.Call, ast.Assign, ast.AugAssign, ast.Attribute, ast.Name
        tpu_word: dict[str, bool] = {}  # identifier -> names a TPU API? (a file repeats its identifiers)
        for node in self.nodes:
            t = type(node)
            if t is Name or t is Attribute:  # most nodes: tested first
                word = node.id if t is Name else node.attr  # type: ignore[attr-defined]
                hit = tpu_word.get(word)
                if hit is None:
                    hit = tpu_word[word] = _TPU_HINT in word.lower()
                if hit:
                    self._tpu_refs.append(node)  # type: ignore[arg-type]
            elif t is Call:
                self.calls.append((node, resolve(node.func)))  # type: ignore[attr-defined, arg-type]
            elif t is Assign or t is AugAssign:
                self.assignments.append(node)  # type: ignore[arg-type]
            elif t is ast.Global or t is ast.Nonlocal:
                self.outer_declarations.append(node)  # type: ignore[arg-type]
        self.calls.sort(key=lambda c: (c[0].lineno, c[0].col_offset))

    # -- structure ---------------------------------------------------------------------------
    def loops_around(self, node: ast.AST) -> list[ast.AST]:
        """Loops (statements and comprehensions) enclosing ``node`` inside its own scope."""
        out: list[ast.AST] = []
        child: ast.AST = node
        for anc in self.ancestors(node):
            if isinstance(anc, _SCOPE_NODES):
                break
            if isinstance(anc, (ast.For, ast.AsyncFor)) and child is anc.iter:
                child = anc
                continue  # the iterable is evaluated once, before the loop
            if isinstance(anc, _LOOPS):
                out.append(anc)
            child = anc
        return out

    def eager_only(self, node: ast.AST) -> bool:
        """``node`` runs only eagerly (``if tf.executing_eagerly():``, ``with tf.init_scope():``)."""
        from xlacheck.analysis.flow import eager_guard

        child: ast.AST = node
        for anc in self.ancestors(node):
            if isinstance(anc, _SCOPE_NODES):
                return False
            if isinstance(anc, ast.If) and child is not anc.test:
                guard = eager_guard(anc.test, self.aliases)
                if guard is not None and guard == any(child is s for s in anc.body):
                    return True
            if isinstance(anc, ast.With) and any(
                    isinstance(i.context_expr, ast.Call) and self.aliases.resolve(i.context_expr.func) == "tf.init_scope"
                    for i in anc.items):
                return True
            child = anc
        return False

    @cached_property
    def self_method_calls(self) -> dict[str, list[tuple[ast.Call, ast.AST | None]]]:
        """Every ``self.NAME(...)`` call of the module, by NAME, with the function it is in: built once,
        so a rule asks for the call sites of one method without walking the module per finding."""
        out: dict[str, list[tuple[ast.Call, ast.AST | None]]] = {}
        for call, _ in self.calls:
            f = call.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self":
                out.setdefault(f.attr, []).append((call, self.function_of(call)))
        return out

    @cached_property
    def test_nodes(self) -> frozenset[int]:
        """Ids of the nodes inside a test function or class (a name starting with ``test``, any
        case, or a class deriving from a ``TestCase``: ``tf.test.TestCase``, absl's
        ``parameterized.TestCase``, a project's ``test_util.TestCase``): code pytest or unittest
        runs a handful of times, not per training step."""
        roots: list[ast.AST] = [f.node for f in self.facts.functions
                                if not isinstance(f.node, ast.Lambda) and f.node.name.lower().startswith("test")]
        roots += [c.node for c in self.facts.classes if c.node.name.lower().startswith("test")
                  or any(b.rsplit(".", 1)[-1].endswith("TestCase") for b in c.bases)]
        return frozenset(id(n) for root in roots for n in ast.walk(root))

    # -- what the file sets up ----------------------------------------------------------------
    @cached_property
    def uses_tpu(self) -> bool:
        """The file creates or names a TPU strategy/resolver: its code is meant to run on a TPU."""
        resolve = self.aliases.resolve
        for node in self._tpu_refs:
            outer = node
            while isinstance(self.parent(outer), ast.Attribute):
                outer = self.parent(outer)  # type: ignore[assignment]
            name = resolve(outer)
            if name is not None and any(t in name for t in _TPU_NAMES):
                return True
        return False

    @cached_property
    def strategy_calls(self) -> list[ast.Call]:
        """Calls that create a distribution strategy (``tf.distribute.*Strategy(...)``)."""
        out = []
        for call, name in self.calls:
            if name and name.startswith("tf.distribute.") and name.endswith("Strategy"):
                out.append(call)
        return out

    @cached_property
    def tf_functions(self) -> dict[str, list[TfFunction]]:
        """Every ``tf.function`` the file defines, by the name its callers use."""
        out: dict[str, list[TfFunction]] = {}
        resolve = self.aliases.resolve
        for info in self.facts.functions:
            node = info.node
            if isinstance(node, ast.Lambda):
                continue
            for dec in node.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                if resolve(target) in _TF_FUNCTION:
                    out.setdefault(node.name, []).append(
                        TfFunction(node.name, dec, node, is_method=info.cls is not None))
        defs = {f.node.name: f.node for f in self.facts.functions if not isinstance(f.node, ast.Lambda)}
        for call, name in self.calls:
            if name not in _TF_FUNCTION or not call.args:
                continue
            assign = self.parent(call)
            if not isinstance(assign, ast.Assign) or len(assign.targets) != 1:
                continue
            target = assign.targets[0]
            wrapped = call.args[0]
            definition = defs.get(wrapped.id) if isinstance(wrapped, ast.Name) else None
            if isinstance(target, ast.Name):
                out.setdefault(target.id, []).append(TfFunction(target.id, call, definition, is_method=False))
            elif isinstance(target, ast.Attribute):
                out.setdefault(target.attr, []).append(TfFunction(target.attr, call, definition, is_method=True))
        return out

    def tf_function_called(self, call: ast.Call) -> TfFunction | None:
        """The ``tf.function`` this call invokes (``step(...)``, ``self.step(...)``, ``m.step(...)``): the
        file's own, else one of another module of the project that the file imports
        (:meth:`imported_compiled`; its definition is a stand-in with its signature only)."""
        func = call.func
        if isinstance(func, ast.Name):
            for tfn in self.tf_functions.get(func.id, ()):
                if not tfn.is_method:
                    return tfn
        elif isinstance(func, ast.Attribute):
            for tfn in self.tf_functions.get(func.attr, ()):
                if tfn.is_method:
                    return tfn
        imported = self.imported_compiled(func)
        if imported is None or imported.jax:
            return None
        return self.memo(("imported tf.function", imported.where, imported.name), lambda: TfFunction(
            imported.name, *tf_wrapper(imported), is_method=False))

    @cached_property
    def imports_tf_functions(self) -> bool:
        """The file imports a ``tf.function`` of another module of the project."""
        return any(not c.jax for c in self.facts.imported_compiled.values())

    def imported_compiled(self, func: ast.expr) -> CompiledCallable | None:
        """The compiled function of another module of the project that ``func`` names (``step``,
        ``train.step``; :attr:`~xlacheck.analysis.contexts.ModuleFacts.imported_compiled`), unless a
        binding of this file hides the imported name there (a def, a module-level assignment, a
        parameter or local of an enclosing function)."""
        if not self.facts.imported_compiled:
            return None
        hit = imported_callable(self.facts, func, self._shadows)
        if hit is None and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            # `trainer.step(...)` where `trainer = Trainer(...)` (in the function, or at module level)
            hit = imported_method(self.facts, func, self._receiver_binding(func.value), self._shadows)
        return hit

    def _receiver_binding(self, receiver: ast.Name) -> ast.expr | None:
        """What a receiver name is bound to where it is read: the one assignment of its function that
        reaches it, or, when no enclosing function binds it (parameter or store), the module's."""
        scope = self.function_of(receiver)
        if scope is not None and receiver.id in self.stores_in(scope):
            return self.local_binding(receiver.id, receiver)
        while scope is not None:
            args = scope.args
            if any(a.arg == receiver.id for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]) \
                    or receiver.id in self.stores_in(scope):
                return None
            scope = self.function_of(scope)
        return self.module_binding(receiver.id)

    def _shadows(self, name: str, node: ast.AST) -> bool:
        if name in self.facts.module_funcs or name in self.facts.classes_by_name \
                or self.module_binding(name) is not None:
            return True
        scope = self.function_of(node)
        while scope is not None:
            args = scope.args
            if any(a.arg == name for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]) \
                    or any(a is not None and a.arg == name for a in (args.vararg, args.kwarg)) \
                    or name in self.stores_in(scope):
                return True
            scope = self.function_of(scope)
        return False
