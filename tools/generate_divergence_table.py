"""Generate xlacheck/data/tf_xla_divergence.json: where XLA computes another result than TensorFlow eager.

One command (needs TensorFlow; xlacheck itself never imports it):

    python tools/generate_divergence_table.py            # writes xlacheck/data/tf_xla_divergence.json
    python tools/generate_divergence_table.py --check    # re-measures and compares with the file

Every probe calls one public TensorFlow function on an edge input of one class (out-of-range or
negative indices, NaN/inf, ties, integer overflow and division by zero, narrowing casts, empty
tensors, precision extremes) twice on CPU: eagerly and inside ``tf.function(jit_compile=True)``
(XLA:CPU, with the default ``XLA_FLAGS``: the generator clears them, because flags such as
``--xla_cpu_enable_fast_min_max`` change the answer). Each entry records

* ``outcome``: ``equal`` (bit for bit, NaN equal to NaN), ``close`` (within the oracle's tolerance,
  rtol 1e-4 / atol 1e-5, but not identical), ``differs``, ``eager_error`` (eager raises, XLA
  returns values), ``xla_error`` (XLA raises, eager returns values) or ``both_error``;
* ``eager`` and ``xla``: the values (or the error type) each mode returned;
* ``how``: for a probe that names readings of the XLA result (``"clamps the index"``, ``"returns
  zeros"``, ``"ignores NaN"``, ``"wraps"`` ...), the first reading that matches what XLA returned.

Seeded random ops are not probed here: ``xlacheck/data/tf_api.json`` (``xla_values``) holds them
(XLA315). The output is deterministic apart from the ``generated`` date (``SOURCE_DATE_EPOCH``
pins it); the run time is printed, not stored.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tools"))

import _table_check  # noqa: E402  (tools/ is not a package)

DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "tf_xla_divergence.json"
COMMAND = "python tools/generate_divergence_table.py"
SCHEMA_VERSION = 1
PLUMBING_OPS = frozenset({"Const", "Identity", "NoOp"})  # every traced function has them
RTOL, ATOL = 1e-4, 1e-5  # the oracle's tolerance (../shared/eval/xla_cases/oracle.py)

CLASSES = {
    "out_of_range_index": "an index >= the size of the indexed axis",
    "negative_index": "an index < 0",
    "nan": "a NaN among the values (passed in: float('nan'), a positive quiet NaN)",
    "nan_from_zero_division": "the same NaN inputs, each NaN computed inside the function as 0/0 (x86's negative "
                              "default NaN, the NaN an empty count gives)",
    "inf": "+inf / -inf among the values",
    "ties": "equal values compete (which index wins, stable order)",
    "int_overflow": "integer arithmetic whose exact result does not fit the dtype",
    "int_division_by_zero": "integer division or modulo by 0",
    "narrowing_cast": "a cast of a value the target dtype cannot hold (NaN, inf, out of range)",
    "empty": "a tensor with a 0-sized axis",
    "precision": "float16/bfloat16 accumulation, extremes of exp/log, denormals",
    "decomposition_sign": "a well-conditioned matrix whose decomposition is unique only up to the sign of each "
                          "eigenvector / singular vector",
}


@dataclass
class Probe:
    """One call: ``fn(*args())`` eagerly and compiled. ``readings`` maps a description of what XLA
    may do to a function of the eager-computable reference value it would then return."""

    api: str
    input_class: str
    input: str
    fn: Callable[..., Any]
    args: Callable[[], tuple[Any, ...]]
    readings: dict[str, Callable[[], Any]] = field(default_factory=dict)
    # A form of the call that the linter can see and that changes the answer ("constant_first":
    # the first operand is a Python number); None: tensors everywhere.
    form: str | None = None


def _probes(tf: Any) -> list[Probe]:  # noqa: PLR0915 - one flat list reads best
    c = tf.constant
    i32 = tf.int32
    nan, inf = float("nan"), float("inf")
    params = c([10.0, 20.0, 30.0, 40.0])
    probes: list[Probe] = []

    def add(api: str, cls: str, text: str, fn: Callable[..., Any], args: Callable[[], tuple[Any, ...]],
            **readings: Callable[[], Any]) -> None:
        probes.append(Probe(api, cls, text, fn, args, {k.replace("_", " "): v for k, v in readings.items()}))

    zeros1 = lambda: tf.zeros([1])  # noqa: E731
    # --- indices ---------------------------------------------------------------------------------
    add("tf.gather", "out_of_range_index", "params[4], indices [1, 4]",
        lambda p, i: tf.gather(p, i), lambda: (params, c([1, 4])),
        returns_zeros_there=lambda: c([20.0, 0.0]), clamps_the_index=lambda: c([20.0, 40.0]))
    add("tf.gather", "negative_index", "params[4], indices [1, -1]",
        lambda p, i: tf.gather(p, i), lambda: (params, c([1, -1])),
        returns_zeros_there=lambda: c([20.0, 0.0]), clamps_the_index=lambda: c([20.0, 10.0]),
        wraps_like_python=lambda: c([20.0, 40.0]))
    add("tf.gather_nd", "out_of_range_index", "params[4], indices [[1], [4]]",
        lambda p, i: tf.gather_nd(p, i), lambda: (params, c([[1], [4]])),
        returns_zeros_there=lambda: c([20.0, 0.0]), clamps_the_index=lambda: c([20.0, 40.0]))
    add("tf.gather_nd", "negative_index", "params[4], indices [[1], [-1]]",
        lambda p, i: tf.gather_nd(p, i), lambda: (params, c([[1], [-1]])),
        returns_zeros_there=lambda: c([20.0, 0.0]), clamps_the_index=lambda: c([20.0, 10.0]))
    table = c([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    add("tf.nn.embedding_lookup", "out_of_range_index", "table[3, 2], ids [0, 3]",
        lambda t, i: tf.nn.embedding_lookup(t, i), lambda: (table, c([0, 3])),
        returns_zeros_there=lambda: c([[1.0, 2.0], [0.0, 0.0]]),
        clamps_the_index=lambda: c([[1.0, 2.0], [5.0, 6.0]]))
    add("tf.nn.embedding_lookup", "negative_index", "table[3, 2], ids [0, -1]",
        lambda t, i: tf.nn.embedding_lookup(t, i), lambda: (table, c([0, -1])),
        returns_zeros_there=lambda: c([[1.0, 2.0], [0.0, 0.0]]),
        clamps_the_index=lambda: c([[1.0, 2.0], [1.0, 2.0]]))
    add("tf.one_hot", "out_of_range_index", "indices [1, 3], depth 3",
        lambda i: tf.one_hot(i, 3), lambda: (c([1, 3]),),
        returns_zeros_there=lambda: c([[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]))
    add("tf.one_hot", "negative_index", "indices [1, -1], depth 3",
        lambda i: tf.one_hot(i, 3), lambda: (c([1, -1]),),
        returns_zeros_there=lambda: c([[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]))
    data = c([1.0, 2.0, 3.0, 4.0])
    for name in ("sum", "max", "min", "mean", "prod"):
        api = f"tf.math.unsorted_segment_{name}"
        op = getattr(tf.math, f"unsorted_segment_{name}")
        add(api, "out_of_range_index", "data [1, 2, 3, 4], segment ids [0, 1, 2, 1], num_segments 2",
            lambda d, s, op=op: op(d, s, 2), lambda: (data, c([0, 1, 2, 1])),
            drops_the_value=lambda op=op: op(c([1.0, 2.0, 4.0]), c([0, 1, 1]), 2))
        add(api, "negative_index", "data [1, 2, 3, 4], segment ids [0, 1, -1, 1], num_segments 2",
            lambda d, s, op=op: op(d, s, 2), lambda: (data, c([0, 1, -1, 1])),
            drops_the_value=lambda op=op: op(c([1.0, 2.0, 4.0]), c([0, 1, 1]), 2))
    for name in ("sum", "max", "min", "mean", "prod"):
        api = f"tf.math.segment_{name}"
        op = getattr(tf.math, f"segment_{name}")
        add(api, "negative_index", "data [1, 2, 3, 4], segment ids [-1, 0, 1, 1]",
            lambda d, s, op=op: op(d, s), lambda: (data, c([-1, 0, 1, 1])))
    add("tf.scatter_nd", "out_of_range_index", "indices [[1], [4]], updates [5, 7], shape [4]",
        lambda i, u: tf.scatter_nd(i, u, [4]), lambda: (c([[1], [4]]), c([5.0, 7.0])),
        drops_the_update=lambda: c([0.0, 5.0, 0.0, 0.0]))
    add("tf.scatter_nd", "negative_index", "indices [[1], [-1]], updates [5, 7], shape [4]",
        lambda i, u: tf.scatter_nd(i, u, [4]), lambda: (c([[1], [-1]]), c([5.0, 7.0])),
        drops_the_update=lambda: c([0.0, 5.0, 0.0, 0.0]))
    for name in ("update", "add", "max", "min"):
        api = f"tf.tensor_scatter_nd_{name}"
        op = getattr(tf, f"tensor_scatter_nd_{name}")
        add(api, "out_of_range_index", "tensor [10, 20, 30, 40], indices [[1], [4]], updates [5, 7]",
            lambda t, i, u, op=op: op(t, i, u), lambda: (params, c([[1], [4]]), c([5.0, 7.0])),
            drops_the_update=lambda op=op: op(params, c([[1]]), c([5.0])))
    add("tf.math.bincount", "out_of_range_index", "arr [0, 1, 5], minlength=maxlength=3",
        lambda a: tf.math.bincount(a, minlength=3, maxlength=3), lambda: (c([0, 1, 5]),),
        drops_the_value=lambda: c([1, 1, 0]))
    add("tf.Tensor.__getitem__", "out_of_range_index", "x[i] with x[4] and a tensor i = 4",
        lambda x, i: x[i], lambda: (params, c(4)), clamps_the_index=lambda: c(40.0))
    add("tf.Tensor.__getitem__", "negative_index", "x[i] with x[4] and a tensor i = -5",
        lambda x, i: x[i], lambda: (params, c(-5)), clamps_the_index=lambda: c(10.0))
    add("tf.slice", "out_of_range_index", "tf.slice(x[4], begin [i] = [3], size [2])",
        lambda x, b: tf.slice(x, b, [2]), lambda: (params, c([3])),
        clamps_the_start=lambda: c([30.0, 40.0]))
    add("tf.roll", "out_of_range_index", "tf.roll(x[4], shift=5, axis=0)",
        lambda x, s: tf.roll(x, s, 0), lambda: (params, c(5)))
    add("tf.gather", "empty", "params[0], indices [0]",
        lambda p, i: tf.gather(p, i), lambda: (tf.zeros([0]), c([0])),
        returns_zeros_there=zeros1)
    # --- NaN / inf / ties --------------------------------------------------------------------------
    nan_vec = lambda: (c([1.0, nan, 3.0, 2.0]),)  # noqa: E731
    inf_vec = lambda: (c([1.0, -inf, inf, 2.0]),)  # noqa: E731
    for api, fn in (("tf.math.argmax", tf.math.argmax), ("tf.math.argmin", tf.math.argmin)):
        best_ignoring_nan = 2 if "max" in api else 0
        add(api, "nan", "[1, nan, 3, 2]", fn, nan_vec,
            picks_the_NaN=lambda: c(1, tf.int64),
            ignores_NaN=lambda b=best_ignoring_nan: c(b, tf.int64))
        add(api, "nan", "[1, 3, 2, nan] (NaN last)", fn, lambda: (c([1.0, 3.0, 2.0, nan]),),
            picks_the_NaN=lambda: c(3, tf.int64),
            ignores_NaN=lambda b=best_ignoring_nan: c(1 if b == 2 else 0, tf.int64))
        add(api, "inf", "[1, -inf, inf, 2]", fn, inf_vec)
        add(api, "ties", "[3, 1, 3, 2] / [1, 2, 1, 3]", fn,
            (lambda: (c([3.0, 1.0, 3.0, 2.0]),)) if "max" in api else (lambda: (c([1.0, 2.0, 1.0, 3.0]),)),
            first_index=lambda: c(0, tf.int64), last_index=lambda: c(2, tf.int64))
        add(api, "empty", "a [0, 3] tensor, axis 0", lambda x, fn=fn: fn(x, axis=0), lambda: (tf.zeros([0, 3]),))
    for api, fn in (("tf.math.reduce_max", tf.math.reduce_max), ("tf.math.reduce_min", tf.math.reduce_min)):
        add(api, "nan", "[1, nan, 3, 2]", fn, nan_vec,
            propagates_NaN=lambda: c(nan), ignores_NaN=lambda a=api: c(3.0 if "max" in a else 1.0))
        add(api, "empty", "a [0] tensor", fn, lambda: (tf.zeros([0]),))
    for api, fn in (("tf.math.maximum", tf.math.maximum), ("tf.math.minimum", tf.math.minimum)):
        add(api, "nan", "maximum/minimum([1, nan], [nan, 1])", fn, lambda: (c([1.0, nan]), c([nan, 1.0])),
            propagates_NaN=lambda: c([nan, nan]), ignores_NaN=lambda: c([1.0, 1.0]),
            propagates_NaN_only_from_the_first_operand=lambda: c([1.0, nan]))
    for api, fn in (("tf.math.maximum", tf.math.maximum), ("tf.math.minimum", tf.math.minimum)):
        probes.append(Probe(api, "nan", "maximum/minimum(0.0, [nan, 1]) (a Python float first)",
                            lambda x, fn=fn: fn(0.0, x), lambda: (c([nan, 1.0]),), form="constant_first"))
    add("tf.sort", "nan", "sort([3, nan, 1, 2], direction='DESCENDING')",
        lambda x: tf.sort(x, direction="DESCENDING"), lambda: (c([3.0, nan, 1.0, 2.0]),))
    add("tf.clip_by_value", "nan", "clip([nan, 5, -5], -1, 1)", lambda x: tf.clip_by_value(x, -1.0, 1.0),
        lambda: (c([nan, 5.0, -5.0]),),
        propagates_NaN=lambda: c([nan, 1.0, -1.0]), clamps_NaN_to_a_bound=lambda: c([-1.0, 1.0, -1.0]))
    for name in ("max", "min"):
        add(f"tf.math.unsorted_segment_{name}", "nan", "data [7, nan, 2, 9], segment ids [0, 0, 0, 1]",
            lambda d, s, n=name: getattr(tf.math, f"unsorted_segment_{n}")(d, s, 2),
            lambda: (c([7.0, nan, 2.0, 9.0]), c([0, 0, 0, 1])),
            propagates_NaN=lambda: c([nan, 9.0]),
            ignores_NaN=lambda n=name: c([7.0 if n == "max" else 2.0, 9.0]))
    add("tf.math.in_top_k", "nan", "in_top_k(targets [2], predictions [[0.5, nan, 0.7, 0.6]], k=1)",
        lambda t, p: tf.math.in_top_k(t, p, 1), lambda: (c([2]), c([[0.5, nan, 0.7, 0.6]])))
    add("tf.searchsorted", "nan", "searchsorted([[2, 4, 8, 16]], [[nan, 8]], side='right')",
        lambda s, v: tf.searchsorted(s, v, side="right"), lambda: (c([[2.0, 4.0, 8.0, 16.0]]), c([[nan, 8.0]])))
    add("tf.nn.relu", "nan", "relu([nan, -1, 2])", tf.nn.relu, lambda: (c([nan, -1.0, 2.0]),),
        propagates_NaN=lambda: c([nan, 0.0, 2.0]), returns_zero_for_NaN=lambda: c([0.0, 0.0, 2.0]))
    add("tf.sort", "nan", "sort([3, nan, 1, 2])", tf.sort, lambda: (c([3.0, nan, 1.0, 2.0]),),
        sorts_NaN_last=lambda: c([1.0, 2.0, 3.0, nan]))
    add("tf.argsort", "nan", "argsort([3, nan, 1, 2])", tf.argsort, lambda: (c([3.0, nan, 1.0, 2.0]),),
        sorts_NaN_last=lambda: c([2, 3, 0, 1]))
    add("tf.argsort", "ties", "argsort([2, 1, 2, 1], stable=True)", lambda x: tf.argsort(x, stable=True),
        lambda: (c([2.0, 1.0, 2.0, 1.0]),))
    add("tf.math.top_k", "nan", "top_k([3, nan, 1, 2], k=2)", lambda x: tf.math.top_k(x, 2),
        lambda: (c([3.0, nan, 1.0, 2.0]),), ranks_NaN_above_every_number=lambda: (c([nan, 3.0]), c([1, 0])))
    add("tf.math.top_k", "ties", "top_k([1, 3, 2, 3], k=2)", lambda x: tf.math.top_k(x, 2),
        lambda: (c([1.0, 3.0, 2.0, 3.0]),))
    add("tf.nn.softmax", "inf", "softmax([1, inf, 2])", tf.nn.softmax, lambda: (c([1.0, inf, 2.0]),),
        makes_the_whole_row_NaN=lambda: c([nan, nan, nan]))
    add("tf.nn.softmax", "nan", "softmax([1, nan, 2])", tf.nn.softmax, lambda: (c([1.0, nan, 2.0]),),
        makes_the_whole_row_NaN=lambda: c([nan, nan, nan]))
    add("tf.math.reduce_logsumexp", "inf", "logsumexp([-inf, -inf])", tf.math.reduce_logsumexp,
        lambda: (c([-inf, -inf]),))
    add("tf.math.cumsum", "nan", "cumsum([1, nan, 2])", tf.math.cumsum, lambda: (c([1.0, nan, 2.0]),))
    add("tf.math.divide_no_nan", "int_division_by_zero", "divide_no_nan([1, 0], [0, 0])",
        tf.math.divide_no_nan, lambda: (c([1.0, 0.0]), c([0.0, 0.0])))
    add("tf.math.truediv", "nan", "0.0 / 0.0", tf.math.truediv, lambda: (c([0.0, 1.0]), c([0.0, 0.0])))
    # --- integers ----------------------------------------------------------------------------------
    i32max, i32min = 2**31 - 1, -(2**31)
    add("tf.math.add", "int_overflow", "int32 max + 1", tf.math.add, lambda: (c([i32max], i32), c([1], i32)),
        wraps=lambda: c([i32min], i32))
    add("tf.math.multiply", "int_overflow", "int32 65536 * 65536", tf.math.multiply,
        lambda: (c([65536], i32), c([65536], i32)), wraps=lambda: c([0], i32))
    add("tf.math.multiply", "int_overflow", "int8 [12, 20] squared, then tf.where(p < 0, tf.abs(p), p)",
        lambda x: (lambda p: tf.where(p < 0, tf.abs(p), p))(x * x), lambda: (c([12, 20], tf.int8),))
    add("tf.math.add", "int_overflow", "int8 100 + 100", tf.math.add,
        lambda: (c([100], tf.int8), c([100], tf.int8)), wraps=lambda: c([-56], tf.int8))
    add("tf.math.abs", "int_overflow", "abs(int32 min)", tf.math.abs, lambda: (c([i32min, -3], i32),),
        wraps=lambda: c([i32min, 3], i32))
    add("tf.math.abs", "int_overflow", "abs(int8 -128)", tf.math.abs, lambda: (c([-128, -3], tf.int8),),
        wraps=lambda: c([-128, 3], tf.int8))
    add("tf.math.negative", "int_overflow", "-(int32 min)", tf.math.negative, lambda: (c([i32min], i32),),
        wraps=lambda: c([i32min], i32))
    add("tf.math.floordiv", "int_overflow", "int32 min // -1", tf.math.floordiv,
        lambda: (c([i32min], i32), c([-1], i32)))
    # XLA's simplifier treats the square and the absolute value of a signed integer as non-negative
    # (it does not model wrap-around): a sign test of one is folded to a constant, and a floor
    # division of one by a positive constant becomes a shift. Eagerly the wrapped value decides.
    # XLA314 reads the probes whose ``form`` it can see in code.
    squares = {"tf.math.multiply": ("x * x", lambda x: x * x), "tf.math.square": ("tf.square(x)", tf.math.square),
               "tf.math.pow": ("x ** 2", lambda x: x ** 2)}
    overflowing = {"int8": [12, 20, -128, 3], "int16": [200, 300, -32768, 3], "int32": [65536, 50000, i32min, 3],
                   "int64": [2**32, 3037000500, -(2**63), 3]}
    for dtype, values in overflowing.items():
        for api, (spelled, square) in squares.items():
            probes.append(Probe(api, "int_overflow", f"{dtype} {values}: {spelled} < 0",
                                lambda x, f=square: f(x) < 0, lambda v=values, d=dtype: (c(v, getattr(tf, d)),),
                                {"folds the test to False": lambda: c([False] * 4)},
                                form="sign_test_of_square"))
        probes.append(Probe("tf.math.abs", "int_overflow", f"{dtype} {values}: tf.abs(x) < 0",
                            lambda x: tf.abs(x) < 0, lambda v=values, d=dtype: (c(v, getattr(tf, d)),),
                            {"folds the test to False": lambda: c([False] * 4)},
                            form="sign_test_of_abs"))
        probes.append(Probe("tf.math.multiply", "int_overflow", f"{dtype} {values}: (x * x) // 2",
                            lambda x: (x * x) // 2, lambda v=values, d=dtype: (c(v, getattr(tf, d)),),
                            form="floordiv_of_square"))
        # control: a clamp of the square is computed, not folded (equal)
        probes.append(Probe("tf.math.multiply", "int_overflow", f"{dtype} {values}: tf.maximum(x * x, 0)",
                            lambda x: tf.maximum(x * x, 0), lambda v=values, d=dtype: (c(v, getattr(tf, d)),),
                            form="clamp_of_square"))
    add("tf.math.reduce_sum", "int_overflow", "reduce_sum of int32 [max, 1]", tf.math.reduce_sum,
        lambda: (c([i32max, 1], i32),), wraps=lambda: c(i32min, i32))
    for api, fn in (("tf.math.floordiv", tf.math.floordiv), ("tf.truncatediv", tf.truncatediv),
                    ("tf.math.floormod", tf.math.floormod), ("tf.truncatemod", tf.truncatemod)):
        add(api, "int_division_by_zero", "int32 [7, 7] by [2, 0]", fn, lambda: (c([7, 7], i32), c([2, 0], i32)))
    add("tf.math.divide", "int_division_by_zero", "int32 [7, 7] / [2, 0] (true division, float64 result)",
        tf.math.divide, lambda: (c([7, 7], i32), c([2, 0], i32)))
    wide = [nan, inf, -inf, 3e9, -3e9, 300.0, -1.0, 2.7]

    def saturated(dtype: Any) -> Any:  # NaN -> 0, out of range -> the nearest bound, else truncated
        return c([0 if v != v else dtype.min if v <= dtype.min else dtype.max if v >= dtype.max else int(v)
                  for v in wide], dtype)

    for dtype in ("int32", "int8", "uint8", "int64"):
        add("tf.cast", "narrowing_cast", f"float32 [nan, inf, -inf, 3e9, -3e9, 300, -1, 2.7] -> {dtype}",
            lambda x, d=dtype: tf.cast(x, getattr(tf, d)), lambda: (c(wide),),
            saturates_and_maps_NaN_to_0=lambda d=dtype: saturated(getattr(tf, d)))
    add("tf.cast", "narrowing_cast", "int32 [300, -1, 127] -> int8", lambda x: tf.cast(x, tf.int8),
        lambda: (c([300, -1, 127], i32),), wraps=lambda: c([44, -1, 127], tf.int8))
    add("tf.cast", "narrowing_cast", "float32 [70000, 1e-8] -> float16", lambda x: tf.cast(x, tf.float16),
        lambda: (c([70000.0, 1e-8]),))
    add("tf.math.round", "ties", "round([0.5, 1.5, 2.5, -0.5])", tf.math.round, lambda: (c([0.5, 1.5, 2.5, -0.5]),))
    # --- decompositions ----------------------------------------------------------------------------
    # Eigenvectors and singular vectors are defined up to sign; XLA's eigh/svd (Jacobi) and LAPACK
    # (eager) pick different signs. Values and sign-free products (v diag(e) v^T) agree. ``form``
    # names the output: XLA319 flags code that reads the vectors themselves.
    square = [[2.0, -1.0, 0.5, 0.0], [0.3, 1.5, -0.7, 1.1], [-0.4, 0.9, 2.2, -0.6], [1.0, 0.2, -0.3, 1.8]]
    spd = [[sum(square[i][k] * square[j][k] for k in range(4)) + (4.0 if i == j else 0.0) for j in range(4)]
           for i in range(4)]
    decompositions = (
        ("tf.linalg.eigh", "vectors", "eigh(4x4 SPD)[1]", lambda m: tf.linalg.eigh(m)[1], spd),
        ("tf.linalg.eigh", "values", "eigh(4x4 SPD)[0]", lambda m: tf.linalg.eigh(m)[0], spd),
        ("tf.linalg.eigh", "product", "v diag(e) v^T of eigh(4x4 SPD)",
         lambda m: (lambda e, v: tf.matmul(v * e, v, transpose_b=True))(*tf.linalg.eigh(m)), spd),
        ("tf.linalg.svd", "vectors", "svd(4x4)[1] (u)", lambda m: tf.linalg.svd(m)[1], square),
        ("tf.linalg.svd", "vectors", "svd(4x4)[2] (v)", lambda m: tf.linalg.svd(m)[2], square),
        ("tf.linalg.svd", "values", "svd(4x4)[0]", lambda m: tf.linalg.svd(m)[0], square),
        ("tf.linalg.svd", "product", "u diag(s) v^T of svd(4x4)",
         lambda m: (lambda s_, u, v: tf.matmul(u * s_, v, transpose_b=True))(*tf.linalg.svd(m)), square),
        ("tf.linalg.qr", "vectors", "qr(4x4)[0] (q)", lambda m: tf.linalg.qr(m)[0], square),
        ("tf.linalg.qr", "values", "qr(4x4)[1] (r)", lambda m: tf.linalg.qr(m)[1], square),
    )
    for api, form, text, fn, matrix in decompositions:
        probes.append(Probe(api, "decomposition_sign", text, fn, lambda m=matrix: (c(m),), form=form))
    # --- empty -------------------------------------------------------------------------------------
    for api, fn in (("tf.math.reduce_sum", tf.math.reduce_sum), ("tf.math.reduce_mean", tf.math.reduce_mean),
                    ("tf.math.reduce_prod", tf.math.reduce_prod),
                    ("tf.math.reduce_logsumexp", tf.math.reduce_logsumexp),
                    ("tf.math.reduce_std", tf.math.reduce_std), ("tf.math.reduce_variance", tf.math.reduce_variance),
                    ("tf.math.reduce_euclidean_norm", tf.math.reduce_euclidean_norm)):
        add(api, "empty", "a [0] float32 tensor", fn, lambda: (tf.zeros([0]),))
    add("tf.math.reduce_mean", "empty", "a [0] int32 tensor", tf.math.reduce_mean, lambda: (tf.zeros([0], i32),))
    add("tf.math.reduce_max", "empty", "a [0] int32 tensor", tf.math.reduce_max, lambda: (tf.zeros([0], i32),))
    add("tf.math.top_k", "empty", "top_k of a [0] tensor, k=0", lambda x: tf.math.top_k(x, 0),
        lambda: (tf.zeros([0]),))
    # --- precision ---------------------------------------------------------------------------------
    add("tf.math.reduce_sum", "precision", "float16: 4096 ones + 0.1", tf.math.reduce_sum,
        lambda: (tf.concat([tf.ones([4096], tf.float16), tf.fill([100], tf.constant(0.1, tf.float16))], 0),))
    add("tf.math.reduce_sum", "precision", "bfloat16: 4096 ones + 100 x 0.1", tf.math.reduce_sum,
        lambda: (tf.concat([tf.ones([4096], tf.bfloat16), tf.fill([100], tf.constant(0.1, tf.bfloat16))], 0),))
    add("tf.math.reduce_mean", "precision", "float16 mean of 70000 copies of 2.0", tf.math.reduce_mean,
        lambda: (tf.fill([70000], tf.constant(2.0, tf.float16)),))
    add("tf.math.reduce_sum", "precision", "float32: 1e8 followed by 10000 ones", tf.math.reduce_sum,
        lambda: (tf.concat([c([1e8]), tf.ones([10000])], 0),))
    add("tf.math.exp", "precision", "exp([89, -104, -88, 0.5])", tf.math.exp, lambda: (c([89.0, -104.0, -88.0, 0.5]),))
    add("tf.math.log", "precision", "log([0, -1, 1e-45, 1e-38])", tf.math.log, lambda: (c([0.0, -1.0, 1e-45, 1e-38]),))
    add("tf.math.multiply", "precision", "denormal: 1e-38 * 1e-3 (float32)", tf.math.multiply,
        lambda: (c([1e-38]), c([1e-3])), flushes_denormals_to_zero=lambda: c([0.0]))
    add("tf.math.softplus", "precision", "softplus([100, -100, 20])", tf.math.softplus,
        lambda: (c([100.0, -100.0, 20.0]),))
    add("tf.math.sigmoid", "precision", "sigmoid([-100, 100, -20])", tf.math.sigmoid,
        lambda: (c([-100.0, 100.0, -20.0]),))
    add("tf.nn.log_softmax", "precision", "log_softmax([0, -1000, 1000])", tf.nn.log_softmax,
        lambda: (c([0.0, -1000.0, 1000.0]),))
    add("tf.math.log1p", "precision", "log1p(1e-10)", tf.math.log1p, lambda: (c([1e-10]),))
    add("tf.math.tanh", "precision", "tanh([1e-5, 10, -10])", tf.math.tanh, lambda: (c([1e-5, 10.0, -10.0]),))
    add("tf.math.pow", "precision", "pow(0, 0), pow(-8, 1/3)", tf.math.pow,
        lambda: (c([0.0, -8.0]), c([0.0, 1.0 / 3.0])))
    return probes + [_from_division(tf, p) for p in probes if p.input_class == "nan"]


def _from_division(tf: Any, probe: Probe) -> Probe:
    """The same call with each NaN made inside the function as 0/0 from its inputs. That is the NaN
    model code meets (an empty count), and it is not the NaN of ``float("nan")``: on x86 0/0 gives
    the negative "default NaN". XLA:CPU's sort and top_k order a NaN by its sign bit, and whether a
    compiled 0/0 keeps the negative sign depends on the fusion: the sort probe here puts it last, the
    same sort in a function that also returns the quotient puts it first (TF 2.21). XLA318 says so."""

    def split(arg: Any) -> tuple[Any, Any] | None:
        if not (arg.dtype.is_floating and bool(tf.reduce_any(tf.math.is_nan(arg)))):
            return None
        nan = tf.math.is_nan(arg)
        return tf.where(nan, tf.zeros_like(arg), arg), tf.where(nan, tf.zeros_like(arg), tf.ones_like(arg))

    def args() -> tuple[Any, ...]:
        out: list[Any] = []
        for arg in probe.args():
            pair = split(arg)
            out.extend(pair if pair is not None else (arg,))
        return tuple(out)

    layout = [split(arg) is not None for arg in probe.args()]  # measured eagerly, once

    def fn(*flat: Any) -> Any:
        rebuilt, i = [], 0
        for divided in layout:
            if divided:
                rebuilt.append(flat[i] / flat[i + 1])
                i += 2
            else:
                rebuilt.append(flat[i])
                i += 1
        return probe.fn(*rebuilt)

    return Probe(probe.api, "nan_from_zero_division", probe.input, fn, args, probe.readings, probe.form)


def _flatten(tf: Any, value: Any) -> list[Any]:
    return [tf.convert_to_tensor(v) for v in tf.nest.flatten(value)]


def _describe(np: Any, arrays: list[Any]) -> Any:
    def one(a: Any) -> Any:
        values = a.astype(float).tolist() if a.dtype.kind == "f" or a.dtype.name == "bfloat16" else a.tolist()
        values = [v if not isinstance(v, float) or v == v else "nan" for v in np.ravel(values).tolist()] \
            if isinstance(values, list) else values
        if isinstance(values, float) and values != values:
            values = "nan"
        return {"dtype": a.dtype.name, "shape": list(a.shape), "values": values}
    return [one(a) for a in arrays] if len(arrays) != 1 else one(arrays[0])


def _same(np: Any, a: list[Any], b: list[Any], *, exact: bool) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if x.shape != y.shape:
            return False
        if x.dtype.kind in "fc" or x.dtype.name == "bfloat16":
            x64, y64 = x.astype(np.float64), y.astype(np.float64)
            if exact:
                numbers = ~np.isnan(x64)  # the sign of a NaN is not part of its value
                if not np.array_equal(x64, y64, equal_nan=True) or \
                        not np.array_equal(np.signbit(x64[numbers]), np.signbit(y64[numbers])):
                    return False
            elif not np.allclose(x64, y64, rtol=RTOL, atol=ATOL, equal_nan=True):
                return False
        elif not np.array_equal(x, y):
            return False
    return True


def run_probe(tf: Any, np: Any, probe: Probe) -> dict[str, Any]:
    """Measure one probe: eager vs ``tf.function(jit_compile=True)`` on CPU."""
    entry: dict[str, Any] = {"input": probe.input}
    if probe.form is not None:
        entry["form"] = probe.form
    eager: list[Any] | None = None
    xla: list[Any] | None = None
    with tf.device("/CPU:0"):
        try:
            eager = [t.numpy() for t in _flatten(tf, probe.fn(*probe.args()))]
            entry["eager"] = _describe(np, eager)
        except Exception as exc:  # noqa: BLE001 - the error is the measurement
            entry["eager"] = {"error": type(exc).__name__}
        try:
            # one new function per probe on purpose: each probe is compiled once, alone
            compiled = tf.function(lambda *a: probe.fn(*a), jit_compile=True)  # xlacheck: ignore[XLA404]
            xla = [t.numpy() for t in _flatten(tf, compiled(*probe.args()))]
            entry["xla"] = _describe(np, xla)
        except Exception as exc:  # noqa: BLE001
            entry["xla"] = {"error": type(exc).__name__}
        if eager is not None and xla is not None:
            entry["outcome"] = ("equal" if _same(np, eager, xla, exact=True)
                                else "close" if _same(np, eager, xla, exact=False) else "differs")
        else:
            entry["outcome"] = {(False, True): "eager_error", (True, False): "xla_error"}.get(
                (eager is not None, xla is not None), "both_error")
        if xla is not None and entry["outcome"] != "equal":
            for how, reference in probe.readings.items():
                if _same(np, xla, [t.numpy() for t in _flatten(tf, reference())], exact=True):
                    entry["how"] = f"XLA {how}"
                    break
            if entry["outcome"] == "differs" and "how" not in entry and probe.input_class == "decomposition_sign" and \
                    _same(np, [np.abs(a) for a in eager], [np.abs(b) for b in xla], exact=False):
                entry["how"] = "XLA flips the sign of some vectors"
    return entry


def _import_tf() -> tuple[Any, Any]:
    os.environ.pop("XLA_FLAGS", None)  # the backend's defaults, as a user runs it
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    os.environ["CUDA_VISIBLE_DEVICES"] = ""
    import numpy as np
    import tensorflow as tf
    return tf, np


def _raw_ops(api: str) -> list[str]:
    """The raw ops ``api`` creates, from the op table (tools/generate_op_table.py): the linter maps a
    call of another spelling (``tf.argmax``, ``K.argmax``) to a measured entry by these."""
    table = json.loads((REPO_ROOT / "xlacheck" / "data" / "tf_xla_ops.json").read_text())["api"]
    return sorted(set(table.get(api, {}).get("raw_ops", [])) - PLUMBING_OPS)


def build() -> dict[str, Any]:
    tf, np = _import_tf()
    entries: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for probe in _probes(tf):
        entries.setdefault(probe.api, {}).setdefault(probe.input_class, []).append(run_probe(tf, np, probe))
    return {
        "schema_version": SCHEMA_VERSION,
        "generated_by": COMMAND,
        "generated": _table_check.generated_date(),
        "tensorflow": tf.__version__,
        "backend": "XLA_CPU_JIT, default XLA_FLAGS",
        "tolerance": {"rtol": RTOL, "atol": ATOL},
        "classes": CLASSES,
        "outcomes": {
            "equal": "identical values (NaN equal to NaN)",
            "close": "within the tolerance, not identical",
            "differs": "both return values and they differ",
            "eager_error": "eager raises; XLA returns values",
            "xla_error": "XLA raises; eager returns values",
            "both_error": "both raise",
        },
        "entries": {api: {"raw_ops": _raw_ops(api), "probes": dict(sorted(classes.items()))}
                    for api, classes in sorted(entries.items())},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true", help="re-measure and compare with --out")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    cpu = time.process_time()
    table = build()
    took = f"{time.perf_counter() - start:.1f} s wall, {time.process_time() - cpu:.1f} s CPU"
    if args.check:
        old = json.loads(args.out.read_text())
        same = old["entries"] == table["entries"]
        print(f"{args.out}: {'up to date' if same else 'DIFFERS from a new measurement'} ({took})")
        return 0 if same else 1
    args.out.write_text(json.dumps(table, indent=1, sort_keys=False) + "\n")
    n = sum(len(v) for api in table["entries"].values() for v in api["probes"].values())
    counts: dict[str, int] = {}
    for api in table["entries"].values():
        for measured in api["probes"].values():
            for e in measured:
                counts[e["outcome"]] = counts.get(e["outcome"], 0) + 1
    print(f"wrote {args.out}: {n} probes over {len(table['entries'])} functions, {counts} ({took})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
