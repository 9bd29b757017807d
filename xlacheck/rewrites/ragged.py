"""A ragged tensor built from row lengths or row splits and made dense at once, without ragged ops.

``tf.RaggedTensor.from_row_lengths(values, lengths).to_tensor(default_value=d)`` (also
``from_row_splits(values, splits)``, ``to_tensor()`` with the zero of the values' dtype, chained
or through a name assigned once and read only by ``.to_tensor``) is the tensor of shape
``[nrows, max(lengths)] + values.shape[1:]`` whose row i holds the values of row i followed by
``d``. It is rebuilt with ops XLA compiles: a column index ``cols = tf.range(width)``, the
position ``start_i + col`` of each valid cell in ``values`` (starts: exclusive cumsum of the
lengths, or the splits without their last entry), the index ``nvals`` (one past the values)
for each padding cell, and one gather from the values with a padding row appended.

Exact (SAFE) wherever the original returns, checked by running eagerly and under XLA:

* values and dtype: the default is converted with ``tf.convert_to_tensor(d, values.dtype)``,
  as ``to_tensor`` does (0.0 for int values raises in both), and broadcast to a row of
  ``values.shape[1:]``; lengths/splits are converted with the int64 hint, as the ragged
  constructors do for lists (int32 and int64 tensors are kept);
* shapes: ``nrows`` = 0 gives ``[0, 0]``; all-zero lengths give ``[nrows, 0, ...]`` (the
  width is ``max(max(lengths), 0)``: ``reduce_max`` of no lengths is the dtype's minimum);
  values of any rank keep their trailing dims; the padding index is always in range (the
  appended row), so eager gather never fails where the original returns;
* gradients w.r.t. the values and a float tensor default: a gather and a concat are linear,
  each valid cell's gradient goes to its value and each padding cell's to the default, as the
  ragged op's gradient does (NaN and inf values included);
* the original raises where the partition is invalid (negative lengths, lengths not adding up
  to the number of values, splits not starting at 0, decreasing or not ending at ``nvals``,
  lengths not int32/int64, a non-vector partition, a non-scalar default); there the fix is
  unconstrained, and it keeps those checks as ``tf.debugging`` assertions, which raise eagerly
  and in a plain ``tf.function`` and which XLA drops (a bad partition then gathers whatever
  the clamped indices give).

The values and the partition are evaluated where the original evaluated them: in the chained
form the new statements go before the statement, so there they must be plain names (else the
fix is UNSAFE: moved ahead of the rest of the statement); in the assigned form the assignment
itself is replaced. The width still depends on the data, so XLA compiles this once per value
of ``max(lengths)`` (value-specialized, as the harness runs it): the message says so.
SparseTensor or RaggedTensor values (a nested ragged tensor) make the fix raise.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Edit, Fix
from xlacheck.rewrites._expr import call_name, kw
from xlacheck.rewrites._fix import make_fix, replace, replace_lines
from xlacheck.rewrites._source import Source

# Statements evaluated once, whose own evaluation order the prelude cannot disturb (not a `while` test).
SIMPLE = (ast.Return, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr)
PARTITIONS = {"tf.RaggedTensor.from_row_lengths": "row_lengths", "tf.RaggedTensor.from_row_splits": "row_splits"}


def _arguments(node: ast.Call, partition: str) -> tuple[ast.expr, ast.expr] | None:
    """(values, partition) of a constructor call that validates (the default)."""
    named = {k.arg: k.value for k in node.keywords}
    if None in named or set(named) - {"values", partition, "name"} or len(node.args) > 2:
        return None
    positional = dict(zip(("values", partition), node.args))
    if set(positional) & set(named):
        return None
    found = {**positional, **named}
    if "values" not in found or partition not in found:
        return None
    return found["values"], found[partition]


def _to_tensor_call(src: Source, receiver: ast.expr) -> ast.Call | None:
    """The ``receiver.to_tensor(...)`` call reading ``receiver``, with at most a default value."""
    attr = src.parents.get(receiver)
    call = src.parents.get(attr) if attr is not None else None
    if not (isinstance(attr, ast.Attribute) and attr.value is receiver and attr.attr == "to_tensor"
            and isinstance(call, ast.Call) and call.func is attr):
        return None
    named = {k.arg for k in call.keywords}
    if None in named or named - {"default_value", "name"} or len(call.args) > 1 or (
            call.args and "default_value" in named):
        return None
    return call


def _default(call: ast.Call) -> ast.expr | None:
    value = call.args[0] if call.args else kw(call, "default_value")
    return None if isinstance(value, ast.Constant) and value.value is None else value


def _inside_deferred(src: Source, node: ast.AST, stmt: ast.stmt) -> bool:
    """``node`` sits in a lambda or comprehension of ``stmt`` (evaluated later, or many times)."""
    for parent in src.ancestors(node):
        if parent is stmt:
            return False
        if isinstance(parent, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return True
    return True


def _single_use(src: Source, assign: ast.Assign, name: str) -> ast.Name | None:
    """The only read of ``name`` in its function, when ``assign`` is its only binding there."""
    scope = src.scope_of(assign)
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    if any(a.arg == name for a in ast.walk(scope.args) if isinstance(a, ast.arg)):
        return None
    if any(isinstance(s, (ast.Global, ast.Nonlocal)) and name in s.names for s in ast.walk(scope)):
        return None
    stores = src.stores_in(scope).get(name, [])
    loads = src.loads_of(name, scope)
    if len(stores) != 1 or len(loads) != 1 or src.parents.get(stores[0]) is not assign:
        return None
    if any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Del) for n in ast.walk(scope)):
        return None
    (load,) = loads
    if src.scope_of(load) is not scope or (load.lineno, load.col_offset) < (assign.end_lineno, assign.end_col_offset):
        return None
    return load


def _prelude(src: Source, values: str, part: str, splits: bool) -> tuple[list[str], str, str]:
    """Statements that validate the partition and compute the gather index; (lines, values
    name, index name)."""
    tf = src.tf
    vals, cols, take = src.fresh_name("values"), src.fresh_name("cols"), src.fresh_name("take")
    nvals = f"{tf}.shape({vals}, out_type={{p}}.dtype)[0]"
    lines = [f"{vals} = {tf}.convert_to_tensor({values})"]
    if splits:
        spl, lens = src.fresh_name("row_splits"), src.fresh_name("row_lengths")
        n = nvals.format(p=spl)
        lines += [f"{spl} = {tf}.convert_to_tensor({part}, dtype_hint={tf}.int64)",
                  f"{lens} = {spl}[1:] - {spl}[:-1]",
                  f"{tf}.debugging.assert_equal({spl}[0], {tf}.zeros([], {spl}.dtype), "
                  f'message="row splits must start at 0")',
                  f'{tf}.debugging.assert_non_negative({lens}, message="row splits must not decrease")',
                  f'{tf}.debugging.assert_equal({spl}[-1], {n}, message="row splits must end at the number of values")']
        starts = f"{spl}[:-1, None]"
    else:
        lens = src.fresh_name("row_lengths")
        n = nvals.format(p=lens)
        lines += [f"{lens} = {tf}.convert_to_tensor({part}, dtype_hint={tf}.int64)",
                  f'{tf}.debugging.assert_non_negative({lens}, message="row lengths must be non-negative")',
                  f"{tf}.debugging.assert_equal({tf}.reduce_sum({lens}), {n}, "
                  f'message="row lengths must add up to the number of values")']
        starts = f"{tf}.cumsum({lens}, exclusive=True)[:, None]"
    lines += [f"{cols} = {tf}.range({tf}.maximum({tf}.reduce_max({lens}), 0))",
              f"# each cell's position in {vals}; padding cells read the default row appended after them",
              f"{take} = {tf}.where({cols} < {lens}[:, None], {starts} + {cols}, {n})"]
    return lines, vals, take


def _dense(src: Source, vals: str, take: str, default: ast.expr | None) -> str:
    tf = src.tf
    fill = f"{tf}.zeros([], {vals}.dtype)" if default is None else \
        f"{tf}.convert_to_tensor({src.segment(default)}, {vals}.dtype)"
    row = f"{tf}.broadcast_to({fill}, {tf}.concat([[1], {tf}.shape({vals})[1:]], 0))"
    return f"{tf}.gather({tf}.concat([{vals}, {row}], 0), {take})"


def rewrite_ragged_to_tensor(src: Source, node: ast.AST) -> Fix | None:
    if not isinstance(node, ast.Call) or src.tf is None:
        return None
    name = call_name(src, node)
    if name not in PARTITIONS:
        return None
    args = _arguments(node, PARTITIONS[name])
    if args is None:
        return None
    values, part = args
    stmt = src.statement_of(node)
    if not isinstance(stmt, SIMPLE) or src.body_containing(stmt) is None:
        return None
    reasons: list[str] = []
    call = _to_tensor_call(src, node)
    if call is not None:  # chained: the new statements go before the statement
        anchor, use = stmt, call
        rebound = {n for s in src.nodes if isinstance(s, (ast.Global, ast.Nonlocal)) for n in s.names}
        if not all(isinstance(a, ast.Name) and a.id not in rebound for a in (values, part)) or any(
                isinstance(n, ast.NamedExpr) for n in ast.walk(stmt)):
            reasons.append("the values and the partition are now computed before the rest of the statement")
    else:  # `r = tf.RaggedTensor.from_...(...)` read once, by `r.to_tensor(...)`
        if not (isinstance(stmt, ast.Assign) and stmt.value is node and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)):
            return None
        load = _single_use(src, stmt, stmt.targets[0].id)
        use = _to_tensor_call(src, load) if load is not None else None
        if use is None:
            return None
        anchor = stmt
    if _inside_deferred(src, use, src.statement_of(use)) or not src.alone_on_lines(anchor, anchor):
        return None
    lines, vals, take = _prelude(src, src.segment(values), src.segment(part), name.endswith("splits"))
    indent = src.indent_of(anchor)
    prelude = "".join(f"{indent}{line}\n" for line in lines)
    dense = _dense(src, vals, take, _default(use))
    if anchor is stmt and call is not None:
        edits = [Edit(src.line_start(stmt.lineno), src.line_start(stmt.lineno), prelude), replace(src, use, dense)]
    else:  # replace the assignment (keeping its comments) and the read
        comments = "".join(f"{indent}{c}\n" for c in src.comments_in(anchor.lineno, anchor.end_lineno or anchor.lineno))
        edits = [replace_lines(anchor.lineno, anchor.end_lineno or anchor.lineno, comments + prelude),
                 replace(src, use, dense)]
    return make_fix("Pad the rows with a gather instead of a ragged tensor (no ragged ops; the partition checks "
                    "stay as tf.debugging assertions, which XLA drops; the width is still max(lengths), so XLA "
                    "compiles once per value of it: pad to a static width to compile once)",
                    edits, reasons)
