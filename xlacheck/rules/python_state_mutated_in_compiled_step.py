"""XLA406: Python state (``self`` attributes, globals) mutated inside a compiled step."""

from __future__ import annotations

import ast

from xlacheck.analysis import child_nodes
from xlacheck.analysis.contexts import Certainty, ClassInfo, FunctionInfo, owner_class
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_LIST_MUTATORS = frozenset({"append", "extend", "insert"})
_REACHED = ("called from", "nested in")  # FunctionInfo.why of functions compiled only through a caller
_STATE_METHODS = frozenset({"__init__", "build", "reset_states", "reset_state"})


def _self_attr(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _python_number(value: ast.expr | None) -> bool:
    return isinstance(value, ast.Constant) and type(value.value) in (int, float)


def _python_list(value: ast.expr | None) -> bool:
    return isinstance(value, (ast.List, ast.Dict)) or (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("list", "dict"))


def _python_attrs(cls: ClassInfo) -> tuple[set[str], set[str]]:
    """Attributes the class initialises (in any method) to a Python number / a Python list, and never
    to anything else: ``self.step = 0`` in ``__init__``."""
    numbers: set[str] = set()
    lists: set[str] = set()
    other: set[str] = set()
    for stmt in ast.walk(cls.node):
        if not isinstance(stmt, ast.Assign):
            continue
        for target in stmt.targets:
            attr = _self_attr(target)
            if attr is None:
                continue
            if _python_number(stmt.value):
                numbers.add(attr)
            elif _python_list(stmt.value):
                lists.add(attr)
            elif not _mentions_self_attr(stmt.value, attr):  # `self.step = self.step + 1` keeps the kind
                other.add(attr)
    return numbers - other - lists - _name_tags(cls), lists - other - numbers


def _rebound_methods(cls: ClassInfo) -> set[str]:
    """Methods of the class that its own code replaces on the instance (``obj.update_state =
    types.MethodType(wrapper, obj)`` in ``__new__``, ``self.call = ...`` in ``__init__``): Keras
    and the compiled step call the replacement, so whether this method runs compiled depends on
    the wrapper (keras-cv's COCO metrics wrap it in ``tf.py_function``: it runs eagerly), not on
    its name."""
    methods = {m.name for m in cls.node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
    out: set[str] = set()
    for node in ast.walk(cls.node):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Attribute) and target.attr in methods and isinstance(target.value, ast.Name):
                    out.add(target.attr)
    return out


def _name_tags(cls: ClassInfo) -> set[str]:
    """Attributes whose value the class reads only to build strings (``"{}".format(self.call_id)``,
    ``str(...)``, f-strings, ``"%d" % ...``) besides updating it: a per-trace tag that names ops or
    scopes. Freezing it per trace changes no computed value, so the update is no hazard."""
    reads: dict[str, int] = {}
    naming: dict[str, int] = {}  # reads inside string formatting
    updating: dict[str, int] = {}  # reads inside `self.n = self.n + 1`
    for node in ast.walk(cls.node):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and (attr := _self_attr(node)):
            reads[attr] = reads.get(attr, 0) + 1
        if _builds_string(node):
            for attr in _self_reads(node):
                naming[attr] = naming.get(attr, 0) + 1
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                attr = _self_attr(target)
                if attr is not None:
                    for read in _self_reads(node.value):
                        if read == attr:
                            updating[attr] = updating.get(attr, 0) + 1
    return {a for a, n in naming.items() if n + updating.get(a, 0) >= reads[a]}


def _self_reads(node: ast.AST) -> list[str]:
    return [a for sub in ast.walk(node)
            if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Load) and (a := _self_attr(sub))]


