"""Where a ``tf.data`` dataset ends up: the compiled code it feeds, followed through this file.

XLA402 (a partial last batch) and XLA401 (``padded_batch`` padding to the longest element) ask the
same question of a batching call: does the dataset it makes reach code that XLA compiles? Followed
through chained dataset methods, names, module-level datasets, ``iter``/``next`` in a loop, functions
of this file that return it, loops that call a ``tf.function`` of this file (or a helper that passes
the batch on to one), ``strategy.experimental_distribute_dataset`` and Keras ``fit``/``evaluate``/
``predict`` of a jit-compiled or TPU model. Syntactic: dataset methods are recognised by name.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from xlacheck import retrace_table
from xlacheck.analysis.module_index import ModuleIndex, TfFunction, is_true, method_name
from xlacheck.analysis.scopes import target_names
from xlacheck.rules._recompile_scope import bound_arguments, positional_params

# Dataset methods that keep the batch structure: the dataset flows through them.
_PASS_THROUGH = frozenset({"prefetch", "cache", "map", "filter", "shuffle", "take", "skip", "repeat", "with_options",
                           "apply", "enumerate", "ignore_errors", "shard", "concatenate"})
# Where a dataset enters compiled code.
_KERAS_LOOPS = frozenset({"fit", "evaluate", "predict"})
_DISTRIBUTE = frozenset({"experimental_distribute_dataset", "distribute_datasets_from_function"})
_STEP_CALLS = frozenset({"train_on_batch", "test_on_batch", "predict_on_batch", "run"})


def keras_compiled(index: ModuleIndex) -> bool:
    """The file targets a TPU or compiles a Keras model with ``jit_compile=True``."""
    return index.uses_tpu or any(
        is_true(kw.value) for c, _ in index.calls for kw in c.keywords if kw.arg == "jit_compile")


def compiled_consumer(index: ModuleIndex, start: ast.expr, keras_compiled: bool) -> tuple[str, str | None] | None:
    """Where the dataset produced by ``start`` ends up, when XLA compiles what it feeds: (a
    description, the retrace-table row that measured the cost, or None where none did)."""
    work: list[tuple[ast.expr, int]] = [(start, 0)]
    seen: set[int] = set()
    while work:
        expr, depth = work.pop()
        if id(expr) in seen or depth > 6:
            continue
        seen.add(id(expr))
        # climb through chained dataset methods: ds.batch(4).prefetch(2)
        while True:
            parent = index.parent(expr)
            if isinstance(parent, ast.Attribute) and parent.value is expr and parent.attr in _PASS_THROUGH:
                call = index.parent(parent)
                if isinstance(call, ast.Call) and call.func is parent:
                    expr = call
                    continue
            break
        parent = index.parent(expr)
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) \
                and parent.func.id in ("iter", "next") and parent.args and parent.args[0] is expr:
            # `it = iter(ds)`, then `batch = next(it)` in a loop: the batches of the dataset
            loops = [loop for loop in index.loops_around(parent) if isinstance(loop, (ast.For, ast.While))]
            if parent.func.id == "next" and loops:
                sink = _loop_sink(index, loops[0].body, keras_compiled, _assigned(index, parent))
                if sink is not None:
                    return sink
            work.append((parent, depth + 1))
        elif isinstance(parent, ast.Call) and expr in parent.args or isinstance(parent, ast.keyword):
            owner = index.parent(parent) if isinstance(parent, ast.keyword) else parent
            sink = _call_sink(index, owner, keras_compiled) if isinstance(owner, ast.Call) else None
            if sink is not None:
                return sink
        elif isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is expr:
            body = parent.body if isinstance(parent, ast.For) else [index.parent(parent)]
            sink = _loop_sink(index, body, keras_compiled, set(target_names(parent.target)))
            if sink is not None:
                return sink
        elif isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
            name = parent.targets[0].id
            scope = index.function_of(parent) or index.tree
            for node in index.scope_nodes(scope):
                if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load) \
                        and node.lineno >= parent.lineno:
                    work.append((node, depth + 1))
            if scope is index.tree:  # a module-level dataset, read in the functions that iterate it
                for node in index.loads_of(name, index.tree):
                    if index.function_of(node) is not None and index.module_constant(node) is parent.value:
                        work.append((node, depth + 1))
        elif isinstance(parent, ast.Return):
            func = index.function_of(parent)
            if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for call, _ in index.calls:
                    if isinstance(call.func, ast.Name) and call.func.id == func.name:
                        work.append((call, depth + 1))
    return None

def _call_sink(index: ModuleIndex, call: ast.Call, keras_compiled: bool) -> tuple[str, str | None] | None:
    name = method_name(call)
    if name in _DISTRIBUTE and keras_compiled:
        return f"strategy.{name} (compiled per replica)", None
    if name in _KERAS_LOOPS and keras_compiled:
        return f"Keras {name}() of a jit-compiled/TPU model", "keras_fit_dataset_partial_batch"
    tfn = index.tf_function_called(call)
    if tfn is not None and _compiles(index, tfn):
        return f"tf.function `{tfn.name}`", _row(index, tfn)
    return None

def _loop_sink(index: ModuleIndex, body: Sequence[ast.AST | None], keras_compiled: bool,
               batches: set[str] = frozenset()) -> tuple[str, str | None] | None:  # type: ignore[assignment]
    """A compiled call in the body of a loop over the dataset: a ``tf.function`` of this file, or a
    function of this file handed a batch (a name in ``batches``, the loop's target) that passes
    it on to one (one level of helpers)."""
    for stmt in body:
        if stmt is None:
            continue
        for sub in ast.walk(stmt):
            if not isinstance(sub, ast.Call):
                continue
            tfn = index.tf_function_called(sub)
            if tfn is not None:
                if _compiles(index, tfn):
                    return f"tf.function `{tfn.name}` called in the loop over it", _row(index, tfn)
                continue
            through = _helper_compiles(index, sub, batches)
            if through is not None:
                helper, tfn = through
                return (f"tf.function `{tfn.name}` (through `{helper}()`) called in the loop over it",
                        _row(index, tfn))
            if keras_compiled and method_name(sub) in _STEP_CALLS and (
                    method_name(sub) != "run" or "strategy" in ast.unparse(sub.func).lower()):
                return f"{ast.unparse(sub.func)}() called in the loop over it", None
    return None



def _assigned(index: ModuleIndex, value: ast.expr) -> set[str]:
    """The names ``value`` is assigned to (``batch = next(it)``, ``x, y = next(it)``)."""
    stmt = index.parent(value)
    if isinstance(stmt, ast.Assign) and stmt.value is value:
        return {name for t in stmt.targets for name in target_names(t)}
    return set()


def _helper_compiles(index: ModuleIndex, call: ast.Call, batches: set[str]) -> tuple[str, TfFunction] | None:
    """``helper(batch)``: a module-level function of this file (not itself a ``tf.function``) handed
    a batch, whose body passes the parameter that receives it to a compiled ``tf.function``:
    (the helper's name, that tf.function)."""
    if not batches or not isinstance(call.func, ast.Name):
        return None
    helper = next((n for n in index.tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                   and n.name == call.func.id), None)
    if helper is None or call.func.id in index.tf_functions:
        return None
    fed = {param for param, arg in bound_arguments(positional_params(helper), call)
           if any(isinstance(n, ast.Name) and n.id in batches for n in ast.walk(arg))}
    for inner in ast.walk(helper):
        if not isinstance(inner, ast.Call):
            continue
        tfn = index.tf_function_called(inner)
        if tfn is not None and _compiles(index, tfn) and any(
                isinstance(n, ast.Name) and n.id in fed for a in [*inner.args, *(k.value for k in inner.keywords)]
                for n in ast.walk(a)):
            return helper.name, tfn
    return None


def _compiles(index: ModuleIndex, tfn: TfFunction) -> bool:
    """XLA compiles ``tfn``: ``jit_compile=True``, or a file that targets a TPU. A plain
    tf.function traces the smaller batch once more per process and compiles nothing with XLA
    (``dataset_partial_batch_epochs`` in xlacheck/data/tf_retrace.json: one retrace over three
    epochs), so it is a sink only while the table says that cost is bounded to one trace."""
    return is_true(tfn.keyword("jit_compile")) or index.uses_tpu or not retrace_table.bounded(
        "dataset_partial_batch_epochs", at_most=1)


def _row(index: ModuleIndex, tfn: TfFunction) -> str | None:
    """The table row that measured a partial last batch reaching ``tfn`` under ``jit_compile``."""
    if not is_true(tfn.keyword("jit_compile")):
        return None  # compiled because the file targets a TPU: not measured on the CPU
    return "dataset_partial_batch_epochs_input_signature" if tfn.has_input_signature else "dataset_partial_batch_epochs"
