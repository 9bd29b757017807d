"""XLA407: an exported (serving) ``tf.function`` without ``input_signature``."""

from __future__ import annotations

import ast

from xlacheck.analysis.module_index import ModuleIndex, TfFunction, keyword, method_name
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_SERVING_NAMES = frozenset({"serving", "serve", "serving_fn", "serve_fn", "serving_default", "serving_function"})
_SAVERS = frozenset({"tf.saved_model.save", "tf.keras.models.save_model", "tf.compat.v2.saved_model.save"})


def _has_tensor_params(tfn: TfFunction) -> bool:
    """The Python function takes inputs (beyond ``self``): it needs a signature to be exported."""
    wrapped = tfn.wrapper.args[0] if isinstance(tfn.wrapper, ast.Call) and tfn.wrapper.args else None
    if tfn.definition is None and not isinstance(wrapped, ast.Lambda):
        return True
    # tf.function(lambda: ...) takes no inputs: get_concrete_function() is its only trace
    args = tfn.definition.args if tfn.definition is not None else wrapped.args  # type: ignore[union-attr]
    names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    if names and names[0] == "self":
        names = names[1:]
    return bool(names) or args.vararg is not None


class ServingFunctionWithoutInputSignature(ModuleRule):
    """
    ## What it does
    Flags a `tf.function` of this file that is exported without an `input_signature`: it is
    named like a serving function (`serving`, `serve`, `serving_fn`, ...), passed in
    `signatures=` to `tf.saved_model.save`/`model.save`, or asked for
    `.get_concrete_function()` with no arguments. Functions without inputs, serving-named
    functions that this file exports through `get_concrete_function(<TensorSpecs>)` (every
    function of that name: several classes often each have a `serve`), and serving-named
    functions that other code in the file calls (a helper of the exported function) are not
    flagged.

    ## Why is this bad?
    Without a signature the exported graph is whatever shapes happened to be traced: a served
    model retraces (and with XLA recompiles) for every new request shape and dtype, and
    `get_concrete_function()` / `signatures=` cannot build a graph at all without example
    inputs ("...requires the input_signature..."). An `input_signature` with `None` for the
    batch and sequence dimensions traces once and documents what the server accepts.

    ## Example
    ```python
    @tf.function
    def serving(self, inputs):
        return self.call(inputs)
    ```

    ## Use instead
    ```python
    @tf.function(input_signature=[{"input_ids": tf.TensorSpec([None, None], tf.int32, name="input_ids")}])
    def serving(self, inputs):
        return self.call(inputs)
    ```

    ## Fix safety
    No automatic fix: the signature (dtypes, which dimensions are `None`) is the author's call.
    """

    code = "XLA407"
    fix = None
    name = "serving-function-without-input-signature"
    severity = Severity.RECOMPILE

    VALID = (
        Example("import tensorflow as tf\nclass M(tf.keras.Model):\n"
                "    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32)])\n"
                "    def serving(self, ids):\n        return self(ids)\n"),
        Example("import tensorflow as tf\n@tf.function\ndef predict(x):\n    return x * 2.0\n"
                "tf.saved_model.save(m, 'out', signatures=predict.get_concrete_function(tf.TensorSpec([None], tf.float32)))\n"),
        Example("import tensorflow as tf\nclass M(tf.keras.Model):\n    @tf.function\n    def serving(self, ids):\n"
                "        return self(ids)\n    def export(self, path):\n"
                "        sig = self.serving.get_concrete_function(tf.TensorSpec([None, None], tf.int32))\n"
                "        tf.saved_model.save(self, path, signatures={'serving_default': sig})\n"),
        # no inputs: the concrete function is only read for its static output shape (tensorflow/probability)
        Example("import tensorflow as tf\ndef prior_shape(prior, n):\n"
                "    sample = tf.function(lambda: prior.sample(n))\n"
                "    return sample.get_concrete_function().output_shapes\n"),
    )
    INVALID = (
        Example("import tensorflow as tf\nclass M(tf.keras.Model):\n    @tf.function\n"
                "    def serving(self, ids):\n        return self(ids)\n",
                expected=(
                    (3, 6, 'tf.function `serving` has no input_signature but it is named `serving`, the serving '
                           'entry point: the export holds only the shapes traced so far, and serving retraces and '
                           'recompiles for every new input shape; add input_signature=[tf.TensorSpec([None, ...], '
                           'dtype)]'),
                )),
        Example("import tensorflow as tf\n@tf.function\ndef predict(x):\n    return x * 2.0\n"
                "tf.saved_model.save(m, 'out', signatures={'serving_default': predict})\n",
                expected=(
                    (2, 2, 'tf.function `predict` has no input_signature but it is exported through signatures=: the '
                           'export holds only the shapes traced so far, and serving retraces and recompiles for '
                           'every new input shape; add input_signature=[tf.TensorSpec([None, ...], dtype)]'),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef predict(x):\n    return x * 2.0\n"
                "concrete = predict.get_concrete_function()\n",
                expected=(
                    (2, 2, 'tf.function `predict` has no input_signature but get_concrete_function() is called '
                           'without example inputs: the export holds only the shapes traced so far, and serving '
                           'retraces and recompiles for every new input shape; add '
                           'input_signature=[tf.TensorSpec([None, ...], dtype)]'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        index = ctx.index
        if not index.tf_functions:
            return
        reported: set[int] = set()
        # Exported through get_concrete_function(<specs>): every tf.function the call may name (a
        # file often has several classes with a `serve` method, each exported this way).
        exports = [c for c, _ in index.calls if method_name(c) == "get_concrete_function" and (c.args or c.keywords)]
        specialized = {id(t.wrapper) for c in exports
                       for t in self._all_referred(index, c.func.value)}  # type: ignore[attr-defined]
        called = self._called_names(index)
        # A class that exports through get_concrete_function(TensorSpec...) on any of its methods
        # states its signatures there: its `serve`-named methods are exported that way or are
        # internal helpers (the documented exemption), whichever class comes first in the file.
        # The classes around those calls are found up the parent links (a whole-tree walk per
        # class cost more than the rest of the rule).
        exporting = {id(a): a for c in exports for a in index.ancestors(c) if isinstance(a, ast.ClassDef)}
        for cls in exporting.values():
            methods = {id(m) for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
            specialized.update(id(t.wrapper) for tfns in index.tf_functions.values() for t in tfns
                               if t.definition is not None and id(t.definition) in methods)
        for name, tfns in index.tf_functions.items():
            if name in _SERVING_NAMES and name not in called:  # called by other code: a helper, not the entry point
                for tfn in tfns:
                    if id(tfn.wrapper) not in specialized:
                        self._report(ctx, tfn, f"it is named `{name}`, the serving entry point", reported)
        for call, resolved in index.calls:
            if resolved in _SAVERS or method_name(call) == "save":
                kw = keyword(call, "signatures")
                if kw is None:
                    continue
                values = kw.value.values if isinstance(kw.value, ast.Dict) else [kw.value]
                for value in values:
                    exported = self._refers_to(index, value)
                    if exported is not None:
                        self._report(ctx, exported, "it is exported through signatures=", reported)
            elif method_name(call) == "get_concrete_function" and not call.args and not call.keywords:
                tfn = self._refers_to(index, call.func.value)  # type: ignore[attr-defined, assignment]
                if tfn is not None:
                    self._report(ctx, tfn, "get_concrete_function() is called without example inputs", reported)

    @staticmethod
    def _all_referred(index: ModuleIndex, node: ast.expr | None) -> list[TfFunction]:
        if isinstance(node, ast.Name):
            return [t for t in index.tf_functions.get(node.id, ()) if not t.is_method]
        if isinstance(node, ast.Attribute):
            return [t for t in index.tf_functions.get(node.attr, ()) if t.is_method]
        return []

    @staticmethod
    def _called_names(index: ModuleIndex) -> set[str]:
        """Names of functions this file calls directly (``serve(x)``, ``self.serve(x)``)."""
        out: set[str] = set()
        for call, _ in index.calls:
            if isinstance(call.func, ast.Name):
                out.add(call.func.id)
            elif isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name):
                out.add(call.func.attr)
        return out

    @staticmethod
    def _refers_to(index: ModuleIndex, node: ast.expr | None) -> TfFunction | None:
        if isinstance(node, ast.Name):
            return next((t for t in index.tf_functions.get(node.id, ()) if not t.is_method), None)
        if isinstance(node, ast.Attribute):
            return next((t for t in index.tf_functions.get(node.attr, ()) if t.is_method), None)
        return None

    def _report(self, ctx: ModuleContext, tfn: TfFunction, why: str, reported: set[int]) -> None:
        if tfn.has_input_signature or not _has_tensor_params(tfn) or id(tfn.wrapper) in reported:
            return
        reported.add(id(tfn.wrapper))
        ctx.report(self, tfn.wrapper,
                   f"tf.function `{tfn.name}` has no input_signature but {why}: the export holds only the shapes "
                   "traced so far, and serving retraces and recompiles for every new input shape; add "
                   "input_signature=[tf.TensorSpec([None, ...], dtype)]")
