"""A reduction of a prefix, suffix or window cut by tensor bounds (XLA205) -> the reduction of the
whole tensor with the positions outside the cut masked (fixes33 added suffixes ``x[k:]`` and windows
``x[a:b]``: the mask is ``a <= i < b``, and a mean divides by the count of kept positions).

``tf.reduce_sum(E, axis=k)`` where every tensor ``E`` reads is the same prefix ``x[:, :n]`` (``n``
from tensor values, on axis ``k``: ``k`` leading ``:``), and ``E`` is elementwise (``+ - * / **``,
unary minus, the elementwise ops of ``ELEMENTWISE_UNARY``) of such prefixes and numbers, reduces
entries whose number is data: XLA compiles once per value of ``n``. The same entries are reduced
from the whole tensors with the positions ``i >= n`` of axis ``k`` masked by ``tf.where`` (a mask
``tf.range(T) < tf.cast(n, tf.int64)`` reshaped to broadcast over the axes after ``k``; compared in
``int64`` because a bound such as ``tf.math.count_nonzero`` is ``int64`` and TF does not promote),
which has a static shape:

* ``reduce_sum`` (over axis ``k`` or every axis): the masked positions add exact zeros;
* ``reduce_max`` / ``reduce_min``: the masked positions hold -inf / inf, which an empty prefix
  returns as the original does;
* ``reduce_mean`` over axis ``k``: the masked sum divided by the prefix length ``min(n, T)`` (an empty
  prefix gives 0 / 0 = NaN, as the original does).

A prefix bound to a name (``h = x[:, :n]``, alone on its lines, ``h`` bound once, ``x`` and ``n``
keeping their values from there on) whose every read is inside such a reduction: the assignment
goes and each reduction reads ``x`` masked (fixes24).

Always UNSAFE:

* a negative bound counts back from the end in the slice, not in the mask;
* ``E`` is computed at the masked positions too: where its derivative there is not finite, the
  gradient is NaN (0 times inf) where the original's is 0;
* the sum runs in another order (the last bits of a float sum may differ);
* the tensors sliced are taken to have one length along axis ``k`` (the mask is built from the first);
* max/min assume a floating-point tensor (an integer one does not take the infinite fill), and a
  mean of integers, truncated in the original, is a true division here.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import ELEMENTWISE_UNARY, call_name, full_slice, int_literal, is_number, prefix_limit
from xlacheck.rewrites._fix import make_fix, replace, replace_lines, rewriter
from xlacheck.rewrites._source import Source, dotted
from xlacheck.rewrites.masked_reduction import rewrite_masked
from xlacheck.rewrites.static_shapes import data_dependent

_REDUCTIONS = {f"{prefix}reduce_{op}": op for prefix in ("tf.", "tf.math.") for op in ("sum", "mean", "max", "min")}
_FILL = {"sum": "0", "mean": "0", "max": "float('-inf')", "min": "float('inf')"}
_ARITH = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)


Cut = tuple[int, "ast.expr | None", "ast.expr | None"]
"""(axis ``k``, lower bound or None, upper bound or None) of a cut along one axis."""


def window(node: ast.AST) -> Cut | None:
    """(axis ``k``, lower bound, upper bound) of ``x[:n]``, ``x[:, :n]``, ``x[:, 0:n, :]``, a suffix
    ``x[:, k:]`` or a window ``x[a:b]`` (``k`` leading ``:``, only ``:`` after), with ``x`` a name or
    attribute; a missing bound (or a lower bound of literal 0) is None. None for any other subscript,
    and for a bound written negated (``x[-n:]``), which counts from the end."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and dotted(node.value)):
        return None
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    k = next((i for i, p in enumerate(parts) if not full_slice(p)), None)
    if k is None or not all(full_slice(p) for p in parts[k + 1:]):
        return None
    cut = parts[k]
    if not isinstance(cut, ast.Slice) or cut.step is not None:
        return None
    lower = None if cut.lower is None or int_literal(cut.lower) == 0 else cut.lower
    if lower is None and cut.upper is None or any(
            isinstance(b, ast.UnaryOp) and isinstance(b.op, ast.USub) for b in (lower, cut.upper)):
        return None
    return k, lower, cut.upper


def _leaves(src: Source, node: ast.expr, found: list[ast.expr], named: str | None = None) -> bool:
    """Whether ``node`` is elementwise in prefixes and numbers (the prefixes collected in ``found``);
    ``named``: a name that stands for a prefix (``h = x[:, :n]``)."""
    if is_number(node):
        return True
    if window(node) is not None or named is not None and isinstance(node, ast.Name) and node.id == named:
        found.append(node)
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, _ARITH):
        return _leaves(src, node.left, found, named) and _leaves(src, node.right, found, named)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _leaves(src, node.operand, found, named)
    if isinstance(node, ast.Call) and call_name(src, node) in ELEMENTWISE_UNARY and len(node.args) == 1 \
            and not node.keywords and not isinstance(node.args[0], ast.Starred):
        return _leaves(src, node.args[0], found, named)
    return False


