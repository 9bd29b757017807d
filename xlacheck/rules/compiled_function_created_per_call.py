"""XLA403: ``tf.function(f)`` created and called inside a function that runs repeatedly."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example, ModuleContext, Rule


def _own_nodes(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Nodes of a function body, not descending into nested functions, lambdas or classes."""
    scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
    stack: list[ast.AST] = [s for s in body if not isinstance(s, scopes)]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(c for c in ast.iter_child_nodes(n) if not isinstance(c, scopes))


class CompiledFunctionCreatedPerCall(Rule):
    """
    ## What it does
    Flags `tf.function(...)`/`jax.jit(...)` wrappers created inside a function body and called
    there (directly, or through a local name), instead of once at module level or in `__init__`.

    ## Why is this bad?
    Every new `tf.function` object has an empty trace cache: each call of the enclosing function
    traces and XLA-compiles the wrapped function again, costing seconds per call.

    ## Example
    ```python
    def compiled_loss(y_true, y_pred):
        fast = tf.function(_loss, jit_compile=True)
        return fast(y_true, y_pred)
    ```

    ## Use instead
    ```python
    fast_loss = tf.function(_loss, jit_compile=True)  # once, at module level

    def compiled_loss(y_true, y_pred):
        return fast_loss(y_true, y_pred)
    ```

    ## Fix safety
    No automatic fix.
    """

    code = "XLA403"
    name = "compiled-function-created-per-call"
    severity = Severity.RECOMPILE
    module_level = True

    VALID = (
        Example("import tensorflow as tf\ndef _loss(a, b):\n    return tf.reduce_mean(a - b)\n"
                "fast = tf.function(_loss, jit_compile=True)\ndef loss(a, b):\n    return fast(a, b)\n"),
        Example("import tensorflow as tf\nclass T:\n    def __init__(self, f):\n"
                "        self.step = tf.function(f, jit_compile=True)\n"),
        Example("import tensorflow as tf\ndef make(f):\n    return tf.function(f, jit_compile=True)\n"),
        Example("import tensorflow as tf\ndef make(f):\n    fast = tf.function(f, jit_compile=True)\n"
                "    def run(x):\n        return fast(x)\n    return run\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\ndef _loss(a, b):\n    return tf.reduce_mean(a - b)\n"
                "def loss(a, b):\n    fast = tf.function(_loss, jit_compile=True)\n    return fast(a, b)\n"),
        Example("import tensorflow as tf\ndef _loss(a, b):\n    return tf.reduce_mean(a - b)\n"
                "def loss(a, b):\n    return tf.function(_loss)(a, b)\n"),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        for call, func in ctx.facts.sites.get("wrap", ()):
            if func is None or func.name in ("__init__", "build") or not call.args:
                continue
            body = func.node.body if not isinstance(func.node, ast.Lambda) else [ast.Expr(func.node.body)]
            own = list(_own_nodes(body))  # nested functions run later, maybe once: a factory
            local = None
            called_now = False
            for n in own:
                if isinstance(n, ast.Call) and n.func is call:
                    called_now = True
                elif isinstance(n, ast.Assign) and n.value is call and len(n.targets) == 1 \
                        and isinstance(n.targets[0], ast.Name):
                    local = n.targets[0].id
            if local is not None:
                called_now = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == local
                                 for n in own)
            if called_now:
                ctx.report(self, call,
                           f"a new compiled function is created on every call of {func.name}(): its trace cache "
                           "starts empty, so it is traced and XLA-compiled again each time; create it once "
                           "(module level or __init__)")
