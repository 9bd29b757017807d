"""The recompile claims of XLA402-406, proven by running the rules' own examples with TensorFlow.

Each test executes a rule's INVALID example and its VALID counterpart, counts traces with
``experimental_get_tracing_count()`` (or observes the failure / the frozen value), and checks that
the linter's verdict matches what TensorFlow did.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # before TensorFlow is imported
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
tf = pytest.importorskip("tensorflow")

from xlacheck.engine import check_source  # noqa: E402
from xlacheck.rules.batch_without_drop_remainder import BatchWithoutDropRemainder  # noqa: E402
from xlacheck.rules.dynamic_padding_without_multiple import DynamicPaddingWithoutMultiple  # noqa: E402
from xlacheck.rules.growing_tensor_to_tf_function import GrowingTensorToTfFunction  # noqa: E402
from xlacheck.rules.python_scalar_to_tf_function import PythonScalarToTfFunction  # noqa: E402
from xlacheck.rules.python_state_mutated_in_compiled_step import PythonStateMutatedInCompiledStep  # noqa: E402
from xlacheck.rules.serving_function_without_input_signature import ServingFunctionWithoutInputSignature  # noqa: E402
from xlacheck.rules.tf_function_argument_shape_per_iteration import TfFunctionArgumentShapePerIteration  # noqa: E402
from xlacheck.rules.tf_function_created_per_call import TfFunctionCreatedPerCall  # noqa: E402
from xlacheck.rules.variable_created_in_compiled_step import VariableCreatedInCompiledStep  # noqa: E402

pytestmark = pytest.mark.tf


def _load(code: str, rule_code: str, *, flagged: bool, preview: bool = False) -> dict[str, Any]:
    """Lint the example (the verdict must be ``flagged``; ``preview``: with the findings behind
    --preview), then execute it as a module."""
    codes = {d.code for d in check_source(code, "example.py", preview=preview).diagnostics}
    assert (rule_code in codes) is flagged, codes
    namespace: dict[str, Any] = {"__name__": "example"}
    exec(compile(code, "example.py", "exec"), namespace)  # noqa: S102 - the rule's own example
    return namespace


def _example(examples: Any, text: str) -> str:
    """The one example whose code contains ``text`` (indices move as examples are added)."""
    (code,) = [e.code for e in examples if text in e.code]
    return code


def _batches(n: int) -> list[Any]:
    return [tf.constant([[1.0, 2.0]]) * float(i + 1) for i in range(n)]


def test_python_int_step_retraces_per_value() -> None:
    bad = _load(PythonScalarToTfFunction.INVALID[0].code, "XLA403", flagged=True)
    bad["train"](tf.constant([[0.5, 0.5]]), _batches(3))
    assert bad["step"].experimental_get_tracing_count() == 3  # one trace per step number

    good = _load(PythonScalarToTfFunction.VALID[0].code, "XLA403", flagged=False)
    good["train"](tf.constant([[0.5, 0.5]]), _batches(3))
    assert good["step"].experimental_get_tracing_count() == 1


def test_python_list_retraces_per_value() -> None:
    bad = _load(PythonScalarToTfFunction.INVALID[2].code, "XLA403", flagged=True)
    x = tf.constant([1.0, 2.0])
    for counts in ([1, 2], [2, 2], [3, 1]):
        bad["run"](x, counts)
    assert bad["weighted"].experimental_get_tracing_count() == 3


def test_tf_function_created_per_call_traces_every_call() -> None:
    bad = _load(TfFunctionCreatedPerCall.INVALID[0].code, "XLA404", flagged=True)
    traces = []
    inner = bad["_loss"]
    bad["_loss"] = lambda a, b: traces.append(1) or inner(a, b)  # Python runs once per trace
    a, b = tf.constant([1.0, 2.0]), tf.constant([0.5, 0.5])
    for _ in range(3):
        bad["loss"](a, b)
    assert len(traces) == 3

    good = _load(_example(TfFunctionCreatedPerCall.VALID, "_fast = tf.function(_loss, jit_compile=True)"), "XLA404",
                 flagged=False)
    for _ in range(3):
        good["loss"](a, b)
    assert good["_fast"].experimental_get_tracing_count() == 1


def test_tf_function_per_loop_target_traces_each_function_once() -> None:
    good = _load(_example(TfFunctionCreatedPerCall.VALID, "SPECIALIZATIONS = {"), "XLA404", flagged=False)
    traces: dict[str, int] = {}
    for name in ("_cpu", "_gpu"):
        inner = good[name]
        good[name] = lambda x, _n=name, _f=inner: traces.__setitem__(_n, traces.get(_n, 0) + 1) or _f(x)
    good["SPECIALIZATIONS"].update(CPU=good["_cpu"], GPU=good["_gpu"])
    out = good["trace_all"](tf.constant([1.0, 2.0]))
    assert traces == {"_cpu": 1, "_gpu": 1}  # one trace per function: nothing to reuse across iterations
    assert out["CPU"].numpy().tolist() == out["GPU"].numpy().tolist() == [2.0, 4.0]


def test_variable_created_in_step_fails_and_singleton_guard_compiles() -> None:
    bad = _load(VariableCreatedInCompiledStep.INVALID[0].code, "XLA405", flagged=True)
    with pytest.raises(ValueError, match="singleton tf.Variables created on the first call"):
        bad["step"](tf.constant([1.0, 2.0]))

    bad = _load(VariableCreatedInCompiledStep.INVALID[2].code, "XLA405", flagged=True)  # optimizer in the step
    with pytest.raises(ValueError, match="singleton tf.Variables created on the first call"):
        bad["step"](tf.Variable([1.0, 2.0]), tf.constant([1.0, 1.0]))

    good = _load(VariableCreatedInCompiledStep.VALID[1].code, "XLA405", flagged=False)
    owner = good["T"]()
    x = tf.constant([1.0, 2.0])
    owner.step(x)
    assert owner.step(x).numpy().tolist() == [2.0, 4.0]


def test_python_counter_in_step_freezes() -> None:
    bad = _load(PythonStateMutatedInCompiledStep.INVALID[0].code, "XLA406", flagged=True)
    owner = bad["T"]()
    x = tf.constant([6.0])
    results = [float(owner.f(x)[0]) for _ in range(3)]
    assert results == [6.0, 6.0, 6.0] and owner.step == 1  # eagerly: 6, 3, 2 and step == 3

    good = _load(PythonStateMutatedInCompiledStep.VALID[0].code, "XLA406", flagged=False)
    owner = good["T"]()
    assert [float(owner.f(x)[0]) for _ in range(3)] == [6.0, 3.0, 2.0]


def test_partial_last_batch_compiles_again() -> None:
    features = tf.reshape(tf.range(10 * 3, dtype=tf.float32), [10, 3])  # 4 + 4 + 2
    bad = _load(BatchWithoutDropRemainder.INVALID[0].code, "XLA402", flagged=True)
    model = bad["Scorer"]()
    bad["evaluate"](model, features)
    assert model.score.experimental_get_tracing_count() == 2  # the last batch of 2 is a new shape

    good = _load(BatchWithoutDropRemainder.VALID[0].code, "XLA402", flagged=False)
    good["run"](features)
    assert good["step"].experimental_get_tracing_count() == 1


def test_padding_to_the_longest_compiles_per_length() -> None:
    lengths = [3, 5, 2, 1, 4, 5, 2, 3] + [17, 2, 9, 3, 1, 4, 6, 2] + [4, 1, 2, 3, 4, 2, 1, 3]  # 3 batches of 8
    sequences = tf.ragged.constant([[1] * n for n in lengths])
    ds = tf.data.Dataset.from_tensor_slices(sequences).map(lambda r: r)  # variable-length elements

    @tf.function(jit_compile=True)
    def step(ids: Any) -> Any:
        return tf.reduce_sum(ids)

    bad = _load(DynamicPaddingWithoutMultiple.INVALID[4].code, "XLA401", flagged=True, preview=True)
    for batch in bad["batches"](ds):
        step(batch)
    assert step.experimental_get_tracing_count() == 3  # lengths 5, 17, 4: one compilation each

    good = _load(DynamicPaddingWithoutMultiple.VALID[3].code, "XLA401", flagged=False)
    fixed_step = tf.function(step.python_function, jit_compile=True)
    for batch in good["batches"](ds):
        fixed_step(batch)
    assert fixed_step.experimental_get_tracing_count() == 1


def test_growing_tensor_compiles_every_iteration() -> None:
    bad = _load(GrowingTensorToTfFunction.INVALID[0].code, "XLA409", flagged=True, preview=True)  # --preview rule
    out = bad["generate"](tf.constant([[1, 2]], tf.int64), 3)
    assert out.shape == (1, 5) and bad["next_logits"].experimental_get_tracing_count() == 3

    good = _load(_example(GrowingTensorToTfFunction.VALID, "def step(ids, pos):"), "XLA409", flagged=False,
                 preview=True)
    good["generate"](tf.zeros([1, 5], tf.int32), 3)
    assert good["step"].experimental_get_tracing_count() == 1


@pytest.mark.parametrize("index", [5, 6, 7, 8])
def test_strings_new_objects_and_helper_floats_retrace_per_call(index: int) -> None:
    """An f-string of the step, a new object of a class of this file, a new Keras layer and a float
    from a Python helper: each call of the loop traces again."""
    xs = [tf.constant([[1.0, 2.0]]) * float(i) for i in range(3)]
    bad = _load(PythonScalarToTfFunction.INVALID[index].code, "XLA403", flagged=True)
    fn = {5: "scaled", 6: "hinge", 7: "apply", 8: "update"}[index]
    {5: lambda: bad["run"](xs), 6: lambda: bad["losses"](xs), 7: lambda: bad["run"](xs),
     8: lambda: bad["train"](xs[0], xs)}[index]()
    assert bad[fn].experimental_get_tracing_count() == 3


@pytest.mark.parametrize("index", [3, 4, 5])
def test_value_equal_objects_and_tensor_schedules_trace_once(index: int) -> None:
    """A loop counter rebound to a tensor before the call, a NamedTuple made per call (traced by
    the values of its fields) and a schedule computed as a tensor: one trace."""
    xs = [tf.constant([1.0, 2.0]) * float(i) for i in range(3)]
    good = _load(PythonScalarToTfFunction.VALID[index].code, "XLA403", flagged=False)
    if index == 3:
        good["train"](xs[0], 3)
        assert good["update"].experimental_get_tracing_count() == 1
    elif index == 4:
        good["losses"](xs)
        assert good["hinge"].experimental_get_tracing_count() == 1
    else:
        good["train"](xs[0], xs)
        assert good["update"].experimental_get_tracing_count() == 1


@pytest.mark.parametrize("index", [4, 5])  # 4: the Detector example, 5: the tf.function Scorer example
def test_objects_owning_a_tf_function_trace_again_per_instance(index: int) -> None:
    """A tf.function built in __init__, or a @tf.function method, belongs to the instance: a new
    object per call traces again (counted by the Python body's runs, which happen only while
    tracing); one object reused traces once."""
    text = "class Detector:" if index == 4 else "class Scorer:\n    @tf.function"
    bad = _load(_example(TfFunctionCreatedPerCall.INVALID, text), "XLA404", flagged=True)
    cls_name, method = ("Detector", "forward") if index == 4 else ("Scorer", "score")
    cls = bad[cls_name]
    traced = []
    original = getattr(cls, method)
    python_fn = getattr(original, "python_function", original)

    def counting(self, x):
        traced.append(1)
        return python_fn(self, x)

    setattr(cls, method, tf.function(counting, jit_compile=True) if index == 5 else counting)
    x = tf.constant([[1.0, 2.0]])
    if index == 4:
        for _ in range(3):
            bad["detect"](x)
    else:
        bad["score_all"]([x, x, x])
    assert len(traced) == 3

    good = _load(_example(TfFunctionCreatedPerCall.VALID, "DETECTOR = Detector()"), "XLA404", flagged=False)
    traced.clear()
    good["Detector"].forward = counting
    detector = good["Detector"]()
    for _ in range(3):
        detector._forward(x)
    assert len(traced) == 1


def test_growing_list_of_tensors_traces_per_length() -> None:
    """A Python list of tensors is traced as a structure: one more element is a new trace."""
    bad = _load(GrowingTensorToTfFunction.INVALID[1].code, "XLA409", flagged=True, preview=True)  # --preview rule
    table = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3])
    history = bad["decode"](table, tf.constant(1), 3)
    assert len(history) == 4 and bad["next_id"].experimental_get_tracing_count() == 3


_COUNT_COMPILES = """
import glob, os, sys
from xlacheck.rules.unknown_dims_in_jit_signature import UnknownDimsInJitSignature
import tensorflow as tf
ns = {}
exec(UnknownDimsInJitSignature.INVALID[0].code, ns)
ns["run"]([tf.ones([2, n], tf.int32) for n in (3, 5, 7)])
dumps = glob.glob(os.path.join(sys.argv[1], "*before_optimizations.txt"))
print(ns["f"].experimental_get_tracing_count(), len(dumps))
"""


def test_none_dims_trace_once_but_compile_per_shape(tmp_path: Any) -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])  # the repository, so the child imports this xlacheck
    env = dict(os.environ, XLA_FLAGS=f"--xla_dump_to={tmp_path}", TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=root)
    out = subprocess.run([sys.executable, "-c", _COUNT_COMPILES, str(tmp_path)], env=env, check=True,
                         capture_output=True, text=True, timeout=120).stdout.split()
    traces, compiles = int(out[-2]), int(out[-1])
    assert traces == 1 and compiles == 3  # one trace, one XLA compilation per sequence length


def test_jax_jit_of_a_new_lambda_compiles_per_call_but_of_a_module_function_once() -> None:
    """XLA404 on jax.jit: the cache is keyed on the wrapped callable (measured by the Python body's
    runs, which happen only while tracing)."""
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    # a closure over the call's own number `w` (an arithmetic operand only): reported by default
    bad_code = _example(TfFunctionCreatedPerCall.INVALID, "def weighted_mse")
    bad = _load(bad_code, "XLA404", flagged=True)
    good = _load(_example(TfFunctionCreatedPerCall.VALID, "return jax.jit(_mse)(a, b)"), "XLA404", flagged=False)
    traced = []
    good_fn = good["_mse"]

    def counting(x, y):
        traced.append(1)
        return good_fn(x, y)

    good["mse"].__globals__["_mse"] = counting
    for _ in range(3):
        good["mse"](jnp.ones(3), jnp.zeros(3))
    assert len(traced) == 1
    traced.clear()
    real_mean = jnp.mean

    def counting_mean(v):
        traced.append(1)
        return real_mean(v)

    bad["jnp"] = type("jnp", (), {"mean": staticmethod(counting_mean)})
    for _ in range(3):
        bad["weighted_mse"](jnp.ones(3), jnp.zeros(3), 2.0)
    assert len(traced) == 3
    del jax


def test_a_module_level_counter_item_freezes_inside_jax_jit() -> None:
    """XLA406 on ``STATE["step"] += 1`` in a jax.jit step: it runs once, while tracing."""
    jnp = pytest.importorskip("jax.numpy")
    bad = _load(PythonStateMutatedInCompiledStep.INVALID[2].code, "XLA406", flagged=True)
    w = jnp.ones(2)
    for _ in range(3):
        w = bad["train_step"](w, jnp.ones(2))
    assert bad["STATE"]["step"] == 1  # not 3: the learning rate never moved


def test_values_that_reach_a_tf_function_through_callers_attributes_and_annotations_retrace() -> None:
    """A weight decayed per epoch and handed on by a helper, a float attribute annealed by a method
    the loop calls, the items of a `Sequence[float]` parameter, and a Keras model built per
    iteration: every new value (or object) traces again."""
    a, b = tf.constant([1.0, 2.0]), tf.constant([0.5, 0.25])
    helper = _load(PythonScalarToTfFunction.INVALID[9].code, "XLA403", flagged=True)
    helper["run"](a, b, 3)
    assert helper["total"].experimental_get_tracing_count() == 3

    annealed = _load(PythonScalarToTfFunction.INVALID[10].code, "XLA403", flagged=True)
    trainer = annealed["Trainer"]()
    trainer.fit([a, b], 3)  # temperatures 2.0, 1.0, 1.0: two values
    assert trainer.step.experimental_get_tracing_count() == 2

    sweep = _load(PythonScalarToTfFunction.INVALID[11].code, "XLA403", flagged=True)
    sweep["sweep"](a, b, [0.1, 0.2, 0.3])
    sweep["sweep"](a, b, [0.4, 0.5])
    assert sweep["loss"].experimental_get_tracing_count() == 5

    models = _load(PythonScalarToTfFunction.INVALID[12].code, "XLA403", flagged=True)
    models["evolve"](tf.ones([2, 3]), [2, 2, 2])
    assert models["fitness"].experimental_get_tracing_count() == 3


def test_a_fixed_sweep_traces_once_per_item_then_hits_the_cache() -> None:
    """Why XLA403 leaves loops over a fixed tuple alone: the cost is bounded by the tuple."""
    fixed = _load(PythonScalarToTfFunction.VALID[6].code, "XLA403", flagged=False)
    a, b = tf.constant([1.0, 2.0]), tf.constant([0.5, 0.25])
    for _ in range(3):
        fixed["sweep"](a, b)
    assert fixed["loss"].experimental_get_tracing_count() == 3  # one per item of SWEEP, not per call


def test_a_step_factory_called_per_epoch_traces_every_epoch() -> None:
    bad = _load(_example(TfFunctionCreatedPerCall.INVALID, "def make_step(w, lr)"), "XLA404", flagged=True)
    built = []
    factory = bad["make_step"]
    bad["make_step"] = lambda *args: built.append(factory(*args)) or built[-1]
    w, xs = tf.constant([1.0, 2.0]), [tf.constant([1.0, 1.0])] * 2
    bad["train"](w, xs, 3)
    assert [f.experimental_get_tracing_count() for f in built] == [1, 1, 1]  # three functions, three traces

    good = _load(_example(TfFunctionCreatedPerCall.VALID, "step = make_step(w)\n"), "XLA404", flagged=False)
    built.clear()
    factory = good["make_step"]
    good["make_step"] = lambda *args: built.append(factory(*args)) or built[-1]
    good["train"](w, xs, 3)
    assert [f.experimental_get_tracing_count() for f in built] == [1]


def test_numbers_in_a_local_config_object_or_dict_retrace_when_the_loop_changes_them() -> None:
    """XLA403 on ``config.temperature`` / ``hparams["adv_weight"]`` reassigned in the calling loop
    (one trace per value), and on a config attribute the loop only reads (one trace)."""
    logits = tf.constant([[1.0, 2.0, 0.5]])
    annealed = _load(_example(PythonScalarToTfFunction.INVALID, "config.temperature = config.temperature * 0.5"),
                     "XLA403", flagged=True)
    annealed["run"](logits, 3)
    assert annealed["sample"].experimental_get_tracing_count() == 3

    fixed = _load(_example(PythonScalarToTfFunction.VALID, "config = Config()"), "XLA403", flagged=False)
    fixed["run"](logits, 3)
    assert fixed["sample"].experimental_get_tracing_count() == 1

    rebalanced = _load(_example(PythonScalarToTfFunction.INVALID, 'hparams["adv_weight"] *= 1.5'), "XLA403",
                       flagged=True)
    rebalanced["train"](tf.constant([1.0, 2.0]), tf.constant([0.5, 0.25]), 3)
    assert rebalanced["loss"].experimental_get_tracing_count() == 3


def test_a_rate_built_from_numbers_every_caller_passes_retraces_but_from_a_tensor_once() -> None:
    """XLA403 one level up: ``train(w, grads, 0.1, 4)`` makes ``base_lr * min(1.0, (i + 1) / warmup)``
    a new Python float per step; ``tf.constant(0.1)`` makes it a tensor."""
    w, grads = tf.constant([1.0, 2.0]), [tf.constant([0.5, -0.5])] * 3
    floats = _load(_example(PythonScalarToTfFunction.INVALID, "return train(w, grads, 0.1, 4)"), "XLA403",
                   flagged=True)
    floats["main"](w, grads)
    assert floats["update"].experimental_get_tracing_count() == 3  # 0.025, 0.05, 0.075

    tensor = _load(_example(PythonScalarToTfFunction.VALID, "tf.constant(0.1), 4)"), "XLA403", flagged=False)
    tensor["main"](w, grads)
    assert tensor["update"].experimental_get_tracing_count() == 1


def test_a_prefix_sliced_by_the_step_traces_per_step_but_a_fixed_window_once() -> None:
    """XLA412: ``tokens[:, :t]`` is a new shape every step; ``tokens[:, t - window:t]`` is not."""
    tokens = tf.constant([[1, 2, 3, 0, 0, 0]])
    bad = _load(TfFunctionArgumentShapePerIteration.INVALID[0].code, "XLA412", flagged=True)
    bad["decode"](tokens, 3, 6)
    assert bad["next_logits"].experimental_get_tracing_count() == 3

    shrinking = _load(TfFunctionArgumentShapePerIteration.INVALID[1].code, "XLA412", flagged=True)
    shrinking["stream"](tf.range(10, dtype=tf.float32), 4)  # lengths 10, 6, 2
    assert shrinking["score"].experimental_get_tracing_count() == 3

    window = _load(TfFunctionArgumentShapePerIteration.VALID[1].code, "XLA412", flagged=False)
    window["decode"](tokens, 3, 6, 2)
    assert window["logits"].experimental_get_tracing_count() == 1

    relaxed = _load(TfFunctionArgumentShapePerIteration.VALID[2].code, "XLA412", flagged=False)
    relaxed["run"](tf.range(8, dtype=tf.float32))
    assert relaxed["score"].experimental_get_tracing_count() <= 2  # generalizes to a None dim after a retrace


def test_an_item_of_a_dict_on_self_updated_by_a_method_the_loop_calls_retraces() -> None:
    """XLA403 on ``self.meta["weight_gen_advers"]`` rebalanced by ``self.rebalance()`` per epoch (one
    trace per value), and the same dict never updated (one trace)."""
    content, advers = tf.constant([1.0, 2.0]), tf.constant([0.5, 0.25])
    bad = _load(_example(PythonScalarToTfFunction.INVALID, "self.rebalance()"), "XLA403", flagged=True)
    trainer = bad["GanTrainer"]()
    trainer.fit(content, advers, 3)
    assert trainer.loss.experimental_get_tracing_count() == 3

    good = _load(_example(PythonScalarToTfFunction.VALID, "class GanTrainer"), "XLA403", flagged=False)
    trainer = good["GanTrainer"]()
    trainer.fit(content, advers, 3)
    assert trainer.loss.experimental_get_tracing_count() == 1


def test_a_dict_of_prefixes_sliced_by_the_step_traces_per_step() -> None:
    """XLA412 on ``forward({"input_ids": ids[:, :t], ...})``: a dict argument is traced by its items' shapes."""
    bad = _load(_example(TfFunctionArgumentShapePerIteration.INVALID, "def forward(inputs)"), "XLA412", flagged=True)
    ids, mask = tf.constant([[1, 2, 3, 4, 5]]), tf.constant([[1, 1, 1, 1, 0]])
    bad["generate"](ids, mask, 5)
    assert bad["forward"].experimental_get_tracing_count() == 4


