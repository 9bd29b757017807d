"""The compiler decides: rule examples claimed to fail must fail under XLA, valid ones must compile.

Each case names a rule example (``XLA101-invalid-1``), the function to call and its arguments.
The example is written to a real module file (AutoGraph needs the source) and imported; then
- ``fails``: ``tf.function(jit_compile=True)`` raises, or returns something else than eager mode;
- ``static_fails``: it compiles only with argument values baked in: lowering with TensorSpecs
  fails ("must be a compile-time constant"), i.e. it recompiles per value (value_specialized);
- ``compiles``: XLA compiles it and matches eager mode.
"""

from __future__ import annotations

import importlib.util
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
tf = pytest.importorskip("tensorflow")

from xlacheck.rules import ALL_RULES  # noqa: E402

pytestmark = pytest.mark.tf

F = tf.float32


def _f(*values: Any) -> Any:
    return tf.constant(values, F)


def _empty_row_mask() -> Any:
    """A [2, 3] mask whose second row selects nothing."""
    return tf.constant([[1.0, 0.0, 1.0], [0.0, 0.0, 0.0]], F)


CASES: list[tuple[str, str, Callable[[], tuple], str]] = [
    # (example id, entry function, args, claim)
    ("XLA101-invalid-1", "f", lambda: (_f(1.0, 20.0),), "fails"),
    ("XLA101-valid-1", "f", lambda: (_f(1.0, 20.0),), "compiles"),
    ("XLA102-invalid-1", "f", lambda: (tf.constant([1, 2]),), "fails"),
    ("XLA102-valid-3", "f", lambda: (_f(1.0, 2.0)[None], tf.constant([1, 2])), "compiles"),
    ("XLA103-invalid-1", "f", lambda: (_f(1.0, 2.0), tf.constant(3.0)), "fails"),
    ("XLA103-valid-2", "f", lambda: (_f(1.0, 2.0), tf.constant(3.0)), "compiles"),
    ("XLA103-valid-4", "f", lambda: ({"b": _f(1.0, 2.0), "a": _f(3.0, 4.0)},), "compiles"),
    ("XLA104-invalid-1", "f", lambda: (tf.constant([0, 5, 101]),), "fails"),
    ("XLA105-invalid-1", "f", lambda: (tf.constant([[1.0, -2.0], [3.0, 4.0]]),), "fails"),
    ("XLA106-invalid-1", "f", lambda: (tf.constant([[1.0, 2.0], [3.0, 4.0]]),), "fails"),
    ("XLA106-valid-2", "f", lambda: (tf.constant([[1.0, 2.0], [3.0, 4.0]]),), "compiles"),
    ("XLA107-invalid-1", "step", lambda: (_f(1.0, 1.0), _f(3.0, 4.0)), "fails"),
    ("XLA107-valid-1", "f", lambda: (_f(3.0, 4.0),), "compiles"),
    ("XLA107-valid-2", "f", lambda: (_f(3.0, 4.0), tf.constant(1.0)), "compiles"),
    ("XLA108-invalid-1", "loss", lambda: (_f(1.0, 2.0), _f(0.5, 0.5), tf.constant(True)), "fails"),
    ("XLA108-valid-1", "f", lambda: (_f(1.0, -2.0),), "compiles"),
    ("XLA109-invalid-1", "f", lambda: (_f(1.0, 2.0), tf.constant(3.0)), "fails"),
    ("XLA109-invalid-2", "f", lambda: (tf.constant([1, 2]),), "fails"),
    ("XLA110-invalid-1", "f", lambda: (_f(8.0, 2.0),), "fails"),
    ("XLA110-valid-1", "f", lambda: (_f(8.0, 2.0),), "compiles"),
    ("XLA111-invalid-1", "f", lambda: (_f(1.0, 2.0),), "fails"),
    ("XLA111-invalid-2", "f", lambda: (tf.constant([[1.0, 2.0], [-3.0, 1.0], [2.0, 2.0]]),), "fails"),
    ("XLA113-invalid-1", "targets", lambda: (tf.constant([1, 2]), tf.constant(0.1)), "fails"),
    ("XLA113-invalid-3", "f", lambda: (_f(1.0, 2.0),), "fails"),
    # a constant-tensor guard: the branch it excludes still compiles (tf.range(8, 7) fails)
    ("XLA115-invalid-1", "f", lambda: (_f(*range(8)),), "fails"),
    ("XLA115-valid-1", "f", lambda: (_f(*range(8)),), "compiles"),
    ("XLA115-valid-2", "f", lambda: (_f(*range(8)),), "compiles"),
    ("XLA201-invalid-1", "f", lambda: (tf.constant([[1.0, 2.0, 3.0, 4.0]]), tf.constant([[1, 1, 0, 0]])), "fails"),
    ("XLA201-valid-2", "f", lambda: (tf.constant([[1.0, 2.0, 3.0, 4.0]]), tf.constant([[1, 1, 0, 0]])), "compiles"),
    ("XLA202-invalid-2", "f", lambda: (_f(1.0, 2.0, 3.0, 4.0), tf.constant([1, 0, 1, 1])), "fails"),
    ("XLA204-invalid-1", "f", lambda: (tf.constant([0, 1, 1, 2]),), "static_fails"),
    ("XLA204-invalid-3", "f", lambda: (tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([[True, False], [True, True]])), "fails"),
    ("XLA204-valid-1", "f", lambda: (tf.constant([0, 1, 1, 2]),), "compiles"),
    ("XLA205-invalid-1", "ce", lambda: (tf.constant([0, 1, 2]), tf.fill([3, 5], 0.2)), "static_fails"),
    ("XLA205-invalid-3", "f", lambda: (_f(1.0, 2.0, 3.0),), "fails"),
    ("XLA205-valid-1", "f", lambda: (tf.ones([2, 3, 4]),), "compiles"),
    ("XLA205-invalid-5", "f", lambda: (tf.constant([1, 3]),), "fails"),  # a tf.map_fn element as a size
    ("XLA205-invalid-6", "f", lambda: (_f(1.0),), "fails"),  # a tf.while_loop variable as a size
    ("XLA205-valid-6", "f", lambda: (tf.constant([0, 2]), _f(1.0, 2.0, 3.0, 4.0)), "compiles"),
    ("XLA205-invalid-7", "f", lambda: (tf.constant([1, 3]),), "fails"),  # the result of tf.scan as a size
    ("XLA205-valid-7", "f", lambda: (tf.ones([3, 3]), 1, 3), "compiles"),  # Python ints from the call site
    ("XLA205-valid-8", "f", lambda: (tf.ones([5]), 2), "compiles"),  # a range() counter from the call site
    ("XLA205-invalid-8", "f", lambda: (tf.ones([1, 4, 4, 1]), tf.constant(2.0)), "static_fails"),  # shape * argument
    ("XLA205-invalid-10", "augment", lambda: (tf.ones([2, 4, 4, 1]), tf.constant(3)), "fails"),  # a tensor seed
    ("XLA205-valid-10", "jitter", lambda: (_f(1.0, 2.0, 3.0), tf.constant(0.0)), "compiles"),  # a Python int seed
    ("XLA323-invalid-2", "project", lambda: (_f(1.0, 2.0)[None],), "fails"),  # a layer object returned
    ("XLA206-invalid-1", "f", lambda: (tf.constant([[1.0, 2.0]]), tf.constant(0.5)), "fails"),
    ("XLA405-invalid-1", "step", lambda: (_f(1.0, 2.0),), "fails"),
    ("XLA301-invalid-2", "f", lambda: (_f(1.0, 2.0),), "fails"),
    ("XLA301-invalid-3", "f", lambda: (tf.ones([2, 3]),), "fails"),  # Model.predict inside tf.function
    ("XLA301-valid-4", "f", lambda: (tf.ones([2, 3]),), "compiles"),  # the model called on the tensor
    ("XLA304-invalid-3", "f", lambda: (_f(1.0, 2.0),), "fails"),  # tf.constant of a tensor
    ("XLA304-valid-5", "f", lambda: (_f(1.0, 2.0),), "compiles"),  # of Python numbers; TensorShape of shapes
    ("XLA304-invalid-4", "f", lambda: (_f(1.0, 2.0),), "fails"),  # keras.ops.convert_to_numpy of a tensor
    ("XLA305-invalid-2", "f", lambda: (_f(3.0, 1.0, 2.0),), "fails"),  # K.eval of a computed tensor
    ("XLA111-invalid-3", "sum_of_steps", lambda: (tf.constant(3), tf.constant(0.5)), "fails"),
    ("XLA111-valid-3", "collect", lambda: (_f(1.0, 2.0), 2), "compiles"),
    ("XLA302-invalid-2", "f", lambda: (tf.constant(2.0), tf.constant(1.0)), "fails"),
    ("XLA302-valid-2", "f", lambda: (tf.constant(2.0), tf.constant(1.0), tf.constant(10)), "compiles"),
    ("XLA106-invalid-3", "f", lambda: (tf.ones([1, 4, 4, 3]),), "fails"),  # h, w = tf.shape(images)[1:3]
    ("XLA106-invalid-4", "f", lambda: (_f(1.0, 2.0, 3.0),), "fails"),  # [*t], list(t)
    ("XLA106-valid-4", "f", lambda: (tf.constant([[1.0, 2.0], [3.0, 5.0], [4.0, 1.0]]),), "compiles"),
    # lists of tensors passed to the XLA entry (its own list result goes back in): iterating them compiles
    ("XLA106-valid-5", "train", lambda: ([_f(1.0, 2.0), _f(3.0)], [[_f(0.5, -0.5), _f(1.0)]] * 2, tf.constant(0.1)),
     "compiles"),
    ("XLA206-invalid-3", "f", lambda: (_f(0.5, 2.0, 3.0, 1.0),), "fails"),  # mask / shrinking slice in a loop
    ("XLA206-valid-3", "f", lambda: (_f(0.5, 2.0, -3.0, 1.0),), "compiles"),
    ("XLA211-invalid-1", "f", lambda: (_f(0.9, 0.2, 0.7),), "fails"),  # tf.where(...).shape[0] // 2
    ("XLA211-invalid-2", "f", lambda: (tf.constant([3, 1, 3, 2]),), "fails"),  # tf.unique / boolean_mask .shape[0]
    ("XLA211-valid-1", "f", lambda: (_f(0.9, 0.2, 0.7),), "compiles"),
    ("XLA211-valid-2", "f", lambda: (tf.ones([3, 4]), tf.ones([5, 4])), "compiles"),
    ("XLA211-valid-3", "f", lambda: (tf.constant([3, 1, 3, 2]),), "compiles"),  # idx has a static length
    ("XLA211-valid-4", "f", lambda: (tf.constant([3, 1, 3, 2]), tf.ones([4, 2])), "compiles"),  # nested binding
    ("XLA302-invalid-5", "f", lambda: (tf.ones([2, 4]), tf.ones([3, 4])), "fails"),  # math.sqrt of a tensor
    ("XLA302-valid-6", "f", lambda: (tf.ones([2, 4]), tf.ones([3, 4])), "compiles"),  # math of static facts
    # a NumPy Generator argument: `rng.random()` is a Python float at trace time, no tensor method
    ("XLA302-valid-7", "f", lambda: (tf.ones([2, 3]), __import__("numpy").random.default_rng(0)), "compiles"),
    ("XLA303-invalid-1", "f", lambda: (_f(1.0, 2.0), tf.constant([1, 1])), "fails"),
    ("XLA303-invalid-2", "f", lambda: (_f(1.0, 2.0), tf.constant([0, 1])), "fails"),
    ("XLA303-valid-1", "f", lambda: (_f(1.0, 2.0), tf.constant([1, 1])), "compiles"),
    ("XLA307-invalid-1", "f", lambda: (_f(1.0),), "fails"),
    ("XLA209-invalid-1", "f", lambda: (tf.ones([3, 4]),), "fails"),
    ("XLA209-valid-1", "f", lambda: (tf.ones([3, 4]),), "compiles"),
    ("XLA210-invalid-1", "f", lambda: (tf.constant(0.5),), "fails"),
    ("XLA210-invalid-2", "f", lambda: (tf.constant(0.5), tf.constant(3)), "fails"),
    ("XLA210-valid-1", "f", lambda: (tf.constant(0.5),), "compiles"),
    ("XLA210-valid-2", "f", lambda: (tf.constant(0.5),), "compiles"),
    ("XLA210-valid-3", "f", lambda: (tf.constant(0.5),), "compiles"),
    ("XLA210-invalid-3", "f", lambda: (tf.constant(0.5), _f(1.0, 2.0, 3.0)), "fails"),
    ("XLA210-invalid-4", "f", lambda: (tf.constant(0.5),), "fails"),
    ("XLA308-invalid-1", "f", lambda: (tf.constant(["de"]), tf.constant(["ios"])), "fails"),
    ("XLA308-valid-1", "f", lambda: (tf.constant([0, 1]),), "compiles"),
    ("XLA308-invalid-2", "f", lambda: (_f(0.2, 0.9),), "fails"),
    ("XLA309-invalid-1", "f", lambda: (tf.constant([[2.0, 0.0], [0.0, 3.0]]),), "fails"),
    ("XLA309-valid-1", "f", lambda: (tf.constant([[2.0, 0.0], [0.0, 3.0]]),), "compiles"),
    ("XLA309-invalid-4", "step", lambda: (tf.ones([2, 4]), tf.ones([4, 4])), "fails"),
    ("XLA309-valid-2", "f", lambda: (tf.constant([[0.3, -0.7], [1.5, 0.1]]),), "compiles"),
    ("XLA309-invalid-7", "f", lambda: (tf.reshape(tf.range(12, dtype=F), [3, 4]),), "fails"),
    ("XLA309-valid-5", "f", lambda: (tf.reshape(tf.range(12, dtype=F), [3, 4]),), "compiles"),
    ("XLA309-invalid-8", "step", lambda: (tf.ones([1, 4, 4, 1]), tf.constant(0.5)), "fails"),
    ("XLA309-valid-6", "step", lambda: (tf.ones([1, 4, 4, 1]), tf.constant(0.5)), "compiles"),
    ("XLA204-invalid-5", "f", lambda: (_f(1.0, -2.0, 3.0), tf.constant([1, 2], tf.int64)), "fails"),
    ("XLA204-valid-6", "f", lambda: (_f(1.0, -2.0, 3.0), tf.constant([1, 2], tf.int64)), "compiles"),
    ("XLA206-invalid-2", "f", lambda: (tf.ones([2, 3]), tf.constant(0.5)), "fails"),
    ("XLA206-valid-2", "f", lambda: (tf.ones([2, 3]), tf.constant(0.5)), "compiles"),
    ("XLA101-invalid-6", "cost", lambda: (_f(1.0, 2.0), tf.constant([True, False])), "fails"),
    ("XLA310-invalid-1", "f", lambda: (tf.ones([1, 4, 4, 1]),), "fails"),
    ("XLA310-valid-1", "f", lambda: (tf.ones([1, 4, 4, 1]),), "compiles"),
    ("XLA310-invalid-2", "f", lambda: (_f(1.0),), "fails"),
    ("XLA316-invalid-1", "step", lambda: (tf.ones([1, 4, 4, 1]), tf.ones([1, 6, 6, 1])), "fails"),
    ("XLA316-invalid-2", "step", lambda: (tf.ones([1, 2, 2, 1]), tf.ones([1, 4, 4, 1])), "fails"),
    ("XLA316-valid-3", "step", lambda: (tf.ones([1, 4, 4, 1]), tf.ones([1, 6, 6, 1])), "compiles"),
    ("XLA315-invalid-1", "f", lambda: (tf.ones([4]), tf.constant([1, 2])), "fails"),
    ("XLA315-valid-1", "f", lambda: (tf.ones([4]),), "compiles"),
    ("XLA315-valid-3", "f", lambda: (tf.reshape(tf.range(64, dtype=F), [8, 8, 1]),), "compiles"),
    # XLA113 from the shared dtype model: float32 vs int32 zeros, float16 vs a Python 0; float32 vs tf.zeros
    ("XLA113-invalid-4", "f", lambda: (_f(1.0, 2.0, 3.0),), "fails"),
    ("XLA113-invalid-5", "f", lambda: (_f(1.0, 2.0, 3.0),), "fails"),
    ("XLA113-valid-2", "f", lambda: (_f(1.0, 2.0, 3.0),), "compiles"),
    # XLA314: sign tests and floor division of wrapped integer squares / abs are folded by XLA
    ("XLA314-invalid-1", "energy", lambda: (tf.constant([12, 7, 20], tf.int8),), "fails"),
    ("XLA314-invalid-2", "f", lambda: (tf.constant([5, -2147483648], tf.int32),), "fails"),
    ("XLA314-invalid-3", "f", lambda: (tf.constant([300, 10, -250], tf.int32),), "fails"),
    ("XLA314-valid-1", "f", lambda: (tf.constant([12, 7, 20], tf.int8),), "compiles"),
    ("XLA314-valid-2", "f", lambda: (tf.constant([12, 7, 20], tf.int32),), "compiles"),
    ("XLA314-valid-3", "f", lambda: (tf.constant([12, 7, 20], tf.int32),), "compiles"),
    ("XLA314-valid-5", "f", lambda: (tf.constant([12, -7, 20], tf.int32), tf.constant([3, 4, -5], tf.int32)),
     "compiles"),
    # api-coverage6: aliases the API table records (alias_of), list outputs of data-dependent shape,
    # module-level lookup layers called in a jit-compiled function
    ("XLA211-invalid-4", "f", lambda: (_f(0.9, 0.2, 0.7),), "fails"),  # keras.ops.nonzero(...)[0].shape[0]
    ("XLA211-invalid-5", "f", lambda: (_f(1.0, 2.0, 3.0), tf.constant([0, 1, 0])), "fails"),  # dynamic_partition
    ("XLA211-valid-5", "f", lambda: (tf.constant([3, 1, 3, 2]),), "compiles"),  # tf.unique(...)[1] keeps its length
    ("XLA307-invalid-3", "f", lambda: (_f(1.0, 2.0),), "fails"),  # tf.compat.v1.print
    ("XLA309-invalid-9", "f", lambda: (tf.constant([[2.0, 0.0], [0.0, 3.0]]),), "fails"),  # keras.ops.linalg.det
    ("XLA311-invalid-5", "f", lambda: (tf.constant([3, 1, 3], tf.int64),), "fails"),  # a module-level Hashing
    ("XLA311-invalid-11", "f", lambda: (tf.constant([[2.0, 1.0], [1.0, 3.0]]),), "fails"),  # LinearOperator.det
    ("XLA311-invalid-12", "f", lambda: (_f(1.0, 2.0),), "fails"),  # next(iter(dataset))
    ("XLA311-invalid-13", "f", lambda: (_f(1.0, 2.0),), "fails"),  # FIFOQueue.enqueue
    ("XLA311-valid-8", "f", lambda: (tf.constant([[2.0, 1.0], [1.0, 3.0]]), _f(1.0, 2.0)), "compiles"),
    ("XLA311-valid-9", "f", lambda: (_f(1.0, 2.0),), "compiles"),
    ("XLA311-invalid-14", "evaluate", lambda: (_f(1.0, 2.0),), "fails"),  # for x in a module-level dataset
    ("XLA315-invalid-2", "f", lambda: (_f(1.0, 2.0, 3.0, 4.0),), "fails"),  # tf.random.uniform(..., seed=11)
    # next() of a tf.data iterator the jit-compiled step receives as an argument
    ("XLA311-invalid-16", "train_step",
     lambda: (iter(tf.data.Dataset.from_tensor_slices(tf.ones([4, 2])).batch(2)), _f(1.0, 2.0)), "fails"),
    ("XLA204-invalid-6", "f", lambda: (tf.constant([1, 2, 3]),), "fails"),  # tf.ragged.range (RaggedRange)
    ("XLA309-invalid-10", "f", lambda: (_f(1.0, 2.0, 3.0, 4.0),), "fails"),  # keras.random.gamma
    ("XLA309-invalid-11", "f", lambda: (tf.ones([3, 2]),), "fails"),  # TensorArray.scatter
    ("XLA309-valid-8", "f", lambda: (tf.ones([3, 2]),), "compiles"),  # TensorArray.unstack
    ("XLA316-invalid-3", "step", lambda: (tf.ones([1, 4, 4, 1]), tf.ones([1, 8, 8, 1])), "fails"),  # K.resize_images
    ("XLA316-valid-4", "step", lambda: (tf.ones([1, 4, 4, 1]), tf.ones([1, 8, 8, 1])), "compiles"),  # bilinear
    ("XLA308-invalid-3", "f", lambda: (tf.constant(["ab", "c"]),), "fails"),  # tf.compat.v1.strings.length
    # tf-recall8: a constant index in the branch a tensor-valued size test excludes is traced anyway
    ("XLA116-invalid-1", "f", lambda: (tf.constant([7]),), "fails"),  # tensor[1] for a 1-element tensor
    ("XLA116-invalid-2", "f", lambda: (tf.zeros([2, 2]),), "fails"),  # x[:, 3] for 2 columns
    ("XLA116-invalid-3", "f", lambda: (tf.constant([7]),), "fails"),  # explicit tf.cond
    ("XLA116-valid-1", "f", lambda: (tf.constant([7]),), "compiles"),  # the static shape: a Python `if`
    ("XLA116-valid-3", "f", lambda: (_f(1.0, 2.0),), "compiles"),  # tf.gather clamps in the excluded branch
    ("XLA211-invalid-6", "f", lambda: (_f(1.0, -2.0, 3.0),), "fails"),  # n = kept.shape[0]; tf.zeros([n, 2])
    ("XLA317-invalid-4", "f", lambda: (tf.constant([[True, False, True]]),), "fails"),  # mask = tf.cast(mask, int8)
    ("XLA317-invalid-5", "f", lambda: (tf.constant([[True, False, True]]),), "fails"),  # keras.ops.cast/cumsum
    # tf-recall10: a Python predicate of tf.cond / tf.switch_case / tf.case fails once traced
    ("XLA117-invalid-1", "f", lambda: (tf.ones([2, 2]),), "fails"),
    ("XLA117-invalid-2", "f", lambda: (_f(1.0, 2.0),), "fails"),
    ("XLA117-invalid-3", "f", lambda: (_f(1.0, 2.0),), "fails"),
    ("XLA117-valid-1", "f", lambda: (_f(1.0, 2.0),), "compiles"),
    ("XLA117-valid-4", "f", lambda: (_f(1.0, 2.0),), "compiles"),
    ("XLA405-invalid-5", "noisy", lambda: (_f(1.0, 2.0),), "fails"),  # a random generator built in the step
    ("XLA405-invalid-6", "step", lambda: (_f(1.0, 2.0),), "fails"),  # a class whose __init__ makes a variable
    ("XLA405-invalid-7", "weighted_sum", lambda: (_f(1.0, 2.0), _f(0.5, 0.5)), "fails"),  # guarded on an argument
    ("XLA205-invalid-11", "jitter", lambda: (tf.ones([2, 4]), tf.constant(7)), "fails"),  # a seed argument, a tensor
    ("XLA405-valid-4", "counter", lambda: (_f(1.0, 2.0),), "compiles"),  # a module-level cell guards the variable
    ("XLA205-invalid-9", "positions", lambda: (tf.constant([[1, 2, 3]]),), "fails"),  # tnp.arange of a shape
    # tf-ops13: the binding that reaches a read; what a gradient reaches
    # a mask row with nothing selected: reduce_max drops the 0/0 under XLA, eager returns NaN
    ("XLA318-invalid-6", "step", lambda: (tf.ones([2, 3]), tf.ones([2, 3]), _empty_row_mask()), "fails"),
    ("XLA318-valid-9", "f", lambda: ((tf.ones([2, 3]), _empty_row_mask()),), "compiles"),
    ("XLA309-invalid-12", "step", lambda: (tf.ones([1, 4, 4, 1]),), "fails"),  # a module-level tf.Variable upstream
    ("XLA309-valid-9", "step", lambda: (tf.ones([1, 4, 4, 1]),), "compiles"),  # tf.stop_gradient before the resize
    ("XLA309-invalid-13", "step", lambda: (_f(1.0, 3.0, 2.0, 5.0)[None], tf.ones([4])), "fails"),  # nanmedian's grad
    # names bound to the API (tf-ways14): partial, dict, getattr; a loop over functions, a default
    ("XLA309-valid-10", "f", lambda: (tf.constant([[2.0, 0.0], [0.0, 3.0]]),), "compiles"),
    ("XLA309-invalid-14", "f", lambda: (tf.constant([[2.0, 0.0], [0.0, 3.0]]),), "fails"),
    ("XLA309-invalid-15", "f", lambda: (tf.constant([[2.0, 0.0], [0.0, 3.0]]),), "fails"),
    ("XLA311-invalid-6", "f", lambda: (tf.ones([1, 4, 4, 1]),), "fails"),  # a layer of a Sequential list
    ("XLA311-invalid-9", "f", lambda: (_f(1.0, 2.0),), "fails"),  # Generator.from_seed(...).binomial
    ("XLA309-invalid-16", "f", lambda: (tf.constant([[2.0, 0.0], [0.0, 3.0]]),), "fails"),  # experimental_compile
    # reports17: a tf.function that pops from the dict it receives; the same on a copy
    ("XLA322-invalid-1", "train_step", lambda: ({"label": _f(1.0, 2.0), "x": _f(0.5, 0.5)},), "fails"),
    ("XLA322-valid-1", "step", lambda: ({"x": _f(1.0, 2.0), "y": _f(3.0, 4.0)},), "compiles"),
    ("XLA324-invalid-2", "remember", lambda: (_f(1.0, 2.0, 3.0, 4.0),), "fails"),  # an Operation returned
    # tfjax-prec19: a layer attribute bound to what a function of the file returns is a tensor, not a layer
    ("XLA323-valid-4", "f", lambda: (_f(1.0, 2.0),), "compiles"),
    # reports21-tf: tf.linalg.expm's gradient (grad_list_size) fails compiled; its forward compiles
    ("XLA309-invalid-17", "step", lambda: (tf.eye(3) * 0.1, tf.ones([2, 3])), "fails"),
    ("XLA316-valid-6", "infer", lambda: (tf.ones([2, 3]),), "compiles"),
    # tftables21: tf2xla rejects complex64 in Bitcast although its kernel lists the type; tf.complex compiles
    ("XLA317-invalid-6", "envelope", lambda: (tf.ones([3, 2]),), "fails"),  # tf.bitcast(iq, tf.complex64)
    ("XLA317-valid-4", "envelope", lambda: (tf.ones([3, 2]),), "compiles"),  # tf.complex of the parts
    # tftables21: eigh's gradient with a complex64 input fails ("Binary op add with different element types")
    ("XLA309-invalid-18", "step", lambda: (tf.eye(3) * 0.5, tf.zeros([3, 3])), "fails"),
    ("XLA309-valid-12", "step", lambda: (tf.eye(3) * 0.5, tf.zeros([3, 3])), "compiles"),  # float32 eigh
    # reports22-tf: without AutoGraph, range()/int() of tf.shape(x)[1] (symbolic even when static) fail
    ("XLA302-invalid-6", "f", lambda: (tf.ones([2, 5]),), "fails"),  # range(1, tf.shape(x)[1])
    ("XLA302-invalid-7", "f", lambda: (tf.ones([2, 6]),), "fails"),  # int(tf.shape(x)[1])
    ("XLA302-valid-9", "f", lambda: (tf.ones([2, 5]),), "compiles"),  # range(1, x.shape[1])
    # reports23-tf: list equality reaching a tensor element asks it for a Python bool; shape entries are ints
    ("XLA102-invalid-5", "f", lambda: (tf.constant([6, 3]),), "fails"),  # shape_list(mask) == [2, slen]
    ("XLA102-valid-7", "f", lambda: (tf.constant([6, 3]),), "compiles"),  # shape_list(mask) == [bs, slen]
    # reports24-tf: ops XLA:CPU rejects or gets wrong on a bounded dynamic (boolean-mask / tf.where) tensor
    ("XLA119-invalid-1", "f", lambda: (_f(0.7, 0.2, 0.9, 0.1), _f(1.0, 2.0, 3.0, 4.0)), "fails"),
    ("XLA119-invalid-2", "f", lambda: (_f(1.0, 2.0, 3.0, 4.0), tf.constant([True, False, True, False])), "fails"),
    ("XLA119-valid-1", "f", lambda: (tf.constant([True, False, True]),), "compiles"),
    ("XLA119-valid-2", "f", lambda: (_f(1.0, 2.0, 3.0), tf.constant([True, False, True])), "compiles"),
    # reports25-tf: ragged consumers measured by tools/generate_ragged_table.py (XLA204's ragged check)
    ("XLA204-invalid-7", "f", lambda: (tf.ones([6, 3]), tf.constant([1, 3, 2])), "fails"),  # tf.map_fn over rows
    ("XLA204-invalid-8", "f", lambda: (tf.ones([10, 4]), tf.constant([1, 4, 2, 7, 3, 0]), tf.constant([1, 3, 2])),
     "fails"),  # reduce_mean(gather(table, ragged ids), axis=1)
    ("XLA204-valid-7", "f", lambda: (tf.ones([6, 3]), tf.constant([1, 3, 2])), "compiles"),  # reduce_sum, no axis
    ("XLA309-invalid-19", "f",
     lambda: (tf.constant([[1, 2], [3, 0], [2, 2]]), tf.reshape(tf.range(90, dtype=F), [6, 3, 5]) / 90.0),
     "fails"),  # tf.nn.ctc_loss with SparseTensor labels (CTCLoss)
    ("XLA309-valid-13", "f",
     lambda: (tf.constant([[1, 2], [3, 1], [2, 2]]), tf.reshape(tf.range(90, dtype=F), [6, 3, 5]) / 90.0),
     "compiles"),  # tf.nn.ctc_loss with dense labels
    ("XLA309-invalid-20", "f",
     lambda: (tf.constant([[1, 2, 0], [3, 0, 0], [2, 2, 1]]), tf.constant([2, 1, 3]),
              tf.reshape(tf.range(90, dtype=F), [6, 3, 5]) / 90.0),
     "fails"),  # K.ctc_label_dense_to_sparse labels -> CTCLoss
    # lead27: branch ranks (xlacheck/data/tf_branch_carry.json); XLA122-invalid-2 (switch_case) aborts the
    # process, so tests/xlacheck/test_branch_rank_truth.py runs it in a subprocess
    ("XLA122-invalid-1", "f", lambda: (tf.ones([4, 3]), tf.constant(True)), "fails"),
    ("XLA122-invalid-3", "f", lambda: (tf.ones([4, 3]),), "fails"),
    ("XLA122-invalid-4", "f", lambda: (tf.ones([4, 3]),), "fails"),
    ("XLA122-valid-1", "f", lambda: (tf.ones([4, 3]), tf.constant(True)), "compiles"),
    ("XLA122-valid-2", "f", lambda: (tf.constant(3.0), tf.constant(True)), "compiles"),  # a scalar x: same rank
    ("XLA122-valid-3", "f", lambda: (tf.ones([4, 3]), tf.constant(True)), "compiles"),
    ("XLA122-valid-5", "f", lambda: (tf.ones([4, 3]),), "compiles"),
    ("XLA122-valid-6", "f", lambda: (tf.ones([4, 3]),), "compiles"),
    # lead27: a variable assigned itself grown (tf_branch_carry.json variable.*_assign_grown)
    ("XLA123-invalid-1", "push", lambda: (tf.ones([1, 3]),), "fails"),
    ("XLA123-invalid-3", "push", lambda: (tf.ones([1, 3]),), "fails"),
    ("XLA123-valid-1", "push", lambda: (tf.ones([1, 3]),), "compiles"),
    ("XLA123-valid-3", "push", lambda: (tf.ones([4, 3]),), "compiles"),
    ("XLA206-invalid-8", "f", lambda: (tf.ones([4, 3]),), "fails"),  # a loop carry reduced to a lower rank
    # tf.cond branches of different structure / dtype (tf_branch_carry.json cond.*, every graph)
    ("XLA113-invalid-6", "f", lambda: (tf.ones([3]), tf.constant(True)), "fails"),
    ("XLA113-invalid-7", "f", lambda: (tf.ones([3]), tf.constant(True)), "fails"),
    ("XLA113-invalid-8", "f", lambda: (tf.ones([3]), tf.constant(True)), "fails"),
    ("XLA113-valid-3", "f", lambda: (tf.ones([3]), tf.constant(True)), "compiles"),
    ("XLA301-invalid-7", "f", lambda: (_f(1.0, 2.0), _f(3.0)), "fails"),  # rt.to_list(): tensor_members.json host_read
    # XLA327: tf.constant / tf.TensorShape of a tensor in a traced function; of a captured eager constant
    ("XLA327-invalid-1", "f", lambda: (_f(1.0, 2.0),), "fails"),
    ("XLA327-invalid-2", "f", lambda: (tf.constant([[1.0, 2.0], [3.0, 4.0]]),), "fails"),
    ("XLA327-invalid-3", "f", lambda: (tf.constant([[1.0, 2.0, 3.0]]),), "fails"),
    ("XLA327-valid-1", "f", lambda: (_f(1.0, 2.0),), "compiles"),
    ("XLA327-valid-2", "f", lambda: (_f(1.0, 2.0),), "compiles"),
    ("XLA327-valid-4", "f", lambda: (_f(1.0, 2.0), 3.0), "compiles"),
    # XLA309: the complex eigh gradient, the input proven complex64 through a class variable (tfrecall29)
    ("XLA309-invalid-21", "f", lambda: (_f(0.1, -0.2),), "fails"),
    # XLA206: a tf.while_loop body returning its grown loop variable by name (tfrecall29)
    ("XLA206-invalid-10", "f", lambda: (tf.ones([2, 3]),), "fails"),
    # XLA331: a Python int before a float tensor in tf.maximum/tf.minimum; a float literal, the tensor first
    ("XLA331-invalid-1", "f", lambda: (_f(1.0, -2.0),), "fails"),
    ("XLA331-invalid-3", "f", lambda: (_f(1.0, -2.0),), "fails"),
    ("XLA331-valid-1", "f", lambda: (_f(1.0, -2.0),), "compiles"),
    ("XLA331-valid-2", "f", lambda: (_f(1.0, 2.0),), "compiles"),
]


