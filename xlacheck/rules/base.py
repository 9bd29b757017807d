"""The base every rule derives from, and the context the engine hands to it.

A rule subscribes to node types (``node_types``); the engine walks each compiled function once,
in source order, keeping the value facts of :mod:`xlacheck.analysis.values` up to date, and
calls :meth:`Rule.check` for every subscribed node with a :class:`RuleContext` that answers
"what does this expression hold here?" and "what encloses this node?". Rules never re-walk the
tree.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from xlacheck.analysis import argument as argument  # the rules import it from here
from xlacheck.analysis.contexts import Certainty, Level, ModuleFacts
from xlacheck.analysis.host_arrays import HostArrays
from xlacheck.analysis.imports import resolve_callee, same_object
from xlacheck.analysis.objects import ObjectScope, inherited_calls
from xlacheck.analysis.scopes import EMPTY_BUILT, BuiltValues, iterated_elements
from xlacheck.analysis.values import is_computed_tensor, is_tensor
from xlacheck.diagnostics import Diagnostic, Fix, Location, SetAside, SetAsideReason, Severity

if TYPE_CHECKING:
    from xlacheck.analysis.contexts import FunctionInfo
    from xlacheck.analysis.imports import AliasTable
    from xlacheck.analysis.values import ValueEnv


# One expected finding of an INVALID example: (line, column, message), line and column 1-based,
# the column counted in characters as every reporter shows it.
Expected = tuple[int, int, str]


@dataclass(frozen=True)
class Example:
    """Source for a rule's own test (``tests/xlacheck/test_rule_examples.py``).

    ``code`` (and ``fixed``) may be written as an indented triple-quoted string: the example
    dedents it and drops one leading newline, so the line after the opening quotes is line 1.
    An INVALID example pins every finding of its rule in ``expected`` as (line, column, message),
    1-based, columns in characters as the reporters show them; it may state the fixed text.
    """

    code: str
    fixed: str | None = None
    expected: tuple[Expected, ...] | None = None
    torch_xla: bool = False  # linted as torch code declared to run on XLA (``--torch-xla``)
    jit_compiled: bool = False  # linted as TF/JAX code declared to run under XLA (``--jit-compiled``)
    target_python: tuple[int, int] | None = None  # linted for this oldest Python (``--target-version``)
    preview: bool = False  # linted with ``--preview``: a finding a default rule keeps behind it

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", _dedent(self.code))
        if self.fixed is not None:
            object.__setattr__(self, "fixed", _dedent(self.fixed))
        if self.expected is not None:
            object.__setattr__(self, "expected", tuple(tuple(e) for e in self.expected))


def _dedent(text: str) -> str:
    text = textwrap.dedent(text)
    return text[1:] if text.startswith("\n") else text


class FindingCollector:
    """Collects diagnostics for one file; one finding per (code, line, column)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.diagnostics: list[Diagnostic] = []
        self.set_aside: list[SetAside] = []  # findings a project fact set aside (reported with ``set_aside``)
        self._reported: set[tuple[str, int, int]] = set()
        self._set_aside_keys: set[tuple[str, int, int]] = set()

    def report(self, rule: Rule | type[Rule], node: ast.AST, message: str, *,
               severity: Severity | None = None, fix: Fix | None = None,
               set_aside: tuple[SetAsideReason, str] | None = None) -> None:
        """One finding at ``node``; ``set_aside``: (reason, one line naming the fact) when a project
        fact takes it out of the run (the library returns it apart, without its fix)."""
        line = getattr(node, "lineno", 1)
        col = getattr(node, "col_offset", 0)
        key = (rule.code, line, col)
        seen = self._set_aside_keys if set_aside is not None else self._reported
        if key in seen:
            return
        seen.add(key)
        end = Location(getattr(node, "end_lineno", None) or line, getattr(node, "end_col_offset", None) or col)
        diagnostic = Diagnostic(self.path, rule.code, rule.name, message, Location(line, col), end,
                                severity or rule.severity, None if set_aside is not None else fix)
        if set_aside is not None:
            self.set_aside.append(SetAside(diagnostic, *set_aside))
        else:
            self.diagnostics.append(diagnostic)


