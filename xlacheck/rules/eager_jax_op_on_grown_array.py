"""XLA424: an array grown by an eager (un-jitted) ``jax.numpy`` call on every iteration of a host loop."""

from __future__ import annotations

import ast

from xlacheck import jax_cache
from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.diagnostics import Severity
from xlacheck.rules._recompile_scope import (
    JAX_GROWERS,
    JAX_LIST_JOINS,
    grows_from,
    in_test,
    list_grown_in_loop,
    runs_traced,
)
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_KEY = "eager.concatenate_grown_accumulator"
_LIST_KEY = "eager.stack_list_new_length"
_LOOP_STATEMENTS = (ast.For, ast.AsyncFor, ast.While)


class EagerJaxOpOnGrownArray(ModuleRule):
    """
    ## What it does
    Flags `acc = jnp.concatenate([acc, x])` (and `jnp.append`, `jnp.vstack`, `jnp.hstack`,
    `jnp.row_stack`, `jnp.pad`, `jnp.concat` of `acc`), and `jnp.stack(outs)` (`jnp.concatenate`,
    `vstack`, `hstack`, also of `outs + [out]`) of a Python list the loop appends to and never starts
    afresh, inside a `for`/`while` loop of host code:
    code that no `jax.jit` (nor any compiled function of this file) traces, outside tests. The
    loop must not rebind `acc` otherwise (`acc = jnp.zeros(...)` at the top of each iteration
    restarts it at one shape). Whether an eager call on a new shape compiles is read from the
    measured table `xlacheck/data/jax_cache_key.json` (`eager.concatenate_grown_accumulator`,
    `eager.stack_list_new_length`, `eager.mean_new_shape`).

    Not where the loop may run under a tracer this file does not show: in a method of a class with
    bases (a flax, haiku or Keras module runs inside `model.apply`), or in a function this file
    hands on as a value (`jax.jit(partial(sample_decode, ...))`). Behind `--preview`: a function that
    looks like host code may be jitted by another module, and on the real-code corpora (`--extra`)
    its first three findings were all in such code (google/automl's jitted decoder, a scenic flax
    module); with these exclusions it reports none there, which is no evidence of precision yet.

    ## Why is this bad?
    Outside `jax.jit`, every `jax.numpy` call is compiled by XLA for the shapes of its operands
    and cached by shape. An array one row longer on every iteration is a new shape every time:
    each iteration compiles a new XLA program (measured on jax 0.10.2: one backend compile per
    iteration) and copies the whole array, so the loop costs a compile per step and quadratic
    memory traffic.

    ## Example
    ```python
    preds = jnp.zeros((0, num_classes))
    for batch in batches:
        preds = jnp.concatenate([preds, predict(params, batch)])
    ```

    ## Use instead
    ```python
    preds = []
    for batch in batches:
        preds.append(predict(params, batch))
    preds = jnp.concatenate(preds)  # one call, one compile
    ```

    ## Fix safety
    No automatic fix: the loop may read the grown array between iterations.
    """

    code = "XLA424"
    fix = None
    name = "eager-jax-op-on-grown-array"
    severity = Severity.RECOMPILE
    preview = True

    VALID = (
        # the pieces are collected in a list and joined once
        Example("import jax.numpy as jnp\ndef collect(batches):\n    out = []\n    for b in batches:\n"
                "        out.append(b * 2)\n    return jnp.concatenate(out)\n"),
        # traced: inside jax.jit the loop unrolls into one program
        Example("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef tile(x):\n    acc = x\n    for _ in range(3):\n"
                "        acc = jnp.concatenate([acc, x])\n    return acc\n"),
        # restarted at one shape on every iteration of the loop that grows it
        Example("import jax.numpy as jnp\ndef pairs(xs, y):\n    out = []\n    for x in xs:\n        acc = x\n"
                "        acc = jnp.concatenate([acc, y])\n        out.append(acc)\n    return out\n"),
        # numpy on the host: no XLA compile
        Example("import numpy as np\ndef collect(batches):\n    acc = np.zeros((0, 3))\n    for b in batches:\n"
                "        acc = np.concatenate([acc, b])\n    return acc\n"),
        # joined once after the loop (eager.stack_list_same_length)
        Example("import jax.numpy as jnp\ndef evaluate(predict, batches):\n    outs = []\n"
                "    for batch in batches:\n        outs.append(predict(batch))\n"
                "    return jnp.stack(outs).mean()\n"),
    )
    INVALID = (
        Example("import jax.numpy as jnp\ndef predict_all(predict, params, batches):\n"
                "    preds = jnp.zeros((0, 10))\n    for batch in batches:\n"
                "        preds = jnp.concatenate([preds, predict(params, batch)])\n    return preds\n",
                expected=(
                    (5, 17, '`preds` grows by an eager `jnp.concatenate` on every iteration of this loop: outside '
                            'jax.jit each jax.numpy call compiles an XLA program per new operand shape, so every '
                            'iteration compiles again and copies the whole array; append the pieces to a Python '
                            'list and join them once after the loop'),
                )),
        Example("import jax\nimport jax.numpy as jnp\ndef generate(step, params, ids, n):\n    i = 0\n"
                "    while i < n:\n        nxt = step(params, ids)\n        ids = jnp.append(ids, nxt)\n"
                "        i += 1\n    return ids\n",
                expected=(
                    (7, 15, '`ids` grows by an eager `jnp.append` on every iteration of this loop: outside jax.jit '
                            'each jax.numpy call compiles an XLA program per new operand shape, so every iteration '
                            'compiles again and copies the whole array; append the pieces to a Python list and '
                            'join them once after the loop'),
                )),
        # an eager `jnp.stack` of a list the loop appends to (eager.stack_list_new_length)
        Example("import jax.numpy as jnp\ndef evaluate(predict, batches):\n    outs, running = [], []\n"
                "    for batch in batches:\n        outs.append(predict(batch))\n"
                "        running.append(jnp.stack(outs).mean())\n    return running\n",
                expected=(
                    (6, 24, "`jnp.stack` joins `outs`, a list this loop makes longer on every iteration (line 5): "
                            "outside jax.jit each jax.numpy call compiles an XLA program per new operand shape, so "
                            "every iteration compiles again; join the list once after the loop, or keep a running "
                            "value of a fixed shape"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        if jax_cache.recompiles(_LIST_KEY):
            self._joins_of_grown_lists(ctx)
        if not jax_cache.recompiles(_KEY):
            return
        for call, name in index.calls:
            if name not in JAX_GROWERS or not call.args:
                continue
            assign = index.parent(call)
            if not (isinstance(assign, ast.Assign) and assign.value is call and len(assign.targets) == 1
                    and isinstance(assign.targets[0], ast.Name)):
                continue
            acc = assign.targets[0].id
            if not grows_from(call.args[0], acc):
                continue
            loops = [loop for loop in index.loops_around(assign) if isinstance(loop, _LOOP_STATEMENTS)]
            if not loops or in_test(index, ctx.path, call) or runs_traced(ctx.facts, index, call) \
                    or _may_be_traced(index, call):
                continue
            if _restarted_in(index, loops[0], acc, assign):
                continue
            ctx.report(self, call, f"`{acc}` grows by an eager `{name}` on every iteration of this loop: outside "
                                   "jax.jit each jax.numpy call compiles an XLA program per new operand shape, so "
                                   "every iteration compiles again and copies the whole array; append the pieces "
                                   "to a Python list and join them once after the loop")


    def _joins_of_grown_lists(self, ctx: ModuleContext) -> None:
        """``jnp.stack(outs)`` (``jnp.stack(outs + [out])``) in a host loop that appends to ``outs``
        and never starts it afresh: a list one item longer on every pass, so a new shape to compile
        (``eager.stack_list_new_length``)."""
        index = ctx.index
        for call, name in index.calls:
            if name not in JAX_LIST_JOINS or not call.args:
                continue
            first = call.args[0]
            seq = first.left if isinstance(first, ast.BinOp) and isinstance(first.op, ast.Add) else first
            if not isinstance(seq, ast.Name):
                continue
            loops = [loop for loop in index.loops_around(call) if isinstance(loop, _LOOP_STATEMENTS)]
            if not loops or in_test(index, ctx.path, call) or runs_traced(ctx.facts, index, call) \
                    or _may_be_traced(index, call):
                continue
            grown = list_grown_in_loop(loops[0], seq.id)
            if grown is None:
                continue
            ctx.report(self, call, f"`{name}` joins `{seq.id}`, a list this loop makes longer on every iteration "
                                   f"(line {grown.lineno}): outside jax.jit each jax.numpy call compiles an XLA "
                                   "program per new operand shape, so every iteration compiles again; join the list "
                                   "once after the loop, or keep a running value of a fixed shape")


def _may_be_traced(index: ModuleIndex, call: ast.Call) -> bool:
    """The function around ``call`` (or one around it) may run under a tracer this file does not
    show: a method of a class with bases (a flax/haiku/Keras module runs inside ``model.apply``), or
    a function this file hands on as a value (``jax.jit(partial(sample_decode, ...))``: google/automl's
    decoder loop is unrolled under jit). Module-level loops and plain functions only called here count."""
    func = index.function_of(call)
    while func is not None:
        parent = index.parent(func)
        if isinstance(parent, ast.ClassDef) and any(ast.unparse(b) != "object" for b in parent.bases):
            return True
        name = getattr(func, "name", None)
        if name is None:
            return True  # a lambda: handed on by construction
        for sub in ast.walk(index.tree):
            if isinstance(sub, ast.Name) and sub.id == name and isinstance(sub.ctx, ast.Load):
                use = index.parent(sub)
                if not (isinstance(use, ast.Call) and use.func is sub):
                    return True
            elif isinstance(sub, ast.Attribute) and sub.attr == name and isinstance(sub.ctx, ast.Load):
                use = index.parent(sub)
                if not (isinstance(use, ast.Call) and use.func is sub):
                    return True  # `self.decode` handed on
        func = index.function_of(func)
    return False


def _restarted_in(index: ModuleIndex, loop: ast.AST, acc: str, grow: ast.Assign) -> bool:
    """The innermost loop around the growth binds ``acc`` otherwise too (``acc = x`` at the top of
    each iteration, a ``for acc in ...`` target): each iteration starts again at one shape."""
    for sub in ast.walk(loop):
        if sub is grow:
            continue
        if isinstance(sub, ast.Assign) and any(isinstance(t, ast.Name) and t.id == acc for t in sub.targets):
            value = sub.value
            if isinstance(value, ast.Call) and index.aliases.resolve(value.func) in JAX_GROWERS \
                    and value.args and grows_from(value.args[0], acc):
                continue  # another growth of the same array
            return True
        if isinstance(sub, (ast.For, ast.AsyncFor, ast.comprehension)) and sub is not loop and any(
                isinstance(n, ast.Name) and n.id == acc for n in ast.walk(sub.target)):
            return True
        if isinstance(sub, (ast.For, ast.AsyncFor)) and sub is loop and any(
                isinstance(n, ast.Name) and n.id == acc for n in ast.walk(sub.target)):
            return True
    return False
