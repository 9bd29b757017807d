"""Which framework a piece of code is written in, so that a fix never mixes frameworks.

A file may import TensorFlow and JAX side by side (a converter, a benchmark, a data pipeline in
tf.data feeding a ``jax.jit`` step). A rewrite that inserts ``tf.cond`` or ``tf.gather`` into a
``jax.jit`` function turns a tracing error into a different one (TensorFlow ops do not accept
tracers), so every fix is checked against the framework of the function it edits: the
innermost enclosing function that is decided by its decorators (``@jax.jit``,
``@tf.function``), by being passed to a compiler (``jax.jit(f)``, ``tf.function(f)``), or by the
framework names its body uses (only JAX names, or only TensorFlow/Keras names).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from xlacheck.analysis import chain_root
from xlacheck.diagnostics import Edit
from xlacheck.rewrites._source import Source

_ROOTS = {"jax": "jax", "flax": "jax", "optax": "jax", "haiku": "jax", "chex": "jax", "equinox": "jax",
          "tensorflow": "tf", "keras": "tf", "tf_keras": "tf"}


def _imports(src: Source) -> dict[str, str]:
    """Local name -> "jax" | "tf" for every import of either framework (later ones win)."""
    out: dict[str, str] = {}
    Import, ImportFrom = ast.Import, ast.ImportFrom
    # the scope model's node list (breadth-first, as ast.walk), not a second whole-tree walk
    for node in src.nodes:
        kind = type(node)
        if kind is not Import and kind is not ImportFrom:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                fw = _ROOTS.get(alias.name.split(".")[0])
                if fw is not None:
                    out[alias.asname or alias.name.split(".")[0]] = fw
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            fw = _ROOTS.get(node.module.split(".")[0])
            if fw is not None:
                for alias in node.names:
                    out[alias.asname or alias.name] = fw
    return out


class Frameworks:
    """Per-file answers to "which framework is this function written in"."""

    def __init__(self, src: Source) -> None:
        self.src = src
        self.names = _imports(src)
        self._by_function: dict[int, str | None] = {}
        self._compiled_as: dict[str, str] = {}  # function name -> framework of the compiler it is passed to
        if len(set(self.names.values())) > 1:
            for node in src.nodes:
                if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name):
                    fw = self.names.get(chain_root(node.func) or "")
                    if fw is not None:
                        self._compiled_as.setdefault(node.args[0].id, fw)

    @property
    def mixed(self) -> bool:
        return len(set(self.names.values())) > 1

    def of(self, node: ast.AST) -> str | None:
        """"jax", "tf" or None (undecided) for the code around ``node``: the innermost enclosing
        function that a decorator or a compiler call decides (hard evidence: a helper nested in a
        ``jax.jit`` function is traced by JAX whatever it calls), else the innermost one whose body
        uses the names of one framework only."""
        if not self.mixed:
            return next(iter(self.names.values()), None)
        functions = [f for f in [node, *self.src.ancestors(node)] if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
        for func in functions:
            fw = self._hard(func)
            if fw is not None:
                return fw
        for func in functions:
            fw = self._soft(func)
            if fw is not None:
                return fw
        return None

    def _hard(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
        key = id(func)
        if key not in self._by_function:
            self._by_function[key] = self._decide(func)
        return self._by_function[key]

    def _decide(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
        for dec in func.decorator_list:
            fw = self.names.get(chain_root(dec) or "")
            if fw is None and isinstance(dec, ast.Call) and dec.args:  # functools.partial(jax.jit, ...)
                fw = self.names.get(chain_root(dec.args[0]) or "")
            if fw is not None:
                return fw
        return self._compiled_as.get(func.name)

    def _soft(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
        used = {self.names[n.id] for n in ast.walk(func) if isinstance(n, ast.Name) and n.id in self.names}
        return used.pop() if len(used) == 1 else None

    def foreign(self, node: ast.AST, edits: Sequence[Edit]) -> str | None:
        """The name of another framework's module that the edits bring into ``node``'s code."""
        fw = self.of(node)
        if fw is None or not self.mixed:
            return None
        for name, other in self.names.items():
            if other != fw and any(re.search(rf"(?<![\w.]){re.escape(name)}\b", e.content) for e in edits):
                return name
        return None
