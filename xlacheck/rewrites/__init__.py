"""Fixes for diagnostics: rewrites that make flagged code compile under XLA, and say when they
are exactly equivalent.

:func:`attach_fixes` finds the ``ast`` node each diagnostic points at (by its start/end
position), tries the rewriters the diagnostic's rule declares (``Rule.fix``, by name in
:func:`rewriters`) on that node and its enclosing nodes up to the statement (and the nodes
inside it), and fills
``Diagnostic.fix`` with the first rewrite that edits code (an explanation only when none does).
Analysis runs on Python's ``ast``, and kept sub-expressions are copied as written, so their
formatting and comments survive; libcst is imported only once a fix exists, to check each
in-line replacement. Each rewriter's module docstring states its equivalence argument.
"""

from __future__ import annotations

import ast
import bisect
import dataclasses
import functools
import logging
from collections.abc import Callable, Iterator, Sequence

from xlacheck.diagnostics import Diagnostic, Fix, Location
from xlacheck.rewrites._fix import parses
from xlacheck.rewrites._framework import Frameworks
from xlacheck.rewrites._source import Source

log = logging.getLogger(__name__)

RewriteFn = Callable[[Source, ast.AST], "Fix | None"]


@dataclasses.dataclass(frozen=True)
class Rewriter:
    """One rewriter in the table: the node kinds it starts from, and whether it is tried only on
    the node a finding points at and its ancestors (``pointed``), never on nodes found inside
    it (an iterated name, or a subscript's index, is a tensor only if the finding says so)."""

    name: str
    kinds: tuple[type, ...]
    rewrite: RewriteFn
    pointed: bool = False


@functools.cache
def rewriters() -> tuple[Rewriter, ...]:
    """Every rewriter, by the name a rule's ``fix`` declares, in the order they are tried."""
    from xlacheck.rewrites.builtins import rewrite_builtin_call, rewrite_membership
    from xlacheck.rewrites.checks import rewrite_assert
    from xlacheck.rewrites.counting import rewrite_counting
    from xlacheck.rewrites.host import rewrite_host_read
    from xlacheck.rewrites.indicator import rewrite_if, rewrite_ternary
    from xlacheck.rewrites.iteration import rewrite_filtered_sum, rewrite_iteration
    from xlacheck.rewrites.kernels import rewrite_print, rewrite_unravel_index
    from xlacheck.rewrites.list_index import rewrite_list_index
    from xlacheck.rewrites.loops import rewrite_loop, rewrite_tensorarray_size, rewrite_while
    from xlacheck.rewrites.masked_reduction import rewrite_masked
    from xlacheck.rewrites.static_shapes import rewrite_shape_argument

    table = (
        ((ast.If,), rewrite_if),
        ((ast.IfExp,), rewrite_ternary),
        ((ast.Assert,), rewrite_assert),
        ((ast.Compare,), rewrite_membership),
        ((ast.Call,), rewrite_builtin_call),
        ((ast.Call, ast.Subscript, ast.Assign), rewrite_masked),
        ((ast.Call,), rewrite_counting),
        ((ast.Call, ast.Subscript), rewrite_shape_argument),
        ((ast.Expr, ast.Assign, ast.Call, ast.For, ast.While), rewrite_loop),
        ((ast.While, ast.expr), rewrite_while),
        ((ast.Call,), rewrite_tensorarray_size),
        ((ast.ListComp, ast.GeneratorExp), rewrite_filtered_sum),
        ((ast.Call,), rewrite_host_read),
        ((ast.Expr,), rewrite_print),
        ((ast.Call,), rewrite_unravel_index),
    )
    pointed = (
        ((ast.Name, ast.Attribute, ast.Call, ast.Subscript), rewrite_iteration),
        ((ast.Subscript,), rewrite_list_index),
    )
    return (*(Rewriter(fn.__name__, kinds, fn) for kinds, fn in table),
            *(Rewriter(fn.__name__, kinds, fn, pointed=True) for kinds, fn in pointed))


@functools.cache
def _declared() -> dict[str, tuple[Rewriter, ...]]:
    """Each rule's rewriters, from its ``fix`` declaration (none for a fix it builds itself)."""
    from xlacheck.rules import ALL_RULES
    from xlacheck.rules.base import INLINE

    by_name = {r.name: r for r in rewriters()}
    declared = {}
    for rule in ALL_RULES:
        names = () if rule.fix in (None, INLINE) else rule.fix
        unknown = set(names) - by_name.keys()
        if unknown:
            raise ValueError(f"{rule.code}: fix names no rewriter {sorted(unknown)} (xlacheck.rewrites.rewriters)")
        declared[rule.code] = tuple(r for r in rewriters() if r.name in names)  # the table's order
    return declared


def rewriters_for(code: str) -> tuple[Rewriter, ...]:
    """The rewriters tried on a finding of ``code``: those its rule declares; every rewriter for
    a code no rule has (a finding built by hand, as the rewrite tests do)."""
    return _declared().get(code, rewriters())


def attach_fixes(source: str, tree: ast.Module, diagnostics: Sequence[Diagnostic]) -> tuple[Diagnostic, ...]:
    """The same diagnostics, in the same order, with ``fix`` filled where a rewrite applies."""
    if not diagnostics:
        return tuple(diagnostics)
    src = Source(source, tree)
    if src.tf is None:  # every rewrite emits tf.* calls
        return tuple(diagnostics)
    index = _PositionIndex(src)
    frameworks = Frameworks(src)
    out = []
    for diagnostic in diagnostics:
        fix = None
        if diagnostic.fix is None:
            try:
                fix = _fix_for(src, index, rewriters_for(diagnostic.code), diagnostic, frameworks)
            except Exception:  # a rewriter bug must never break linting
                log.exception("rewrite failed for %s at %s:%s", diagnostic.code, diagnostic.path, diagnostic.line)
        out.append(dataclasses.replace(diagnostic, fix=fix) if fix is not None else diagnostic)
    return tuple(out)


