"""XLA122: the branches of a ``tf.cond``/``tf.switch_case``/tensor ``if`` give values of different rank."""

from __future__ import annotations

import ast

from xlacheck import tf_branch_carry
from xlacheck.analysis import argument, walk
from xlacheck.analysis.scopes import last_assigned_values
from xlacheck.analysis.tf_rank import Rank, RankModel, function_scopes
from xlacheck.analysis.values import is_tensor
from xlacheck.rules.base import Example, Rule, RuleContext

# The table's probe for each construct (xlacheck/data/tf_branch_carry.json): the rule speaks only
# where TensorFlow was measured to fail under XLA and not in a plain tf.function.
_CALL_PROBES = {"tf.cond": "cond.rank_differs", "tf.compat.v1.cond": "cond.rank_differs",
                "tf.switch_case": "switch_case.rank_differs"}
_IF_PROBE = "autograph_if.rank_differs"


def _outcome(key: str) -> str:
    error = tf_branch_carry.xla_error(key) or ""
    if error.startswith("ProcessAbort"):
        return "XLA aborts the whole process (a failed check in the compiler, no Python exception)"
    return f"the XLA compile fails ({error.split(':', 1)[0]})" if error else "the XLA compile fails"


class BranchRankMismatch(Rule):
    """
    ## What it does
    Flags a `tf.cond` or `tf.switch_case` whose branch functions return values of provably
    different rank, and a variable that an AutoGraph-converted `if` on a tensor sets to a value of
    one rank in one branch and another rank in the other (or before the `if`), in code compiled
    with XLA (`jit_compile=True`, a TPU replica function). Ranks come from the source only
    (`xlacheck/analysis/tf_rank.py`): literal shapes, reductions with a literal `axis`, `reshape` to
    a literal shape, `boolean_mask`, literal indexing, TensorFlow's elementwise ops; an unknown
    rank is no mismatch. Branches that differ in one dimension are not flagged: they compile.

    ## Why is this bad?
    Graph TensorFlow merges the two branches' shapes into one less specific shape, so a plain
    `tf.function` runs. XLA needs one static rank for the conditional's result: with
    `jit_compile=True` the compile fails (`InvalidArgumentError: left_branch_shape.dimensions_size()
    == right_branch_shape.dimensions_size()`), and `tf.switch_case` makes XLA abort the whole
    process. Measured on TensorFlow 2.21, XLA:CPU (`xlacheck/data/tf_branch_carry.json`).

    ## Example
    ```python
    @tf.function(jit_compile=True)
    def loss_fn(per_token, reduce):
        return tf.cond(reduce, lambda: tf.reduce_mean(per_token, axis=-1), lambda: per_token)
    ```

    ## Use instead
    ```python
    @tf.function(jit_compile=True)
    def loss_fn(per_token, reduce):
        mean = tf.reduce_mean(per_token, axis=-1, keepdims=True)
        return tf.cond(reduce, lambda: tf.broadcast_to(mean, tf.shape(per_token)), lambda: per_token)
    ```

    ## Fix safety
    No automatic fix: which rank the caller expects is a design choice (keep the dimension with
    `keepdims=True`, broadcast the smaller value, or move the choice out of the compiled function).
    """

    code = "XLA122"
    name = "branch-rank-mismatch"
    node_types = (ast.Call, ast.If)
    fix = None

    VALID = (
        # one dimension differs: XLA compiles it (bounded dynamic shape)
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, p):\n"
                "    return tf.cond(p, lambda: x, lambda: x[:, :2])\n"),
        # the rank of a parameter is unknown: a scalar against it proves nothing
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, p):\n"
                "    return tf.cond(p, lambda: x, lambda: tf.constant(0.0))\n"),
        # keepdims keeps the rank
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, p):\n"
                "    return tf.cond(p, lambda: tf.reduce_sum(x, axis=1, keepdims=True), lambda: x)\n"),
        # a plain tf.function merges the shapes and runs
        Example("import tensorflow as tf\n@tf.function\ndef f(x, p):\n"
                "    return tf.cond(p, lambda: x, lambda: tf.reduce_sum(x, axis=1))\n"),
        # the variable is not used after the `if`: AutoGraph makes no output of it
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    y = x\n    if tf.reduce_sum(x) > 0:\n        y = tf.reduce_mean(x, axis=0)\n        x = x + 1.0\n"
                "    return x\n"),
        # a Python `if` (not on a tensor) runs at trace time
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, flat=False):\n"
                "    y = x\n    if flat:\n        y = tf.reshape(x, [-1])\n    return y\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, p):\n"
                "    return tf.cond(p, lambda: x, lambda: tf.reduce_sum(x, axis=1))\n",
                expected=(
                    (4, 12, "the branches of this tf.cond return the rank of `x` and the rank of `x` minus 1: graph "
                            "TensorFlow merges them into one unknown shape, but XLA needs one rank for both, so the "
                            "XLA compile fails (InvalidArgumentError); give both branches the same rank "
                            "(keepdims=True, or broadcast the smaller value)"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, k):\n"
                "    return tf.switch_case(k, [lambda: x * 2.0, lambda: tf.reduce_sum(x, axis=0), lambda: x])\n",
                expected=(
                    (4, 12, "the branches of this tf.switch_case return the rank of `x` and the rank of `x` minus 1: "
                            "graph TensorFlow merges them into one unknown shape, but XLA needs one rank for both, so "
                            "XLA aborts the whole process (a failed check in the compiler, no Python exception); "
                            "give both branches the same rank (keepdims=True, or broadcast the smaller value)"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    y = x\n    if tf.reduce_sum(x) > 0:\n        y = tf.reduce_mean(x, axis=0)\n    return y\n",
                expected=(
                    (5, 5, "'y' has the rank of `x` before this `if` on a tensor and the rank of `x` minus 1 in "
                           "its branch: AutoGraph makes the `if` a tf.cond, graph TensorFlow merges the two into "
                           "one unknown shape, but XLA needs one rank for both, so the XLA compile fails "
                           "(InvalidArgumentError); give both the same rank (keepdims=True, or broadcast the "
                           "smaller value)"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n"
                "    if tf.reduce_max(x) > 1.0:\n        scale = tf.zeros([4, 3])\n    else:\n"
                "        scale = tf.constant(1.0)\n    return x * scale\n",
                expected=(
                    (4, 5, "'scale' has rank 2 in one branch and rank 0 in the other of this `if` on a tensor: "
                           "AutoGraph makes the `if` a tf.cond, graph TensorFlow merges the two into one unknown "
                           "shape, but XLA needs one rank for both, so the XLA compile fails "
                           "(InvalidArgumentError); give both the same rank (keepdims=True, or broadcast the "
                           "smaller value)"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if isinstance(node, ast.If):
            self._check_if(node, ctx)
            return
        assert isinstance(node, ast.Call)
        construct = ctx.resolve(node.func)
        key = _CALL_PROBES.get(construct or "")
        if key is None or not tf_branch_carry.xla_only(key):
            return
        if construct == "tf.switch_case":
            fns = argument(node, 1, "branch_fns")
            branches: list[ast.expr | None] = list(fns.elts) if isinstance(fns, (ast.List, ast.Tuple)) else []
        else:
            branches = [argument(node, 1, "true_fn"), argument(node, 2, "false_fn")]
        results = [self._returned(b, ctx) for b in branches]
        for i, (a, model_a) in enumerate(results):
            for b, model_b in results[i + 1:]:
                pair = _differing(a, model_a, b, model_b)
                if pair:
                    shown = "tf.switch_case" if construct == "tf.switch_case" else "tf.cond"
                    ctx.report(self, node,
                               f"the branches of this {shown} return {pair[0].describe()} and {pair[1].describe()}: "
                               "graph TensorFlow merges them into one unknown shape, but XLA needs one rank for "
                               f"both, so {_outcome(key)}; give both branches the same rank (keepdims=True, or "
                               "broadcast the smaller value)")
                    return

    @staticmethod
    def _returned(fn: ast.expr | None, ctx: RuleContext) -> tuple[ast.expr | None, RankModel | None]:
        """The value a branch function returns and the rank model it is read in: a lambda's body, or
        the one ``return`` of a function defined in the enclosing function."""
        scopes = function_scopes(ctx.function)
        if isinstance(fn, ast.Lambda) and not fn.args.args:
            return fn.body, RankModel(ctx.resolve, [fn, *scopes])
        if isinstance(fn, ast.Name):
            defs = [n for n in ast.iter_child_nodes(ctx.function.node) if isinstance(n, ast.FunctionDef)
                    and n.name == fn.id] if not isinstance(ctx.function.node, ast.Lambda) else []
            if len(defs) == 1 and not defs[0].args.args:
                returns = [r for r in walk(defs[0]) if isinstance(r, ast.Return)]
                if len(returns) == 1 and returns[0] is defs[0].body[-1]:
                    return returns[0].value, RankModel(ctx.resolve, [defs[0], *scopes])
        return None, None

    def _check_if(self, node: ast.If, ctx: RuleContext) -> None:
        if not ctx.converted or not is_tensor(ctx.flags(node.test)) or not tf_branch_carry.xla_only(_IF_PROBE):
            return
        used = {n.id for s in ctx.following_statements() for n in walk(s)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        model = RankModel(ctx.resolve, function_scopes(ctx.function))
        body, orelse = last_assigned_values(node.body), last_assigned_values(node.orelse)
        before = last_assigned_values(ctx.blocks[-1][0][:ctx.blocks[-1][1]]) if ctx.blocks else {}
        for name in sorted(body.keys() & used):
            prior = model.rank(before[name]) if name in before else None
            env = {name: prior}
            first = model.rank(body[name], env)
            if name in orelse:
                other = model.rank(orelse[name], env)
            elif name in before:
                other = prior
            else:
                continue
            if first is None or other is None or not first.differs(other):
                continue
            if name not in orelse:
                text = (f"'{name}' has {other.describe()} before this `if` on a tensor and {first.describe()} in "
                        "its branch")
            else:
                text = (f"'{name}' has {first.describe()} in one branch and {other.describe()} in the other of this "
                        "`if` on a tensor")
            ctx.report(self, node,
                       f"{text}: AutoGraph makes the `if` a tf.cond, graph TensorFlow merges the two into one "
                       f"unknown shape, but XLA needs one rank for both, so {_outcome(_IF_PROBE)}; give both the same "
                       "rank (keepdims=True, or broadcast the smaller value)")
            return


def _differing(a: ast.expr | None, model_a: RankModel | None, b: ast.expr | None,
               model_b: RankModel | None) -> tuple[Rank, Rank] | None:
    """The first pair of provably different ranks between two branch results (element by element for
    tuples of one length)."""
    if a is None or b is None or model_a is None or model_b is None:
        return None
    if isinstance(a, ast.Tuple) and isinstance(b, ast.Tuple):
        if len(a.elts) != len(b.elts):
            return None  # a structure mismatch: XLA113's and graph TF's error, not this rule's
        for x, y in zip(a.elts, b.elts):
            found = _differing(x, model_a, y, model_b)
            if found:
                return found
        return None
    ra, rb = model_a.rank(a), model_b.rank(b)
    if ra is not None and rb is not None and ra.differs(rb):
        return ra, rb
    return None
