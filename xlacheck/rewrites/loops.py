"""Loops: unroll growing loops with a static trip count, ``tf.while_loop`` for unconverted
``while`` loops, and a static size for TensorArrays filled by a counted loop.

Loops whose body grows a Python list or a tensor: unroll when the trip count is static.

Inside ``for i in tf.range(n)`` AutoGraph builds a ``tf.while_loop``: a Python list appended to
in the body is out of scope (InaccessibleTensorError) and a tensor that grows changes shape from
one iteration to the next, which XLA rejects. When ``n`` is known at trace time (int literals,
module constants, ``x.shape[k]``), iterating over Python's ``range`` unrolls the loop: every
iteration is traced in order, exactly as eager execution runs it, so lists and growing tensors
work. Eagerly the loop variable is a scalar int32 tensor; unrolled it is the Python int of the
same value. The fix is SAFE when the loop variable is unused or only indexes
(``x[:, t]``, ``outputs[t]``): a Python int and an int32 scalar tensor select the same entries
(tensors and lists both accept either), so every value and gradient is that of the eager loop.
Otherwise it is UNSAFE: arithmetic on a Python int no longer makes tensors (``t / 2`` is a
Python float, ``x * t`` converts ``t`` to ``x``'s dtype where the original raises). Trace time
and program size grow with the trip count, and an unknown dimension (``None``) fails loudly at
trace time; neither changes a value, so neither makes the fix unsafe, but the message says so.

A ``while`` on a tensor condition has no static trip count: explanation only.
"""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Fix
from xlacheck.rewrites._expr import call_name, calls_only_tensorflow, number_value
from xlacheck.rewrites._fix import explain, make_fix, replace, replace_lines
from xlacheck.rewrites._source import Source
from xlacheck.rewrites.builtins import condition

TENSOR_WHILE = ("A `while` loop on a tensor condition has a data-dependent trip count, so a Python list filled in "
                "it (or a tensor grown with tf.concat) has no static shape. Loop over a static maximum length "
                "with `for i in range(MAX_LEN)`, carry a `done` mask (tf.where(done, previous, new)), and write "
                "results into a tf.TensorArray(dtype, size=MAX_LEN) or a preallocated tensor.")