def _fix_for(src: Source, index: _PositionIndex, candidates: Sequence[Rewriter], diagnostic: Diagnostic,
             frameworks: Frameworks) -> Fix | None:
    """The first rewrite that edits code; an explanation only when no candidate has one. A
    rewrite that would bring another framework into the code it edits (``tf.cond`` in a
    ``jax.jit`` function) is never offered."""
    advice = None
    if not candidates:  # the rule declares no rewriter (no fix, or one its check builds)
        return None
    for node, at_finding in _candidates(src, index, diagnostic):
        for rewriter in candidates:
            if isinstance(node, rewriter.kinds) and (at_finding or not rewriter.pointed):
                src.forget_fresh_names()
                fix = rewriter.rewrite(src, node)
                if fix is None:
                    continue
                if not fix.edits:
                    advice = advice or fix
                    continue
                if not parses(fix):
                    log.warning("dropped a %s fix that would not parse", diagnostic.code)
                    continue
                if frameworks.foreign(node, fix.edits) is not None:
                    continue
                return fix
    return advice


def _candidates(src: Source, index: _PositionIndex, diagnostic: Diagnostic) -> Iterator[tuple[ast.AST, bool]]:
    """The node at the diagnostic and its ancestors up to the statement (flagged True), then the
    nodes inside it and the `if` whose branch holds that statement (False)."""
    node = index.at(diagnostic.start, diagnostic.end)
    if node is None:
        return
    seen: set[int] = set()
    chain = [node]
    if not isinstance(node, ast.stmt):
        for parent in src.ancestors(node):
            chain.append(parent)
            if isinstance(parent, ast.stmt):
                break
    # A finding on a statement inside a tensor `if` (a side effect in a branch) is about that `if`.
    stmt = chain[-1]
    branch_of = src.parents.get(stmt)
    enclosing_if = [branch_of] if isinstance(branch_of, ast.If) and stmt is not branch_of.test else []
    ordered = [(n, True) for n in chain] + [(n, False) for n in [*_inside(node), *enclosing_if]]
    for candidate, at_finding in ordered:
        if id(candidate) not in seen:
            seen.add(id(candidate))
            yield candidate, at_finding


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _inside(node: ast.AST) -> Iterator[ast.AST]:
    """Nodes within ``node``; for a compound statement only its header (a finding about a loop
    or a function is not about every statement in its body)."""
    for field, value in ast.iter_fields(node):
        if field in _BLOCKS or field == "decorator_list":
            continue
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, ast.AST):
                yield from ast.walk(child)


class _PositionIndex:
    """Nodes by span: the outermost node whose span is exactly the finding's, else the innermost
    node that encloses it.

    Built once per file, in O(n log n): the exact spans go in a dict, and (on the first finding
    that matches no node exactly) every positioned node is listed in source order with the node
    whose span encloses it (the spans of an ``ast`` nest), so a lookup is a dict hit or a
    bisection and a walk up at most the nesting depth. Scanning every node per finding made a
    file with thousands of findings quadratic (issue 15). Spans are compared in ``ast``'s own
    (line, byte column) terms: the finding's character columns are converted back through the
    line table, so no node's position is ever converted."""

    def __init__(self, src: Source) -> None:
        self.table = src.table
        self.positioned = [  # breadth-first, as src.nodes: the outermost of equal spans comes first
            n for n in src.nodes if getattr(n, "end_lineno", None) is not None and hasattr(n, "lineno")
        ]
        self.exact: dict[tuple[int, int, int, int], ast.AST] = {}
        for n in reversed(self.positioned):  # the first of equal spans is written last, and stays
            self.exact[n.lineno, n.col_offset, n.end_lineno, n.end_col_offset] = n  # type: ignore[attr-defined]
        self.starts: list[tuple[int, int]] = []
        self.ends: list[tuple[int, int]] = []
        self.nodes: list[ast.AST] = []
        self.enclosing: list[int] = []  # index of the closest span that holds this one, -1 for none

    def _nest(self) -> None:
        """Pre-order of the nesting: by start, the longer of two spans first, then outer before inner."""
        spans = sorted(
            ((n.lineno, n.col_offset), (-n.end_lineno, -n.end_col_offset), order, n)  # type: ignore[attr-defined]
            for order, n in enumerate(self.positioned))
        self.starts = [s[0] for s in spans]
        self.ends = [(-s[1][0], -s[1][1]) for s in spans]
        self.nodes = [s[3] for s in spans]
        open_spans: list[int] = []
        for i, end in enumerate(self.ends):
            while open_spans and self.ends[open_spans[-1]] < end:  # closes before this one ends
                open_spans.pop()
            self.enclosing.append(open_spans[-1] if open_spans else -1)
            open_spans.append(i)

    def at(self, start: Location, end: Location) -> ast.AST | None:
        s = (start.line, self.table.byte_col(start.line, start.col))
        e = (end.line, self.table.byte_col(end.line, end.col))
        hit = self.exact.get((*s, *e))
        if hit is not None:
            return hit
        if not self.nodes:
            self._nest()
        # Every span that holds the finding starts at or before it, so it holds the last span
        # that starts there too: walk out from that one to the first span that reaches the end.
        i = bisect.bisect_right(self.starts, s) - 1
        while i >= 0:
            if e <= self.ends[i]:
                return self.nodes[i]
            i = self.enclosing[i]
        return None
