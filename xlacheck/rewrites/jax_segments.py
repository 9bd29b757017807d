"""``jax.ops.segment_sum/max/min/prod`` without ``num_segments=`` under ``jax.jit`` (XLA207) ->
``num_segments=`` the leading size of the array the code combines the result with.

Without ``num_segments`` the segment count is ``max(segment_ids) + 1``, a traced value, so tracing
fails (ConcretizationTypeError). Where the code then combines the result ``R`` with an array ``A``
in a way that needs their leading sizes to agree, every call on which the original returns has
``max(segment_ids) + 1 == A.shape[0]``, and ``A.shape[0]`` is static under ``jax.jit``:

* ``jnp.concatenate([..., R, ...], axis=k)`` with a literal ``k != 0``: every axis but ``k`` must
  agree, axis 0 among them;
* ``A + R`` (any of ``+ - * / ** %``, either order): elementwise, the sizes agree unless one
  broadcasts.

``R`` may be the call itself or a name bound once to it, read through elementwise ``jax.numpy``
functions of one operand and arithmetic with numbers, by a statement that runs whenever the
segment call does (the same block, after it, with no jump between: a consumer in a branch of
its own leaves the other paths free to return the original's count). ``A`` is a name (an attribute or a literal
item of one: ``params["bias"]``) whose value is settled where the segment call runs (nothing stores
it after; :meth:`~xlacheck.rewrites._source.Source.settled_before`), so its shape can be read there.
Segment ids past ``num_segments`` are dropped by both; with ``num_segments`` equal to the original's
count the result is the same array, values and gradients.

UNSAFE for what the code does not show: ``axis=-1`` is axis 0 for 1-D data (no constraint on the
count there); an elementwise partner of leading size 1 broadcasts (the original's count may be
larger), and one that is a scalar (``nodes + scale * segment_sum(...)`` reads ``scale``, the
nearest operand) has no leading size, so the fixed call raises.
"""

from __future__ import annotations

import ast

from xlacheck.analysis.tables import JAX_ELEMENTWISE
from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import atom
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.jax_static import canonical
from xlacheck.rewrites.segment_bounds import partner

_SEGMENTS = frozenset({"jax.ops.segment_sum", "jax.ops.segment_max", "jax.ops.segment_min", "jax.ops.segment_prod"})


@rewriter(ast.Call, pointed=True)
def rewrite_jax_segment_count(src: Source, node: ast.AST) -> Fix | None:
    if not (isinstance(node, ast.Call) and canonical(src, node.func) in _SEGMENTS and len(node.args) == 2
            and not any(isinstance(a, ast.Starred) for a in node.args)
            and not any(k.arg in ("num_segments", None) for k in node.keywords)):
        return None
    found = partner(src, node, lambda f: canonical(src, f), "jax.numpy.concatenate", JAX_ELEMENTWISE)
    if found is None:
        return None
    other, reason = found
    segment = src.segment(node)
    text = f"{segment[:-1].rstrip().rstrip(',')}, num_segments={atom(src, other)}.shape[0])"
    return make_fix("pass num_segments= the leading size of the array the result is combined with (a static shape; "
                    "where the original returns, its segment count is that size)", [replace(src, node, text)],
                    unsafe=[reason] if reason else [])