def test_item_of_a_numpy_scalar_retraces_per_value_but_the_numpy_scalar_itself_once() -> None:
    """XLA403 on ``w.item()`` (a Python float per value); a NumPy scalar is traced as a tensor."""
    xs, weights = [tf.constant([1.0, 2.0])] * 3, [0.1, 0.2, 0.3]
    bad = _load(_example(PythonScalarToTfFunction.INVALID, "w.item()"), "XLA403", flagged=True)
    bad["run"](xs, weights)
    assert bad["step"].experimental_get_tracing_count() == 3

    good = _load(_example(PythonScalarToTfFunction.VALID, "        step(x, w)\n"), "XLA403", flagged=False)
    good["run"](xs, weights)
    assert good["step"].experimental_get_tracing_count() == 1


def test_slices_by_a_fixed_display_trace_once_per_length_then_hit_the_cache() -> None:
    """Why XLA412 leaves ``for n in (8, 16, 32)`` alone: the cost is bounded by the display."""
    fixed = _load(_example(TfFunctionArgumentShapePerIteration.VALID, "(8, 16, 32)"), "XLA412", flagged=False)
    x = tf.range(32, dtype=tf.float32)
    for _ in range(3):
        fixed["probe"](x)
    assert fixed["score"].experimental_get_tracing_count() == 3  # one per length, not per call


