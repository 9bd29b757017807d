"""Train, evaluate and fill-mask on the session's tiny run, plus the failures a user can hit."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from reference_trainer.manifest import ManifestMismatch, StageError
from tests.reference_trainer.conftest import copy_prepared, tiny_config

pytestmark = pytest.mark.tf


def test_training_writes_every_artifact_and_compiles_once_per_shape(trained) -> None:  # noqa: ANN001
    out, result = trained
    assert (result.start_step, result.final_step) == (0, 20)
    assert all(math.isfinite(loss) for _, loss in result.history)
    assert [step for step, _ in result.history] == [5, 10, 15, 20]
    assert result.jit_compile is True
    assert result.train_compiles == len(result.batch_shapes) == 1 and result.batch_shapes == ((8, 32),)
    assert result.tokens_per_second > 0 and result.real_tokens > 0
    assert sorted(p.name for p in (out / "checkpoints").glob("ckpt-*.index")) == ["ckpt-10.index", "ckpt-20.index"]
    assert list((out / "logs" / "train").glob("events.out.tfevents.*"))
    model_files = {p.name for p in (out / "model").iterdir()}
    assert {"config.json", "tf_model.h5", "tokenizer.json", "tokenizer_config.json"} <= model_files
    train_record = json.loads((out / "manifest.json").read_text())["train"]
    assert train_record["finished"] and train_record["completed_steps"] == 20


def test_evaluate_reports_masked_accuracy_against_the_frequency_baseline(trained, runtime) -> None:  # noqa: ANN001
    from reference_trainer.evaluate import evaluate

    out, _ = trained
    result = evaluate(tiny_config(out), runtime)
    assert result.masked_tokens > 0 and 0 <= result.masked_accuracy <= 1
    assert 0 < result.frequency_baseline <= 1
    assert result.perplexity == pytest.approx(math.exp(result.loss))
    assert result.eval_compiles == len(result.batch_shapes) == 1
    again = evaluate(tiny_config(out), runtime)
    assert again.loss == pytest.approx(result.loss, rel=1e-5)  # masks fixed by seed
    # TensorBoard: eval scalars at the trained step, beside the train ones
    import tensorflow as tf

    scalars = {}
    for path in (out / "logs" / "eval").glob("events.out.tfevents.*"):
        for event in tf.compat.v1.train.summary_iterator(str(path)):
            for value in event.summary.value:
                scalars[(value.tag, event.step)] = float(tf.make_ndarray(value.tensor))
    assert scalars[("masked_accuracy", 20)] == pytest.approx(result.masked_accuracy, rel=1e-6)
    assert scalars[("frequency_baseline", 20)] == pytest.approx(result.frequency_baseline, rel=1e-6)
    assert {("loss", 20), ("perplexity", 20)} <= set(scalars)
    # one row per evaluated step (the second evaluation of step 20 replaced the first)
    rows = [json.loads(line) for line in (out / "eval_history.jsonl").read_text().splitlines()]
    assert [(r["step"], r["masked_accuracy"]) for r in rows] == [(20, pytest.approx(again.masked_accuracy))]


def test_the_plot_shows_eval_points_and_the_frequency_baseline(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from reference_trainer.plot import loss_figure, plot_loss

    evals = [{"step": 20, "loss": 5.5, "masked_accuracy": 0.12, "frequency_baseline": 0.06}]
    figure = loss_figure([(10, 6.0), (20, 5.0)], "t", accuracy=[(10, 0.05), (20, 0.1)], evals=evals)
    loss_axis, accuracy_axis = figure.axes
    assert [line.get_label() for line in loss_axis.get_lines()] == ["train", "eval"]
    assert loss_axis.get_lines()[1].get_xydata().tolist() == [[20.0, 5.5]]
    labels = {line.get_label(): list(map(float, line.get_ydata())) for line in accuracy_axis.get_lines()}
    assert labels["eval"] == [0.12] and labels["baseline: most frequent token"] == [0.06, 0.06]
    assert plot_loss([(10, 6.0)], str(tmp_path / "loss.png"), "t", evals=evals) == str(tmp_path / "loss.png")
    assert (tmp_path / "loss.png").stat().st_size > 1000


def test_fill_mask_reloads_the_saved_directory_without_torch(trained, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    import sys

    from reference_trainer.fill_mask import fill_mask

    monkeypatch.setitem(sys.modules, "torch", None)  # any `import torch` now raises ImportError
    out, _ = trained
    result = fill_mask(tiny_config(out, fill_mask_prompts=("The <mask> statement.",)))
    assert len(result.predictions) == 1 and len(result.predictions[0].tokens) == 5
    assert result.checked_positions > 0 and 0 <= result.top1 <= result.top5 <= 1


def test_training_with_a_different_data_field_is_rejected(trained, runtime) -> None:  # noqa: ANN001
    from reference_trainer.train import train

    out, _ = trained
    with pytest.raises(ManifestMismatch, match=r"--block-length=64 does not match .* \(block_length=32, written by `prepare`\)"):
        train(tiny_config(out, block_length=64), runtime)
    with pytest.raises(ManifestMismatch, match=r"--learning-rate=0.01 .* written by `train`"):
        train(tiny_config(out, learning_rate=0.01), runtime)


def test_training_before_prepare_names_the_stage_to_run(tmp_path: Path, runtime) -> None:  # noqa: ANN001
    from reference_trainer.train import train

    with pytest.raises(StageError, match=r"has no `prepare` record; run `python -m reference_trainer prepare"):
        train(tiny_config(tmp_path), runtime)


def test_a_corrupt_shard_of_the_right_size_stops_training_with_one_clear_error(prepared_dir: Path, tmp_path: Path, runtime) -> None:  # noqa: ANN001, E501
    from reference_trainer.train import train

    out = copy_prepared(prepared_dir, tmp_path / "run")
    shard = out / "data" / "train-00000.tfrecord"
    raw = bytearray(shard.read_bytes())
    raw[len(raw) // 2] ^= 0xFF  # same size: only the record CRC can tell
    shard.write_bytes(bytes(raw))
    with pytest.raises(StageError, match=r"a shard under .*data is corrupt .*run `prepare` again"):
        train(tiny_config(out, train_steps=40, shuffle_buffer=1000), runtime)


def test_xla_dry_run_failure_stops_with_a_clear_message(prepared_dir: Path, runtime) -> None:  # noqa: ANN001
    import tensorflow as tf

    from reference_trainer.pipeline import DataSpec, train_dataset
    from reference_trainer.train import PreflightFailed, dry_run

    prepare = json.loads((prepared_dir / "manifest.json").read_text())["prepare"]
    data = DataSpec.from_manifest(str(prepared_dir), prepare, 0.15)
    dataset = runtime.strategy.distribute_datasets_from_function(
        lambda ctx: train_dataset(data, global_batch=8, seed=0, shuffle_buffer=10, start_step=0, max_shapes=4,
                                  pad_to_multiple_of=8, ctx=ctx)
    )

    @tf.function(jit_compile=True)
    def no_xla_kernel(features, labels):  # noqa: ANN001, ANN202
        # string ops have no XLA kernel: this step must fail the dry run
        as_text = tf.strings.as_string(labels)  # xlacheck: ignore[XLA308]
        return [], tf.cast(tf.strings.length(as_text), tf.float32)  # xlacheck: ignore[XLA308]

    with pytest.raises(PreflightFailed, match=r"XLA dry run failed: one train step on a \(8, 32\) batch"):
        dry_run(runtime, no_xla_kernel, dataset)


def test_a_url_output_dir_runs_every_stage_through_gfile(tmp_path: Path, runtime) -> None:  # noqa: ANN001
    """TensorFlow's in-memory `ram://` filesystem stands in for gs://: nothing may use os paths."""
    import tensorflow as tf

    from reference_trainer.evaluate import evaluate
    from reference_trainer.fill_mask import fill_mask
    from reference_trainer.shards import prepare
    from reference_trainer.train import train

    config = tiny_config(f"ram://{tmp_path.name}/run", train_steps=10, checkpoint_every=5)
    prepare(config)
    assert train(config, runtime).final_step == 10
    assert evaluate(config, runtime).real_tokens > 0
    assert fill_mask(config).checked_positions > 0
    assert {"checkpoints", "data", "logs", "manifest.json", "model", "tokenizer", "train_history.jsonl"} <= set(
        tf.io.gfile.listdir(config.output_dir)
    )
    assert not (tmp_path / "run").exists() and not Path("ram:").exists()
