"""XLA318: a value the code can make NaN reaches an op whose NaN result XLA computes differently."""

from __future__ import annotations

import ast

from xlacheck import divergence_table
from xlacheck.analysis.contexts import Level
from xlacheck.analysis.scopes import own_nodes
from xlacheck.analysis.tables import BOOL_FUNCS
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example, Rule, RuleContext, argument, call_name

# Divisions written as calls (``a / b`` is the BinOp form).
_DIVIDE_CALLS = frozenset({"tf.math.divide", "tf.divide", "tf.math.truediv", "tf.truediv", "tf.realdiv",
                           "tf.math.realdiv"})
# A denominator that is 0 when nothing was counted: a sum or count over a mask or one-hot matrix.
_COUNT_LAST_NAMES = frozenset({"reduce_sum", "count_nonzero", "sum", "unsorted_segment_sum", "segment_sum",
                               "bincount"})
# Ops whose every output element is > 0 (a sum of them is no empty count).
_POSITIVE = frozenset({"exp", "softmax", "sigmoid", "softplus", "ones", "ones_like"})
# Value-preserving wrappers a count passes through unchanged (zero stays zero).
_PASS_THROUGH = frozenset({"cast", "expand_dims", "reshape", "identity", "stop_gradient", "squeeze",
                           "convert_to_tensor"})
# Functions whose result is not NaN whatever their input (a guard, a predicate, a position, a shape).
_NOT_NAN = frozenset({"where", "divide_no_nan", "multiply_no_nan", "nan_to_num", "is_nan", "is_finite",
                      "is_inf", "argmax", "argmin", "shape", "size", "rank", "one_hot", "ones_like",
                      "zeros_like", "sequence_mask"})
_INT_DTYPES = frozenset({"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"})
# Ops that return NaN for NaN in both modes (XLA spreads it over the row): not a silent difference.
_BOTH_NAN = ("XLA makes the whole row NaN",)
_FIRST_OPERAND_ONLY = "XLA propagates NaN only from the first operand"
# Readings that hold for the table's probe but not for every compile: XLA:CPU orders a NaN by its
# sign bit, and the sign a 0/0 gets depends on how the division is fused (measured on TF 2.21:
# ``tf.sort(x / tf.reduce_sum(m, 1))`` puts the NaN last, the same sort in a function that also
# returns the quotient puts it first). What the message says instead.
_SIGN_DEPENDENT = {"XLA sorts NaN last": "XLA moves the NaN to one end (last or first, by the sign bit the compiled "
                                        "0/0 gets)"}
# Measured functions whose NaN-sensitive input is not the first argument: (position, keyword).
_SUBJECT = {"tf.math.in_top_k": (1, "predictions"), "tf.searchsorted": (1, "values")}
# The table's class for the NaN this rule tracks: computed as 0/0 inside the compiled function (x86's
# negative default NaN, which XLA's sort and top_k order differently from a NaN passed in).
_NAN_CLASS = "nan_from_zero_division"
_DEPTH = 16  # expression nodes followed from the sink back to the division


