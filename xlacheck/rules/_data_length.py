"""Which tensors certainly have a data-dependent first dimension (a *bounded dynamic* length under XLA):
the results of the ops the API table measured as data-dependent in shape, followed through gathers,
whole-dimension slices and names this function binds only to them. Shared by XLA211 and XLA119."""

from __future__ import annotations

import ast

from xlacheck import api_table
from xlacheck.analysis.scopes import own_nodes
from xlacheck.analysis.values import BOOL, DYNAMIC, TENSOR
from xlacheck.rules.base import RuleContext, call_name


def producer(e: ast.expr, ctx: RuleContext) -> bool:
    """``e`` makes a tensor whose first dimension depends on the data: a call the API table
    measured as data-dependent in shape (`tf.boolean_mask`, one-argument `tf.where`, `tf.unique`),
    a boolean-mask subscript `x[mask]`, `tf.gather` at such indices, or a slice of one that keeps
    its whole first dimension (`tf.where(m)[:, 0]`)."""
    if isinstance(e, ast.Subscript):
        first = e.slice.elts[0] if isinstance(e.slice, ast.Tuple) and e.slice.elts else e.slice
        if isinstance(first, ast.Slice) and first.lower is None and first.upper is None and first.step is None:
            return producer(e.value, ctx)  # `tf.where(m)[:, 0]` keeps all of the first dimension
        if isinstance(e.slice, ast.Constant) and type(e.slice.value) is int and isinstance(e.value, ast.Call):
            return output_has_data_length(e.value, e.slice.value, ctx)  # `tf.dynamic_partition(...)[0]`
        idx = ctx.flags(e.slice)
        return bool(idx & TENSOR and idx & BOOL) and not isinstance(e.slice, (ast.Slice, ast.Tuple))
    if not isinstance(e, ast.Call):
        return False
    name = call_name(e, ctx)
    if name == "tf.gather" and len(e.args) == 2 and not e.keywords:
        return producer(e.args[1], ctx) or (isinstance(e.args[1], ast.Name) and data_length(e.args[1], ctx))
    fact = api_table.fact_for(name) if name else None
    return fact is not None and fact.dynamic_shape and bool(ctx.flags(e) & DYNAMIC)


# Producers that return a tuple: the positions of the outputs whose length depends on the data
# (TF 2.21 in a tf.function: `tf.unique` gives y (None,), idx the input's static length;
# `tf.unique_with_counts` gives y and count (None,), idx the input's static length).
DATA_LENGTH_OUTPUTS = {
    "tf.unique": (0,), "tf.math.unique": (0,),
    "tf.unique_with_counts": (0, 2), "tf.math.unique_with_counts": (0, 2),
}


def output_has_data_length(call: ast.Call, index: int, ctx: RuleContext) -> bool:
    """Output ``index`` of a producer that returns several tensors has a data-dependent length:
    one of the tuple outputs listed in :data:`DATA_LENGTH_OUTPUTS`, or any element of a list the
    API table measured as data-dependent in shape (``structure: "list"``: `tf.dynamic_partition`,
    Keras 3's `keras.ops.nonzero`, one-argument `keras.ops.where`)."""
    name = call_name(call, ctx)
    if name is None:
        return False
    if name in DATA_LENGTH_OUTPUTS:
        return index in DATA_LENGTH_OUTPUTS[name]
    fact = api_table.fact_for(name)
    return fact is not None and fact.structure == "list" and producer(call, ctx)


def data_length(t: ast.expr, ctx: RuleContext) -> bool:
    """``t`` certainly has a data-dependent first dimension: it is made by a producer, or it is a
    name that this function's own scope binds only to producers (``vals`` of
    ``vals, idx = tf.unique(x)``; not ``idx``, which has the input's static length)."""
    if not ctx.flags(t) & DYNAMIC:
        return False
    if not isinstance(t, ast.Name):
        return producer(t, ctx)
    bound: list[ast.expr] = []
    for node in own_nodes(ctx.function.node):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)):
            targets = [node.target]
        for target in targets:
            if any(isinstance(n, ast.Name) and n.id == t.id for n in ast.walk(target)):
                value = getattr(node, "value", None)
                if not isinstance(node, ast.Assign) or value is None:
                    return False
                if isinstance(target, ast.Name):
                    bound.append(value)
                elif _tuple_output_data_length(target, value, t.id, ctx):
                    bound.append(value)
                else:
                    return False
    return bool(bound) and all(producer(v, ctx) for v in bound)


def _tuple_output_data_length(target: ast.expr, value: ast.expr, name: str, ctx: RuleContext) -> bool:
    """``name`` is bound by unpacking ``value`` into the flat tuple ``target`` at a position whose
    output has a data-dependent length (``y`` and ``count`` of ``tf.unique_with_counts``)."""
    if not (isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, ast.Call)):
        return False
    call = call_name(value, ctx)
    positions = DATA_LENGTH_OUTPUTS.get(call or "", ())
    return any(isinstance(e, ast.Name) and e.id == name and i in positions for i, e in enumerate(target.elts))