def test_slices_by_a_name_bound_to_a_display_trace_once_per_length() -> None:
    """Why XLA412 leaves ``sizes = [1000, 2000, 3000]; for n in sizes: score(x[:n])`` alone (the
    keras-cv benchmarks: a warm-up call then a timed call per size): one trace per size, and the
    second call of each size hits the cache."""
    fixed = _load(_example(TfFunctionArgumentShapePerIteration.VALID, "sizes = [1000, 2000, 3000]"), "XLA412",
                  flagged=False)
    x = tf.range(3000, dtype=tf.float32)
    fixed["sweep"](x)
    fixed["sweep"](x)
    assert fixed["score"].experimental_get_tracing_count() == 3  # one per size, not per call


def test_a_list_kept_on_self_and_grown_per_call_traces_every_call() -> None:
    """XLA409 on ``self.history.append(loss); self.smooth(self.history)`` in a per-batch method."""
    losses = [tf.constant(float(i)) for i in range(4)]
    bad = _load(_example(GrowingTensorToTfFunction.INVALID, "self.smooth(self.history)"), "XLA409", flagged=True,
                preview=True)
    tracker = bad["Tracker"]()
    bad["train"](tracker, losses)
    assert tracker.smooth.experimental_get_tracing_count() == 4  # lengths 1, 2, 3, 4

    good = _load(_example(GrowingTensorToTfFunction.VALID, "self.smooth(loss)"), "XLA409", flagged=False, preview=True)
    tracker = good["Tracker"]()
    good["train"](tracker, losses)
    assert tracker.smooth.experimental_get_tracing_count() == 1


