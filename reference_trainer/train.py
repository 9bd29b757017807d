"""The `train` stage: RoBERTa from config under the resolved strategy, resumable, observable.

Per execution (``steps_per_execution`` steps inside one ``tf.function``) the host reads one
vector of totals: loss, masked accuracy, real (non-pad) tokens/s. Checkpoints hold the model and
the optimizer (whose ``iterations`` is the step), so a run killed at any point resumes from the
last checkpoint to the same final step count, with the same batches and masks it would have seen.
"""

from __future__ import annotations

import logging
import math
import os
import shutil
import signal
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from reference_trainer import storage
from reference_trainer.config import DATA_FIELDS, TRAIN_FIELDS, TrainerConfig
from reference_trainer.manifest import (
    Interrupted,
    StageError,
    check_fields,
    config_fields,
    require_section,
    write_section,
)
from reference_trainer.pipeline import DataSpec, train_dataset
from reference_trainer.progress import Progress, TrainObserver, TrainStart, history_path, read_history, write_history
from reference_trainer.shards import TOKENIZER_DIR, corrupt_shard_error, verify_prepared
from reference_trainer.strategy import Runtime

log = logging.getLogger(__name__)

CHECKPOINT_DIR = "checkpoints"
MODEL_DIR = "model"
LOG_DIR = "logs"
# Test hook: SIGKILL this process right after the checkpoint at or beyond this step is written.
KILL_AFTER_CHECKPOINT_ENV = "REFERENCE_TRAINER_KILL_AFTER_CHECKPOINT"
_FIXED_ON_RESUME = tuple(name for name in TRAIN_FIELDS if name != "train_steps")


@dataclass(frozen=True)
class TrainResult:
    start_step: int
    final_step: int
    first_loss: float
    last_loss: float
    first_masked_accuracy: float
    last_masked_accuracy: float
    tokens_per_second: float  # after the first execution of this process (compile excluded)
    tokens_per_second_with_compile: float
    real_tokens: int
    train_compiles: int
    batch_shapes: tuple[tuple[int, int], ...]
    jit_compile: bool
    jit_reason: str
    strategy: str
    replicas: int
    dry_run_seconds: float
    wall_seconds: float
    history: tuple[tuple[int, float], ...]  # (step, loss) over every run of this output dir
    artifacts: tuple[str, ...] = field(default=())


class PreflightFailed(StageError):
    pass


class TrainInterrupted(Interrupted):
    """Ctrl-C during training: where it stopped and where a rerun will resume."""

    def __init__(self, step: int, total_steps: int, checkpoint_step: int | None, checkpoint_dir: str,
                 checkpoint_every: int) -> None:
        self.step = step
        self.checkpoint_step = checkpoint_step
        if checkpoint_step is None:
            where = (f"no checkpoint yet (the first is written at step {checkpoint_every}); rerun the same "
                     "command to start training again")
        else:
            where = (f"checkpoint at step {checkpoint_step} in {checkpoint_dir}; rerun the same command to "
                     f"resume from step {checkpoint_step}")
        super().__init__(f"interrupted at step {step} of {total_steps}; {where}")


class _StopRequest:
    """Ctrl-C while training sets a flag that the loop reads between host calls.

    A KeyboardInterrupt raised in the middle of TensorFlow's call machinery can leave the runtime
    unusable (the process then dies with SIGSEGV: seen with TF 2.21), so the first Ctrl-C waits
    for the current host call (a few steps; the XLA dry run, if it is compiling); a second one
    stops at once.
    """

    def __init__(self) -> None:
        self.requested = False
        self.forced = False  # a second Ctrl-C: TensorFlow may be mid-call, touch nothing of it
        self._previous: Any = None

    def __enter__(self) -> _StopRequest:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def _handle(self, signum: int, frame: Any) -> None:
        if self.requested:
            self.forced = True
            raise KeyboardInterrupt
        self.requested = True
        log.warning("Ctrl-C: stopping after the current host call (press Ctrl-C again to stop at once)")

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None