def _last(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _framework_call(name: str | None) -> bool:
    return name is not None and name.startswith(("tf.", "keras."))


def _text(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."


def _values(measured: object) -> str:
    if isinstance(measured, dict):
        if "error" in measured:
            return f"raises {measured['error']}"
        return str(measured.get("values")).replace("'nan'", "nan")
    if isinstance(measured, list):
        return ", ".join(_values(m) for m in measured)
    return str(measured)


class _Flow:
    """Single-assignment bindings of one function and the questions the rule asks of them."""

    def __init__(self, function: ast.AST, ctx: RuleContext, helpers: frozenset[int] = frozenset()) -> None:
        self.ctx = ctx
        self.function = function
        self.helpers = helpers | {id(function)}  # functions on the path here (no recursion)
        self.returns: list[ast.expr] = []
        self.owners: dict[int, str] = {}  # id(division) -> the helper it is in, for divisions found in helpers
        self.bound: dict[str, list[ast.AST]] = {}
        self._sources: dict[int, ast.expr | None] = {}
        for n in own_nodes(function):
            if isinstance(n, ast.Return) and n.value is not None:
                self.returns.append(n.value)
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                self.bound.setdefault(n.targets[0].id, []).append(n.value)
            elif isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr)):
                if isinstance(n, ast.With):  # binds its `as` targets only, not the names in its body
                    targets = [item.optional_vars for item in n.items if item.optional_vars is not None]
                else:
                    targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                for t in targets:
                    for name in ast.walk(t):
                        if isinstance(name, ast.Name):
                            self.bound.setdefault(name.id, []).append(name)

    def _single(self, name: ast.Name) -> ast.expr | None:
        values = self.bound.get(name.id, [])
        value = values[0] if len(values) == 1 else self._reaching(name)
        return value if isinstance(value, ast.expr) else None

    def _reaching(self, use: ast.Name) -> ast.expr | None:
        """The value of a name bound several times, where the binding that reaches ``use`` is plain: the
        last statement before the one holding ``use`` that binds the name, in its block or the blocks
        around it (``with`` bodies run straight through), is ``name = value`` (``x, mask = inputs``
        then ``x = x / count``: the division). None when that statement binds it another way, or the
        statement holding ``use`` rebinds it around the read (a loop, a branch)."""
        if not hasattr(use, "lineno"):
            return None
        here = (use.lineno, use.col_offset)
        chain: list[tuple[list[ast.stmt], int]] = []
        block = getattr(self.function, "body", None)
        while isinstance(block, list):
            index = next((i for i, s in enumerate(block)
                          if (s.lineno, s.col_offset) <= here <= (s.end_lineno or s.lineno, s.end_col_offset or 0)),
                         None)
            if index is None:
                return None
            chain.append((block, index))
            holder = block[index]
            inner = holder.body if isinstance(holder, (ast.With, ast.AsyncWith)) else None
            block = inner if inner and (inner[0].lineno, inner[0].col_offset) <= here else None
        if not chain:  # a lambda: its body is one expression, no statement binds a name in it
            return None
        holder = chain[-1][0][chain[-1][1]]
        if _stores(holder, use.id) and not _plain(holder, None):  # `x = f(x)` reads the earlier x; a loop may not
            return None
        for block, index in reversed(chain):
            if block[index] is not holder and _stores(block[index], use.id, items_only=True):
                return None  # `with ... as name:` around the use
            for stmt in reversed(block[:index]):
                if _stores(stmt, use.id):
                    return stmt.value if _plain(stmt, use.id) else None  # type: ignore[attr-defined]
        return None

    def _positive(self, e: ast.expr, depth: int = 0) -> bool:
        """Summands that are never 0 (``tf.exp(x)``, a softmax), so their sum is not either."""
        if isinstance(e, ast.Name) and depth < _DEPTH:
            value = self._single(e)
            return value is not None and self._positive(value, depth + 1)
        if not isinstance(e, ast.Call):
            return False
        name = call_name(e, self.ctx)
        return _framework_call(name) and _last(name or "") in _POSITIVE

    def may_be_zero(self, e: ast.expr | None, depth: int = 0) -> bool:
        """A sum or count that is 0 when nothing was counted, with no `+ eps` / `tf.maximum` guard."""
        if e is None or depth > _DEPTH:
            return False
        if isinstance(e, ast.Name):
            return self.may_be_zero(self._single(e), depth + 1)
        if isinstance(e, ast.Subscript):
            return self.may_be_zero(e.value, depth + 1)
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Mult):
            return self.may_be_zero(e.left, depth + 1) or self.may_be_zero(e.right, depth + 1)
        if isinstance(e, ast.Call):
            name = call_name(e, self.ctx)
            if not _framework_call(name):
                return False
            assert name is not None
            if _last(name) in _COUNT_LAST_NAMES:
                # a reduction of positive summands is positive; a segment sum of them is still 0 for
                # an empty segment
                return not (_last(name) in ("reduce_sum", "sum") and e.args and self._positive(e.args[0]))
            if _last(name) in _PASS_THROUGH and e.args:
                return self.may_be_zero(e.args[0], depth + 1)
        return False

    def _helper_source(self, name: str) -> ast.expr | None:
        """A module-level helper of this file whose return is a division by a possibly-zero count
        computed in the helper itself (``means = class_means(x, labels)``)."""
        info = self.ctx.module_funcs[name]
        if id(info.node) in self.helpers or len(self.helpers) > 2 or isinstance(info.node, ast.Lambda):
            return None
        helper = _Flow(info.node, self.ctx, self.helpers)
        helper.owners = self.owners
        source = _helper_returns_nan(helper)
        if source is not None:
            self.owners.setdefault(id(source), name)
        return source

    def nan_source(self, e: ast.expr | None, depth: int = 0) -> ast.expr | None:
        """The division by a possibly-zero count that makes ``e`` possibly NaN (0/0), or None."""
        if e is None or depth > _DEPTH:
            return None
        key = id(e)
        if key not in self._sources:  # a name used many times is followed once
            self._sources[key] = self._nan_source(e, depth)
        return self._sources[key]

    def _nan_source(self, e: ast.expr, depth: int) -> ast.expr | None:
        if isinstance(e, ast.Name):
            return self.nan_source(self._single(e), depth + 1)
        if isinstance(e, ast.Subscript):
            return self.nan_source(e.value, depth + 1)
        if isinstance(e, ast.UnaryOp):
            return self.nan_source(e.operand, depth + 1)
        if isinstance(e, (ast.List, ast.Tuple)):  # the operands of tf.concat / tf.stack
            return next((found for found in (self.nan_source(elt, depth + 1) for elt in e.elts) if found), None)
        if isinstance(e, ast.BinOp):
            if isinstance(e.op, ast.Div) and self.may_be_zero(e.right):
                return e
            return self.nan_source(e.left, depth + 1) or self.nan_source(e.right, depth + 1)
        if isinstance(e, ast.Call):
            name = call_name(e, self.ctx)
            if isinstance(e.func, ast.Name) and e.func.id in self.ctx.module_funcs:
                return self._helper_source(e.func.id)
            if not _framework_call(name):
                return None
            assert name is not None
            if name in _DIVIDE_CALLS and len(e.args) >= 2 and self.may_be_zero(e.args[1]):
                return e
            if _last(name) in _NOT_NAN or name in BOOL_FUNCS or _int_cast(e, name, self.ctx) is not None:
                return None
            for arg in e.args:
                found = self.nan_source(arg, depth + 1)
                if found is not None:
                    return found
        return None