def test_a_step_counter_on_self_bumped_by_the_calling_method_retraces_every_call() -> None:
    """XLA403 on ``self.global_step += 1; self.step(x, self.global_step)``; a tf.Variable counter once."""
    x = tf.constant([1.0, 2.0])
    bad = _load(_example(PythonScalarToTfFunction.INVALID, "self.global_step += 1"), "XLA403", flagged=True)
    trainer = bad["Trainer"]()
    for _ in range(3):
        trainer.train_on_batch(x)
    assert trainer.step.experimental_get_tracing_count() == 3

    good = _load(_example(PythonScalarToTfFunction.VALID, "self.global_step.assign_add(1)"), "XLA403", flagged=False)
    trainer = good["Trainer"]()
    for _ in range(3):
        trainer.train_on_batch(x)
    assert trainer.step.experimental_get_tracing_count() == 1


def test_a_function_without_inputs_has_one_trace_whatever_get_concrete_function_is_given() -> None:
    """Why XLA407 leaves ``tf.function(lambda: prior.sample(n)).get_concrete_function()`` alone
    (tensorflow/probability's sts fitting): with no inputs there is no shape to specialize on."""
    code = _example(ServingFunctionWithoutInputSignature.VALID, "lambda: prior.sample(n)")
    ns = _load(code, "XLA407", flagged=False)

    class Prior:
        def sample(self, n: int) -> Any:
            return tf.zeros([n, 2])

    assert ns["prior_shape"](Prior(), 3).as_list() == [3, 2]
    sample = tf.function(lambda: Prior().sample(3))
    sample.get_concrete_function()
    sample()
    assert sample.experimental_get_tracing_count() == 1