def _whole(src: Source, node: ast.expr, leaves: list[ast.expr], named: ast.Subscript | None = None) -> str:
    """The text of ``node`` with each prefix (and each read of a name bound to ``named``) replaced by
    its whole tensor."""
    text = src.segment(node)
    start = src.offset(src.start(node))
    for leaf in sorted(leaves, key=lambda n: src.offset(src.start(n)), reverse=True):
        a, b = src.offset(src.start(leaf)) - start, src.offset(src.end(leaf)) - start
        cut = named if isinstance(leaf, ast.Name) and named is not None else leaf
        text = text[:a] + src.segment(cut.value) + text[b:]  # type: ignore[attr-defined]
    return text


@rewriter(ast.Subscript, pointed=True)
def rewrite_prefix_reduction(src: Source, node: ast.AST) -> Fix | None:
    """``tf.reduce_sum(E(x[:, :n]), axis=1)`` -> ``tf.reduce_sum(tf.where(mask, E(x), 0), axis=1)``
    (see the module docstring)."""
    if src.tf is None:
        return None
    cut = window(node)
    if cut is None or not any(b is not None and data_dependent(src, b) for b in cut[1:]):
        return None
    named = _named_prefix(src, node)  # type: ignore[arg-type]
    if named is not None:
        return named
    call: ast.AST | None = src.parents.get(node)
    while isinstance(call, (ast.BinOp, ast.UnaryOp)) or (isinstance(call, ast.Call)
                                                         and call_name(src, call) in ELEMENTWISE_UNARY):
        call = src.parents.get(call)
    if not isinstance(call, ast.Call):
        return None
    if isinstance(node.slice, ast.Slice) and cut[1] is None and len(call.args) == 1 and not call.keywords \
            and call_name(src, call) in _REDUCTIONS:  # type: ignore[attr-defined]
        # tf.reduce_op(E(x[:n])) where masked_reduction rewrites it (rewrite_masked, tried at the call, an
        # ancestor of this slice, so only after this rewriter): it also zeroes x where the mask is false
        # before E sees it, so the gradient stays exact where E's derivative there is not finite
        found = rewrite_masked(src, call)
        if found is not None and found.edits:
            return None
    rewritten = _masked_text(src, call, cut)
    if rewritten is None:
        return None
    text, reasons = rewritten
    return make_fix(_MESSAGE, [replace(src, call, text)], reasons)


_MESSAGE = ("reduce the whole tensor with the positions past the bound masked by tf.where instead of the data-sized "
            "prefix (a static shape)")


def _named_prefix(src: Source, node: ast.Subscript) -> Fix | None:
    """``h = x[:, :n]`` alone on its lines, ``h`` bound once and read only inside reductions that
    :func:`_masked_text` rewrites, ``x`` and ``n`` keeping their values from there on
    (:meth:`Source.settled_before`) -> the assignment goes and each reduction reads ``x`` masked."""
    assign = src.parents.get(node)
    if not (isinstance(assign, ast.Assign) and assign.value is node and len(assign.targets) == 1
            and isinstance(assign.targets[0], ast.Name) and src.alone_on_lines(assign, assign)):
        return None
    name = assign.targets[0].id
    scope = src.scope_of(assign)
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    if len(src.stores_in(scope).get(name, [])) != 1 or name in names \
            or not src.settled_before(assign, names, own={id(assign.targets[0])}):
        return None
    reads = src.loads_of(name, scope)
    if not reads:
        return None
    cut = window(node)
    assert cut is not None
    edits = [replace_lines(assign.lineno, assign.end_lineno or assign.lineno, "")]
    reasons: list[str] = []
    done: set[int] = set()
    for read in reads:
        call: ast.AST | None = src.parents.get(read)
        while isinstance(call, (ast.BinOp, ast.UnaryOp)) or (isinstance(call, ast.Call)
                                                             and call_name(src, call) in ELEMENTWISE_UNARY):
            call = src.parents.get(call)
        if not isinstance(call, ast.Call) or src.scope_of(call) is not scope:
            return None
        if id(call) in done:
            continue
        done.add(id(call))
        rewritten = _masked_text(src, call, cut, node)
        if rewritten is None:
            return None
        edits.append(replace(src, call, rewritten[0]))
        reasons += [r for r in rewritten[1] if r not in reasons]
    return make_fix(_MESSAGE, edits, reasons)