def _stores(stmt: ast.stmt, name: str, items_only: bool = False) -> bool:
    """Whether ``stmt`` (nested functions left out) binds ``name``; with ``items_only``, whether the
    ``as`` targets of a ``with`` statement do."""
    if items_only:
        nodes = [n for item in getattr(stmt, "items", ()) if item.optional_vars is not None
                 for n in ast.walk(item.optional_vars)]
    else:
        nodes = list(own_nodes([stmt]))
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in nodes)


def _plain(stmt: ast.stmt, name: str | None) -> bool:
    """``name = value`` (any single name when ``name`` is None)."""
    return (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
            and (name is None or stmt.targets[0].id == name))


def _helper_returns_nan(flow: _Flow) -> ast.expr | None:
    """The division that makes a helper's return possibly NaN (any of its returns), or None."""
    return next((src for src in map(flow.nan_source, flow.returns) if src is not None), None)


def _number(e: ast.expr) -> bool:
    """A Python number literal (``0.0``, ``-1``)."""
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
        e = e.operand
    return isinstance(e, ast.Constant) and type(e.value) in (int, float)


def _int_cast(node: ast.Call, name: str, ctx: RuleContext) -> str | None:
    """The integer dtype of ``tf.cast(x, tf.int32)`` (``"int32"``), or None."""
    if _last(name) != "cast":
        return None
    dtype = argument(node, 1, "dtype")
    if isinstance(dtype, ast.Constant) and isinstance(dtype.value, str):
        spelled: str | None = dtype.value
    else:
        resolved = ctx.resolve(dtype) if isinstance(dtype, (ast.Attribute, ast.Name)) else None
        spelled = _last(resolved) if resolved else None
    return spelled if spelled in _INT_DTYPES else None


