"""A Python list indexed by a tensor -> ``tf.switch_case`` (callables) or ``tf.gather`` (tensors).

A list needs a Python int index, so tracing fails on a symbolic one. For ``items[i](args)``
(a list of layers or functions) ``tf.switch_case(i, [lambda f=f: f(args) for f in items])``
runs the chosen callable; for ``items[i]`` over same-shaped tensors,
``tf.gather(tf.stack(items), i)`` picks the same tensor. Both agree with the original for
``0 <= i < len(items)``; they are UNSAFE because other indices differ: Python counts negative
indices from the end and raises past it, ``tf.switch_case`` runs its last branch and
``tf.gather`` raises eagerly but clamps under XLA; and ``tf.switch_case`` traces every branch, so
each callable's Python side effects (a layer's first build) happen while tracing.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import arg, atom, is_number
from xlacheck.rewrites._fix import make_fix, replace, rewriter
from xlacheck.rewrites._source import Source

OUT_OF_RANGE = ("an index outside [0, len) differs: Python counts negative indices from the end and raises past "
                "it, while {op}")


@rewriter(ast.Subscript, pointed=True)
def rewrite_list_index(src: Source, node: ast.AST) -> Fix | None:
    if src.tf is None or not isinstance(node, ast.Subscript) or isinstance(node.slice, (ast.Slice, ast.Tuple)):
        return None
    if is_number(node.slice) or not isinstance(node.value, (ast.Name, ast.Attribute, ast.List)):
        return None
    tf, items, index = src.tf, src.segment(node.value), arg(src, node.slice)
    call = src.parents.get(node)
    if isinstance(call, ast.Call) and call.func is node:
        args = ", ".join(src.segment(a) for a in call.args)
        kwargs = ", ".join(f"{k.arg}={src.segment(k.value)}" if k.arg else f"**{src.segment(k.value)}"
                           for k in call.keywords)
        call_args = ", ".join(p for p in (args, kwargs) if p)
        fn = src.fresh_name("fn")
        # Case takes an int32 branch index; argmax and friends give int64.
        text = f"{tf}.switch_case({tf}.cast({index}, {tf}.int32), [lambda {fn}={fn}: {fn}({call_args}) for {fn} in {atom(src, node.value)}])"
        reasons = [OUT_OF_RANGE.format(op="tf.switch_case runs its last branch"),
                   "tf.switch_case traces every branch, so each callable's Python side effects run while tracing"]
        return make_fix("Dispatch on the tensor index with tf.switch_case", [replace(src, call, text)], reasons)
    text = f"{tf}.gather({tf}.stack({items}), {index})"
    reasons = [OUT_OF_RANGE.format(op="tf.gather raises eagerly and clamps under XLA"),
               "the items must share one shape and dtype (tf.stack)"]
    return make_fix("Pick the tensor with tf.gather from the stacked list", [replace(src, node, text)], reasons)
