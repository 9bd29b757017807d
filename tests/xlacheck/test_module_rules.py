"""XLA4xx/5xx module rules: fixes produce the documented text, edge cases keep them precise."""

from __future__ import annotations

import ast

import pytest

from xlacheck.diagnostics import Applicability, Diagnostic, Edit
from xlacheck.engine import check_source
from xlacheck.rewrites import attach_fixes
from xlacheck.rules import ALL_RULES
from xlacheck.rules.module_base import ModuleRule

MODULE_RULES = [r for r in ALL_RULES if issubclass(r, ModuleRule)]


def _apply(source: str, edits: list[Edit]) -> str:
    """Apply non-overlapping edits (ASCII sources: columns are character offsets)."""
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(loc) -> int:  # type: ignore[no-untyped-def]
        return starts[loc.line - 1] + loc.col

    out = source
    for edit in sorted(edits, key=lambda e: (e.start.line, e.start.col), reverse=True):
        out = out[:offset(edit.start)] + edit.content + out[offset(edit.end):]
    return out


def _findings(source: str, code: str, *, preview: bool = False) -> list[Diagnostic]:
    """The rule's findings, with the fixes ``--fix`` would see: those the rule builds, and those of
    the rewriters its ``fix`` declaration names (``xlacheck.rewrites.attach_fixes``)."""
    result = check_source(source, "t.py", preview=preview)
    assert result.error is None, result.error
    return [d for d in attach_fixes(source, ast.parse(source), result.diagnostics) if d.code == code]


def _fixed_cases() -> list:
    return [pytest.param(rule, ex, id=f"{rule.code}-invalid-{i}")
            for rule in MODULE_RULES for i, ex in enumerate(rule.INVALID, 1) if ex.fixed is not None]


@pytest.mark.parametrize(("rule", "example"), _fixed_cases())
def test_fix_gives_documented_text(rule, example) -> None:  # type: ignore[no-untyped-def]
    found = [d for d in _findings(example.code, rule.code, preview=rule.preview) if d.fix is not None]
    assert found
    fixed = _apply(example.code, [e for d in found for e in d.fix.edits])  # type: ignore[union-attr]
    assert fixed == example.fixed
    ast.parse(fixed)
    assert not _findings(fixed, rule.code, preview=rule.preview)


def test_scalar_fix_wraps_in_tf_constant_and_is_unsafe() -> None:
    from xlacheck.rules.python_scalar_to_tf_function import PythonScalarToTfFunction

    source = PythonScalarToTfFunction.INVALID[0].code
    (diag,) = _findings(source, "XLA403")
    assert diag.fix is not None and diag.fix.applicability is Applicability.UNSAFE
    fixed = _apply(source, list(diag.fix.edits))
    assert "step(w, x, tf.constant(i))" in fixed
    assert not _findings(fixed, "XLA403")


def test_differing_literals_across_call_sites_are_flagged_same_literal_is_not() -> None:
    head = "import tensorflow as tf\n@tf.function\ndef f(x, k):\n    return x * k\n"
    assert len(_findings(head + "f(a, 2)\nf(b, 3)\n", "XLA403")) == 2
    assert not _findings(head + "f(a, 2)\nf(b, 2)\n", "XLA403")


def test_tensor_parameters_and_attributes_are_not_python_numbers() -> None:
    source = ("import tensorflow as tf\n@tf.function\ndef f(x, k):\n    return x * k\n"
              "def run(xs, scale):\n    for i, x in enumerate(xs):\n        f(x, scale * 2.0)\n"
              "        f(x, x.shape[0])\n")
    assert not _findings(source, "XLA403")


def test_batch_feeding_keras_fit_only_in_compiled_files() -> None:
    body = ("ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(100).batch(32)\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n")
    plain = "import tensorflow as tf\n" + body + "model.compile(loss='mse')\nmodel.fit(ds)\n"
    jit = "import tensorflow as tf\n" + body + "model.compile(loss='mse', jit_compile=True)\nmodel.fit(ds)\n"
    assert not _findings(plain, "XLA402")
    assert [d.line for d in _findings(jit, "XLA402")] == [2]