class PossibleNanWhereXlaDiffers(Rule):
    """
    ## What it does
    Flags, in jit-compiled code, a call whose result XLA computes differently from TensorFlow
    eager when its input holds NaN (`tf.argmax`/`tf.argmin`, `tf.math.top_k`, `tf.sort`,
    `tf.argsort`, `tf.reduce_max`/`tf.reduce_min`, `tf.math.unsorted_segment_max`,
    `tf.math.in_top_k`, `tf.searchsorted`, the second operand of `tf.maximum`/`tf.minimum`, and
    `tf.cast` to an integer dtype) when the code makes that input possibly NaN: it is computed
    from a division by a sum or count (`tf.reduce_sum`, `tf.math.count_nonzero`,
    `tf.math.unsorted_segment_sum`, `tf.math.bincount`) with no `+ eps`, `tf.maximum`,
    `tf.where` or `divide_no_nan` guard, so an empty class or an all-zero mask gives 0/0. The
    division is followed through names bound once (or, for a name bound several times, the plain
    `name = value` that last binds it before the read, in its block or the `with` blocks around it:
    `x, mask = inputs` then `x = x / count`), arithmetic, the operands of `tf.concat`/`tf.stack`,
    TensorFlow ops and module-level helpers of the same file. Which ops differ, and how, is read from
    `xlacheck/data/tf_xla_divergence.json` (`python tools/generate_divergence_table.py` runs every
    op eagerly and under `jit_compile=True` on edge inputs, with NaN made as 0/0 in the function).

    ## Why is this bad?
    Eagerly the NaN shows: `tf.reduce_max` returns NaN, `tf.argmax` ignores it. Compiled,
    TensorFlow 2.21's XLA:CPU does otherwise (measured): `tf.argmax` picks a trailing NaN,
    `tf.reduce_max` drops NaN, `tf.sort` moves NaN to one end (last or first: XLA orders NaN by its
    sign bit, and the sign of a 0/0 depends on how the division was compiled) where eager leaves it
    in place, `tf.cast`
    saturates NaN and out-of-range floats to other integers. A nearest-prototype classifier with
    an empty class predicts a different class when compiled; no error, other numbers.

    ## Example
    ```python
    @tf.function(jit_compile=True)
    def predict(features, prototypes_sum, one_hot):
        counts = tf.reduce_sum(one_hot, axis=0)[:, None]
        prototypes = prototypes_sum / counts
        scores = -tf.reduce_sum(tf.square(features[:, None] - prototypes[None]), axis=-1)
        return tf.argmax(scores, axis=-1)
    ```

    ## Use instead
    ```python
    @tf.function(jit_compile=True)
    def predict(features, prototypes_sum, one_hot):
        counts = tf.reduce_sum(one_hot, axis=0)[:, None]
        prototypes = tf.math.divide_no_nan(prototypes_sum, counts)  # 0, not NaN, for an empty class
        scores = -tf.reduce_sum(tf.square(features[:, None] - prototypes[None]), axis=-1)
        return tf.argmax(scores, axis=-1)
    ```

    ## Fix safety
    No automatic fix: the guard decides what an empty count means (`divide_no_nan` gives 0,
    `tf.maximum(count, 1)` the numerator, masking the NaN a chosen value), and each equals the plain
    division wherever the count is not 0. Pick the one the model means.
    """

    code = "XLA318"
    name = "possible-nan-where-xla-differs"
    severity = Severity.WRONG_RESULT
    node_types = (ast.Call,)
    levels = frozenset({Level.CERTAIN})  # a Keras method or a plain tf.function may never meet XLA
    fix = None  # each guard (eps, tf.maximum, divide_no_nan) gives an empty count its own meaning: advice only

    VALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(s, oh):\n"
                "    counts = tf.reduce_sum(oh, axis=0)\n    return tf.argmax(tf.math.divide_no_nan(s, counts))\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(s, oh):\n"
                "    counts = tf.reduce_sum(oh, axis=0) + 1e-9\n    return tf.argmax(s / counts)\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(s, oh):\n"
                "    return tf.argmax(s / tf.maximum(tf.reduce_sum(oh, axis=0), 1.0))\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(logits):\n"
                "    return tf.argmax(logits / 2.0), tf.reduce_max(logits)\n"),
        Example("import tensorflow as tf\ndef f(s, oh):\n"
                "    return tf.argmax(s / tf.reduce_sum(oh, axis=0))\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(s, oh):\n"
                "    return tf.nn.softmax(s / tf.reduce_sum(oh, axis=0))\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(s, oh):\n"
                "    return tf.maximum(0.0, s / tf.reduce_sum(oh, axis=0))  # a Python number first: measured equal\n"),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(logits):\n"
                "    w = tf.exp(logits)\n    return tf.argmax(w / tf.reduce_sum(w, -1, keepdims=True), -1)\n"),
        # a name bound by tuple unpacking, then rebound to a guarded division
        Example('import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(inputs):\n'
                '    x, mask = inputs\n'
                '    x = tf.math.divide_no_nan(tf.reduce_sum(x * mask, 1), tf.reduce_sum(mask, 1))\n'
                '    return tf.argmax(x, -1)\n'),
        # a lambda's parameter (its body is an expression: no statement binds it) is not a NaN source
        Example('import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x):\n'
                '    return tf.map_fn(lambda row: tf.reduce_max(row, axis=0), x)\n'),
    )
    INVALID = (
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(sums, one_hot):\n"
                "    counts = tf.reduce_sum(one_hot, axis=0)[:, None]\n    means = sums / counts\n"
                "    return tf.argmax(-means[:, 0]), tf.cast(means * 10.0, tf.int32)\n",
                expected=(
                    (6, 12, "tf.argmax of a value that is NaN when `counts` is 0 (`sums / counts` at line 5, no "
                            "guard): XLA picks the NaN where TensorFlow eager does not (measured, "
                            "xlacheck/data/tf_xla_divergence.json: [1, 3, 2, nan] (NaN last) gives 1 eagerly, 3 "
                            "under XLA); guard the division (tf.math.divide_no_nan, or tf.maximum on the count) "
                            "(compiled: decorated with tf.function(jit_compile=True) at line 2)"),
                    (6, 37, "tf.cast to int32 of a value that is NaN when `counts` is 0 (`sums / counts` at line 5, "
                            "no guard): XLA saturates and maps NaN to 0 where TensorFlow eager does not (measured, "
                            "xlacheck/data/tf_xla_divergence.json: float32 [nan, inf, -inf, 3e9, -3e9, 300, -1, "
                            "2.7] -> int32 gives [-2147483648, -2147483648, -2147483648, -2147483648, -2147483648, "
                            "300, -1, 2] eagerly, [0, 2147483647, -2147483648, 2147483647, -2147483648, 300, -1, 2] "
                            "under XLA); guard the division (tf.math.divide_no_nan, or tf.maximum on the count) "
                            "(compiled: decorated with tf.function(jit_compile=True) at line 2)"),
                )),
        Example("import tensorflow as tf\ndef class_means(x, one_hot):\n"
                "    return tf.matmul(one_hot, x, transpose_a=True) / tf.reduce_sum(one_hot, 0)[:, None]\n"
                "@tf.function(jit_compile=True)\ndef predict(q, x, one_hot):\n"
                "    return tf.argmax(tf.linalg.matvec(class_means(x, one_hot), q))\n",
                expected=(
                    (6, 12, "tf.argmax of a value that is NaN when `tf.reduce_sum(one_hot, 0)[:, None]` is 0 "
                            "(`tf.matmul(one_hot, x, transpose_a=True) / tf.reduce_sum(o...` in class_means() at "
                            "line 3, no guard): XLA picks the NaN where TensorFlow eager does not (measured, "
                            "xlacheck/data/tf_xla_divergence.json: [1, 3, 2, nan] (NaN last) gives 1 eagerly, 3 "
                            "under XLA); guard the division (tf.math.divide_no_nan, or tf.maximum on the count) "
                            "(compiled: decorated with tf.function(jit_compile=True) at line 4)"),
                )),
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, mask, floor):\n"
                "    mean = tf.reduce_sum(x * mask, 1) / tf.reduce_sum(mask, 1)\n"
                "    return tf.reduce_max(mean), tf.maximum(floor, mean)\n",
                expected=(
                    (5, 12, "tf.reduce_max of a value that is NaN when `tf.reduce_sum(mask, 1)` is 0 "
                            "(`tf.reduce_sum(x * mask, 1) / tf.reduce_sum(mask, 1)` at line 4, no guard): XLA "
                            "ignores NaN where TensorFlow eager does not (measured, "
                            "xlacheck/data/tf_xla_divergence.json: [1, nan, 3, 2] gives nan eagerly, 3.0 under XLA); "
                            "guard the division (tf.math.divide_no_nan, or tf.maximum on the count) (compiled: "
                            "decorated with tf.function(jit_compile=True) at line 2)"),
                    (5, 33, "tf.maximum of a value that is NaN when `tf.reduce_sum(mask, 1)` is 0 "
                            "(`tf.reduce_sum(x * mask, 1) / tf.reduce_sum(mask, 1)` at line 4, no guard): XLA "
                            "propagates NaN only from the first operand where TensorFlow eager does not (measured, "
                            "xlacheck/data/tf_xla_divergence.json: maximum/minimum([1, nan], [nan, 1]) gives "
                            "[nan, nan] eagerly, [1.0, nan] under XLA); guard the division (tf.math.divide_no_nan, "
                            "or tf.maximum on the count) (compiled: decorated with tf.function(jit_compile=True) at "
                            "line 2)"),
                )),
        # where the sorted NaN lands depends on the NaN's sign, which depends on the compile
        Example("import tensorflow as tf\n@tf.function(jit_compile=True)\ndef f(x, m):\n"
                "    return tf.sort(x / tf.reduce_sum(m, 1))\n",
                expected=(
                    (4, 12, "tf.sort of a value that is NaN when `tf.reduce_sum(m, 1)` is 0 (`x / tf.reduce_sum(m, 1)` "
                            "at line 4, no guard): XLA moves the NaN to one end (last or first, by the sign bit the "
                            "compiled 0/0 gets) where TensorFlow eager does not (measured, "
                            "xlacheck/data/tf_xla_divergence.json: sort([3, nan, 1, 2]) gives [1.0, 3.0, nan, 2.0] "
                            "eagerly, [1.0, 2.0, 3.0, nan] under XLA); guard the division (tf.math.divide_no_nan, or "
                            "tf.maximum on the count) (compiled: decorated with tf.function(jit_compile=True) at "
                            "line 2)"),
                )),
        # the last binding before the read decides (`x, mask = inputs`, then `x = ... / count`)
        Example('import tensorflow as tf\nclass Pool(tf.keras.layers.Layer):\n'
                '    def call(self, inputs):\n        x, mask = inputs\n'
                '        x = tf.reduce_sum(x * mask, 1) / tf.reduce_sum(mask, 1)\n'
                '        return tf.argmax(x, -1)\nmodel = tf.keras.Sequential([Pool()])\n'
                'model.compile(loss="mse", jit_compile=True)\n',
                expected=(
                    (6, 16, 'tf.argmax of a value that is NaN when `tf.reduce_sum(mask, 1)` is '
                            '0 (`tf.reduce_sum(x * mask, '
                        '1) / tf.reduce_sum(mask, 1)` at line 5, no guard): XLA picks the NaN where TensorFlow eager '
                        'does not (measured, xlacheck/data/tf_xla_divergence.json: [1, 3, 2, nan] (NaN last) gives 1 '
                        'eagerly, 3 under XLA); guard the division (tf.math.divide_no_nan, or tf.maximum on the count) '
                        '(compiled: Keras call() of a Pool in a model compiled with '
                        'jit_compile=True (line 8) at line 8)'),
                )),
        # inside a GradientTape block
        Example('import tensorflow as tf\n@tf.function(jit_compile=True)\ndef step(x, w, mask):\n'
                '    with tf.GradientTape() as tape:\n        h = x * w\n'
                '        mean = tf.reduce_sum(h * mask, 1) / tf.reduce_sum(mask, 1)\n'
                '        top = tf.reduce_max(mean)\n    return top, tape.gradient(top, w)\n',
                expected=(
                    (7, 15, 'tf.reduce_max of a value that is NaN when `tf.reduce_sum(mask, '
                            '1)` is 0 (`tf.reduce_sum(h * '
                        'mask, 1) / tf.reduce_sum(mask, 1)` at line 6, no guard): XLA '
                        'ignores NaN where TensorFlow eager'
                        ' does not (measured, xlacheck/data/tf_xla_divergence.json: [1, nan, 3, 2] gives nan eagerly, '
                        '3.0 under XLA); guard the division (tf.math.divide_no_nan, or tf.maximum on the count) '
                        '(compiled: decorated with tf.function(jit_compile=True) at line 2)'),
                )),
    )

    def __init__(self) -> None:
        # The bindings of the function being walked, built on its first call node (one context
        # per function walk; holding it keeps its identity unique).
        self._flow: tuple[RuleContext, _Flow] | None = None

    def _flow_of(self, ctx: RuleContext) -> _Flow:
        if self._flow is None or self._flow[0] is not ctx:
            self._flow = (ctx, _Flow(ctx.function.node, ctx))
        return self._flow[1]

    def check(self, node: ast.AST, ctx: RuleContext) -> None:
        assert isinstance(node, ast.Call)
        name = call_name(node, ctx)
        if not _framework_call(name) or not node.args:
            return
        assert name is not None
        int_dtype = _int_cast(node, name, ctx)
        if int_dtype is not None:
            probe = next((p for p in divergence_table.probes("tf.cast", "narrowing_cast")
                          if p.outcome in divergence_table.DIVERGENT and p.input.startswith("float")
                          and p.input.endswith(f"-> {int_dtype}")), None)
            subject: ast.expr | None = node.args[0]
            what = f"{name} to {int_dtype}"
        else:
            form = "constant_first" if _number(node.args[0]) else None
            probe = divergence_table.divergence(name, _NAN_CLASS, form)
            if probe is None or probe.how in _BOTH_NAN:
                return
            position, keyword = _SUBJECT.get(probe.api, (0, ""))
            subject = argument(node, position, keyword) if position else node.args[0]
            if probe.how == _FIRST_OPERAND_ONLY:  # NaN in the first operand shows in both modes
                if len(node.args) < 2:
                    return
                subject = node.args[1]
            what = name
        if probe is None:
            return
        flow = self._flow_of(ctx)
        source = flow.nan_source(subject)
        if source is None:
            return
        denominator = source.right if isinstance(source, ast.BinOp) else source.args[1]  # type: ignore[attr-defined]
        where = f"in {flow.owners[id(source)]}() at line" if id(source) in flow.owners else "at line"
        how = f"{_SIGN_DEPENDENT.get(probe.how, probe.how)} where TensorFlow eager does not" if probe.how else \
            "XLA returns another result than TensorFlow eager"
        ctx.report(self, node,
                   f"{what} of a value that is NaN when `{_text(denominator)}` is 0 (`{_text(source)}` {where} "
                   f"{source.lineno}, no guard): {how} (measured, xlacheck/data/tf_xla_divergence.json: "
                   f"{probe.input} gives {_values(probe.eager)} eagerly, {_values(probe.xla)} under XLA); guard the "
                   f"division (tf.math.divide_no_nan, or tf.maximum on the count) (compiled: {ctx.function.evidence})")
