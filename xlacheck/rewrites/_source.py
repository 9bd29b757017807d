"""One file as the rewriters see it: its ``ast``, positions in characters, scopes and bindings.

Rewriters analyse Python's ``ast`` (cheap, already parsed by the engine) and emit text edits.
Positions here are what :mod:`xlacheck.fixes` applies: 1-based lines, 0-based columns counted in
characters of the decoded line (``ast`` counts UTF-8 bytes, so columns are converted through the
file's :class:`xlacheck.positions.LineTable`, which numbers lines as Python does).
"""

from __future__ import annotations

import ast
import io
import keyword
import tokenize
from collections.abc import Callable, Hashable, Iterator
from typing import Any, TypeVar

from xlacheck.diagnostics import Location
from xlacheck.positions import LineTable

Scope = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.Module
T = TypeVar("T")


class Source:
    """The text and tree of one file plus the lookups every rewriter needs."""

    def __init__(self, text: str, tree: ast.Module) -> None:
        self.text = text
        self.tree = tree
        self.table = LineTable(text)
        self.lines = self.table.lines()  # line ends kept; split only where Python splits
        # One breadth-first walk serves every lookup (parents, positions, names): whole-tree
        # walks per finding made attach_fixes a third of a cold lint.
        self.nodes: list[ast.AST] = [tree]
        self.parents: dict[ast.AST, ast.AST] = {}
        for parent in self.nodes:  # the list grows while it is read: a breadth-first walk
            for child in ast.iter_child_nodes(parent):
                self.parents[child] = parent
                self.nodes.append(child)
        self.tf = _tensorflow_alias(tree)
        self._names: set[str] | None = None
        self._taken: set[str] = set()
        self._stores: dict[int, dict[str, list[ast.Name]]] = {}
        self._memo: dict[Hashable, Any] = {}

    # -- positions -----------------------------------------------------------------------------
    def char_col(self, lineno: int, byte_col: int) -> int:
        return self.table.char_col(lineno, byte_col)

    def start(self, node: ast.AST) -> Location:
        return Location(node.lineno, self.char_col(node.lineno, node.col_offset))  # type: ignore[attr-defined]

    def end(self, node: ast.AST) -> Location:
        end_line = node.end_lineno  # type: ignore[attr-defined]
        return Location(end_line, self.char_col(end_line, node.end_col_offset))  # type: ignore[attr-defined]

    def segment(self, node: ast.AST) -> str:
        """The node's exact source text: formatting and comments inside it are kept."""
        if getattr(node, "end_lineno", None) is None:  # nodes built by hand have no positions
            return ast.unparse(node)
        return self.text[self.offset(self.start(node)) : self.offset(self.end(node))]

    def offset(self, loc: Location) -> int:
        """Character offset of a position in the text (clamped to the text)."""
        found = self.table.offset(loc.line, loc.col)
        if found is not None:
            return found
        if loc.line < 1:
            return 0
        after = self.table.offset(loc.line + 1, 0)  # a column past the line's end: the line's end
        return len(self.text) if after is None else after

    def line_start(self, lineno: int) -> Location:
        return Location(lineno, 0)

    def indent_of(self, node: ast.stmt) -> str:
        """The indentation Python counts on the node's line: the leading whitespace after the
        last form feed, which resets the tokenizer's column to zero."""
        lead = self._leading_whitespace(node.lineno)
        return lead[lead.rfind("\f") + 1 :]

    def indent_step(self, node: ast.stmt) -> str:
        """One more level of indentation, as the node's line writes it: a tab where it indents
        with tabs (mixing in spaces would still parse, but no one writes it), else four spaces."""
        return "\t" if "\t" in self.indent_of(node) else "    "

    def page_break_of(self, node: ast.stmt) -> str:
        """The leading whitespace up to and including the last form feed on the node's line
        (``""`` without one): a fix that replaces the line writes it back in front."""
        lead = self._leading_whitespace(node.lineno)
        return lead[: lead.rfind("\f") + 1]

    def _leading_whitespace(self, lineno: int) -> str:
        line = self.table.line(lineno)
        return line[: len(line) - len(line.lstrip(" \t\f"))]

    def alone_on_lines(self, first: ast.stmt, last: ast.stmt) -> bool:
        """The statements first..last own their lines (nothing but a comment shares them), so
        whole lines can be replaced."""
        head = self.table.line(first.lineno)[: self.start(first).col]
        tail = self.table.line(last.end_lineno)[self.end(last).col :] if last.end_lineno else ""
        return head.strip() == "" and (tail.strip() == "" or tail.strip().startswith("#"))

    def comments_in(self, first_line: int, last_line: int) -> list[str]:
        """Comments written on lines first..last (kept when a fix replaces those lines)."""
        chunk = "".join(self.lines[first_line - 1 : last_line])  # lines as Python counts them
        found: list[str] = []
        try:
            for tok in tokenize.generate_tokens(io.StringIO(chunk).readline):
                if tok.type == tokenize.COMMENT:
                    found.append(tok.string)
        except (tokenize.TokenError, IndentationError, SyntaxError):
            pass
        return found

    def comments_within(self, node: ast.AST) -> list[str]:
        """Comments inside the node's own text (lost when the node is replaced)."""
        text = self.segment(node)
        if "#" not in text:
            return []
        found: list[str] = []
        try:
            for tok in tokenize.generate_tokens(io.StringIO("(" + text + "\n)").readline):
                if tok.type == tokenize.COMMENT:
                    found.append(tok.string)
        except (tokenize.TokenError, IndentationError, SyntaxError):
            pass
        return found

    def memo(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``, once per file and key: a whole-file lookup that every finding asks
        again (which handlers could catch an exception, what a scope declares global) must not
        scan the file once per finding, or thousands of findings make the fix path quadratic."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]  # type: ignore[no-any-return]

    # -- structure -----------------------------------------------------------------------------
    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        while node in self.parents:
            node = self.parents[node]
            yield node

    def statement_of(self, node: ast.AST) -> ast.stmt | None:
        if isinstance(node, ast.stmt):
            return node
        for parent in self.ancestors(node):
            if isinstance(parent, ast.stmt):
                return parent
        return None

    def scope_of(self, node: ast.AST) -> Scope:
        for parent in self.ancestors(node):
            if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return parent
        return self.tree

    def body_containing(self, stmt: ast.stmt) -> list[ast.stmt] | None:
        found = self._block_position(stmt)
        return found[0] if found is not None else None

    def next_statement(self, stmt: ast.stmt) -> ast.stmt | None:
        found = self._block_position(stmt)
        if found is None:
            return None
        block, i = found
        return block[i + 1] if i + 1 < len(block) else None

    def _block_position(self, stmt: ast.stmt) -> tuple[list[ast.stmt], int] | None:
        """The statement list holding ``stmt`` and its index there; the parent's blocks are
        indexed once (a scan per finding is quadratic in a function of thousands of them)."""
        parent = self.parents.get(stmt)
        if parent is None:
            return None

        def index() -> dict[int, tuple[list[ast.stmt], int]]:
            found: dict[int, tuple[list[ast.stmt], int]] = {}
            for field in ("body", "orelse", "finalbody", "handlers"):
                block = getattr(parent, field, None)
                if isinstance(block, list):
                    for i, s in enumerate(block):
                        found.setdefault(id(s), (block, i))
            return found

        return self.memo(("blocks", id(parent)), index).get(id(stmt))

    # -- names -----------------------------------------------------------------------------------
    def bound_before(self, name: str, node: ast.AST) -> bool:
        """Whether ``name`` has a value when ``node`` runs: a parameter, an earlier store in
        the same function, a global/nonlocal declaration or a module-level binding."""
        scope = self.scope_of(node)
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
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

    def module_binding(self, name: str) -> ast.expr | None:
        """The value a module-level ``NAME = value`` gives ``name`` (the last such assignment)."""

        def bindings() -> dict[str, ast.expr]:
            found: dict[str, ast.expr] = {}
            for stmt in self.tree.body:
                if isinstance(stmt, ast.Assign):
                    for t in stmt.targets:
                        if isinstance(t, ast.Name):
                            found[t.id] = stmt.value
            return found

        return self.memo("module bindings", bindings).get(name)

    def declared_outside(self, scope: ast.AST) -> frozenset[str]:
        """Names a ``global`` or ``nonlocal`` statement anywhere under ``scope`` declares."""
        return self.memo(("declared", id(scope)), lambda: frozenset(
            name for s in ast.walk(scope) if isinstance(s, (ast.Global, ast.Nonlocal)) for name in s.names))

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
            if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and any(
                    a.arg == node.id for a in ast.walk(scope.args) if isinstance(a, ast.arg)):
                return None
        return bound

    def stores_in(self, scope: ast.AST) -> dict[str, list[ast.Name]]:
        """Every name stored anywhere under ``scope`` (nested scopes included), by name; one
        walk per scope, kept: bindings are looked up once per name per finding."""
        found = self._stores.get(id(scope))
        if found is None:
            found = {}
            for sub in ast.walk(scope):
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    found.setdefault(sub.id, []).append(sub)
            self._stores[id(scope)] = found
        return found

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

    def loads_of(self, name: str, scope: ast.AST) -> list[ast.Name]:
        """Every read of ``name`` under ``scope`` (nested scopes included); one walk per scope."""

        def loads() -> dict[str, list[ast.Name]]:
            found: dict[str, list[ast.Name]] = {}
            for sub in ast.walk(scope):
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
                    found.setdefault(sub.id, []).append(sub)
            return found

        return list(self.memo(("loads", id(scope)), loads).get(name, ()))

    def forget_fresh_names(self) -> None:
        """Start a new fix: temporaries handed out for an earlier (probed or other) fix are free."""
        self._taken.clear()

    def fresh_name(self, base: str) -> str:
        """A name no identifier in the file uses (so an inserted temporary shadows nothing)."""
        if self._names is None:
            self._names = {n.id for n in self.nodes if isinstance(n, ast.Name)}
            self._names |= {a.arg for a in self.nodes if isinstance(a, ast.arg)}
            self._names |= {
                f.name for f in self.nodes if isinstance(f, (ast.FunctionDef, ast.ClassDef))
            }
        candidate, i = base, 1
        while candidate in self._names or candidate in self._taken or keyword.iskeyword(candidate):
            i += 1
            candidate = f"{base}_{i}"
        self._taken.add(candidate)
        return candidate


def _tensorflow_alias(tree: ast.Module) -> str | None:
    """The name this file imports TensorFlow under (``tf`` for ``import tensorflow as tf``)."""
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "tensorflow":
                    return alias.asname or "tensorflow"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "tensorflow" and alias.asname:
                    return alias.asname
    return None


def dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None
