"""XLA404: a ``tf.function`` created anew on every call of a function, or in a loop."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import Level
from xlacheck.analysis.module_index import ModuleIndex
from xlacheck.analysis.tables import TF_FUNCTION_NAMES as _TF_FUNCTION
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Functions that run once per object or per program: creating a tf.function there is the fix.
_ONCE_FUNCTIONS = frozenset({"__init__", "build", "setUp", "setUpClass", "main", "__post_init__"})


class TfFunctionCreatedPerCall(ModuleRule):
    """
    ## What it does
    Flags `tf.function(...)` (call or decorator) evaluated inside a loop, and a `tf.function`
    created inside a function body and then called in that same body, outside any loop, without
    being kept anywhere (not returned, not stored on `self` or in a cache): every call of the
    enclosing function builds a new `tf.function` and traces it once. When this file calls the
    enclosing function only outside loops and compiled code (a one-off dry run), it is not
    flagged; when nothing here calls it, it is assumed to run per step, as loss and predict
    helpers do.

    ## Why is this bad?
    A `tf.function` caches its traces on the function object. A fresh object has an empty
    cache, so each call traces the Python code again and, with `jit_compile=True` or on a TPU,
    compiles it again with XLA (seconds per call instead of microseconds). TensorFlow's
    "excessive retracing" warning names exactly this case: "creating @tf.function repeatedly in
    a loop".

    ## Example
    ```python
    def compiled_loss(y_true, y_pred):
        fast = tf.function(_loss, jit_compile=True)
        return fast(y_true, y_pred)
    ```

    ## Use instead
    ```python
    _fast_loss = tf.function(_loss, jit_compile=True)  # once, at module level (or in __init__)

    def compiled_loss(y_true, y_pred):
        return _fast_loss(y_true, y_pred)
    ```

    ## Fix safety
    No automatic fix: where the function should live (module, `__init__`, a cache) is a design
    choice.
    """

    code = "XLA404"
    name = "tf-function-created-per-call"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import tensorflow as tf\ndef _loss(a, b):\n    return tf.reduce_mean(a - b)\n"
                "_fast = tf.function(_loss, jit_compile=True)\ndef loss(a, b):\n    return _fast(a, b)\n"),
        Example("import tensorflow as tf\ndef train(model, batches):\n    @tf.function\n    def step(x):\n"
                "        return model(x)\n    for x in batches:\n        step(x)\n"),
        Example("import tensorflow as tf\ndef make_step(model):\n    step = tf.function(model.__call__, jit_compile=True)\n"
                "    return step\n"),
        Example("import tensorflow as tf\nclass T:\n    def __init__(self, f):\n        self.step = tf.function(f)\n"),
        Example("import tensorflow as tf\ndef dry_run(model, batch):\n    @tf.function\n    def one(b):\n        return model(b)\n"
                "    return one(batch)\ndef train(model, batches):\n    dry_run(model, batches[0])\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\ndef _loss(a, b):\n    return tf.reduce_mean(a - b)\n"
                "def loss(a, b):\n    fast = tf.function(_loss, jit_compile=True)\n    return fast(a, b)\n"),
        Example("import tensorflow as tf\ndef predict(model, x):\n    return tf.function(model, jit_compile=True)(x)\n"),
        Example("import tensorflow as tf\ndef evaluate(model, batches):\n    for x in batches:\n"
                "        step = tf.function(lambda v: model(v))\n        step(x)\n"),
        Example("import tensorflow as tf\ndef forward(model, x):\n    @tf.function(jit_compile=True)\n"
                "    def run(v):\n        return model(v)\n    return run(x)\n"),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        for call, name in index.calls:
            if name not in _TF_FUNCTION:
                continue
            if call.args:
                self._check_creation(ctx, index, call, call)
            else:  # tf.function(jit_compile=True)(f): the outer call creates it
                outer = index.parent(call)
                if isinstance(outer, ast.Call) and outer.func is call:
                    self._check_creation(ctx, index, outer, call)
        for info in ctx.facts.functions:
            node = info.node
            if isinstance(node, ast.Lambda) or info.parent is None:
                continue
            for dec in node.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                if index.aliases.resolve(target) in _TF_FUNCTION:
                    self._check_creation(ctx, index, node, dec)

    def _check_creation(self, ctx: ModuleContext, index: ModuleIndex, node: ast.AST, where: ast.AST) -> None:
        if index.loops_around(node):
            ctx.report(self, where, "tf.function created inside a loop: each iteration builds a new function with an "
                                    "empty trace cache, so it traces and compiles again; create it once, before the loop")
            return
        func = index.function_of(node)
        if func is None or isinstance(func, ast.Lambda) or func.name in _ONCE_FUNCTIONS or func.name.startswith("test"):
            return
        info = ctx.facts.by_node.get(id(func))
        if info is not None and info.level >= Level.GRAPH:
            return  # created while its enclosing function is traced (Keras call, strategy.run): once per trace
        parent = index.parent(node)
        if isinstance(parent, ast.Call) and parent.func is node:
            if not self._called_only_outside_loops(ctx, index, func):
                self._report_per_call(ctx, where, func.name)
            return
        if isinstance(node, ast.FunctionDef):
            local = node.name
        elif isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
            local = parent.targets[0].id
        else:
            return  # stored on self, in a dict, returned...: kept, so traced once
        called_once = False
        for sub in index.scope_nodes(func):
            if isinstance(sub, ast.Name) and sub.id == local and isinstance(sub.ctx, ast.Load):
                use = index.parent(sub)
                if isinstance(use, ast.Call) and use.func is sub:
                    if index.loops_around(use) or index.function_of(use) is not func:
                        return  # created once per call, reused many times: fine
                    called_once = True
                else:
                    return  # escapes (returned, stored, passed on): may be reused
        if called_once and not self._called_only_outside_loops(ctx, index, func):
            self._report_per_call(ctx, where, func.name)

    @staticmethod
    def _called_only_outside_loops(ctx: ModuleContext, index: ModuleIndex, func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """The file calls ``func`` and never from a loop or compiled code: a one-off (a dry run, a setup step)."""
        sites = [c for c, _ in index.calls
                 if (isinstance(c.func, ast.Name) and c.func.id == func.name)
                 or (isinstance(c.func, ast.Attribute) and c.func.attr == func.name)]
        if not sites:
            return False  # called from elsewhere: assume per step, as a loss or predict helper usually is
        for site in sites:
            if index.loops_around(site):
                return False
            caller = index.function_of(site)
            info = ctx.facts.by_node.get(id(caller)) if caller is not None else None
            if info is not None and info.compiled:
                return False
        return True

    def _report_per_call(self, ctx: ModuleContext, where: ast.AST, owner: str) -> None:
        ctx.report(self, where,
                   f"tf.function created inside `{owner}()` and called once per call: every call of `{owner}()` "
                   "builds a new function with an empty trace cache and traces/compiles it again; create the "
                   "tf.function once (module level, __init__, or a cache)")