def _masked_text(src: Source, call: ast.Call, cut: Cut,
                 named: ast.Subscript | None = None) -> tuple[str, list[str]] | None:
    """The text of reduction ``call`` over the whole tensors with the positions outside the bounds
    masked, and the fix's reasons; ``named``: the cut a name read in ``call`` is bound to."""
    assert src.tf is not None
    if call_name(src, call) not in _REDUCTIONS or not call.args:
        return None
    op = _REDUCTIONS[call_name(src, call)]  # type: ignore[index]
    if len(call.args) > 2 or any(isinstance(a, ast.Starred) for a in call.args) \
            or any(k.arg not in ("axis", "keepdims") for k in call.keywords):
        return None
    axes = [*call.args[1:], *(k.value for k in call.keywords if k.arg == "axis")]
    if len(axes) > 1 or (axes and int_literal(axes[0]) != cut[0] and not (
            isinstance(axes[0], ast.Constant) and axes[0].value is None)):
        return None
    over_all = not axes or isinstance(axes[0], ast.Constant) and axes[0].value is None
    if op == "mean" and over_all:
        return None  # the count of a full mean reads every axis's size
    leaves: list[ast.expr] = []
    k, lower, upper = cut
    if not _leaves(src, call.args[0], leaves, _name_of(src, named)):
        return None
    cuts = [window(named if isinstance(leaf, ast.Name) and named is not None else leaf) for leaf in leaves]
    if not leaves or any(c is None or c[0] != k or _text(src, c[1]) != _text(src, lower)
                         or _text(src, c[2]) != _text(src, upper) for c in cuts):
        return None  # cuts of another axis or bound: another mask
    tf = src.tf
    first = named if isinstance(leaves[0], ast.Name) and named is not None else leaves[0]
    base = src.segment(first.value)  # type: ignore[attr-defined]
    positions = [f"{tf}.range({prefix_limit(src, base, k, b)[0]}) {op_} {prefix_limit(src, base, k, b)[1]}"
                 for b, op_ in ((lower, ">="), (upper, "<")) if b is not None]
    inside = positions[0] if len(positions) == 1 else f"{tf}.logical_and({positions[0]}, {positions[1]})"
    mask = f"{tf}.reshape({inside}, [-1] + [1] * (len({base}.shape) - {k + 1}))"
    masked = f"{tf}.where({mask}, {_whole(src, call.args[0], leaves, named)}, {_FILL[op]})"
    rest = "".join(f", {src.segment(a)}" for a in call.args[1:]) + "".join(
        f", {src.segment(kw)}" for kw in call.keywords)
    if op == "mean":
        total = f"{tf}.reduce_sum({masked}{rest})"
        if lower is None:
            length, limit = prefix_limit(src, base, k, upper)  # type: ignore[arg-type]
            count = f"{tf}.minimum({limit}, {length})"
        else:  # the positions the cut keeps, counted (an empty window gives 0 / 0 = NaN, as the original)
            count = f"{tf}.math.count_nonzero({inside})"
        text = f"{total} / {tf}.cast({count}, {base}.dtype)"
        if isinstance(src.parents.get(call), (ast.BinOp, ast.UnaryOp, ast.Attribute, ast.Subscript)):
            text = f"({text})"
    else:
        text = f"{src.segment(call.func)}({masked}{rest})"
    reasons = ["a negative bound counts back from the end in the slice, not in the mask",
               "the expression is computed at the masked positions too: where its derivative there is not finite, "
               "the gradient is NaN (0 times inf) where the original's is 0",
               "the sum runs in another order (the last bits of a float sum may differ)"]
    if len({src.segment((named if isinstance(leaf, ast.Name) else leaf).value)  # type: ignore[union-attr]
            for leaf in leaves}) > 1:
        reasons.append("the tensors sliced are taken to have one length along the sliced axis")
    if op in ("max", "min"):
        reasons.append("assumes a floating-point tensor (an integer one does not take the infinite fill)")
    if op == "mean":
        reasons.append("a mean of integers, truncated in the original, is a true division here")
    return text, reasons


def _text(src: Source, node: ast.expr | None) -> str | None:
    return None if node is None else src.segment(node)


def _name_of(src: Source, named: ast.Subscript | None) -> str | None:
    """The name the prefix ``named`` is assigned to, or None."""
    assign = src.parents.get(named) if named is not None else None
    if isinstance(assign, ast.Assign) and isinstance(assign.targets[0], ast.Name):
        return assign.targets[0].id
    return None
