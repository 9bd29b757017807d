"""XLA111: Python side effects inside a staged branch or loop."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import Level
from xlacheck.analysis.scopes import own_nodes
from xlacheck.analysis.values import PYLIST, PYLIST_EMPTY
from xlacheck.rules.base import Example, Rule, RuleContext, call_name

_LIST_MUTATORS = frozenset({"append", "extend", "insert"})


def _declared_outer(fn: ast.AST) -> set[str]:
    """Names a function declares ``nonlocal`` or ``global`` (its direct body, not nested defs)."""
    return {name for n in own_nodes(fn) if isinstance(n, (ast.Nonlocal, ast.Global)) for name in n.names}


class PythonSideEffectInTensorBranch(Rule):
    """
    ## What it does
    Flags, in AutoGraph-converted code, (a) appending to a Python list inside a loop over
    `tf.range`/a tensor `while`, or inside an `if` on a tensor, and (b) assigning a `nonlocal` or
    `global` variable inside an `if` on a tensor. In a module-level tensor helper that nothing in
    the file compiles, only (a) in a `for ... in tf.range(...)` loop: that loop form is written for
    AutoGraph, and it fails in every graph that traces the helper.

    ## Why is this bad?
    The staged loop/branch body is traced once as a graph function. A list filled there holds
    tensors of an inner graph: `InaccessibleTensorError: ... is out of scope and cannot be used
    here`. A `nonlocal` update is not a loop variable of the `tf.cond`: the code compiles and
    silently returns a wrong value.

    ## Example
    ```python
    outputs = []
    for t in tf.range(tf.shape(inputs)[1]):
        out, state = cell(inputs[:, t], state)
        outputs.append(out)
    ```

    ## Use instead
    ```python
    outputs = tf.TensorArray(tf.float32, size=tf.shape(inputs)[1])
    for t in tf.range(tf.shape(inputs)[1]):
        out, state = cell(inputs[:, t], state)
        outputs = outputs.write(t, out)
    outputs = tf.transpose(outputs.stack(), [1, 0, 2])
    ```

    ## Fix safety
    A list filled in a loop gets a rewrite when the loop's trip count is certain:

    - `for t in tf.range(N)` with `N` known at trace time (literals, module constants,
      `tf.shape(x)[k]`, read as `x.shape[k]`) is unrolled over `range(N)`. Safe when `t` is unused
      or only indexes; unsafe when `t` is used otherwise (it becomes a Python int).
    - A counted `while`: `L = []` and `i = tf.constant(i0)` before it, `while i < N:` with one
      `L.append(v)` and one `i += 1` in its body, then `tf.stack(L, axis=k)`. It becomes
      `L = tf.TensorArray(D, size=max(N, i0) - i0)`, `L = L.write(<iteration index>, v)` and
      `L.stack()` (moved to axis k). Safe when `v`'s dtype `D` is certain from its own binding
      (`tf.argmax(..., output_type=...)`, `tf.cast`, `tf.one_hot`, a comparison, ...), the body
      calls only TensorFlow functions and built-in Keras layers, and either `k != 0` (with no
      elements the original's `tf.stack(L, axis=k)` raises) or `N` is a literal above `i0` (with
      no elements, `tf.stack([])` is an empty float32 vector). Unsafe otherwise, and the message
      says why. With a tensor `N`, XLA compiles the function once per value of `N`, because the
      result's shape is that value.
    - `for i in tf.range(n)` with `n` not known at trace time: `L = []` before it, one
      `L.append(v)` in its body, then `tf.stack(L, axis=k)`, `tf.concat(L, axis=0)` or
      `tf.add_n(L)`. It becomes `L = tf.TensorArray(D, size=tf.maximum(n, 0))`,
      `L = L.write(i, v)` and `L.stack()` (moved to axis k), `L.concat()` or
      `tf.reduce_sum(L.stack(), axis=0)` (a reordered float sum). With `n` an int32 shape
      (`tf.shape(x)[k]`, `tf.size(x)`, or a name bound to one) XLA compiles it once per input
      shape; any other `n` (read from names) gives `size=tf.size(tf.range(n))` and writes at
      `tf.cast(i, tf.int32)`, compiled once per value of `n`. `D` is certain
      from `v`'s bindings or is `x.dtype` for a tensor `x` that `v` is made of by indexing,
      reshapes and elementwise ops. Safe for `tf.stack` with `k != 0` and a body that calls only
      TensorFlow functions and built-in Keras layers; unsafe for `tf.concat` (it joins elements
      whose first dimensions differ, the TensorArray raises on them) and for `tf.stack` on axis
      0 (zero iterations: the original's `tf.stack([])` is an empty float32 vector).
    - `for t in x` over a tensor (staged by AutoGraph as a `tf.while_loop`) becomes
      `for t in tf.unstack(x)`, for every such loop from the `append` out to the loop that
      creates the list: the loop unrolls while tracing over exactly the rows it iterated, in
      order. Safe when `x` is a TensorFlow op's result; unsafe when it is only a parameter (a
      Python list of tensors passed there would be packed by `tf.unstack` first, which raises for
      items of different shapes). Trace time grows with the number of rows; an unknown first
      dimension fails at trace time.
    - Any other `while` that fills a list gets an explanation only. Loop over a static maximum
      with a `done` mask instead.

    A `nonlocal` or `global` assignment under a tensor `if` gets the fix of that `if`, which is
    `tf.where` or `tf.cond`, with their safety conditions.

    A Python `range` over a tensor's dimension (`tf.shape(x)[k]`, or a name bound once to it) in
    TensorFlow code loops over `x.shape[k]` instead, the size known when traced, so Python unrolls
    the loop (`rewrites/static_dims.py`). Unsafe: the loop is unrolled (one copy of its body per
    step), and a dimension unknown when traced (None in an input_signature) makes `range` raise.
    """

    code = "XLA111"
    fix = ("rewrite_if", "rewrite_loop", "rewrite_static_dim_range")
    name = "python-side-effect-in-tensor-branch"
    node_types = (ast.Call, ast.Assign, ast.AugAssign)

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n    outs = []\n"
                "    for i in range(3):\n        outs.append(x * i)\n    return tf.stack(outs)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n    ta = tf.TensorArray(tf.float32, size=3)\n"
                "    for i in tf.range(3):\n        ta = ta.write(i, x * tf.cast(i, tf.float32))\n    return ta.stack()\n"),
        # a helper nothing here compiles: only the tf.range loop form (AutoGraph's) is taken as staged
        Example("import tensorflow as tf\ndef collect(xs, n):\n    outs = []\n    for i in range(n):\n"
                "        outs.append(tf.reduce_sum(xs[i]))\n    return tf.stack(outs)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n    outs = []\n"
                "    for i in tf.range(3):\n        outs.append(x * tf.cast(i, tf.float32))\n    return tf.stack(outs)\n",
                expected=(
                    (6, 9, '`outs.append()` on a Python list inside a staged loop/branch: the body is traced as an '
                           'inner graph and its tensors cannot leave it (InaccessibleTensorError); use '
                           'tf.TensorArray'),
                )),
        Example("import tensorflow as tf\ndef total_pos(x):\n    total = tf.constant(0.0)\n"
                "    def acc(row):\n        nonlocal total\n        s = tf.reduce_sum(row)\n"
                "        if s > 0:\n            total = total + s\n"
                "    for row in tf.unstack(x):\n        acc(row)\n    return total\n"
                "@tf.function(jit_compile=True)\ndef f(x):\n    return total_pos(x)\n",
                expected=(
                    (8, 13, "'total' is nonlocal/global and assigned under an `if` on a tensor: it is not carried "
                            'through the tf.cond, so the result is silently wrong; return the value instead'),
                )),
        Example("import tensorflow as tf\ndef sum_of_steps(n, scale):\n    parts = []\n    for i in tf.range(n):\n"
                "        parts.append(tf.cast(i, tf.float32) * scale)\n    return tf.add_n(parts)\n",
                expected=(
                    (5, 9, '`parts.append()` on a Python list inside a staged loop/branch: the body is traced as an '
                           'inner graph and its tensors cannot leave it (InaccessibleTensorError); use '
                           'tf.TensorArray'),
                )),
    )

    # In a module-level tensor helper (HELPER: nothing in the file compiles it) only the list
    # append in a `for ... in tf.range(...)` loop: that loop form is AutoGraph's (eager code loops
    # over range()), and it fails in every graph that traces the helper.
    levels = frozenset({Level.CERTAIN, Level.LIKELY, Level.GRAPH, Level.HELPER})

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if not ctx.converted:
            return
        helper = ctx.function.level is Level.HELPER
        if helper and not (isinstance(node, ast.Call) and ctx.staged_loops and not ctx.tensor_branches
                           and _tf_range_loop(ctx.staged_loops[-1], ctx)):
            return
        if isinstance(node, ast.Call):
            f = node.func
            if not (ctx.staged_loops or ctx.tensor_branches):
                return
            if isinstance(f, ast.Attribute) and f.attr in _LIST_MUTATORS and isinstance(f.value, ast.Name):
                k = ctx.flags(f.value)
                if k & (PYLIST | PYLIST_EMPTY):
                    if not self._list_made_inside(f.value.id, ctx):
                        ctx.report(self, node,
                                   f"`{f.value.id}.{f.attr}()` on a Python list inside a staged loop/branch: the "
                                   "body is traced as an inner graph and its tensors cannot leave it "
                                   "(InaccessibleTensorError); use tf.TensorArray")
            return
        if not ctx.tensor_branches:
            return
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[attr-defined]
        declared = _declared_outer(ctx.function.node)
        for target in targets:
            if isinstance(target, ast.Name) and target.id in declared:
                ctx.report(self, node,
                           f"'{target.id}' is nonlocal/global and assigned under an `if` on a tensor: it is not "
                           "carried through the tf.cond, so the result is silently wrong; return the value instead")
                return

    @staticmethod
    def _list_made_inside(name: str, ctx: RuleContext) -> bool:
        """A list created inside the innermost staged loop is local to each iteration: fine."""
        scope = ctx.staged_loops[-1] if ctx.staged_loops else ctx.tensor_branches[-1]
        for stmt in scope.body:
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
                return True
        return False


def _tf_range_loop(loop: ast.For | ast.While, ctx: RuleContext) -> bool:
    """``for ... in tf.range(...)``."""
    return isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call) and call_name(loop.iter, ctx) == "tf.range"