def _example_source(example_id: str) -> str:
    code, kind, index = example_id.split("-")
    rule = next(r for r in ALL_RULES if r.code == code)
    examples = rule.VALID if kind == "valid" else rule.INVALID
    return examples[int(index) - 1].code


def _load(source: str, tmp_path: Path, name: str) -> Any:
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _jit(fn: Any) -> Any:
    if getattr(fn, "_jit_compile", None):
        return fn
    return tf.function(lambda *a: fn(*a), jit_compile=True)


def _same(a: Any, b: Any) -> bool:
    fa, fb = tf.nest.flatten(a), tf.nest.flatten(b)
    if len(fa) != len(fb):
        return False
    for x, y in zip(fa, fb):
        x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
        if x.shape != y.shape:
            return False
        if x.dtype.is_floating or y.dtype.is_floating:
            x, y = tf.cast(x, tf.float64), tf.cast(y, tf.float64)
        if not bool(tf.reduce_all(tf.abs(x - y) <= 1e-5 + 1e-4 * tf.abs(y)) if x.dtype.is_floating else tf.reduce_all(x == y)):
            return False
    return True


def _eager(fn: Any, args: tuple) -> Any:
    tf.config.run_functions_eagerly(True)
    try:
        return fn(*args)
    finally:
        tf.config.run_functions_eagerly(False)


