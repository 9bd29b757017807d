"""Seeded random draws that XLA computes with another generator: pin ``alg="philox"`` (XLA315).

``tf.random.stateless_*(..., seed=(1, 2))`` without ``alg`` uses ``auto_select``: philox on CPU
in TensorFlow, another generator under XLA, so a jit-compiled function draws other
numbers for the same seed. With ``alg="philox"`` and a constant seed XLA draws the numbers
TensorFlow draws (measured per API: ``xla_values`` in ``xlacheck/data/tf_api.json``, the table
XLA315 reads; the rewrite is offered only for the APIs where that form is recorded as equal).
The seed must be a literal pair of ints or a module constant bound to one; with a tensor seed the
values differ even with philox, and there is no fix.

UNSAFE: on CPU the eager numbers are unchanged (``auto_select`` is philox there, measured), but
on a device where ``auto_select`` picks another generator the eager code now draws other numbers
than before.
"""

from __future__ import annotations

import ast

from xlacheck import api_table
from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import call_name
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source


def _constant_pair(src: Source, node: ast.expr | None) -> bool:
    if isinstance(node, ast.Name):
        node = src.module_constant(node)
    return isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) == 2 and all(
        isinstance(e, ast.Constant) and type(e.value) is int for e in node.elts)


@rewriter(ast.Call, pointed=True)
def rewrite_seeded_random_alg(src: Source, node: ast.AST) -> Fix | None:
    """``tf.random.stateless_uniform(shape, seed=(1, 2))`` -> ``..., alg="philox")`` (see the module
    docstring)."""
    if src.tf is None or not isinstance(node, ast.Call):
        return None
    name = call_name(src, node)
    if name is None or "stateless" not in name or any(k.arg in ("alg", None) for k in node.keywords):
        return None
    fact = api_table.fact_for(name)
    if fact is None or "alg" not in fact.params or "seed" not in fact.params:
        return None
    if fact.xla_values_differ(None, True) is not True or fact.xla_values_differ("philox", True) is not False:
        return None
    if any(isinstance(a, ast.Starred) for a in node.args) or len(node.args) > fact.params.index("alg"):
        return None
    position = fact.params.index("seed")
    seed = next((k.value for k in node.keywords if k.arg == "seed"), None)
    if seed is None and len(node.args) > position:
        seed = node.args[position]
    if not _constant_pair(src, seed):
        return None
    last = max([*node.args, *(k.value for k in node.keywords)], key=lambda n: (n.end_lineno, n.end_col_offset))
    whole = src.segment(node)
    cut = src.offset(src.end(last)) - src.offset(src.start(node))
    return make_fix('Pin alg="philox": with a constant seed XLA then draws the numbers TensorFlow draws',
                    [replace(src, node, f'{whole[:cut]}, alg="philox"{whole[cut:]}')],
                    ["eager numbers stay the same on CPU, where auto_select is philox, and change on a device "
                     "where auto_select picks another generator"])
