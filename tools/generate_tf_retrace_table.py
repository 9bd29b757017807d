"""Generate xlacheck/data/tf_retrace.json: which call-to-call differences retrace a ``tf.function``, measured.

One command (needs TensorFlow; xlacheck itself never imports it):

    TF_USE_LEGACY_KERAS=1 python tools/generate_tf_retrace_table.py     # writes xlacheck/data/tf_retrace.json
    TF_USE_LEGACY_KERAS=1 python tools/generate_tf_retrace_table.py --check [--only NAME]  # re-measures, compares
    TF_USE_LEGACY_KERAS=1 python tools/generate_tf_retrace_table.py --only python_int_value_changes --print

Every row is one *scenario*: a ``tf.function`` (built fresh for the row) and a list of calls that
differ in one way (a Python int's value, a tensor's shape, a list's length, a new object, ...).
Each row is measured twice, once with ``jit_compile=True`` and once without, and records

* ``traces``: how many times the Python body ran (a counter in the body; equals
  ``experimental_get_tracing_count()`` for a single ``tf.function``, and also counts the traces of
  functions built per call or per instance, which each have their own count);
* ``tracing_count``: ``experimental_get_tracing_count()`` of the (last) function object, where one exists;
* ``xla_compiles``: XLA compilations seen during the calls (one ``*.before_optimizations.txt``
  per compilation in an ``--xla_dump_to`` folder, as the shared oracle counts them);
* ``retraces`` / ``recompiles``: traces (compilations) beyond the first call's.

A row's ``hazard`` is ``retrace`` when later calls trace again, ``recompile`` when they compile
again under ``jit_compile`` without tracing again, ``none`` otherwise. :mod:`xlacheck.retrace_table`
reads the table; the retrace rules (XLA403/404/409/412/413/414) cite its rows, and
``tests/xlacheck/test_tf_retrace_table.py`` re-measures a sample against the installed TensorFlow.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "tf_retrace.json"
COMMAND = "TF_USE_LEGACY_KERAS=1 python tools/generate_tf_retrace_table.py"

_DUMP = tempfile.mkdtemp(prefix="xlacheck_retrace_dump_")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + f" --xla_dump_to={_DUMP} --xla_dump_hlo_as_text").strip()


def _n_compiles() -> int:
    return sum(1 for f in os.listdir(_DUMP) if f.endswith(".before_optimizations.txt"))


class Probe:
    """What one scenario run saw: the body's trace counter and the last function object."""

    def __init__(self) -> None:
        self.traces = 0
        self.last_function: Any = None

    def tick(self) -> None:
        self.traces += 1


# A scenario: (probe, jit_compile) -> list of zero-argument calls, made in order. The first call is
# the reference; later calls differ from it as the row's ``difference`` says.
Scenario = Callable[[Probe, bool], list[Callable[[], Any]]]
SCENARIOS: dict[str, tuple[str, str, Scenario]] = {}


def scenario(difference: str, kind: str) -> Callable[[Scenario], Scenario]:
    """Register a scenario. ``kind`` groups rows: python_value, tensor, container, object, keras, function."""

    def register(fn: Scenario) -> Scenario:
        SCENARIOS[fn.__name__] = (difference, kind, fn)
        return fn

    return register


def _tf():  # noqa: ANN202 - the module
    import tensorflow as tf

    return tf


def _function(probe: Probe, jit: bool, **kwargs: Any) -> Callable[[Callable[..., Any]], Any]:
    tf = _tf()

    def wrap(body: Callable[..., Any]) -> Any:
        def traced(*a: Any, **k: Any) -> Any:
            probe.tick()
            return body(*a, **k)

        f = tf.function(traced, jit_compile=jit, **kwargs)
        probe.last_function = f
        return f

    return wrap


def _x(*shape: int, dtype: str = "float32") -> Any:
    tf = _tf()
    return tf.ones(shape, dtype=dtype)


# -- Python values ------------------------------------------------------------------------------
@scenario("a Python int argument takes a new value each call (1, 2, 3)", "python_value")
def python_int_value_changes(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit)(lambda x, n: x * n)
    return [lambda n=n: f(_x(2), n) for n in (1, 2, 3)]


@scenario("a NumPy random draw without size (np.random.beta(0.2, 0.2): a Python float) passed at each call",
          "python_value")
