"""XLA322: a ``tf.function`` that modifies a Python container it receives as an argument."""

from __future__ import annotations

import ast

from xlacheck.analysis.contexts import Level
from xlacheck.rules.base import Example, Rule, RuleContext

# Methods of list/dict/set that change the container in place (Python's own API).
_MUTATORS = frozenset({"pop", "popitem", "append", "extend", "insert", "remove", "clear", "update", "setdefault",
                       "add", "discard", "sort", "reverse"})


def _rebound(name: str, func: ast.AST) -> bool:
    """The function binds ``name`` again somewhere (``batch = dict(batch)``, a loop target): what it
    mutates may be a copy, so the rule stays silent."""
    for n in ast.walk(func):
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, (ast.Store, ast.Del)):
            return True
    return False


def _shows_container(call: ast.Call) -> bool:
    """A mutator call that shows a dict by itself: ``pop("key")`` (a string key), ``update({...})`` or
    ``update(k=v)``, ``setdefault``/``popitem``. The other names (``update(x)``, ``add``, ``insert``,
    ``remove``, ``append``) are also methods of objects tf.function does not compare: a tf.lookup
    MutableHashTable's insert/remove, a metric tracker's update (TF 2.21 measured: both trace and run)."""
    f = call.func
    attr = f.attr if isinstance(f, ast.Attribute) else ""
    if attr in ("popitem", "setdefault"):
        return True
    if attr == "pop":
        return bool(call.args) and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)
    if attr == "update":
        return (len(call.args) == 1 and isinstance(call.args[0], (ast.Dict, ast.DictComp))) or (
            not call.args and bool(call.keywords) and all(k.arg for k in call.keywords))
    return False


def _used_as_container(name: str, func: ast.AST) -> bool:
    """The function reads ``name`` as a dict or list: a constant key or index (``batch["x"]``, ``xs[0]``),
    a dict view (``batch.items()``), ``**batch``, or a mutator call that shows a dict by itself."""
    for n in ast.walk(func):
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == name \
                and isinstance(n.slice, ast.Constant):
            return True
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == name and (
                    f.attr in ("items", "keys", "values") or _shows_container(n)):
                return True
            if any(k.arg is None and isinstance(k.value, ast.Name) and k.value.id == name for k in n.keywords):
                return True
    return False