def test_the_last_of_fixed_width_windows_compiles_again_unless_padded_to_a_multiple() -> None:
    """XLA412 on windows ``images[i:i + batch_size]`` a helper lists for a ``jit_compile`` function (20
    rows in windows of 8: 8, 8, 4, two traces); padded to a multiple of the window, or only full
    windows, one trace."""
    bad = _load(_example(TfFunctionArgumentShapePerIteration.INVALID, "def epoch_batches"), "XLA412", flagged=True)
    bad["evaluate"](tf.ones([20, 4, 4]).numpy())
    assert bad["predict"].experimental_get_tracing_count() == 2

    good = _load(_example(TfFunctionArgumentShapePerIteration.VALID, "(-n) % chunk"), "XLA412", flagged=False)
    good["apply"](tf.ones([10, 2]), 4)  # padded to 12: 4, 4, 4; then the full windows 0:4, 4:8
    assert good["predict"].experimental_get_tracing_count() == 1


def test_rows_padded_to_each_batch_longest_trace_per_length_but_to_a_constant_once() -> None:
    """XLA412 on ``tf.constant([[0] * (longest - len(p)) + p for p in prompts])`` with ``longest`` the
    batch's own maximum (lengths 3 and 5: two traces); padded to a constant, one trace."""
    batches = [[[1, 2, 3], [4, 5]], [[1, 2], [3, 4, 5, 6, 7]], [[1], [2, 3]]]
    bad = _load(_example(TfFunctionArgumentShapePerIteration.INVALID, "longest = max("), "XLA412", flagged=True)
    bad["evaluate"](batches)
    assert bad["generate"].experimental_get_tracing_count() == 3  # longest 3, 5, 2

    good = _load(_example(TfFunctionArgumentShapePerIteration.VALID, "PAD_TO - len(p)"), "XLA412", flagged=False)
    good["evaluate"](batches)
    assert good["generate"].experimental_get_tracing_count() == 1


