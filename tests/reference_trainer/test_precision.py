"""--precision bf16 on the TF path: Keras's mixed_bfloat16 policy keeps the loss curve near fp32's
and the compile count unchanged (the torch_xla twin: tests/trainer_torch/test_torch_precision.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.reference_trainer.conftest import copy_prepared, tiny_config

pytestmark = pytest.mark.tf

# Stated tolerance: every logged train loss of the tiny run within 0.1 nats of fp32's. Measured on
# this run (4 points, micro model, 20 steps): bf16 trails fp32 by 0.04-0.07 nats, while two fp32
# runs differ by up to 0.02 (XLA ignores dropout seeds). Keras's policy computes the whole layer
# in bfloat16 (torch's autocast keeps softmax and LayerNorm in float32: its gap is ~0.005).
TOLERANCE = 0.1


def test_the_bf16_model_computes_in_bfloat16_with_float32_variables_and_loss(prepared_dir: Path) -> None:
    import tensorflow as tf

    from reference_trainer.model import build_model
    from reference_trainer.steps import masked_lm_totals

    tokenizer = json.loads((prepared_dir / "manifest.json").read_text())["prepare"]["tokenizer"]
    model = build_model(tiny_config(prepared_dir, precision="bf16"), tokenizer)
    ids = tf.fill([2, 32], tokenizer["bos_token_id"])
    logits = model({"input_ids": ids, "attention_mask": tf.ones_like(ids)}).logits
    assert logits.dtype == tf.bfloat16
    assert {v.dtype for v in model.trainable_variables} == {tf.float32}
    labels = tf.fill([2, 32], 7)
    assert masked_lm_totals(labels, logits, tf.ones_like(ids)).dtype == tf.float32
    # the policy was put back: a model built afterwards is float32 throughout
    fp32 = build_model(tiny_config(prepared_dir), tokenizer)
    assert fp32({"input_ids": ids, "attention_mask": tf.ones_like(ids)}).logits.dtype == tf.float32


def test_bf16_loss_curve_stays_within_tolerance_of_fp32_with_the_same_compiles(
    trained, prepared_dir: Path, runtime, tmp_path: Path  # noqa: ANN001
) -> None:
    from reference_trainer.evaluate import evaluate
    from reference_trainer.train import train

    _, fp32 = trained
    out = copy_prepared(prepared_dir, tmp_path / "bf16")
    config = tiny_config(out, precision="bf16")
    bf16 = train(config, runtime)
    assert bf16.precision == "bf16" and fp32.precision == "fp32"
    assert bf16.train_compiles == fp32.train_compiles == len(bf16.batch_shapes) == 1
    assert [s for s, _ in bf16.history] == [s for s, _ in fp32.history]
    gaps = [abs(a - b) for (_, a), (_, b) in zip(fp32.history, bf16.history)]
    assert max(gaps) < TOLERANCE, gaps
    assert bf16.history[-1][1] < bf16.history[0][1]
    assert json.loads((out / "manifest.json").read_text())["train"]["config"]["precision"] == "bf16"
    evaluation = evaluate(config, runtime)
    assert evaluation.eval_compiles == len(evaluation.batch_shapes) == 1
    # a later stage must not evaluate a bf16 run as fp32 (the recorded config is checked)
    from reference_trainer.manifest import ManifestMismatch

    with pytest.raises(ManifestMismatch, match="--precision='fp32' does not match"):
        evaluate(tiny_config(out), runtime)
