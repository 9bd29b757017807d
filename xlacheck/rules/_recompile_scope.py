"""Where a recompile hazard (XLA4xx) costs something: shared by the rules of that family.

A recompile costs time once per new shape or value. In a test (a handful of steps) or in code
that runs once (padding a whole corpus, a one-off conversion), it costs nothing that matters; in
code that runs per batch or per step it multiplies.
"""

from __future__ import annotations

import ast
import os

from xlacheck.analysis.contexts import is_test_module
from xlacheck.analysis.module_index import ModuleIndex

_PER_BATCH_METHODS = frozenset({"__call__", "__getitem__", "__iter__", "collate", "collate_fn", "on_epoch_end"})


def in_test(index: ModuleIndex, path: str, node: ast.AST) -> bool:
    """A test file (``test_*.py``, ``*_test.py``, ``conftest.py``) or a test function/class."""
    if is_test_module(path) or os.path.basename(path) == "conftest.py":
        return True
    return id(node) in index.test_nodes


def per_batch(index: ModuleIndex, call: ast.Call) -> bool:
    """The call runs once per batch: in a loop or comprehension, in a generator, a collator-like
    method, or a function this file calls in a loop or hands to ``map``/``DataLoader``."""
    if index.loops_around(call):
        return True
    func = index.function_of(call)
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    if func.name in _PER_BATCH_METHODS or "collat" in func.name.lower() or "batch" in func.name.lower():
        return True
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in index.scope_nodes(func)):
        return True
    for site, _ in index.calls:
        callee = site.func.attr if isinstance(site.func, ast.Attribute) else getattr(site.func, "id", None)
        if callee == func.name and index.loops_around(site):
            return True
        handed = any(isinstance(a, (ast.Name, ast.Attribute)) and (getattr(a, "id", None) or getattr(a, "attr", None)) == func.name
                     for a in [*site.args, *(k.value for k in site.keywords)])
        if handed and callee in ("map", "DataLoader", "from_generator"):
            return True
    return False