def test_helper_computes_the_number_from_the_loop_counter() -> None:
    """XLA403 INVALID[27]: `run_step(x, i)` in the loop, `step(x, 0.1 / (i + 1))` inside the helper:
    one trace per step; VALID[18]: the helper passes the same number every step: one trace."""
    x = tf.constant([[1.0, 2.0]])
    bad = _load(PythonScalarToTfFunction.INVALID[27].code, "XLA403", flagged=True)
    bad["train"](x, 3)
    assert bad["step"].experimental_get_tracing_count() == 3
    good = _load(PythonScalarToTfFunction.VALID[18].code, "XLA403", flagged=False)
    good["train"](x, 3)
    assert good["step"].experimental_get_tracing_count() == 1


def test_helper_sizes_the_tensor_from_the_loop_counter() -> None:
    """XLA412 INVALID[10]: `run_step(i)` in the loop, `step(tf.ones((i + 2, 3)))` inside the helper: one
    trace per step; VALID[13]: the helper is passed the same number every step: one trace."""
    bad = _load(TfFunctionArgumentShapePerIteration.INVALID[10].code, "XLA412", flagged=True)
    bad["train"](3)
    assert bad["step"].experimental_get_tracing_count() == 3
    good = _load(TfFunctionArgumentShapePerIteration.VALID[13].code, "XLA412", flagged=False)
    good["train"](3)
    assert good["step"].experimental_get_tracing_count() == 1