@pytest.mark.parametrize(("example_id", "entry", "make_args", "claim"), CASES, ids=[c[0] for c in CASES])
def test_compiler_agrees(example_id: str, entry: str, make_args: Callable[[], tuple], claim: str,
                         tmp_path: Path) -> None:
    source = _example_source(example_id)
    # examples are numbered by position: a new example before this one shifts the numbers
    assert re.search(rf"^(async )?def {entry}\(", source, re.M), f"{example_id} defines no {entry}(): renumber"
    module = _load(source, tmp_path, example_id.replace("-", "_"))
    fn = getattr(module, entry)
    args = make_args()
    if claim == "static_fails":
        specs = [tf.TensorSpec(a.shape, a.dtype) for a in args]
        with pytest.raises(Exception, match="compile-time constant"):
            tf.function(fn, jit_compile=True).experimental_get_compiler_ir(*specs)(stage="hlo")
        return
    try:
        compiled = _jit(fn)(*args)
    except Exception:  # noqa: BLE001 - any tracing/compilation error is the claimed failure
        assert claim == "fails", f"{example_id} was claimed to compile"
        return
    expected = _eager(getattr(_load(_example_source(example_id), tmp_path, example_id.replace("-", "_") + "_eager"),
                              entry), args)
    if claim == "compiles":
        assert _same(compiled, expected), f"{example_id}: XLA {compiled} != eager {expected}"
    else:
        assert not _same(compiled, expected), f"{example_id} compiled and matched eager mode"


