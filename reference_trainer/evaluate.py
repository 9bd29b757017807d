"""The `evaluate` stage: the saved model on every eval record once, with masks fixed by seed.

Reports loss over masked positions, perplexity, masked accuracy and the frequency baseline:
the accuracy of always predicting the most frequent token among the masked labels.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Any

from reference_trainer import storage
from reference_trainer.config import DATA_FIELDS, TRAIN_FIELDS, TrainerConfig
from reference_trainer.manifest import LOG_DIR, check_fields, finished_model_dir, require_section, write_section
from reference_trainer.pipeline import DataSpec, eval_batch_shapes, eval_dataset, eval_steps
from reference_trainer.shards import corrupt_shard_error, verify_prepared
from reference_trainer.strategy import Runtime

log = logging.getLogger(__name__)

# One row per evaluation: the step it evaluated, loss, masked accuracy, frequency baseline.
EVAL_HISTORY_FILE = "eval_history.jsonl"


@dataclass(frozen=True)
class EvalResult:
    loss: float
    perplexity: float
    masked_accuracy: float
    frequency_baseline: float
    most_frequent_token: str
    masked_tokens: int
    real_tokens: int
    steps: int
    eval_compiles: int
    batch_shapes: tuple[tuple[int, int], ...]


def load_trained_model(output_dir: str, precision: str = "fp32") -> Any:
    """The `save_pretrained` directory the train stage wrote (call under the strategy scope),
    computing in the precision it was trained in."""
    from transformers import TFAutoModelForMaskedLM

    from reference_trainer.model import precision_policy

    model_dir = finished_model_dir(output_dir)
    with storage.local_copy(model_dir) as local, precision_policy(precision):
        return TFAutoModelForMaskedLM.from_pretrained(local)


def evaluate(config: TrainerConfig, runtime: Runtime) -> EvalResult:
    import numpy as np
    import tensorflow as tf

    from reference_trainer.steps import TOTALS, make_step_functions

    out = config.output_dir
    manifest, prepared = require_section(out, "prepare", "prepare")
    check_fields(config, prepared["config"], DATA_FIELDS, out, "prepare")
    _, trained = require_section(out, "train", "train")
    check_fields(config, trained["config"], TRAIN_FIELDS, out, "train")
    verify_prepared(out, prepared)
    data = DataSpec.from_manifest(out, prepared, config.mlm_probability)
    strategy = runtime.strategy
    replicas = runtime.num_replicas
    vocab_size = prepared["tokenizer"]["vocab_size"]
    with strategy.scope():
        model = load_trained_model(out, config.precision)
    fns = make_step_functions(model, None, num_replicas=replicas, jit_compile=runtime.plan.jit_compile,
                              vocab_size=vocab_size)
    steps = eval_steps(data, global_batch=config.batch_size, num_replicas=replicas,
                       max_shapes=config.max_shapes, pad_to_multiple_of=config.pad_to_multiple_of)

    def dataset_fn(ctx: Any) -> Any:
        return eval_dataset(data, global_batch=config.batch_size, seed=config.seed, steps=steps,
                            max_shapes=config.max_shapes, pad_to_multiple_of=config.pad_to_multiple_of, ctx=ctx)

    dist_dataset = strategy.distribute_datasets_from_function(dataset_fn)

    @tf.function
    def eval_one(batch: Any) -> tuple[tf.Tensor, tf.Tensor]:
        features, labels = batch
        totals, histogram = strategy.run(fns.replica_eval_step, args=(features, labels))
        reduce = tf.distribute.ReduceOp.SUM
        return strategy.reduce(reduce, totals, axis=None), strategy.reduce(reduce, histogram, axis=None)

    totals = np.zeros([TOTALS])
    histogram = np.zeros([vocab_size])
    try:
        # One call per batch: fixed blocks trace once; bucketed batches once per shape.
        for batch in dist_dataset:
            step_totals, step_histogram = eval_one(batch)
            totals += step_totals.numpy()
            histogram += step_histogram.numpy()
    except tf.errors.DataLossError as error:
        raise corrupt_shard_error(out, error) from error
    masked = max(totals[1], 1.0)
    loss = float(totals[0] / masked)
    from reference_trainer.tokenizer import load_tokenizer

    tokenizer = load_tokenizer(storage.join(out, prepared["tokenizer"]["path"]))
    per_replica = config.batch_size // replicas
    result = EvalResult(
        loss=loss, perplexity=math.exp(min(loss, 50.0)), masked_accuracy=float(totals[2] / masked),
        frequency_baseline=float(histogram.max() / masked),
        most_frequent_token=tokenizer.convert_ids_to_tokens(int(histogram.argmax())),
        masked_tokens=int(totals[1]), real_tokens=int(totals[3]), steps=steps, eval_compiles=fns.eval_traces(),
        batch_shapes=eval_batch_shapes(data, per_replica, config.max_shapes, config.pad_to_multiple_of),
    )
    log.info("eval: loss %.3f, perplexity %.1f, masked accuracy %.3f (baseline %.3f)", result.loss,
             result.perplexity, result.masked_accuracy, result.frequency_baseline)
    if runtime.plan.is_chief:
        write_section(out, "evaluate", {k: v for k, v in result.__dict__.items() if k != "batch_shapes"})
        _record(out, int(trained.get("completed_steps", 0)), result)
    return result


def _record(out: str, step: int, result: EvalResult) -> None:
    """TensorBoard scalars under ``RUN/logs/eval`` (beside ``logs/train``, so both show on one
    chart) and a row of ``eval_history.jsonl`` (an evaluation of the same step replaces its row)."""
    import json

    import tensorflow as tf

    writer = tf.summary.create_file_writer(storage.join(out, LOG_DIR, "eval"))
    with writer.as_default(step=step):
        tf.summary.scalar("loss", result.loss)
        tf.summary.scalar("perplexity", result.perplexity)
        tf.summary.scalar("masked_accuracy", result.masked_accuracy)
        tf.summary.scalar("frequency_baseline", result.frequency_baseline)
    writer.flush()
    writer.close()
    path = storage.join(out, EVAL_HISTORY_FILE)
    rows = [json.loads(line) for line in storage.read_text(path).splitlines() if line.strip()] if storage.exists(path) else []
    rows = [row for row in rows if row["step"] != step]
    rows.append({"step": step, "loss": result.loss, "masked_accuracy": result.masked_accuracy,
                 "frequency_baseline": result.frequency_baseline})
    storage.write_text_atomic(path, "".join(json.dumps(row) + "\n" for row in sorted(rows, key=lambda r: r["step"])))