def dry_run(runtime: Runtime, forward_backward: Any, dataset: Any) -> float:
    """Compile (and run) one train step's forward/backward pass on one batch; seconds taken."""
    import tensorflow as tf

    strategy = runtime.strategy

    @tf.function
    def one_step(batch: Any) -> Any:
        features, labels = batch
        return strategy.run(lambda f, l: forward_backward(f, l)[1], args=(features, labels))

    batch = next(iter(dataset))
    shapes = [tuple(t.shape) for t in strategy.experimental_local_results(batch[0]["input_ids"])]
    started = time.perf_counter()
    try:
        one_step(batch)
    except (tf.errors.OpError, ValueError, TypeError) as error:
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise PreflightFailed(
            f"XLA dry run failed: one train step on a {shapes[0]} batch did not compile/run "
            f"(jit_compile={runtime.plan.jit_compile}): {first_line}; fix the model/loss code or "
            "rerun with --jit-compile off to compare"
        ) from error
    seconds = time.perf_counter() - started
    log.info("dry run: one train step on %s compiled and ran in %.1f s", shapes[0], seconds)
    return seconds


def train(config: TrainerConfig, runtime: Runtime, observer: TrainObserver | None = None) -> TrainResult:
    import tensorflow as tf

    from reference_trainer.model import build_model, build_optimizer
    from reference_trainer.steps import TOTALS, make_step_functions

    out = config.output_dir
    manifest, prepared = require_section(out, "prepare", "prepare")
    check_fields(config, prepared["config"], DATA_FIELDS, out, "prepare")
    recorded_steps = None
    if "train" in manifest:
        # --train-steps may change on resume (to extend a finished run); everything else that
        # shapes the model or the optimisation must match the checkpoint.
        check_fields(config, manifest["train"]["config"], _FIXED_ON_RESUME, out, "train")
        recorded_steps = manifest["train"]["config"].get("train_steps")
    verify_prepared(out, prepared)
    data = DataSpec.from_manifest(out, prepared, config.mlm_probability)
    plan, strategy = runtime.plan, runtime.strategy
    replicas = runtime.num_replicas
    if config.batch_size % replicas:
        raise StageError(f"--batch-size {config.batch_size} is not divisible by the {replicas} replicas; change it")
    per_replica_batch = config.batch_size // replicas

    with strategy.scope():
        model = build_model(config, prepared["tokenizer"])
        optimizer, schedule = build_optimizer(config)
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
    chief_dir = storage.join(out, CHECKPOINT_DIR)
    # Under MultiWorkerMirroredStrategy every worker must save (it is a collective), but only
    # the chief's copy is kept: the others write to a throw-away directory.
    save_dir = chief_dir if plan.is_chief else tempfile.mkdtemp(prefix=f"ckpt_worker{plan.task_index}_")
    manager = tf.train.CheckpointManager(checkpoint, save_dir, max_to_keep=3)
    latest = tf.train.latest_checkpoint(chief_dir)
    if latest:
        checkpoint.restore(latest).assert_existing_objects_matched()
    start_step = int(optimizer.iterations.numpy())
    if latest:
        log.info("resuming from %s at step %d of %d", latest, start_step, config.train_steps)
    if start_step > config.train_steps:
        raise StageError(
            f"--train-steps {config.train_steps} is below step {start_step}, which the checkpoint in "
            f"{chief_dir} has reached; give --train-steps {start_step} or more to continue, or a new "
            "--output-dir to train from scratch"
        )
    if recorded_steps is not None and recorded_steps != config.train_steps:
        log.warning(
            "--train-steps changed from %d to %d: training continues from step %d; the learning rate follows "
            "the schedule for %d steps from here (linear decay to 0 at step %d): %.2e at step %d (it was %.2e "
            "under the schedule for %d steps)", recorded_steps, config.train_steps, start_step,
            config.train_steps, config.train_steps, float(schedule(start_step)), start_step,
            float(build_optimizer(config.replace(train_steps=recorded_steps))[1](start_step)), recorded_steps,
        )
    if plan.is_chief:
        write_section(out, "train", {
            "config": config_fields(config, TRAIN_FIELDS), "completed_steps": start_step, "finished": False,
        })

    def dataset_fn(ctx: Any) -> Any:
        return train_dataset(
            data, global_batch=config.batch_size, seed=config.seed, shuffle_buffer=config.shuffle_buffer,
            start_step=start_step, max_shapes=config.max_shapes, pad_to_multiple_of=config.pad_to_multiple_of,
            ctx=ctx,
        )

    dist_dataset = strategy.distribute_datasets_from_function(dataset_fn)
    fns = make_step_functions(model, optimizer, num_replicas=replicas, jit_compile=plan.jit_compile,
                              vocab_size=prepared["tokenizer"]["vocab_size"])
    with _StopRequest() as stop:
        try:
            dry_seconds = dry_run(runtime, fns.forward_backward, dist_dataset) if start_step < config.train_steps else 0.0
        except tf.errors.DataLossError as error:
            raise corrupt_shard_error(out, error) from error

        def run_step(batch: Any) -> Any:
            features, labels = batch
            per_replica = strategy.run(fns.replica_train_step, args=(features, labels))
            return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)

        @tf.function
        def train_execution(iterator: Any, steps: tf.Tensor) -> tf.Tensor:
            totals = tf.zeros([TOTALS])
            for _ in tf.range(steps):
                totals += run_step(next(iterator))
            return totals

        # Bucketed batches have several shapes: one step per call, so each shape is traced (and
        # compiled) once as its own signature instead of once as an unknown shape inside a loop.
        train_one = tf.function(run_step)

        shapes: set[tuple[int, int]] = set()
        if not data.bucketed:
            shapes.add((per_replica_batch, data.block_length))
        writer = tf.summary.create_file_writer(storage.join(out, LOG_DIR, "train")) if plan.is_chief else None
        history = read_history(out, start_step)
        kill_after = os.environ.get(KILL_AFTER_CHECKPOINT_ENV)
        if observer:
            observer.on_start(TrainStart(start_step, config.train_steps, plan.kind, replicas, plan.jit_compile,
                                         plan.jit_reason, dry_seconds, tuple(sorted(shapes))))
        iterator = iter(dist_dataset)
        step = start_step
        steady_tokens = steady_seconds = all_tokens = all_seconds = 0.0
        first_execution = True
        started = time.perf_counter()
        saved_step = start_step if latest else None
        try:
            while step < config.train_steps:
                if stop.requested:
                    raise KeyboardInterrupt
                steps = 1 if data.bucketed else min(config.steps_per_execution, config.train_steps - step)
                t0 = time.perf_counter()
                if data.bucketed:
                    batch = next(iterator)
                    for value in strategy.experimental_local_results(batch[0]["input_ids"]):
                        shapes.add(tuple(int(d) for d in value.shape))
                    totals = train_one(batch).numpy()
                else:
                    totals = train_execution(iterator, tf.constant(steps)).numpy()
                seconds = time.perf_counter() - t0
                step = int(optimizer.iterations.numpy())
                loss = float(totals[0] / max(totals[1], 1.0))
                if not math.isfinite(loss):
                    raise StageError(
                        f"loss became {loss} at step {step}; lower --learning-rate or check the data"
                    )
                accuracy = float(totals[2] / max(totals[1], 1.0))
                all_tokens += totals[3]
                all_seconds += seconds
                if not first_execution:
                    steady_tokens += totals[3]
                    steady_seconds += seconds
                first_execution = False
                rate = float(totals[3] / seconds)
                lr = float(schedule(step))
                history.append({"step": step, "loss": loss, "masked_accuracy": accuracy,
                                "tokens_per_second": rate, "learning_rate": lr})
                if writer is not None:
                    with writer.as_default(step=step):
                        tf.summary.scalar("loss", loss)
                        tf.summary.scalar("perplexity", math.exp(min(loss, 50.0)))
                        tf.summary.scalar("masked_accuracy", accuracy)
                        tf.summary.scalar("tokens_per_second", rate)
                        tf.summary.scalar("learning_rate", lr)
                if observer:
                    observer.on_progress(Progress(step, config.train_steps, loss, accuracy, rate, lr))
                crossed = step // config.checkpoint_every > (step - steps) // config.checkpoint_every
                if crossed or step >= config.train_steps:
                    manager.save(checkpoint_number=step)
                    saved_step = step
                    if plan.is_chief:
                        write_history(out, history)
                        write_section(out, "train", {
                            "config": config_fields(config, TRAIN_FIELDS), "completed_steps": step, "finished": False,
                        })
                        log.debug("checkpoint at step %d", step)
                    if kill_after and step >= int(kill_after):
                        os.kill(os.getpid(), signal.SIGKILL)
        except tf.errors.DataLossError as error:
            raise corrupt_shard_error(out, error) from error
        except KeyboardInterrupt:
            if writer is not None and not stop.forced:
                writer.flush()
            raise TrainInterrupted(step, config.train_steps, saved_step, chief_dir, config.checkpoint_every) from None
    wall = time.perf_counter() - started
    if writer is not None:
        writer.flush()
    if not plan.is_chief:
        shutil.rmtree(save_dir, ignore_errors=True)

    artifacts: list[str] = []
    model_dir = storage.join(out, MODEL_DIR)
    if plan.is_chief:
        _save_model(model, storage.join(out, TOKENIZER_DIR), model_dir)
        write_history(out, history)
        artifacts = [chief_dir, model_dir, storage.join(out, LOG_DIR), history_path(out)]
    if not history:
        raise StageError(f"no training history in {out}; delete {chief_dir} and train again")
    first, last = history[0], history[-1]
    result = TrainResult(
        start_step=start_step, final_step=step, first_loss=first["loss"], last_loss=last["loss"],
        first_masked_accuracy=first["masked_accuracy"], last_masked_accuracy=last["masked_accuracy"],
        tokens_per_second=float(steady_tokens / steady_seconds) if steady_seconds else 0.0,
        tokens_per_second_with_compile=float(all_tokens / all_seconds) if all_seconds else 0.0,
        real_tokens=int(all_tokens), train_compiles=fns.train_traces(), batch_shapes=tuple(sorted(shapes)),
        jit_compile=plan.jit_compile, jit_reason=plan.jit_reason, strategy=plan.kind, replicas=replicas,
        dry_run_seconds=dry_seconds, wall_seconds=wall,
        history=tuple((int(row["step"]), float(row["loss"])) for row in history), artifacts=tuple(artifacts),
    )
    if plan.is_chief:
        write_section(out, "train", {
            "config": config_fields(config, TRAIN_FIELDS), "completed_steps": step, "finished": True,
            "model_dir": MODEL_DIR, "checkpoint_dir": CHECKPOINT_DIR, "jit_compile": plan.jit_compile,
            "strategy": plan.kind, "replicas": replicas, "train_compiles": result.train_compiles,
            "batch_shapes": [list(s) for s in result.batch_shapes],
            "tokens_per_second": result.tokens_per_second,
        })
    if plan.workers > 1:
        # Other workers must not read the model or manifest before the chief has written them.
        _barrier(strategy)
    return result


def _barrier(strategy: Any) -> None:
    """Every worker waits here until all have arrived: a one-number all-reduce."""
    import tensorflow as tf

    strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(lambda: tf.constant(1.0)), axis=None)


def _save_model(model: Any, tokenizer_dir: str, model_dir: str) -> None:
    """``save_pretrained`` with the tokenizer's files beside it: one directory loads both."""
    with tempfile.TemporaryDirectory(prefix="reference_trainer_model_") as tmp:
        model.save_pretrained(tmp)
        storage.copy_tree(tmp, model_dir)
    g = storage.gfile()
    for name in g.listdir(tokenizer_dir):
        g.copy(storage.join(tokenizer_dir, name), storage.join(model_dir, name), overwrite=True)
    log.info("model and tokenizer saved to %s", model_dir)
