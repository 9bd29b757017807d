"""XLA402: a Python attribute updated inside a compiled step."""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example, Rule, RuleContext


def _python_number(value: ast.expr | None) -> bool:
    if isinstance(value, ast.UnaryOp):
        value = value.operand
    return isinstance(value, ast.Constant) and type(value.value) in (int, float)


class PythonStateInCompiledStep(Rule):
    """
    ## What it does
    Flags, in compiled code, updates of Python state that only happen while tracing:
    `self.attr += ...` (or `self.attr = self.attr + ...`) when `attr` holds a Python number (set
    to a literal in `__init__`), `self.attr.append(...)` when it holds a Python list, and
    `global` counters and module-level containers (`STATE["step"] += 1`) updated with `+=`.

    ## Why is this bad?
    Python code in a `tf.function` runs only while tracing. The counter is incremented once, its
    value is frozen into the graph, and later steps keep using it: a learning-rate schedule
    driven by it never moves. Silent wrong result.

    ## Example
    ```python
    self.step += 1
    lr = 0.1 / self.step
    ```

    ## Use instead
    ```python
    self.step = tf.Variable(0, trainable=False)  # in __init__
    self.step.assign_add(1)  # in the step
    lr = 0.1 / tf.cast(self.step, tf.float32)
    ```

    ## Fix safety
    No automatic fix.
    """

    code = "XLA402"
    name = "python-state-in-compiled-step"
    severity = Severity.WRONG_RESULT
    node_types = (ast.AugAssign, ast.Assign, ast.Call)

    VALID = (
        Example("import tensorflow as tf\nclass T:\n    def __init__(self):\n        self.step = tf.Variable(0.0)\n"
                "    @tf.function(jit_compile=True)\n    def f(self, x):\n        self.step.assign_add(1.0)\n"
                "        return x / self.step\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\nclass T:\n    def __init__(self):\n        self.step = 0\n"
                "    @tf.function(jit_compile=True)\n    def f(self, x):\n        self.step += 1\n"
                "        return x / self.step\n"),
        Example("import tensorflow as tf\nclass T:\n    def __init__(self):\n        self.losses = []\n"
                "    @tf.function(jit_compile=True)\n    def f(self, x):\n        loss = tf.reduce_mean(x)\n"
                "        self.losses.append(loss)\n        return loss\n"),
        Example("import tensorflow as tf\nSTEP = 0\n@tf.function(jit_compile=True)\ndef f(x):\n    global STEP\n"
                "    STEP += 1\n    return x * STEP\n"),
        Example("import jax\nSTATE = {'step': 0}\n@jax.jit\ndef f(x):\n    STATE['step'] += 1\n"
                "    return x / STATE['step']\n"),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        if not ctx.certain:
            return
        if isinstance(node, ast.Call):
            self._list_append(node, ctx)
            return
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Subscript) \
                and isinstance(node.target.value, ast.Name) and node.target.value.id not in ctx.values.env:
            name = node.target.value.id  # a module-level container: STATE["step"] += 1
            ctx.report(self, node,
                       f"module-level '{name}' updated inside compiled code: this runs once while tracing, later "
                       "steps reuse the traced value (wrong result); keep the state in a tf.Variable or thread it "
                       "through the function's arguments and results")
            return
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            if node.target.id in _declared_global(ctx.function.node):
                ctx.report(self, node,
                           f"global '{node.target.id}' updated inside compiled code: this runs once while tracing, "
                           "later steps reuse the traced value (wrong result); keep it in a tf.Variable")
            return
        if isinstance(node, ast.AugAssign):
            target, reads_itself = node.target, True
        else:
            assert isinstance(node, ast.Assign)
            if len(node.targets) != 1:
                return
            target = node.targets[0]
            if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                    and target.value.id == "self"):
                return
            reads_itself = any(
                isinstance(n, ast.Attribute) and n.attr == target.attr and isinstance(n.value, ast.Name)
                and n.value.id == "self" for n in ast.walk(node.value))
        if not (reads_itself and isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                and target.value.id == "self"):
            return
        cls = ctx.values.cls
        if cls is None or not _python_number(_init_value(cls.node, target.attr)):
            return
        ctx.report(self, node,
                   f"self.{target.attr} is a Python number updated inside compiled code: this runs once while "
                   "tracing and the value is frozen into the graph (wrong result); keep it in a tf.Variable")


    def _list_append(self, node: ast.Call, ctx: RuleContext) -> None:
        f = node.func
        if not (isinstance(f, ast.Attribute) and f.attr in ("append", "extend") and isinstance(f.value, ast.Attribute)
                and isinstance(f.value.value, ast.Name) and f.value.value.id == "self"):
            return
        cls = ctx.values.cls
        if cls is None or not isinstance(_init_value(cls.node, f.value.attr), (ast.List, ast.ListComp)):
            return
        ctx.report(self, node,
                   f"self.{f.value.attr}.{f.attr}() inside compiled code runs once while tracing: the list gets one "
                   "symbolic tensor, not a value per step (wrong result); return the value and collect it outside")


_GLOBALS: dict[int, frozenset[str]] = {}


def _declared_global(fn: ast.AST) -> frozenset[str]:
    """Names a function declares ``global`` (cached per function node, most declare none)."""
    found = _GLOBALS.get(id(fn))
    if found is None:
        found = _GLOBALS[id(fn)] = frozenset(
            name for s in ast.walk(fn) if isinstance(s, ast.Global) for name in s.names)
    return found


def _init_value(cls: ast.ClassDef, attr: str) -> ast.expr | None:
    """The value ``__init__`` first assigns to ``self.<attr>``."""
    for stmt in cls.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == "__init__":
            for n in ast.walk(stmt):
                if isinstance(n, ast.Assign) and any(
                    isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name)
                    and t.value.id == "self" for t in n.targets
                ):
                    return n.value
    return None