def test_python_value_args_fail_on_computed_tensors() -> None:
    """Every entry of tables.PYTHON_VALUE_ARGS fails inside a jit-compiled function when its
    argument is a tensor the function computed, and compiles given Python values."""
    from xlacheck.analysis.tables import PYTHON_VALUE_ARGS

    for name in PYTHON_VALUE_ARGS:
        target: Any = tf
        for part in name.split(".")[1:]:
            target = getattr(target, part)

        def computed(x: Any, target: Any = target) -> Any:
            return tf.reshape(x, [-1]) + tf.cast(tf.size(tf.zeros(target(tf.shape(x) * 2))), F)

        def literal(x: Any, target: Any = target) -> Any:
            return tf.reshape(x, [-1]) + tf.cast(tf.size(tf.zeros(target([2, 2]))), F)

        with pytest.raises(Exception):  # noqa: B017 - TypeError/ValueError depending on the callable
            tf.function(computed, jit_compile=True)(_f(1.0, 2.0))
        tf.function(literal, jit_compile=True)(_f(1.0, 2.0))


def test_unique_outputs_data_length() -> None:
    """XLA211's per-output facts: of tf.unique_with_counts only y and count have a data-dependent
    length while tracing (idx keeps the input's), so XLA211-invalid-3 fails in a plain tf.function
    and reshaping by idx.shape[0] traces."""
    module_src = _example_source("XLA211-invalid-3")
    ns: dict[str, Any] = {}
    exec(compile(module_src, "XLA211_invalid_3", "exec"), ns)  # noqa: S102 - our own pinned example
    with pytest.raises(TypeError):
        ns["f"](tf.constant([3, 1, 3, 2]))

    @tf.function
    def by_idx(ids: Any) -> Any:
        y, idx, count = tf.unique_with_counts(ids)
        assert y.shape[0] is None and count.shape[0] is None and idx.shape[0] == 4
        return tf.reshape(idx, [idx.shape[0], 1])

    assert by_idx(tf.constant([3, 1, 3, 2])).shape == (4, 1)