def _static(src: Source, node: ast.AST) -> str | None:
    """``node`` as Python code whose value is known at trace time, or None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return src.segment(node)
    if isinstance(node, ast.Name):
        bound = src.module_binding(node.id)
        return node.id if isinstance(bound, ast.Constant) and type(bound.value) is int else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
        left, right = _static(src, node.left), _static(src, node.right)
        if left is None or right is None:
            return None
        op = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//"}[type(node.op)]
        return f"{left} {op} {right}"
    if isinstance(node, ast.Subscript) and isinstance(number_value(node.slice), int):
        base = node.value
        if isinstance(base, ast.Call) and call_name(src, base) == "tf.shape" and len(base.args) == 1:
            return f"{src.segment(base.args[0])}.shape[{src.segment(node.slice)}]"
        if isinstance(base, ast.Attribute) and base.attr == "shape":
            return src.segment(node)
    return None


GROWING_OPS = frozenset({"tf.concat", "tf.stack", "tf.pad", "tf.experimental.numpy.append"})


def _grows(src: Source, node: ast.AST) -> bool:
    """``xs.append(...)`` or ``x = tf.concat([x, ...])``-like: the loop body grows something."""
    call = node.value if isinstance(node, (ast.Expr, ast.Assign)) else node
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in ("append", "extend"):
        return True
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        name = node.targets[0].id
        return isinstance(call, ast.Call) and call_name(src, call) in GROWING_OPS and any(
            isinstance(n, ast.Name) and n.id == name for a in call.args for n in ast.walk(a))
    return False


def _only_indexes(loop: ast.For) -> bool:
    """The loop variable is a plain name that the body reads only as a subscript index
    (``x[t]``, ``x[:, t]``) and never rebinds, or not at all."""
    if not isinstance(loop.target, ast.Name):
        return False
    name = loop.target.id
    index_uses: set[int] = set()
    for node in ast.walk(ast.Module(body=loop.body, type_ignores=[])):
        if isinstance(node, ast.Subscript):
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            index_uses.update(id(p) for p in parts if isinstance(p, ast.Name) and p.id == name)
    for node in ast.walk(ast.Module(body=loop.body + loop.orelse, type_ignores=[])):
        if isinstance(node, ast.Name) and node.id == name and (
                not isinstance(node.ctx, ast.Load) or id(node) not in index_uses):
            return False
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return False  # a closure could capture the variable: keep it simple
    return True


def rewrite_loop(src: Source, node: ast.AST) -> Fix | None:
    if src.tf is None:
        return None
    if isinstance(node, (ast.For, ast.While)):  # the finding is about the loop itself
        if not any(isinstance(s, ast.stmt) and _grows(src, s) for s in ast.walk(node)):
            return None
        loops: list[ast.AST] = [node]
    else:
        found = src.statement_of(node)
        if found is None or not _grows(src, found):
            return None
        loops = list(src.ancestors(found))
    for loop in loops:
        if isinstance(loop, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return None
        if isinstance(loop, ast.While):
            return explain(TENSOR_WHILE)
        if isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call) and call_name(src, loop.iter) == "tf.range":
            if loop.iter.keywords:
                return None
            bounds = [_static(src, a) for a in loop.iter.args]
            if any(b is None for b in bounds):
                return explain(TENSOR_WHILE.replace("A `while` loop on a tensor condition", "A tf.range loop "
                                                    "over a data-dependent count"))
            reasons = [] if _only_indexes(loop) else [
                "the loop variable becomes a Python int, and it is used other than as an index"]
            return make_fix("Unroll the loop over its static trip count with Python's range() (trace time and "
                            "program size grow with the trip count; fails at trace time if the dimension is "
                            "unknown)",
                            [replace(src, loop.iter, f"range({', '.join(b for b in bounds if b)})")], reasons)
    return None


def rewrite_while(src: Source, node: ast.AST) -> Fix | None:
    """``while c: x = f(x)`` (only assignments in the body) -> ``tf.while_loop``.

    Where AutoGraph does not convert the loop (``autograph=False``, ``do_not_convert``), a
    tensor condition fails while tracing. ``tf.while_loop(cond, body, loop_vars)`` runs the same
    assignments in the same order while the condition holds, over the names the body assigns;
    names it only reads are closed over. Values and gradients are those of the original; XLA
    rejects (loudly) loop variables whose shape or dtype changes between iterations, and, to
    differentiate through the loop under XLA, needs ``maximum_iterations`` (a loud compile
    error otherwise: add the bound you know). UNSAFE when the body calls a non-TensorFlow
    function: its Python side effects run once, while tracing."""
    if src.tf is None:
        return None
    loop = node if isinstance(node, ast.While) else src.parents.get(node)
    if not isinstance(loop, ast.While) or loop.orelse or (node is not loop and node is not loop.test):
        return None
    names: list[str] = []
    for stmt in loop.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name = stmt.targets[0].id
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            name = stmt.target.id
        else:
            return None
        if name not in names:
            names.append(name)
    if not names or not all(src.bound_before(n, loop) for n in names) or not src.alone_on_lines(loop, loop):
        return None
    reasons: list[str] = []
    cond = condition(src, loop.test, reasons)
    for stmt in loop.body:
        callee = calls_only_tensorflow(src, stmt)
        if callee is not None:
            reasons.append(f"Python side effects of `{callee}` run once, while tracing, not once per iteration")
            break
    indent = src.indent_of(loop)
    inner = src.indent_of(loop.body[0])
    body_fn = src.fresh_name("loop_body")
    params = ", ".join(names)
    packed = f"({params},)" if len(names) == 1 else f"({params})"
    header_end = loop.test.end_lineno or loop.lineno
    last = loop.body[-1].end_lineno or loop.body[-1].lineno
    lines = [*(f"{indent}{c}\n" for c in src.comments_in(loop.lineno, header_end)),
             f"{indent}def {body_fn}({params}):\n",
             *src.lines[header_end:last],  # the body as written, comments included
             f"{inner}return {packed}\n",
             f"{indent}{packed} = {src.tf}.while_loop(lambda {params}: {cond}, {body_fn}, {packed})\n"]
    return make_fix("Loop with tf.while_loop over the names the body assigns",
                    [replace_lines(loop.lineno, last, "".join(lines))], reasons)


def rewrite_tensorarray_size(src: Source, node: ast.AST) -> Fix | None:
    """``ta = tf.TensorArray(dtype, size=0, dynamic_size=True)`` filled by ``ta = ta.write(i, v)``
    directly in the body of ``for i in tf.range(n)`` (or ``range(n)``) -> ``size=n``.

    Under XLA a dynamically sized TensorArray stacked to an empty tensor (a silent wrong result).
    The loop writes indices 0..n-1 exactly once, so a TensorArray of static size n holds the same
    elements in the same places as the grown one: SAFE. ``n`` must be evaluable where the
    TensorArray is created (its names unchanged in between)."""
    if src.tf is None or not isinstance(node, ast.Call) or call_name(src, node) != "tf.TensorArray":
        return None
    dynamic = next((k.value for k in node.keywords if k.arg == "dynamic_size"), None)
    if not (isinstance(dynamic, ast.Constant) and dynamic.value is True) or len(node.args) != 1:
        return None
    assign = src.parents.get(node)
    if not (isinstance(assign, ast.Assign) and len(assign.targets) == 1 and isinstance(assign.targets[0], ast.Name)):
        return None
    ta = assign.targets[0].id
    scope = src.scope_of(assign)
    writes = [c for c in ast.walk(scope) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
              and c.func.attr == "write" and isinstance(c.func.value, ast.Name) and c.func.value.id == ta]
    if len(writes) != 1:
        return None
    stmt = src.statement_of(writes[0])
    loop = src.parents.get(stmt) if stmt is not None else None
    if not (isinstance(loop, ast.For) and stmt in loop.body and isinstance(loop.target, ast.Name)
            and isinstance(loop.iter, ast.Call) and len(loop.iter.args) == 1 and not loop.iter.keywords):
        return None
    if not (call_name(src, loop.iter) == "tf.range" or (isinstance(loop.iter.func, ast.Name)
                                                        and loop.iter.func.id == "range")):
        return None
    index = writes[0].args[0] if writes[0].args else None
    if not (isinstance(index, ast.Name) and index.id == loop.target.id):
        return None
    bound = loop.iter.args[0]
    reads = {n.id for n in ast.walk(bound) if isinstance(n, ast.Name)}
    if any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in reads
           and (assign.lineno, assign.col_offset) <= (n.lineno, n.col_offset) < (loop.lineno, loop.col_offset)
           for n in ast.walk(scope)):
        return None
    kept = [f"{k.arg}={src.segment(k.value)}" for k in node.keywords if k.arg not in ("size", "dynamic_size")]
    text = f"{src.segment(node.func)}({', '.join([src.segment(node.args[0]), f'size={src.segment(bound)}', *kept])})"
    return make_fix("Give the TensorArray the loop's static trip count as its size", [replace(src, node, text)])