class RuleContext(FindingCollector):
    """Where the walker stands: the function, its value facts and the enclosing control flow."""

    def __init__(self, path: str, function: FunctionInfo, aliases: AliasTable, values: ValueEnv) -> None:
        super().__init__(path)
        self.function = function
        self.aliases = aliases
        self.values = values
        self.tensor_branches: list[ast.If | ast.While] = []  # enclosing `if`/`while` on a tensor
        self.staged_loops: list[ast.For | ast.While] = []  # loops AutoGraph stages (tf.range, tensor while)
        self.python_loops: list[ast.For] = []  # loops unrolled in Python at trace time
        self.blocks: list[tuple[list[ast.stmt], int]] = []  # (statement list, index) enclosing the node
        self.call_names: dict[int, str | None] = {}  # id(Call) -> canonical name, shared by the rules
        self.module_values: Mapping[str, ast.expr] = {}  # module-level NAME = value (ModuleFacts)
        self.module_built: BuiltValues = EMPTY_BUILT  # module-level names bound once, NAME.add(x) (ModuleFacts)
        # module-level classes: name -> (canonical bases, method names) (ModuleFacts)
        self.module_classes: Mapping[str, tuple[tuple[str, ...], frozenset[str]]] = {}
        self._objects: ObjectScope | None = None
        self._host_arrays: HostArrays | None = None
        self.module_funcs: Mapping[str, FunctionInfo] = {}  # module-level functions by name (ModuleFacts)
        # parameters every compiled caller here passes a jax.jit entry's argument whole (ModuleFacts.jit_leaf_args)
        self.jit_leaf_params: frozenset[str] = frozenset()
        self.facts: ModuleFacts | None = None  # the file's facts (calls between its functions); None in unit tests

    # -- facts -------------------------------------------------------------------------------
    def flags(self, node: ast.AST | None) -> int:
        return self.values.flags(node)

    def resolve(self, node: ast.expr) -> str | None:
        return self.aliases.resolve(node)

    @property
    def objects(self) -> ObjectScope:
        """What the file's objects are built from (:mod:`xlacheck.analysis.objects`), made once."""
        if self._objects is None:
            self._objects = ObjectScope(self.resolve, self.module_values, self.module_built,
                                        {name: f.node for name, f in self.module_funcs.items()},
                                        inherited_calls(self.module_classes))
        return self._objects

    @property
    def host_arrays(self) -> HostArrays:
        """Which of the file's values are NumPy arrays (:mod:`xlacheck.analysis.host_arrays`), made once."""
        if self._host_arrays is None:
            self._host_arrays = HostArrays(self.resolve, self.module_values,
                                           {name: f.node for name, f in self.module_funcs.items()})
        return self._host_arrays

    @property
    def converted(self) -> bool:
        """AutoGraph rewrites this function's control flow (tf.cond/tf.while_loop)."""
        return self.function.converted

    @property
    def certain(self) -> bool:
        """The function is known to be compiled (not only a module-level tensor helper)."""
        return self.function.certainty is Certainty.COMPILED

    def tensor_value(self, flags: int) -> bool:
        """Is this certainly a tensor here? In a tensor helper (not known to be compiled) a bare
        parameter may be a Python value, so only computed tensors count."""
        return is_tensor(flags) if self.certain else is_computed_tensor(flags)

    def following_statements(self) -> list[ast.stmt]:
        """Statements after the current one in its own block (for "used after the if" checks)."""
        if not self.blocks:
            return []
        body, index = self.blocks[-1]
        return body[index + 1:]


INLINE: tuple[str, ...] = ("inline",)  # Rule.fix of a rule whose check builds its own fix