def _builds_string(node: ast.AST) -> bool:
    """A string formatting expression: an f-string, ``str(...)``/``repr(...)``, ``"...".format(...)``,
    ``"..." % ...``."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Call):
        f = node.func
        return (isinstance(f, ast.Name) and f.id in ("str", "repr")) or (
            isinstance(f, ast.Attribute) and f.attr == "format" and isinstance(f.value, ast.Constant)
            and isinstance(f.value.value, str))
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) \
        and isinstance(node.left.value, str)


class PythonStateMutatedInCompiledStep(ModuleRule):
    """
    ## What it does
    Flags updates of Python state inside compiled code (a `tf.function`, a Keras
    `train_step`/`call`, a `jax.jit` function): `self.step += 1` or `self.step = self.step + 1` on
    an attribute that holds a Python number, `global`/`nonlocal` counters, items of a module-level
    Python dict/list (`STATE["step"] += 1`), and `self.history.append(...)` on an
    attribute that holds a Python list (this last one only in the `tf.function` or Keras method
    itself, not in helpers it calls: Keras' own `add_loss` collects symbolic tensors on purpose),
    and, in a `jax.jit`-traced method of a plain class (no base but `object`), `self.key, sub =
    jax.random.split(self.key)` or any `self.x = f(self.x)`: array state the method advances.
    A method the class itself replaces on its instances (`obj.update_state = ...` in `__new__`
    or `__init__`) is not flagged: callers run the replacement, which may run the original
    eagerly (keras-cv's COCO metrics wrap it in `tf.py_function`).

    ## Why is this bad?
    Python code in a `tf.function` runs only while tracing. The counter is incremented once
    (or once per retrace), its value is frozen into the graph as a constant, and every later
    call reuses it: a learning-rate schedule never moves, a list collects one symbolic tensor.
    The step compiles and runs; the result is silently wrong. If the frozen value is then
    passed on as a Python number it also causes retracing.

    ## Example
    ```python
    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        self.step += 1
        lr = 0.1 / self.step
    ```

    ## Use instead
    ```python
    def __init__(self):
        self.step = tf.Variable(0.0, trainable=False)

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        self.step.assign_add(1.0)
        lr = 0.1 / self.step
    ```

    ## Fix safety
    No automatic fix: the state must become a `tf.Variable` where it is created.
    """

    code = "XLA406"
    fix = ("rewrite_if",)
    name = "python-state-mutated-in-compiled-step"
    severity = Severity.WRONG_RESULT

    VALID = (
        Example("import tensorflow as tf\nclass T:\n    def __init__(self):\n        self.step = tf.Variable(0.0)\n"
                "    @tf.function(jit_compile=True)\n    def f(self, x):\n        self.step.assign_add(1.0)\n"
                "        return x / self.step\n"),
        Example("import tensorflow as tf\nclass T:\n    def __init__(self):\n        self.step = 0\n"
                "    def fit(self, xs):\n        for x in xs:\n            self.step += 1\n"),
        Example("import jax\nSTATE = {'step': 0}\n@jax.jit\ndef train_step(w, g, STATE):\n"
                "    return w - 0.1 * g\ndef train(w, gs):\n    for g in gs:\n        STATE['step'] += 1\n"
                "        w = train_step(w, g, {})\n    return w\n"),
        # a per-trace tag read only to name ops: freezing it changes no computed value
        Example("import tensorflow as tf\nclass Embed(tf.keras.layers.Layer):\n    def __init__(self):\n"
                "        super().__init__()\n        self.call_id = 0\n    def call(self, x):\n"
                "        self.call_id += 1\n        return tf.identity(x, name=f'lookup_{self.call_id}')\n"),
        # the class replaces update_state on each instance by a tf.py_function wrapper: it runs eagerly
        Example("import types\nimport tensorflow as tf\nclass Box(tf.keras.metrics.Metric):\n"
                "    def __init__(self):\n        super().__init__()\n        self.count = 0\n"
                "        self.preds = []\n        eager = self.update_state\n"
                "        def wrapped(self, y_true, y_pred, sample_weight=None):\n"
                "            return tf.py_function(lambda a, b: eager(a, b), [y_true, y_pred], [])\n"
                "        self.update_state = types.MethodType(wrapped, self)\n"
                "    def update_state(self, y_true, y_pred, sample_weight=None):\n        self.count += 1\n"
                "        self.preds.append(y_pred)\n"),
        # the pure form: the jitted function takes the key and returns the next one (jax#4312's fix)
        Example("import jax\n@jax.jit\ndef _act(key, x):\n    key, sub = jax.random.split(key)\n"
                "    return x + jax.random.normal(sub, x.shape), key\nclass NoisyPolicy:\n"
                "    def __init__(self, key):\n        self.key = key\n    def act(self, x):\n"
                "        y, self.key = _act(self.key, x)\n        return y\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\nclass T:\n    def __init__(self):\n        self.step = 0\n"
                "    @tf.function(jit_compile=True)\n    def f(self, x):\n        self.step += 1\n"
                "        return x / self.step\n",
                expected=(
                    (7, 9, '`self.step` holds a Python number updated inside compiled code (decorated with '
                           'tf.function(jit_compile=True)): this runs only while tracing, so the value freezes after '
                           'the first trace; keep it in a tf.Variable and use assign_add()'),
                )),
        Example("import tensorflow as tf\nCALLS = 0\n@tf.function\ndef f(x):\n    global CALLS\n    CALLS = CALLS + 1\n"
                "    return x * 2.0\n",
                expected=(
                    (6, 5, 'global/nonlocal `CALLS` updated inside compiled code (decorated with tf.function): this '
                           'runs only while tracing, so the value freezes after the first trace; keep it in a '
                           'tf.Variable'),
                )),
        Example("import jax\nimport jax.numpy as jnp\nSTATE = {'step': 0}\n@jax.jit\ndef train_step(w, g):\n"
                "    STATE['step'] += 1\n    return w - 0.1 / STATE['step'] * g\n",
                expected=(
                    (6, 5, 'item of the module-level Python container `STATE` updated inside compiled code '
                           '(decorated with jax.jit): this runs only while tracing, so the value freezes after the '
                           "first trace (and JAX/TF bake it in as a constant); keep the state in the step's "
                           'arguments and results (or a tf.Variable)'),
                )),
        Example("import jax\nclass Counter:\n    def __init__(self):\n        self.n = 0\n"
                "    def count(self, x):\n        self.n += 1\n        return x + self.n\n"
                "counter = Counter()\ncount_fast = jax.jit(counter.count)\n",
                expected=(
                    (6, 9, '`self.n` holds a Python number updated inside compiled code (wrapped in jax.jit): this '
                           'runs only while tracing, so the value freezes after the first trace; pass it in and '
                           'return it (jitted functions must be pure)'),
                )),
        Example("import tensorflow as tf\nclass T:\n    def __init__(self):\n        self.losses = []\n"
                "    @tf.function\n    def f(self, x):\n        loss = tf.reduce_sum(x)\n        self.losses.append(loss)\n"
                "        return loss\n",
                expected=(
                    (8, 9, '`self.losses.append(...)` on a Python list inside compiled code (decorated with '
                           'tf.function): it runs only while tracing and collects symbolic tensors, not per-step '
                           'values; return the values from the step or write them to a tf.TensorArray/tf.Variable'),
                )),
        # a PRNG key on a plain object split inside a jitted method: the draws repeat after the first
        # call (jax#4312; reports19-jax)
        Example("import jax\nclass NoisyPolicy:\n    def __init__(self, key):\n        self.key = key\n"
                "        self.act = jax.jit(self._act)\n    def _act(self, x):\n"
                "        self.key, sub = jax.random.split(self.key)\n"
                "        return x + jax.random.normal(sub, x.shape)\n",
                expected=(
                    (7, 9, "`self.key` updated from itself inside compiled code (wrapped in jax.jit): jax.jit runs "
                           "this only while tracing, so later calls reuse the first trace's value (a PRNG key repeats "
                           "its draws) and the attribute keeps a leaked tracer; pass it in and return the new value "
                           "(jitted functions must be pure)"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        if not any(f.certainty is Certainty.COMPILED for f in ctx.facts.functions):
            return
        index = ctx.index
        declared: dict[int, set[str]] = {}  # function node -> names declared global/nonlocal in it
        for decl in index.outer_declarations:
            func = index.function_of(decl)
            if func is not None:
                declared.setdefault(id(func), set()).update(decl.names)
        outer_names = set().union(*declared.values()) if declared else set()
        containers = _module_containers(index.tree)
        candidates: list[ast.AST] = [a for a in index.assignments
                                     if _candidate_assignment(a, outer_names) or _container_item_update(a, containers)]
        candidates += [c for c, _ in index.calls
                       if isinstance(c.func, ast.Attribute) and c.func.attr in _LIST_MUTATORS and _self_attr(c.func.value)]
        if not candidates:
            return
        kinds: dict[int, tuple[set[str], set[str]]] = {}
        for node in candidates:
            func = index.function_of(node)
            info = ctx.facts.by_node.get(id(func)) if func is not None else None
            if (info is None or info.certainty is not Certainty.COMPILED or info.host or info.name in _STATE_METHODS
                    or isinstance(info.node, ast.Lambda) or index.eager_only(node)):
                continue
            cls = owner_class(info)
            if cls is not None and info.cls is cls and info.name in _rebound_methods(cls):
                continue  # callers reach a replacement the class installs, not this method (see _rebound_methods)
            if cls is not None and id(cls) not in kinds:
                kinds[id(cls)] = _python_attrs(cls)
            numbers, lists = kinds[id(cls)] if cls is not None else (set(), set())
            if isinstance(node, ast.AugAssign) and _container_item_update(node, containers) \
                    and not _bound_locally(index, func, node.target.value.id):  # type: ignore[arg-type, union-attr]
                name = node.target.value.id  # type: ignore[union-attr]
                ctx.report(self, node, f"item of the module-level Python container `{name}` updated inside compiled "
                                       f"code ({info.why}): this runs only while tracing, so the value freezes after "
                                       "the first trace (and JAX/TF bake it in as a constant); keep the state in "
                                       "the step's arguments and results (or a tf.Variable)")
                continue
            self._check_node(ctx, info, numbers, lists, declared.get(id(func), set()), node)

    def _check_node(self, ctx: ModuleContext, info: FunctionInfo, numbers: set[str], lists: set[str],
                    outer: set[str], node: ast.AST) -> None:
        where = f"inside compiled code ({info.why})"
        if isinstance(node, (ast.AugAssign, ast.Assign)):
            targets = [node.target] if isinstance(node, ast.AugAssign) else _flat_targets(node.targets)
            for target in targets:
                attr = _self_attr(target)
                if attr is not None and attr in numbers:
                    if isinstance(node, ast.AugAssign) or _mentions_self_attr(node.value, attr):
                        keep = ("pass it in and return it (jitted functions must be pure)" if info.jax
                                else "keep it in a tf.Variable and use assign_add()")
                        ctx.report(self, node, f"`self.{attr}` holds a Python number updated {where}: this runs only "
                                               f"while tracing, so the value freezes after the first trace; {keep}")
                elif attr is not None and info.jax and _plain_class(info) and isinstance(node, ast.Assign) \
                        and _mentions_self_attr(node.value, attr):
                    # an array kept on a plain object (a PRNG key, a step count) that a jitted method advances
                    # from itself: jax.jit keys its cache on the arguments, never on self's attributes
                    # (jax#4312: a key split into global state repeats its draws under jit)
                    ctx.report(self, node, f"`self.{attr}` updated from itself {where}: jax.jit runs this only while "
                                           "tracing, so later calls reuse the first trace's value (a PRNG key repeats "
                                           "its draws) and the attribute keeps a leaked tracer; pass it in and return "
                                           "the new value (jitted functions must be pure)")
                elif isinstance(target, ast.Name) and target.id in outer:
                    if isinstance(node, ast.AugAssign) or _mentions_name(node.value, target.id):
                        ctx.report(self, node, f"global/nonlocal `{target.id}` updated {where}: this runs only while "
                                               "tracing, so the value freezes after the first trace; keep it in a "
                                               "tf.Variable")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _LIST_MUTATORS:
            attr = _self_attr(node.func.value)
            # only in the step itself: framework helpers reached from call() (add_loss, add_metric)
            # collect symbolic tensors at trace time on purpose
            if attr is not None and attr in lists and not info.why.startswith(_REACHED):
                ctx.report(self, node, f"`self.{attr}.{node.func.attr}(...)` on a Python list {where}: it runs only "
                                       "while tracing and collects symbolic tensors, not per-step values; return "
                                       "the values from the step or write them to a tf.TensorArray/tf.Variable")


def _plain_class(info: FunctionInfo) -> bool:
    """A method of a class with no base but ``object``: no framework (Flax NNX, Equinox, Keras) gives
    its attribute writes a meaning under tracing."""
    cls = info.cls
    return cls is not None and all(isinstance(b, ast.Name) and b.id == "object" for b in cls.node.bases) \
        and not cls.node.keywords


def _module_containers(tree: ast.Module) -> set[str]:
    """Module-level names bound (only) to a dict/list display: Python containers of state."""
    bound: dict[str, bool] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    bound[target.id] = bound.get(target.id, True) and isinstance(stmt.value, (ast.Dict, ast.List))
    return {name for name, container in bound.items() if container}


def _container_item_update(node: ast.Assign | ast.AugAssign, containers: set[str]) -> bool:
    """``STATE["step"] += 1`` on a module-level dict/list."""
    return isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Subscript) \
        and isinstance(node.target.value, ast.Name) and node.target.value.id in containers


def _bound_locally(index, func: ast.AST, name: str) -> bool:
    """``name`` is a parameter or assigned in ``func`` (so it is not the module's container)."""
    args = getattr(func, "args", None)
    if args is not None and name in {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}:
        return True
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in index.scope_nodes(func))


def _candidate_assignment(node: ast.Assign | ast.AugAssign, outer_names: set[str]) -> bool:
    """An update of ``self.<attr>`` or of a name some function declares global/nonlocal."""
    if isinstance(node, ast.AugAssign):
        target = node.target
        return _self_attr(target) is not None or (isinstance(target, ast.Name) and target.id in outer_names)
    for each in _flat_targets(node.targets):
        attr = _self_attr(each)
        if attr is not None and _mentions_self_attr(node.value, attr):
            return True
        if isinstance(each, ast.Name) and each.id in outer_names:
            return True
    return False


def _flat_targets(targets: list[ast.expr]) -> list[ast.expr]:
    """The names and attributes an assignment binds, through tuple/list unpacking
    (``self.key, subkey = jax.random.split(self.key)``)."""
    out: list[ast.expr] = []
    stack = list(reversed(targets))
    while stack:
        t = stack.pop()
        if isinstance(t, (ast.Tuple, ast.List)):
            stack.extend(reversed(t.elts))
        else:
            out.append(t)
    return out


def _mentions_self_attr(value: ast.expr, attr: str) -> bool:
    # asked of every `self.x = ...` in the file: a walk that skips contexts and operators
    # (analysis.child_nodes) rather than ast.walk, which cost most of this rule's time
    stack: list[ast.AST] = [value]
    while stack:
        sub = stack.pop()
        if type(sub) is ast.Attribute and sub.attr == attr and _self_attr(sub) == attr:
            return True
        stack.extend(child_nodes(sub))
    return False


def _mentions_name(value: ast.expr, name: str) -> bool:
    return any(isinstance(sub, ast.Name) and sub.id == name for sub in ast.walk(value))