def test_jit_compile_fix_is_unsafe_when_file_also_runs_on_gpu() -> None:
    source = ("import tensorflow as tf\ndef make(tpu):\n    if tpu:\n"
              "        return tf.distribute.TPUStrategy(tf.distribute.cluster_resolver.TPUClusterResolver(tpu))\n"
              "    return tf.distribute.MirroredStrategy()\n"
              "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nmodel.compile(loss='mse', jit_compile=True)\n")
    (diag,) = _findings(source, "XLA501")
    assert diag.fix is not None and diag.fix.applicability is Applicability.UNSAFE
    assert "jit_compile" not in _apply(source, list(diag.fix.edits)).splitlines()[-1]


def test_learning_rate_schedule_is_not_an_optimizer() -> None:
    source = ("import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\n"
              "schedule = tf.keras.optimizers.schedules.PolynomialDecay(1e-3, 1000)\n"
              "with strategy.scope():\n    opt = tf.keras.optimizers.Adam(schedule)\n")
    assert not _findings(source, "XLA502")


@pytest.mark.parametrize("path_expr", ["f'data/{split}.tfrecord'", "os.path.join('data', name)", "'./x' + suffix"])
def test_local_path_forms(path_expr: str) -> None:
    source = (f"import os\nimport tensorflow as tf\nstrategy = tf.distribute.TPUStrategy()\n"
              f"ds = tf.data.TFRecordDataset({path_expr})\n")
    assert [d.line for d in _findings(source, "XLA504")] == [4]
    assert not _findings(source.replace("TPUStrategy", "MirroredStrategy"), "XLA504")


def test_padding_argument_from_a_variable_is_left_alone() -> None:
    source = "import tensorflow as tf\ndef enc(tokenizer, texts, pad):\n    return tokenizer(texts, padding=pad)\n"
    assert not _findings(source, "XLA401")


def test_module_rule_crash_becomes_file_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from xlacheck.rules.serving_function_without_input_signature import ServingFunctionWithoutInputSignature

    def boom(self, ctx):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")

    monkeypatch.setattr(ServingFunctionWithoutInputSignature, "check_module", boom)
    result = check_source("import tensorflow as tf\nx = 1\n", "t.py")
    assert result.error is not None and "XLA407" in result.error.message


def test_select_skips_module_rules() -> None:
    from xlacheck.rules.python_scalar_to_tf_function import PythonScalarToTfFunction

    result = check_source(PythonScalarToTfFunction.INVALID[0].code, "t.py", select=lambda c: c != "XLA403")
    assert all(d.code != "XLA403" for d in result.diagnostics)


def test_a_preprocessing_model_only_dataset_map_runs_is_left_alone() -> None:
    """XLA502: ``augmenter = Sequential([...])`` read only in ``ds.map(...)`` runs in the input
    pipeline on the host (keras-cv's RetinaNet example); the same model called elsewhere is flagged."""
    source = ("import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\n"
              "augmenter = tf.keras.Sequential([tf.keras.layers.RandomFlip('horizontal')])\n"
              "ds = ds.map(augmenter)\nval = val.map(lambda x, y: (augmenter(x), y))\n")
    assert not _findings(source, "XLA502")
    assert [d.line for d in _findings(source + "out = augmenter(batch)\n", "XLA502")] == [3]


def test_a_model_created_outside_the_scope_runs_in_dataset_map_under_the_strategy() -> None:
    """What the rule's VALID example does, run: the pipeline model works outside the scope."""
    tf = pytest.importorskip("tensorflow")
    strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    augmenter = tf.keras.Sequential([tf.keras.layers.RandomFlip("horizontal")])
    ds = tf.data.Dataset.from_tensor_slices((tf.ones([8, 4, 4, 1]), tf.zeros([8, 1]))).batch(4)
    ds = ds.map(lambda x, y: (augmenter(x, training=True), y))
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse")
    history = model.fit(ds, epochs=1, verbose=0)
    assert len(history.history["loss"]) == 1
