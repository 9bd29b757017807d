"""Fixes for diagnostics: rewrites that make flagged code compile under XLA, and say when they
are exactly equivalent.

:func:`attach_fixes` finds the ``ast`` node each diagnostic points at (its exact start/end span:
findings cross process and cache boundaries as data), tries the rewriters the diagnostic's rule
declares (``Rule.fix``: names of functions that ``@rewriter`` registered in their own modules) on
that node and its enclosing nodes up to the statement (and the nodes inside it), and fills
``Diagnostic.fix`` with the first rewrite that edits code (an explanation only when none does).
Analysis runs on Python's ``ast``, and kept sub-expressions are copied as written, so their
formatting and comments survive; each in-line replacement is checked to parse as an expression
(with ``ast``: importing libcst for it cost a tenth of a cold lint). Each rewriter's module
docstring states its equivalence argument.
"""

from __future__ import annotations

import ast
import bisect
import dataclasses
import functools
import importlib
import logging
import pkgutil
from collections.abc import Iterator, Sequence

from xlacheck.diagnostics import Diagnostic, Edit, Fix, Location
from xlacheck.rewrites._fix import Rewriter, parses, registered, rewriter
from xlacheck.rewrites._framework import Frameworks
from xlacheck.rewrites._source import Source, import_line, needs_jax_import
from xlacheck.rewrites.jax_conditions import JAX_REWRITERS, jax_alias

log = logging.getLogger(__name__)

# Rewriters register themselves with ``@rewriter(kinds...)`` (``rewrites/_fix.py``) in their own
# module; a rule names them in its ``fix`` declaration. Nothing else lists them.
__all__ = ["Rewriter", "attach_fixes", "rewriter", "rewriters", "rewriters_for"]


@functools.cache
def _registry() -> dict[str, Rewriter]:
    """Every rewriter of this package, by name: importing each module registers its rewriters."""
    for module in pkgutil.iter_modules(__path__):
        if not module.name.startswith("_"):
            importlib.import_module(f"{__name__}.{module.name}")
    return registered()


@functools.cache
def rewriters() -> tuple[Rewriter, ...]:
    """Every rewriter, in the order the rules' ``fix`` declarations first name them (``ALL_RULES``
    order), rewriters tried only at the finding (``pointed``) last."""
    registry = _registry()
    names = dict.fromkeys(r.name for declared in _declared().values() for r in declared)
    names.update(dict.fromkeys(registry))  # registered but declared by no rule (test_fix_declarations refuses it)
    ordered = [registry[name] for name in names]
    return (*(r for r in ordered if not r.pointed), *(r for r in ordered if r.pointed))


@functools.cache
def _declared() -> dict[str, tuple[Rewriter, ...]]:
    """Each rule's rewriters, in the order its ``fix`` declaration names them (none for a fix it
    builds itself)."""
    from xlacheck.rules import ALL_RULES
    from xlacheck.rules.base import INLINE

    registry = _registry()
    declared = {}
    for rule in ALL_RULES:
        names = () if rule.fix in (None, INLINE) else rule.fix
        unknown = [name for name in names if name not in registry]
        if unknown:
            raise ValueError(f"{rule.code}: fix names no rewriter {sorted(unknown)} (@rewriter in xlacheck/rewrites/)")
        declared[rule.code] = tuple(registry[name] for name in names)
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
    jax_only = src.tf is None  # every other rewrite emits tf.* calls
    if jax_only and jax_alias(tree) is None:
        return tuple(diagnostics)
    index = _PositionIndex(src)
    frameworks = Frameworks(src)
    out = []
    for diagnostic in diagnostics:
        fix = None
        if diagnostic.fix is None:
            try:
                candidates = rewriters_for(diagnostic.code)
                if jax_only:
                    candidates = tuple(r for r in candidates if r.name in JAX_REWRITERS)
                fix = _fix_for(src, index, candidates, diagnostic, frameworks)
                if fix is not None and needs_jax_import(tree, fix):
                    fix = _with_import(fix, "import jax\n", import_line(tree))
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
        for candidate in candidates:
            if isinstance(node, candidate.kinds) and (at_finding or not candidate.pointed):
                src.forget_fresh_names()
                fix = candidate.rewrite(src, node)
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


def _with_import(fix: Fix, statement: str, line: int) -> Fix:
    """``fix`` with ``statement`` inserted at the start of ``line`` (the module's first import),
    joined to an insertion the fix already makes there (appliers refuse two edits at one point)."""
    at = Location(line, 0)
    edits = list(fix.edits)
    for k, edit in enumerate(edits):
        if edit.start == at and edit.end == at:
            edits[k] = dataclasses.replace(edit, content=statement + edit.content)
            break
    else:
        edits.insert(0, Edit(at, at, statement))
    return dataclasses.replace(fix, edits=tuple(edits))


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