class TfFunctionInputMutated(Rule):
    """
    ## What it does
    Flags a function traced by `tf.function` (decorated or wrapped, `jit_compile` or not) that
    modifies a Python list, dict or set it receives as an argument: `batch.pop("label")`,
    `features["mask"] = ...`, `del inputs["ids"]`, `outputs.append(...)`. Keras methods such as
    `train_step(data)` are not flagged: Keras traces a function that reads `data` from an
    iterator, so `data` is not an argument of the traced function.

    ## Why is this bad?
    `tf.function` compares the structure of its Python arguments before and after tracing and
    refuses a function that changed them: `ValueError: f(batch) should not modify its Python
    input arguments. Modifying a copy is allowed.` (TF 2.21, measured for `pop`, a new or
    replaced key, `update` and `append`, with and without `jit_compile=True`). The step never
    runs.

    ## Example
    ```python
    @tf.function(jit_compile=True)
    def train_step(batch):
        label = batch.pop("label")
        ...
    ```

    ## Use instead
    ```python
    @tf.function(jit_compile=True)
    def train_step(batch):
        batch = dict(batch)  # a copy: the caller's dict is left as it was
        label = batch.pop("label")
        ...
    ```

    ## Fix safety
    No automatic fix: whether the caller relied on the mutation (reading the popped entries
    after the call in eager code) is not visible here.
    """

    code = "XLA322"
    fix = None
    name = "tf-function-input-mutated"
    fails_in_any_graph = True
    levels = frozenset({Level.CERTAIN, Level.LIKELY, Level.GRAPH})
    node_types = (ast.Call, ast.Assign, ast.AugAssign, ast.Delete)

    VALID = (
        # a copy is modified
        Example("import tensorflow as tf\n@tf.function\ndef step(batch):\n    batch = dict(batch)\n"
                "    y = batch.pop('y')\n    return batch['x'] * y\n"),
        # a local container
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(x):\n    outs = []\n"
                "    outs.append(x * 2.0)\n    return outs[0]\n"),
        # Keras traces train_step through its own function: `data` comes from the iterator
        Example("import tensorflow as tf\nclass M(tf.keras.Model):\n    def train_step(self, data):\n"
                "        y = data.pop('label')\n        return {'loss': tf.reduce_mean(self(data['x']) - y)}\n"),
        # jax.jit flattens its arguments: the traced function gets its own containers
        Example("import jax\n@jax.jit\ndef step(batch):\n    y = batch.pop('y')\n    return batch['x'] * y\n"),
        # an undecorated function
        Example("import tensorflow as tf\ndef step(batch):\n    return batch.pop('y')\n"),
        # self's own state is another rule's business (XLA406)
        Example("import tensorflow as tf\nclass T(tf.Module):\n    def __init__(self):\n        self.log = []\n"
                "    @tf.function\n    def step(self, x):\n        self.log.append(1)\n        return x\n"),
    )
    INVALID = (
        Example("""
            import tensorflow as tf


            @tf.function(jit_compile=True)
            def train_step(batch):
                label = batch.pop("label")
                return tf.reduce_mean(tf.square(batch["x"] - label))
        """, expected=(
            (6, 13, "train_step (decorated with tf.function(jit_compile=True) at line 4) modifies its argument "
                    "'batch' (batch.pop): tf.function refuses a function that modifies its Python input arguments "
                    "(ValueError at the first call); work on a copy (batch = dict(batch))"),
        )),
        Example("import tensorflow as tf\ndef forward(features):\n"
                "    features['mask'] = tf.cast(features['ids'] > 0, tf.float32)\n"
                "    return features['mask'] * 2.0\nstep = tf.function(forward)\n",
                expected=(
                    (3, 5, "forward (wrapped in tf.function at line 5) modifies its argument 'features' (item "
                           "assignment): tf.function refuses a function that modifies its Python input arguments "
                           "(ValueError at the first call); work on a copy (features = dict(features))"),
                )),
    )

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        info = ctx.function
        # the function tf.function traces itself (decorated or wrapped), not a helper it calls: a
        # helper's arguments are the caller's objects, which tf.function does not compare
        if info.jax or not info.tf_function_entry \
                or not isinstance(info.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return
        params = {a.arg for a in (*info.node.args.posonlyargs, *info.node.args.args, *info.node.args.kwonlyargs)}
        params.discard("self")
        params.discard("cls")
        for name, how in self._mutations(node):
            if name in params and not _rebound(name, info.node) and self._first(node, name, info.node) \
                    and (not isinstance(node, ast.Call) or _shows_container(node)
                         or _used_as_container(name, info.node)):
                kind = "list" if how.endswith(("append", "extend", "insert")) else "dict"
                ctx.report(self, node,
                           f"{info.name} ({info.evidence}) modifies its argument '{name}' ({how}): tf.function "
                           "refuses a function that modifies its Python input arguments (ValueError at the first "
                           f"call); work on a copy ({name} = {kind}({name}))")
                return

    @classmethod
    def _first(cls, node: ast.AST, name: str, func: ast.AST) -> bool:
        """``node`` is the first place the function modifies ``name``: one finding per argument."""
        firsts = [n for n in ast.walk(func) if isinstance(n, (ast.Call, ast.Assign, ast.AugAssign, ast.Delete))
                  and any(m == name for m, _ in cls._mutations(n))]
        return min(firsts, key=lambda n: (n.lineno, n.col_offset)) is node

    @staticmethod
    def _mutations(node: ast.AST) -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        if isinstance(node, ast.Call):
            f = node.func
            # a tensor has none of these methods: the argument is a container whatever the value model says
            if isinstance(f, ast.Attribute) and f.attr in _MUTATORS and isinstance(f.value, ast.Name):
                found.append((f.value.id, f"{f.value.id}.{f.attr}"))
            return found
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = node.targets
        elif isinstance(node, ast.AugAssign):
            targets = [node.target]
        else:
            return found
        for t in targets:
            # a string key: a dict (a tensor cannot be indexed by one)
            if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and isinstance(t.slice, ast.Constant) \
                    and isinstance(t.slice.value, str):
                found.append((t.value.id, "item deletion" if isinstance(node, ast.Delete) else "item assignment"))
        return found
