"""XLA501: ``jit_compile=True`` in code that runs under ``TPUStrategy``."""

from __future__ import annotations

import ast

from xlacheck.analysis.module_index import ModuleIndex, is_true, method_name
from xlacheck.analysis.tables import TF_FUNCTION_NAMES as _TF_FUNCTION
from xlacheck.diagnostics import Applicability, Edit, Fix, Location
from xlacheck.rules.base import INLINE, Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Strategies that run on CPU/GPU: a file that creates one also runs where jit_compile helps.
_OTHER_STRATEGIES = ("MirroredStrategy", "OneDeviceStrategy", "MultiWorkerMirroredStrategy",
                     "CentralStorageStrategy", "ParameterServerStrategy", "tf.distribute.get_strategy")


def _guarded_on_device(index: ModuleIndex, node: ast.AST) -> bool:
    """Inside ``if <...tpu...>:`` / a conditional expression on the device type."""
    for anc in index.ancestors(node):
        test = getattr(anc, "test", None) if isinstance(anc, (ast.If, ast.IfExp)) else None
        if test is not None and "tpu" in ast.unparse(test).lower():
            return True
    return False


def _removal(call: ast.Call, kw: ast.keyword) -> Edit:
    """Delete ``kw`` together with one separating comma."""
    items: list[ast.AST] = sorted(list(call.args) + list(call.keywords),
                                  key=lambda n: (n.lineno, n.col_offset))  # type: ignore[attr-defined]
    i = items.index(kw)
    end = Location(kw.value.end_lineno or kw.lineno, kw.value.end_col_offset or 0)
    if i > 0:
        prev = items[i - 1]
        prev_end = prev.value if isinstance(prev, ast.keyword) else prev
        start = Location(prev_end.end_lineno or 0, prev_end.end_col_offset or 0)  # type: ignore[attr-defined]
        return Edit(start, end, "")
    start = Location(kw.lineno, kw.col_offset)
    if len(items) > 1:
        nxt = items[1]
        return Edit(start, Location(nxt.lineno, nxt.col_offset), "")  # type: ignore[attr-defined]
    return Edit(start, end, "")


class JitCompileUnderTpuStrategy(ModuleRule):
    """
    ## What it does
    In a file that sets up a TPU (`TPUStrategy`, `TPUClusterResolver`), flags `jit_compile=True`
    passed to `model.compile(...)` or `tf.function(...)`, unless the call sits under a condition
    on the device type (`if not use_tpu:`, `jit_compile=True if ... else ...`).

    ## Why is this bad?
    On a TPU every step is already compiled with XLA: `TPUStrategy` compiles the whole replica
    function. An explicit `jit_compile=True` asks for a nested XLA cluster inside it, which TPU
    code refuses or handles badly (errors about nested XLA compilation, or extra compilations).
    The guide's checklist: compile with `jit_compile=True` on CPU/GPU first, then take it out on
    TPU.

    ## Example
    ```python
    strategy = tf.distribute.TPUStrategy(resolver)
    with strategy.scope():
        model = build_model()
        model.compile(optimizer="adam", loss=loss_fn, jit_compile=True)
    ```

    ## Use instead
    ```python
    with strategy.scope():
        model = build_model()
        model.compile(optimizer="adam", loss=loss_fn,
                      jit_compile=not isinstance(strategy, tf.distribute.TPUStrategy))
    ```

    ## Fix safety
    The fix deletes the keyword. It is safe when the file creates no CPU/GPU strategy (the code
    runs only on TPU, where XLA is implicit); when it also creates `MirroredStrategy`,
    `get_strategy()`, ..., it is unsafe, because CPU/GPU runs would lose XLA: guard on the device
    type instead.
    """

    code = "XLA501"
    checks_test_files = False  # set-up rule: a test's set-up is a toy on purpose
    fix = INLINE  # check() builds the fix from the node it flags
    name = "jit-compile-under-tpu-strategy"

    VALID = (
        Example("import tensorflow as tf\nresolver = tf.distribute.cluster_resolver.TPUClusterResolver()\n"
                "strategy = tf.distribute.TPUStrategy(resolver)\nwith strategy.scope():\n"
                "    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n    model.compile(loss='mse')\n"),
        Example("import tensorflow as tf\nuse_tpu = True\nstrategy = tf.distribute.TPUStrategy() if use_tpu else tf.distribute.get_strategy()\n"
                "with strategy.scope():\n    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
                "    model.compile(loss='mse', jit_compile=True if not use_tpu else False)\n"),
        Example("import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
                "model.compile(loss='mse', jit_compile=True)\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\nresolver = tf.distribute.cluster_resolver.TPUClusterResolver()\n"
                "strategy = tf.distribute.TPUStrategy(resolver)\nwith strategy.scope():\n"
                "    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
                "    model.compile(loss='mse', jit_compile=True)\n",
                fixed="import tensorflow as tf\nresolver = tf.distribute.cluster_resolver.TPUClusterResolver()\n"
                      "strategy = tf.distribute.TPUStrategy(resolver)\nwith strategy.scope():\n"
                      "    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
                      "    model.compile(loss='mse')\n",
                expected=(
                    (6, 31, 'jit_compile=True in code that runs under TPUStrategy: the TPU already compiles the '
                            'whole step with XLA and refuses nested jit scopes; remove it, or set it only when not '
                            'on a TPU'),
                )),
        Example("import tensorflow as tf\nstrategy = tf.distribute.TPUStrategy()\n"
                "@tf.function(jit_compile=True)\ndef step(x):\n    return strategy.run(lambda v: v * 2.0, args=(x,))\n",
                fixed="import tensorflow as tf\nstrategy = tf.distribute.TPUStrategy()\n"
                      "@tf.function()\ndef step(x):\n    return strategy.run(lambda v: v * 2.0, args=(x,))\n",
                expected=(
                    (3, 14, 'jit_compile=True in code that runs under TPUStrategy: the TPU already compiles the '
                            'whole step with XLA and refuses nested jit scopes; remove it, or set it only when not '
                            'on a TPU'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        if not index.uses_tpu:
            return
        applicability = None
        for call, name in index.calls:
            if name not in _TF_FUNCTION and method_name(call) != "compile":
                continue
            kw = next((k for k in call.keywords if k.arg == "jit_compile"), None)
            if kw is None or not is_true(kw.value) or _guarded_on_device(index, call):
                continue
            if applicability is None:
                mixed = any(any(s in n for s in _OTHER_STRATEGIES) for _, n in index.calls if n)
                applicability = Applicability.UNSAFE if mixed else Applicability.SAFE
            fix = Fix("Remove jit_compile=True (XLA is implicit under TPUStrategy)", (_removal(call, kw),), applicability)
            ctx.report(self, kw, "jit_compile=True in code that runs under TPUStrategy: the TPU already compiles the "
                                 "whole step with XLA and refuses nested jit scopes; remove it, or set it only when "
                                 "not on a TPU", fix=fix)