def test_a_model_a_builder_returns_per_step_retraces_but_a_kept_one_once() -> None:
    """XLA403 through a builder of this file: ``model = build(2)`` in the loop returns a new
    ``Sequential`` each iteration (a new trace key); an ``lru_cache`` builder or one that returns
    the module's model gives the same object, one trace."""
    x = tf.constant([[1.0, 2.0, 3.0]])
    bad = _load(_example(PythonScalarToTfFunction.INVALID, "model = build(2)"), "XLA403", flagged=True)
    bad["train"](x, 3)
    assert bad["step"].experimental_get_tracing_count() == 3
    good = _load(_example(PythonScalarToTfFunction.VALID, "functools.lru_cache"), "XLA403", flagged=False)
    good["train"](x, 3)
    assert good["step"].experimental_get_tracing_count() == 2  # the cached model and the module's: once each


_COUNT_COMPILES_RETRACE26 = """
import glob, os, sys
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
from xlacheck.rules.batch_without_drop_remainder import BatchWithoutDropRemainder
from xlacheck.rules.unknown_dims_in_jit_signature import UnknownDimsInJitSignature
import tensorflow as tf
def dumps():
    return len(glob.glob(os.path.join(sys.argv[1], "*before_optimizations.txt")))
ns = {}
exec([e.code for e in UnknownDimsInJitSignature.INVALID if "run_step(i)" in e.code][0], ns)
ns["train"](3)
print("COUNTS", ns["step"].experimental_get_tracing_count(), dumps())
before = dumps()
ns = {}
exec([e.code for e in BatchWithoutDropRemainder.INVALID if "batch_size=64" in e.code][0], ns)
model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
ns["train"](model, tf.ones([100, 3]), tf.ones([100, 2]))
print("COUNTS", model.train_function.experimental_get_tracing_count(), dumps() - before)
"""


def test_fill_sized_per_step_and_keras_fit_partial_batch_compile_again(tmp_path: Any) -> None:
    """retrace26: XLA408's fill sized by the step counter (``tf.ones((i + 2, 3))`` through
    ``run_step(i)``) traces once under its ``None``-dim signature and compiles per step; XLA402's
    ``fit(x, y, batch_size=64)`` under ``jit_compile=True`` on 100 samples traces the train step once
    and compiles it twice (the last batch has 36)."""
    import subprocess
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, XLA_FLAGS=f"--xla_dump_to={tmp_path}", TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=root,
               TF_USE_LEGACY_KERAS="1")
    out = subprocess.run([sys.executable, "-c", _COUNT_COMPILES_RETRACE26, str(tmp_path)], env=env, check=True,
                         capture_output=True, text=True, timeout=300).stdout.splitlines()
    counts = [int(v) for line in out if line.startswith("COUNTS ") for v in line.split()[1:]]
    assert counts == [1, 3, 1, 2]  # (the fit prints its progress bar to stdout too)