class Rule:
    """One XLA hazard. Subclasses set the class attributes and implement :meth:`check`."""

    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity] = Severity.ERROR
    # Node types the engine dispatches to :meth:`check` (statements and expressions).
    node_types: ClassVar[tuple[type[ast.AST], ...]] = ()
    # Also run in module-level tensor helpers that nothing in the file compiles (MAYBE
    # contexts): only for patterns that fail in *every* graph function, so the rule stays precise.
    in_helpers: ClassVar[bool] = False
    # The failure happens in every TensorFlow graph, not only under XLA: tracing or AutoGraph
    # rejects it (a tensor as a Python bool, `.numpy()`, a loop variable changing shape), so a plain
    # ``tf.function`` fails too. A failure only XLA has (no kernel, a shape XLA needs static) does
    # not happen in a plain ``tf.function``: XLA compiles one only under a compiled caller, a TPU
    # replica function (LIKELY) or auto-clustering, which leaves such ops out of its clusters.
    fails_in_any_graph: ClassVar[bool] = False
    # The evidence levels (analysis.contexts.Level) the rule fires at; None: CERTAIN and LIKELY,
    # GRAPH when ``fails_in_any_graph`` (else only with --preview), HELPER when ``in_helpers``. A
    # compile-failure claim never fires at HOST or EAGER.
    levels: ClassVar[frozenset[Level] | None] = None
    # Off by default (below 90% true findings on real code, docs/known-results.md): ``--preview``.
    preview: ClassVar[bool] = False
    # Levels the rule fires at only with --preview (below 90% true findings on real code there).
    preview_levels: ClassVar[frozenset[Level]] = frozenset()
    # The fix this rule offers, declared next to it: the names of the rewriters in
    # ``xlacheck.rewrites.REWRITERS`` tried on its findings (in that table's order), ``INLINE``
    # when :meth:`check` builds the fix itself (``ctx.report(..., fix=...)``), or None for none.
    # ``xlacheck rule --all`` and the docs read fix availability from here.
    fix: ClassVar[tuple[str, ...] | None] = None

    @classmethod
    def fire_levels(cls) -> frozenset[Level]:
        if cls.levels is not None:
            return cls.levels
        return frozenset({Level.CERTAIN, Level.LIKELY} | ({Level.GRAPH} if cls.fails_in_any_graph else set())
                         | ({Level.HELPER} if cls.in_helpers else set()))

    @classmethod
    def preview_fire_levels(cls) -> frozenset[Level]:
        """The levels --preview adds: ``preview_levels``, and GRAPH for an XLA-only failure (a plain
        ``tf.function`` that a TPU or auto-clustering may compile: 0 of 14 such findings were true at
        first sight on real code, docs/real-code-judgments-10.md)."""
        graph = cls.levels is None and not cls.fails_in_any_graph
        return cls.preview_levels | ({Level.GRAPH} if graph else frozenset())
    VALID: ClassVar[tuple[Example, ...]] = ()
    INVALID: ClassVar[tuple[Example, ...]] = ()

    def check(self, node: ast.AST, ctx: RuleContext) -> None:  # pragma: no cover - interface
        raise NotImplementedError


def call_name(node: ast.Call, ctx: RuleContext) -> str | None:
    """Canonical dotted name of the called function (``tf.boolean_mask``), or None. A name the API
    table records as another public name's object is named as that one (``tf.compat.v1.print`` is
    ``tf.print``: :func:`xlacheck.analysis.imports.same_object`)."""
    key = id(node)
    names = ctx.call_names
    if key in names:
        return names[key]
    resolved = ctx.aliases.resolve(node.func)
    if resolved is None and not isinstance(node.func, ast.Name) or ctx.function.api_defaults:
        # FNS["det"](x), self.fn(x) set to an API in __init__, fn(x) with a default that names one
        cls = ctx.values.cls
        resolved = resolved or resolve_callee(node.func, ctx.aliases, ctx.module_values,
                                              cls.attrs if cls is not None else None, ctx.function.api_defaults,
                                              ctx.function.node)
    name = names[key] = same_object(resolved) if resolved is not None else None
    return name


def loop_call_names(node: ast.Call, ctx: RuleContext) -> tuple[str, ...]:
    """The APIs a call of a loop variable runs, one per element of the literal list or tuple it loops
    over (``for fn in (tf.linalg.det, tf.math.abs): fn(x)``; :func:`xlacheck.analysis.scopes.
    iterated_elements`), each named as :func:`call_name` names it; () when unknown."""
    if not isinstance(node.func, ast.Name):
        return ()
    cls = ctx.values.cls
    elements = iterated_elements(node.func.id, ctx.function.node, ctx.module_values,
                                 cls.attrs if cls is not None else None)
    names = (ctx.aliases.callable_value(e) for e in elements)
    return tuple(dict.fromkeys(same_object(n) for n in names if n is not None))