def numpy_random_draw_each_call(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    import numpy as np

    rng = np.random.RandomState(0)
    f = _function(probe, jit)(lambda x, lam: x * lam)
    return [lambda: f(_x(2), rng.beta(0.2, 0.2)) for _ in range(3)]


@scenario("a Python int argument has the same value at every call", "python_value")
def python_int_same_value(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit)(lambda x, n: x * n)
    return [lambda: f(_x(2), 4) for _ in range(3)]


@scenario("a Python float argument takes a new value each call (0.1, 0.2, 0.3)", "python_value")
def python_float_value_changes(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit)(lambda x, lr: x * lr)
    return [lambda v=v: f(_x(2), v) for v in (0.1, 0.2, 0.3)]


@scenario("a Python float argument whose value changes, with reduce_retracing=True", "python_value")
def python_float_value_changes_reduce_retracing(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit, reduce_retracing=True)(lambda x, lr: x * lr)
    return [lambda v=v: f(_x(2), v) for v in (0.1, 0.2, 0.3)]


@scenario("an int argument whose value changes, covered by input_signature TensorSpec([], tf.int32)", "python_value")
def python_int_value_changes_input_signature(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    f = _function(probe, jit, input_signature=[tf.TensorSpec([2], tf.float32), tf.TensorSpec([], tf.int32)])(
        lambda x, n: x * tf.cast(n, tf.float32))
    return [lambda n=n: f(_x(2), n) for n in (1, 2, 3)]


@scenario("the changing number is passed as a tensor (tf.constant(v)), not a Python float", "python_value")
def tensor_scalar_value_changes(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    f = _function(probe, jit)(lambda x, lr: x * lr)
    return [lambda v=v: f(_x(2), tf.constant(v)) for v in (0.1, 0.2, 0.3)]


@scenario("a NumPy scalar (np.float32) whose value changes", "python_value")
def numpy_scalar_value_changes(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    import numpy as np

    f = _function(probe, jit)(lambda x, lr: x * lr)
    return [lambda v=v: f(_x(2), np.float32(v)) for v in (0.1, 0.2, 0.3)]


@scenario("a NumPy array of the same shape with new values", "python_value")
def numpy_array_value_changes(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    import numpy as np

    f = _function(probe, jit)(lambda x, w: x * w)
    return [lambda v=v: f(_x(2), np.full((2,), v, np.float32)) for v in (0.1, 0.2, 0.3)]


@scenario("a NumPy array whose length changes", "tensor")
def numpy_array_shape_changes(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    import numpy as np

    f = _function(probe, jit)(lambda w: w * 2.0)
    return [lambda n=n: f(np.ones((n,), np.float32)) for n in (2, 3, 4)]


@scenario("a Python bool argument flips (True, False, True)", "python_value")
def python_bool_changes(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit)(lambda x, training: x * 2.0 if training else x)
    return [lambda b=b: f(_x(2), b) for b in (True, False, True)]


@scenario("a Python str argument changes ('a', 'b', 'c')", "python_value")
def python_str_changes(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit)(lambda x, tag: x * float(len(tag)))
    return [lambda s=s: f(_x(2), s) for s in ("a", "b", "c")]


@scenario("None at one call, a tensor at the next", "python_value")
def none_vs_tensor(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit)(lambda x, mask: x if mask is None else x * mask)
    return [lambda: f(_x(2), None), lambda: f(_x(2), _x(2)), lambda: f(_x(2), None)]


@scenario("a Python int keyword default that no call overrides", "python_value")
def python_default_unchanged(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit)(lambda x, n=3: x * n)
    return [lambda: f(_x(2)) for _ in range(3)]


@scenario("a closure reads a Python float that changes between calls (no argument changes)", "python_value")
def closure_python_value_changes(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    state = {"lr": 0.1}
    f = _function(probe, jit)(lambda x: x * state["lr"])

    def call(v: float) -> Any:
        state["lr"] = v
        return f(_x(2))

    return [lambda v=v: call(v) for v in (0.1, 0.2, 0.3)]


# -- tensors --------------------------------------------------------------------------------------
@scenario("a tensor's leading dim changes each call (2, 3, 4), no input_signature", "tensor")
def tensor_shape_changes(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit)(lambda x: x * 2.0)
    return [lambda n=n: f(_x(n, 3)) for n in (2, 3, 4)]


@scenario("a tensor's leading dim changes each call, reduce_retracing=True", "tensor")
def tensor_shape_changes_reduce_retracing(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit, reduce_retracing=True)(lambda x: x * 2.0)
    return [lambda n=n: f(_x(n, 3)) for n in (2, 3, 4)]


@scenario("a tensor's leading dim changes each call, experimental_relax_shapes=True (deprecated)", "tensor")
def tensor_shape_changes_relax_shapes(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()

    def build() -> Any:
        def traced(x: Any) -> Any:
            probe.tick()
            return x * 2.0

        f = tf.function(traced, jit_compile=jit, experimental_relax_shapes=True)
        probe.last_function = f
        return f

    f = build()
    return [lambda n=n: f(_x(n, 3)) for n in (2, 3, 4)]


@scenario("a tensor's leading dim changes, input_signature TensorSpec([None, 3])", "tensor")
def tensor_shape_changes_input_signature_none(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    f = _function(probe, jit, input_signature=[tf.TensorSpec([None, 3], tf.float32)])(lambda x: x * 2.0)
    return [lambda n=n: f(_x(n, 3)) for n in (2, 3, 4)]


@scenario("the same tensor shape at every call, input_signature TensorSpec([None, 3])", "tensor")
def tensor_same_shape_input_signature_none(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    f = _function(probe, jit, input_signature=[tf.TensorSpec([None, 3], tf.float32)])(lambda x: x * 2.0)
    return [lambda: f(_x(4, 3)) for _ in range(3)]


@scenario("a tensor's leading dim repeats a shape seen before (2, 3, 2, 3)", "tensor")
def tensor_shape_repeats(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit)(lambda x: x * 2.0)
    return [lambda n=n: f(_x(n, 3)) for n in (2, 3, 2, 3)]


@scenario("the same tensor shape, new values at every call", "tensor")
def tensor_value_changes(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    f = _function(probe, jit)(lambda x: x * 2.0)
    return [lambda v=v: f(tf.fill([2, 3], v)) for v in (0.1, 0.2, 0.3)]


@scenario("a tensor's dtype changes (float32, float64, float16)", "tensor")
def tensor_dtype_changes(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit, reduce_retracing=True)(lambda x: x * 2)
    return [lambda d=d: f(_x(2, dtype=d)) for d in ("float32", "float64", "float16")]


@scenario("a tensor's rank changes ([2], [2, 2], [2, 2, 2]), reduce_retracing=True", "tensor")
def tensor_rank_changes_reduce_retracing(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit, reduce_retracing=True)(lambda x: x * 2.0)
    return [lambda r=r: f(_x(*([2] * r))) for r in (1, 2, 3)]


@scenario("different tf.Variable objects of one shape and dtype", "tensor")
def variable_new_object(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    f = _function(probe, jit)(lambda v, x: v * x)
    variables = [tf.Variable(tf.ones([2])) for _ in range(3)]
    return [lambda v=v: f(v, _x(2)) for v in variables]


@scenario("the same tf.Variable, assigned a new value between calls", "tensor")
def variable_assigned(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    f = _function(probe, jit)(lambda v, x: v * x)
    var = tf.Variable(tf.ones([2]))

    def call(k: float) -> Any:
        var.assign(tf.fill([2], k))
        return f(var, _x(2))

    return [lambda k=k: call(k) for k in (1.0, 2.0, 3.0)]


# -- containers ------------------------------------------------------------------------------------
@scenario("a list of tensors whose length grows (1, 2, 3)", "container")
def list_of_tensors_length_changes(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    f = _function(probe, jit)(lambda xs: tf.add_n(xs))
    return [lambda n=n: f([_x(2)] * n) for n in (1, 2, 3)]


@scenario("a list of tensors whose length grows (1, 2, 3), reduce_retracing=True", "container")
def list_of_tensors_length_changes_reduce_retracing(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    f = _function(probe, jit, reduce_retracing=True)(lambda xs: tf.add_n(xs))
    return [lambda n=n: f([_x(2)] * n) for n in (1, 2, 3)]


@scenario("a list of tensors of one length, new values", "container")
def list_of_tensors_same_length(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    f = _function(probe, jit)(lambda xs: tf.add_n(xs))
    return [lambda v=v: f([tf.fill([2], v), tf.fill([2], v)]) for v in (0.1, 0.2, 0.3)]


@scenario("a dict of tensors whose keys change", "container")
def dict_of_tensors_keys_change(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    f = _function(probe, jit)(lambda d: tf.add_n(list(d.values())))
    return [lambda k=k: f({k: _x(2)}) for k in ("a", "b", "c")]


@scenario("a dict of tensors with the same keys, new values", "container")
def dict_of_tensors_same_keys(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    f = _function(probe, jit)(lambda d: d["a"] + d["b"])
    return [lambda v=v: f({"a": tf.fill([2], v), "b": _x(2)}) for v in (0.1, 0.2, 0.3)]


@scenario("a list of Python floats whose values change", "container")
def list_of_python_floats_values_change(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit)(lambda x, ws: x * sum(ws))
    return [lambda v=v: f(_x(2), [v, 1.0]) for v in (0.1, 0.2, 0.3)]


@scenario("a new list of Python floats equal to the last one at every call", "container")
def list_of_python_floats_equal_rebuilt(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit)(lambda x, ws: x * sum(ws))
    return [lambda: f(_x(2), [0.5, 1.0]) for _ in range(3)]


@scenario("a dict of Python floats whose values change", "container")
def dict_of_python_floats_values_change(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit)(lambda x, cfg: x * cfg["w"])
    return [lambda v=v: f(_x(2), {"w": v}) for v in (0.1, 0.2, 0.3)]


# -- Python objects ----------------------------------------------------------------------------------
class _Plain:
    def __init__(self, w: float) -> None:
        self.w = w


class _Hashed:
    def __init__(self, w: float) -> None:
        self.w = w

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Hashed) and other.w == self.w

    def __hash__(self) -> int:
        return hash(self.w)


@scenario("a new plain Python object (no __eq__/__hash__) with the same field at every call", "object")
def new_plain_object_each_call(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit)(lambda x, cfg: x * cfg.w)
    return [lambda: f(_x(2), _Plain(0.5)) for _ in range(3)]


@scenario("the same plain Python object at every call, its field mutated between calls", "object")
def same_plain_object_mutated(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit)(lambda x, cfg: x * cfg.w)
    cfg = _Plain(0.1)

    def call(v: float) -> Any:
        cfg.w = v
        return f(_x(2), cfg)

    return [lambda v=v: call(v) for v in (0.1, 0.2, 0.3)]


@scenario("a new object with __eq__/__hash__, equal at every call", "object")
def new_hashed_object_equal(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit)(lambda x, cfg: x * cfg.w)
    return [lambda: f(_x(2), _Hashed(0.5)) for _ in range(3)]


@scenario("a new object with __eq__/__hash__, a different value at every call", "object")
def new_hashed_object_different(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit)(lambda x, cfg: x * cfg.w)
    return [lambda v=v: f(_x(2), _Hashed(v)) for v in (0.1, 0.2, 0.3)]


@scenario("a new object at every call whose __tf_tracing_type__ (tf.types.experimental.TraceType) is equal",
          "object")
def custom_trace_type(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()

    class _Type(tf.types.experimental.TraceType):
        def is_subtype_of(self, other: Any) -> bool:
            return isinstance(other, _Type)

        def most_specific_common_supertype(self, others: Any) -> Any:
            return self if all(isinstance(o, _Type) for o in others) else None

        def placeholder_value(self, placeholder_context: Any) -> Any:
            return _Traced(0.5)

        def __eq__(self, other: object) -> bool:
            return isinstance(other, _Type)

        def __hash__(self) -> int:
            return 0

    class _Traced:
        def __init__(self, w: float) -> None:
            self.w = w

        def __tf_tracing_type__(self, context: Any) -> Any:
            return _Type()

    f = _function(probe, jit)(lambda x, cfg: x * cfg.w)
    return [lambda: f(_x(2), _Traced(0.5)) for _ in range(3)]


@scenario("a tf.function method called on a new instance of its class at every call", "function")
def method_on_new_instance(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()

    class Scorer:
        @tf.function(jit_compile=jit)
        def score(self, x: Any) -> Any:
            probe.tick()
            return x * 2.0

    def call() -> Any:
        s = Scorer()  # xlacheck: ignore[XLA404] - the hazard this probe measures
        probe.last_function = s.score
        return s.score(_x(2))

    return [call for _ in range(3)]


@scenario("a tf.function method called on one instance at every call", "function")
def method_on_same_instance(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()

    class Scorer:
        @tf.function(jit_compile=jit)
        def score(self, x: Any) -> Any:
            probe.tick()
            return x * 2.0

    s = Scorer()  # xlacheck: ignore[XLA404] - one class per scenario run, by design
    probe.last_function = s.score
    return [lambda: s.score(_x(2)) for _ in range(3)]


@scenario("tf.function(f) built inside the function that calls it, at every call", "function")
def function_created_per_call(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    def call() -> Any:
        f = _function(probe, jit)(lambda x: x * 2.0)
        return f(_x(2))

    return [call for _ in range(3)]


@scenario("a module-level tf.function decorated once, called with the same signature", "function")
def function_created_once(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    f = _function(probe, jit)(lambda x: x * 2.0)
    return [lambda: f(_x(2)) for _ in range(3)]


# -- Keras -------------------------------------------------------------------------------------------
def _model() -> Any:
    tf = _tf()
    return tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])


def _epochs_over_batches(probe: Probe, jit: bool, **kwargs: Any) -> list[Callable[[], Any]]:
    """A step called on every batch of ``Dataset.from_tensor_slices(10 rows).batch(4)`` (4, 4, 2), for
    three epochs: nine calls, the first on a full batch, so ``retraces``/``recompiles`` count all that
    the partial batch adds over the three epochs."""
    tf = _tf()
    f = _function(probe, jit, **kwargs)(lambda x: tf.reduce_sum(x * 2.0))
    batches = list(tf.data.Dataset.from_tensor_slices(tf.ones([10, 3])).batch(4))
    return [lambda x=x: f(x) for _ in range(3) for x in batches]


@scenario("a tf.function called on each batch of .batch(4) over 10 rows (4, 4, 2), three epochs: 9 calls", "tensor")
def dataset_partial_batch_epochs(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    return _epochs_over_batches(probe, jit)


@scenario("the same 9 calls (.batch(4) of 10 rows, three epochs), input_signature TensorSpec([None, 3])", "tensor")
def dataset_partial_batch_epochs_input_signature(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    return _epochs_over_batches(probe, jit, input_signature=[tf.TensorSpec([None, 3], tf.float32)])


@scenario("tf.function wrapping a Keras model called with batch sizes 4, 4, 3", "keras")
def keras_model_varying_batch(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    model = _model()
    f = _function(probe, jit)(lambda x: model(x))
    return [lambda n=n: f(_x(n, 3)) for n in (4, 4, 3)]


def _fit(probe: Probe, jit: bool, *, n: int, batch: int, drop_remainder: bool | None,
         steps_per_execution: int = 1) -> list[Callable[[], Any]]:
    tf = _tf()
    model = _model()
    model.compile(optimizer="sgd", loss="mse", jit_compile=jit, steps_per_execution=steps_per_execution)
    xs, ys = tf.ones([n, 3]), tf.ones([n, 2])

    def call() -> Any:
        if drop_remainder is None:
            model.fit(xs, ys, batch_size=batch, epochs=2, verbose=0, shuffle=False)
        else:
            ds = tf.data.Dataset.from_tensor_slices((xs, ys)).batch(batch, drop_remainder=drop_remainder)
            model.fit(ds, epochs=2, verbose=0)
        probe.last_function = model.train_function
        probe.traces = model.train_function.experimental_get_tracing_count()
        return None

    return [call]


@scenario("Model.fit on 10 samples, batch_size=4 (last batch of 2), two epochs", "keras")
def keras_fit_partial_last_batch(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    return _fit(probe, jit, n=10, batch=4, drop_remainder=None)


@scenario("Model.fit on 8 samples, batch_size=4 (no partial batch), two epochs", "keras")
def keras_fit_full_batches(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    return _fit(probe, jit, n=8, batch=4, drop_remainder=None)


@scenario("Model.fit on a tf.data pipeline of 10 samples, .batch(4, drop_remainder=True)", "keras")
def keras_fit_dataset_drop_remainder(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    return _fit(probe, jit, n=10, batch=4, drop_remainder=True)


@scenario("Model.fit on a tf.data pipeline of 10 samples, .batch(4) (last batch of 2)", "keras")
def keras_fit_dataset_partial_batch(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    return _fit(probe, jit, n=10, batch=4, drop_remainder=False)


@scenario("Model.fit on 10 samples, batch_size=4, steps_per_execution=2", "keras")
def keras_fit_steps_per_execution(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    return _fit(probe, jit, n=10, batch=4, drop_remainder=None, steps_per_execution=2)


# -- signatures that declare a length --------------------------------------------------------------
@scenario("a tensor's second (sequence) dim changes each call (3, 5, 7), input_signature TensorSpec([2, None]); "
          "no call passes the same shape twice", "tensor")
def sequence_dim_changes_input_signature_none(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    f = _function(probe, jit, input_signature=[tf.TensorSpec([2, None], tf.float32)])(
        lambda x: tf.reduce_sum(tf.tanh(x), axis=1))
    return [lambda n=n: f(_x(2, n)) for n in (3, 5, 7)]


@scenario("a tensor's second (sequence) dim repeats lengths seen before (3, 5, 3, 5), input_signature "
          "TensorSpec([2, None])", "tensor")
def sequence_dim_repeats_input_signature_none(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    f = _function(probe, jit, input_signature=[tf.TensorSpec([2, None], tf.float32)])(
        lambda x: tf.reduce_sum(tf.tanh(x), axis=1))
    return [lambda n=n: f(_x(2, n)) for n in (3, 5, 3, 5)]


@scenario("a Python float argument whose value changes (0.1, 0.2, 0.3), annotated `lr: tf.Tensor` with "
          "experimental_follow_type_hints=True", "python_value")
def python_float_follow_type_hints_tensor(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()

    def body(x: tf.Tensor, lr: tf.Tensor) -> Any:
        probe.tick()
        return x * lr

    f = tf.function(body, jit_compile=jit, experimental_follow_type_hints=True)
    probe.last_function = f
    return [lambda v=v: f(_x(2), v) for v in (0.1, 0.2, 0.3)]


@scenario("a Python float argument whose value changes (0.1, 0.2, 0.3), annotated `lr: float` with "
          "experimental_follow_type_hints=True", "python_value")
def python_float_follow_type_hints_float(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()

    def body(x: tf.Tensor, lr: float) -> Any:
        probe.tick()
        return x * lr

    f = tf.function(body, jit_compile=jit, experimental_follow_type_hints=True)
    probe.last_function = f
    return [lambda v=v: f(_x(2), v) for v in (0.1, 0.2, 0.3)]


@scenario("a Python float passed on to a Keras loss hyperparameter (label_smoothing=s) changes (0.0, 0.1, 0.2)",
          "python_value")
def python_float_keras_loss_hyperparameter(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    y = tf.constant([[1.0], [0.0]])
    p = tf.constant([[0.7], [0.2]])
    f = _function(probe, jit)(
        lambda q, s: tf.reduce_mean(tf.keras.losses.binary_crossentropy(y, q, label_smoothing=s)))
    return [lambda s=s: f(p, s) for s in (0.0, 0.1, 0.2)]


def _padded_batches(**kwargs: Any) -> list[Any]:
    """``.padded_batch(2, **kwargs)`` over sequences of lengths 3, 5, 4, 4, 7, 2."""
    tf = _tf()
    lengths = [3, 5, 4, 4, 7, 2]
    ds = tf.data.Dataset.from_generator(lambda: (tf.ones([n]) for n in lengths),
                                        output_signature=tf.TensorSpec([None], tf.float32))
    return list(ds.padded_batch(2, **kwargs))


@scenario("each batch of .padded_batch(2) (no padded_shapes) over sequences of lengths 3, 5, 4, 4, 7, 2: "
          "batch lengths 5, 4, 7", "tensor")
def dataset_padded_batch_longest(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    f = _function(probe, jit)(lambda x: tf.reduce_sum(x * 2.0))
    return [lambda x=x: f(x) for x in _padded_batches()]


@scenario("the same sequences, .padded_batch(2, padded_shapes=[8]): one batch length", "tensor")
def dataset_padded_batch_fixed(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    f = _function(probe, jit)(lambda x: tf.reduce_sum(x * 2.0))
    return [lambda x=x: f(x) for x in _padded_batches(padded_shapes=[8])]


@scenario("windows x[i:i + 4] for i in range(0, 10, 4) (rows 4, 4, 2: the last window shorter)", "tensor")
def stepped_windows_last_shorter(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    f = _function(probe, jit)(lambda x: tf.reduce_sum(x * 2.0))
    rows = _x(10, 3)
    return [lambda i=i: f(rows[i:i + 4]) for i in range(0, 10, 4)]


@scenario("windows x[i:i + 4] for i in range(0, 12, 4) (the length a multiple of the step: 4, 4, 4)", "tensor")
def stepped_windows_exact_multiple(probe: Probe, jit: bool) -> list[Callable[[], Any]]:
    tf = _tf()
    f = _function(probe, jit)(lambda x: tf.reduce_sum(x * 2.0))
    rows = _x(12, 3)
    return [lambda i=i: f(rows[i:i + 4]) for i in range(0, 12, 4)]


# ---------------------------------------------------------------------------------------------------
def measure(name: str, jit: bool) -> dict[str, Any]:
    """Run one scenario: traces and XLA compilations after the first call and after all calls."""
    difference, kind, build = SCENARIOS[name]
    probe = Probe()
    calls = build(probe, jit)
    c0 = _n_compiles()
    calls[0]()
    t1, c1 = probe.traces, _n_compiles()
    for call in calls[1:]:
        call()
    t2, c2 = probe.traces, _n_compiles()
    count = probe.last_function.experimental_get_tracing_count() if hasattr(
        probe.last_function, "experimental_get_tracing_count") else None
    row: dict[str, Any] = {"calls": len(calls), "traces": t2, "retraces": t2 - t1, "tracing_count": count}
    if jit:
        row["xla_compiles"] = c2 - c0
        row["recompiles"] = c2 - c1
    return row


def hazard(jit_row: dict[str, Any], plain_row: dict[str, Any], calls: int) -> str:
    """``retrace`` / ``recompile`` / ``none``.

    Model.fit rows make one call (two epochs): they are judged on the ``jit_compile`` run alone,
    because without it every fit row traces ``train_function`` twice, with or without a partial batch
    (``keras_fit_full_batches``), so plain traces say nothing about the batches."""
    if calls == 1:
        if jit_row["traces"] > 1:
            return "retrace"
        return "recompile" if jit_row.get("xla_compiles", 0) > jit_row["traces"] else "none"
    if plain_row["retraces"] or jit_row["retraces"]:
        return "retrace"
    return "recompile" if jit_row.get("recompiles") else "none"


def generate(names: list[str] | None = None) -> dict[str, Any]:
    import tensorflow as tf

    rows = []
    for name in names or list(SCENARIOS):
        difference, kind, _ = SCENARIOS[name]
        plain = measure(name, False)
        jit = measure(name, True)
        rows.append({"name": name, "kind": kind, "difference": difference, "jit_compile": jit,
                     "no_jit": plain, "hazard": hazard(jit, plain, plain["calls"])})
        print(f"{name:55s} {rows[-1]['hazard']:9s} traces {plain['traces']}/{jit['traces']}"
              f" compiles {jit.get('xla_compiles')}", file=sys.stderr)
    return {"command": COMMAND, "tensorflow_version": tf.__version__,
            "keras": "tf_keras (TF_USE_LEGACY_KERAS=1)" if os.environ.get("TF_USE_LEGACY_KERAS") == "1" else "keras",
            "rows": rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--only", action="append", help="measure only this scenario (repeatable); implies --print")
    ap.add_argument("--print", action="store_true", help="print the JSON instead of writing --out")
    ap.add_argument("--check", action="store_true",
                    help="re-measure (all rows, or the --only ones) and compare with --out; exit 1 when a row differs")
    args = ap.parse_args(argv)
    unknown = [n for n in args.only or () if n not in SCENARIOS]
    if unknown:
        ap.error(f"--only: unknown scenario {unknown[0]!r}; known: {', '.join(SCENARIOS)}")
    table = generate(args.only)
    text = json.dumps(table, indent=1, sort_keys=True) + "\n"
    if args.check:
        stored = {r["name"]: r for r in json.loads(args.out.read_text(encoding="utf-8"))["rows"]} \
            if args.out.exists() else {}
        measured = {r["name"]: r for r in table["rows"]}
        names = set(measured) if args.only else set(measured) | set(stored)
        differ = sorted(n for n in names if stored.get(n) != measured.get(n))
        if differ:
            print(f"{args.out}: out of date (rows {', '.join(differ)}; TF {table['tensorflow_version']}); "
                  "run TF_USE_LEGACY_KERAS=1 python tools/generate_tf_retrace_table.py", file=sys.stderr)
            return 1
        print(f"{args.out}: up to date ({len(measured)} rows re-measured)")
        return 0
    if args.print or args.only:
        print(text)
    else:
        args.out.write_text(text, encoding="utf-8")
        print(f"wrote {args.out} ({len(table['rows'])} rows, TF {table['tensorflow_version']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
