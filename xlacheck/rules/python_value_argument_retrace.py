"""XLA404: Python numbers or computed lists passed to a ``tf.function`` that change per call."""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example, ModuleContext, Rule

_NUMERIC_BUILTINS = frozenset({"max", "min", "float", "int", "round", "abs", "sum", "len"})


def _numeric_python(value: ast.expr) -> bool:
    """A Python number computed from literals/other numbers (not a tensor op)."""
    if isinstance(value, ast.Constant):
        return type(value.value) in (int, float)
    if isinstance(value, ast.UnaryOp):
        return _numeric_python(value.operand)
    if isinstance(value, ast.BinOp):
        return _numeric_python(value.left) or _numeric_python(value.right)
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in _NUMERIC_BUILTINS


def _varying_names(fn: ast.AST) -> dict[str, str]:
    """Names in ``fn`` that hold a new Python value on each loop iteration or call."""
    out: dict[str, str] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.For) and isinstance(n.iter, ast.Call) and isinstance(n.iter.func, ast.Name):
            kind = n.iter.func.id
            if kind == "range" and isinstance(n.target, ast.Name):
                out[n.target.id] = "a Python int loop counter"
            elif kind == "enumerate" and isinstance(n.target, ast.Tuple) and isinstance(n.target.elts[0], ast.Name):
                out[n.target.elts[0].id] = "a Python int loop counter"
        if isinstance(n, (ast.For, ast.While)):
            for stmt in n.body:
                for m in ast.walk(stmt):
                    if isinstance(m, (ast.Assign, ast.AugAssign)):
                        targets = m.targets if isinstance(m, ast.Assign) else [m.target]
                        if _numeric_python(m.value) or isinstance(m, ast.AugAssign) and _numeric_python(m.value):
                            for t in targets:
                                if isinstance(t, ast.Name):
                                    out.setdefault(t.id, "a Python number updated in a loop")
        if isinstance(n, ast.Assign) and isinstance(n.value, (ast.ListComp, ast.DictComp)):
            for t in n.targets:
                if isinstance(t, ast.Name):
                    out.setdefault(t.id, "a Python list/dict computed per call")
    return out


class PythonValueArgumentRetrace(Rule):
    """
    ## What it does
    Flags calls of a `tf.function` (or `jax.jit` function) defined in the same file, from plain
    Python code, that pass a Python value which changes between calls: a `range`/`enumerate`
    loop counter, a Python number updated in a loop, or a list/dict built by a comprehension.
    Functions with an `input_signature` are not flagged.

    ## Why is this bad?
    A `tf.function` keys its trace cache on the *values* of Python arguments: every new step
    number, temperature or list of class weights traces and XLA-compiles the function again.
    NumPy arrays and tensors are traced by shape and dtype and do not retrace.

    ## Example
    ```python
    for step, (x, y) in enumerate(batches):
        w, loss = train_step(w, x, y, step)
    ```

    ## Use instead
    ```python
    for step, (x, y) in enumerate(batches):
        w, loss = train_step(w, x, y, tf.constant(step))
    ```

    ## Fix safety
    Wrapping the argument in `tf.constant(...)` is safe when the function only uses it in tensor
    arithmetic; not when it drives Python control flow or shapes.
    """

    code = "XLA404"
    name = "python-value-argument-retrace"
    severity = Severity.RECOMPILE
    module_level = True

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(x, i):\n    return x * i\n"
                "def train(batches):\n    for i, x in enumerate(batches):\n        step(x, tf.constant(i))\n"),
        Example("import tensorflow as tf\n@tf.function(input_signature=[tf.TensorSpec([None]), tf.TensorSpec([])])\n"
                "def step(x, i):\n    return x * i\ndef train(batches):\n    for i, x in enumerate(batches):\n"
                "        step(x, i)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(x, i):\n    return x * i\n"
                "def train(batches):\n    for i, x in enumerate(batches):\n        step(x, i)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef loss(a, b, t):\n    return (a - b) / t\n"
                "def epoch(batches, t=4.0):\n    for a, b in batches:\n        loss(a, b, t)\n"
                "        t = max(1.0, t * 0.9)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef ce(l, w):\n    return l * tf.constant(w)\n"
                "def run(l, counts):\n    w = [1.0 / c for c in counts]\n    return ce(l, w)\n"),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        from xlacheck.analysis.contexts import Certainty

        cache: dict[int, dict[str, str]] = {}
        for call, caller in ctx.facts.sites.get("local", ()):
            if caller is None or caller.certainty is Certainty.COMPILED or not isinstance(call.func, ast.Name):
                continue
            callee = ctx.facts.module_funcs.get(call.func.id)
            if callee is None or callee.traced_entry is None or _has_signature(callee.traced_entry):
                continue
            varying = cache.get(id(caller))
            if varying is None:
                varying = cache[id(caller)] = _varying_names(caller.node)
            for arg in list(call.args) + [kw.value for kw in call.keywords]:
                why = None
                if isinstance(arg, ast.Name):
                    why = varying.get(arg.id)
                elif isinstance(arg, (ast.ListComp, ast.DictComp)):
                    why = "a Python list/dict computed per call"
                if why is not None:
                    ctx.report(self, call,
                               f"{call.func.id}() is a tf.function called with {why}: each new value retraces "
                               "and recompiles it; pass a tensor (tf.constant) or a NumPy value instead")
                    break


def _has_signature(entry: ast.expr) -> bool:
    return isinstance(entry, ast.Call) and any(kw.arg == "input_signature" for kw in entry.keywords)
