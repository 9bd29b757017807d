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
import re
import tokenize
from collections.abc import Collection, Iterable

from xlacheck.analysis import dotted as dotted  # the shared reader; rewrites import it from here
from xlacheck.analysis.scopes import FunctionScope, ScopeTree
from xlacheck.diagnostics import Fix, Location
from xlacheck.positions import LineTable

Scope = FunctionScope


class Source(ScopeTree):
    """The text and tree of one file plus the lookups every rewriter needs: the shared scope
    and binding model (:class:`xlacheck.analysis.scopes.ScopeTree`) with text and positions."""

    def __init__(self, text: str, tree: ast.Module) -> None:
        # One breadth-first walk serves every lookup (parents, positions, names): whole-tree
        # walks per finding made attach_fixes a third of a cold lint.
        super().__init__(tree)
        self.text = text
        self.table = LineTable(text)
        self.lines = self.table.lines()  # line ends kept; split only where Python splits
        self.tf = _tensorflow_alias(tree)
        self._names: set[str] | None = None
        self._taken: set[str] = set()

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

    def settled_before(self, stmt: ast.stmt, names: Iterable[str], own: Collection[int] = ()) -> bool:
        """Every one of ``names`` keeps, from ``stmt`` to the end of its function, the value it held
        at ``stmt``: stored in that function only before ``stmt`` (a parameter, ``keep = m > 0``
        above it), and no loop holds ``stmt`` or those stores (a later pass would rebind them). A
        name bound once at ``stmt`` can then be read anywhere as the text of its value. ``own``: the
        ids of stores that do not count (``stmt``'s own targets, stored after its value is read)."""
        scope = self.scope_of(stmt)
        stores = self.stores_in(scope)
        loops = (ast.For, ast.AsyncFor, ast.While)

        def in_loop(node: ast.AST) -> bool:
            return any(isinstance(a, loops) for a in self.ancestors(node)
                       if a is not scope and self.scope_of(a) is scope)

        if in_loop(stmt):
            return False
        here = (stmt.lineno, stmt.col_offset)
        return not any(id(store) not in own and (self.scope_of(store) is not scope or in_loop(store)
                                                 or (store.end_lineno or store.lineno, store.end_col_offset or 0)
                                                 > here)
                       for name in names for store in stores.get(name, ()))

    def sole_reader(self, node: ast.expr) -> tuple[ast.Assign, ast.Name] | None:
        """``name = <node>`` alone on its lines, and ``name`` read once in its scope, by a read this
        assignment binds: the assignment and that read (a rewrite that folds ``node`` into its one
        reader, as the repeat and summed-size rewrites do)."""
        assign = self.parents.get(node)
        if not (isinstance(assign, ast.Assign) and assign.value is node and len(assign.targets) == 1
                and isinstance(assign.targets[0], ast.Name) and self.alone_on_lines(assign, assign)):
            return None
        target = assign.targets[0]
        readers = [n for n in ast.walk(self.scope_of(assign)) if isinstance(n, ast.Name) and n.id == target.id
                   and n is not target]
        if len(readers) != 1 or not isinstance(readers[0].ctx, ast.Load) \
                or self.local_binding(target.id, readers[0]) is not node:
            return None
        return assign, readers[0]

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

    def body_containing(self, stmt: ast.stmt) -> list[ast.stmt] | None:
        found = self._block_position(stmt)
        return found[0] if found is not None else None

    def runs_after(self, stmt: ast.stmt, later: ast.stmt) -> bool:
        """Whenever ``stmt`` completes, ``later`` runs next in the same block or after statements that
        cannot jump past it (no ``return``, ``raise``, ``break`` or ``continue`` in them); ``later`` may be
        ``stmt`` itself. A statement in a branch or loop of its own is not reached on every path."""
        if later is stmt:
            return True
        here, there = self._block_position(stmt), self._block_position(later)
        if here is None or there is None or here[0] is not there[0] or there[1] <= here[1]:
            return False
        jumps = (ast.Return, ast.Raise, ast.Break, ast.Continue)
        return not any(isinstance(n, jumps) for s in here[0][here[1] + 1:there[1]] for n in ast.walk(s))

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


def module_alias(tree: ast.Module, module: str) -> str | None:
    """The name a top-level ``import MODULE [as NAME]`` of this file binds, if there is one."""
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == module:
                    return alias.asname or module
    return None


def jax_alias(tree: ast.Module) -> str | None:
    """The local name of ``import jax`` (``import jax as j``), if the module has one; ``jax`` where
    ``import jax.numpy`` binds it, or where the module imports from JAX only by other names
    (``from jax import jit``, ``import jax.numpy as jnp``) and binds ``jax`` nowhere: the fix then
    adds ``import jax`` (:func:`needs_jax_import`)."""
    alias = module_alias(tree, "jax")
    if alias is not None:
        return alias
    jax_imports = [a for n in tree.body if isinstance(n, ast.Import) for a in n.names
                   if a.name.split(".")[0] == "jax"]
    jax_imports += [a for n in tree.body if isinstance(n, ast.ImportFrom) and n.level == 0 and n.module
                    and n.module.split(".")[0] == "jax" for a in n.names]
    if not jax_imports:
        return None
    if any(isinstance(a, ast.alias) and a.asname is None and a.name.startswith("jax.") for a in jax_imports):
        return "jax"  # `import jax.numpy` binds `jax`
    bound = any(isinstance(n, ast.Name) and n.id == "jax" and not isinstance(n.ctx, ast.Load) for n in ast.walk(tree)) \
        or any((a.asname or a.name.split(".")[0]) == "jax" for n in ast.walk(tree)
               if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names) \
        or any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == "jax"
               or isinstance(n, ast.arg) and n.arg == "jax" for n in ast.walk(tree))
    return None if bound else "jax"


def import_line(tree: ast.Module) -> int:
    """The line of the module's first import (after its docstring and ``__future__`` imports)."""
    for stmt in tree.body:
        if isinstance(stmt, ast.Import) or (isinstance(stmt, ast.ImportFrom) and stmt.module != "__future__"):
            return stmt.lineno
    return 1


_JAX_ROOT = re.compile(r"(?<![\w.])jax\.")


def needs_jax_import(tree: ast.Module, fix: Fix) -> bool:
    """A fix that writes ``jax.<name>`` in a module that binds no top-level ``jax`` (it imports
    from JAX only by other names: :func:`jax_alias`)."""
    if module_alias(tree, "jax") is not None or any(
            isinstance(n, ast.Import) and any(a.asname is None and a.name.startswith("jax.") for a in n.names)
            for n in tree.body):
        return False
    return any(_JAX_ROOT.search(e.content) for e in fix.edits)


def _tensorflow_alias(tree: ast.Module) -> str | None:
    """The name this file imports TensorFlow under (``tf`` for ``import tensorflow as tf``)."""
    top = module_alias(tree, "tensorflow")
    if top is not None:
        return top
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "tensorflow" and alias.asname:
                    return alias.asname
    return None
