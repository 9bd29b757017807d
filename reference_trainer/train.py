"""The `train` stage: RoBERTa from config under the resolved strategy, resumable, observable.

Per execution (``steps_per_execution`` steps inside one ``tf.function``) the host reads one
vector of totals: loss, masked accuracy, real (non-pad) tokens/s. Checkpoints hold the model and
the optimizer (whose ``iterations`` is the step), so a run killed at any point resumes from the
last checkpoint to the same final step count, with the same batches and masks it would have seen.
"""

from __future__ import annotations

import logging
import math
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
    CHECKPOINT_DIR,
    LOG_DIR,
    MODEL_DIR,
    Interrupted,
    StageError,
    check_fields,
    require_section,
    write_train_record,
)
from reference_trainer.pipeline import DataSpec, train_dataset
from reference_trainer.progress import (
    Progress,
    Throughput,
    TrainObserver,
    TrainStart,
    checkpoint_written,
    history_path,
    read_history,
    write_history,
)
from reference_trainer.shards import TOKENIZER_DIR, corrupt_shard_error, verify_prepared
from reference_trainer.strategy import Runtime

log = logging.getLogger(__name__)

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
    precision: str
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

    from reference_trainer.steps import make_step_functions

    prepared, data, recorded_steps = _check_inputs(config)
    if config.batch_size % runtime.num_replicas:
        raise StageError(f"--batch-size {config.batch_size} is not divisible by the {runtime.num_replicas} "
                         "replicas; change it")
    state = _restore(config, runtime, prepared)
    _check_train_steps(config, state, recorded_steps)
    if runtime.plan.is_chief:
        write_train_record(config, state.start_step)

    def dataset_fn(ctx: Any) -> Any:
        return train_dataset(
            data, global_batch=config.batch_size, seed=config.seed, shuffle_buffer=config.shuffle_buffer,
            start_step=state.start_step, max_shapes=config.max_shapes, pad_to_multiple_of=config.pad_to_multiple_of,
            ctx=ctx,
        )

    dataset = runtime.strategy.distribute_datasets_from_function(dataset_fn)
    fns = make_step_functions(state.model, state.optimizer, num_replicas=runtime.num_replicas,
                              jit_compile=runtime.plan.jit_compile, vocab_size=prepared["tokenizer"]["vocab_size"])
    with _StopRequest() as stop:
        try:
            dry_seconds = dry_run(runtime, fns.forward_backward, dataset) if state.start_step < config.train_steps else 0.0
        except tf.errors.DataLossError as error:
            raise corrupt_shard_error(config.output_dir, error) from error
        loop = _TrainLoop(config, runtime, state, data, fns, dataset)
        if observer:
            observer.on_start(TrainStart(state.start_step, config.train_steps, runtime.plan.kind, runtime.num_replicas,
                                         runtime.plan.jit_compile, runtime.plan.jit_reason, dry_seconds,
                                         tuple(sorted(loop.shapes))))
        loop.run(stop, observer)
    return _finish(config, runtime, state, loop, fns.train_traces(), dry_seconds)


def _check_inputs(config: TrainerConfig) -> tuple[dict[str, Any], DataSpec, int | None]:
    """The prepared data (checked against the config and verified on disk) and the step count an
    earlier run of this directory recorded (None for a new run)."""
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
    return prepared, DataSpec.from_manifest(out, prepared, config.mlm_probability), recorded_steps


@dataclass(frozen=True)
class _State:
    """The model and optimizer under the strategy, restored from the last checkpoint if any."""

    model: Any
    optimizer: Any
    schedule: Any
    manager: Any  # tf.train.CheckpointManager writing to save_dir
    chief_dir: str  # the checkpoints that are kept (and resumed from)
    save_dir: str  # chief_dir on the chief; a throw-away directory on other workers
    restored: bool
    start_step: int


def _restore(config: TrainerConfig, runtime: Runtime, prepared: dict[str, Any]) -> _State:
    import tensorflow as tf

    from reference_trainer.model import build_model, build_optimizer

    plan = runtime.plan
    with runtime.strategy.scope():
        model = build_model(config, prepared["tokenizer"])
        optimizer, schedule = build_optimizer(config)
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
    chief_dir = storage.join(config.output_dir, CHECKPOINT_DIR)
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
    return _State(model, optimizer, schedule, manager, chief_dir, save_dir, bool(latest), start_step)


def _check_train_steps(config: TrainerConfig, state: _State, recorded_steps: int | None) -> None:
    """A --train-steps below the checkpoint is an error; a changed one (extending a run) a warning
    that says where the learning rate goes from here."""
    from reference_trainer.model import build_optimizer

    start_step = state.start_step
    if start_step > config.train_steps:
        raise StageError(
            f"--train-steps {config.train_steps} is below step {start_step}, which the checkpoint in "
            f"{state.chief_dir} has reached; give --train-steps {start_step} or more to continue, or a new "
            "--output-dir to train from scratch"
        )
    if recorded_steps is not None and recorded_steps != config.train_steps:
        log.warning(
            "--train-steps changed from %d to %d: training continues from step %d; the learning rate follows "
            "the schedule for %d steps from here (linear decay to 0 at step %d): %.2e at step %d (it was %.2e "
            "under the schedule for %d steps)", recorded_steps, config.train_steps, start_step,
            config.train_steps, config.train_steps, float(state.schedule(start_step)), start_step,
            float(build_optimizer(config.replace(train_steps=recorded_steps))[1](start_step)), recorded_steps,
        )


class _TrainLoop:
    """The host side of training: one host call at a time (``steps_per_execution`` steps, or one
    bucketed batch), its totals to the history, TensorBoard and the observer, and checkpoints."""

    def __init__(self, config: TrainerConfig, runtime: Runtime, state: _State, data: DataSpec, fns: Any,
                 dataset: Any) -> None:
        import tensorflow as tf

        from reference_trainer.steps import TOTALS

        self.config, self.runtime, self.state, self.data = config, runtime, state, data
        self.shapes: set[tuple[int, int]] = set()
        if not data.bucketed:
            self.shapes.add((config.batch_size // runtime.num_replicas, data.block_length))
        is_chief = runtime.plan.is_chief
        self.writer = tf.summary.create_file_writer(storage.join(config.output_dir, LOG_DIR, "train")) if is_chief else None
        self.history = read_history(config.output_dir, state.start_step)
        self.throughput = Throughput()
        self.step = state.start_step
        self.saved_step = state.start_step if state.restored else None
        self.wall_seconds = 0.0
        self._iterator = iter(dataset)
        strategy = runtime.strategy

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

        self._execution = train_execution
        # Bucketed batches have several shapes: one step per call, so each shape is traced (and
        # compiled) once as its own signature instead of once as an unknown shape inside a loop.
        self._one_step = tf.function(run_step)

    def run(self, stop: _StopRequest, observer: TrainObserver | None) -> None:
        import tensorflow as tf

        config = self.config
        started = time.perf_counter()
        try:
            while self.step < config.train_steps:
                if stop.requested:
                    raise KeyboardInterrupt
                totals, steps, seconds = self._host_call()
                self._record(totals, seconds, observer)
                self._checkpoint_if_due(steps)
        except tf.errors.DataLossError as error:
            raise corrupt_shard_error(config.output_dir, error) from error
        except KeyboardInterrupt:
            if self.writer is not None and not stop.forced:
                self.writer.flush()
            raise TrainInterrupted(self.step, config.train_steps, self.saved_step, self.state.chief_dir,
                                   config.checkpoint_every) from None
        self.wall_seconds = time.perf_counter() - started
        if self.writer is not None:
            self.writer.flush()

    def _host_call(self) -> tuple[Any, int, float]:
        """Run the next steps; (their summed totals, how many steps, seconds)."""
        import tensorflow as tf

        config = self.config
        steps = 1 if self.data.bucketed else min(config.steps_per_execution, config.train_steps - self.step)
        started = time.perf_counter()
        if self.data.bucketed:
            batch = next(self._iterator)
            for value in self.runtime.strategy.experimental_local_results(batch[0]["input_ids"]):
                self.shapes.add(tuple(int(d) for d in value.shape))  # type: ignore[arg-type]
            totals = self._one_step(batch).numpy()
        else:
            totals = self._execution(self._iterator, tf.constant(steps)).numpy()
        seconds = time.perf_counter() - started
        self.step = int(self.state.optimizer.iterations.numpy())
        return totals, steps, seconds

    def _record(self, totals: Any, seconds: float, observer: TrainObserver | None) -> None:
        """One history row, TensorBoard scalars and a progress point for the last host call."""
        import tensorflow as tf

        step = self.step
        loss = float(totals[0] / max(totals[1], 1.0))
        if not math.isfinite(loss):
            raise StageError(f"loss became {loss} at step {step}; lower --learning-rate or check the data")
        accuracy = float(totals[2] / max(totals[1], 1.0))
        self.throughput.add(float(totals[3]), seconds)
        rate = float(totals[3] / seconds)
        lr = float(self.state.schedule(step))
        self.history.append({"step": step, "loss": loss, "masked_accuracy": accuracy, "tokens_per_second": rate,
                             "learning_rate": lr})
        if self.writer is not None:
            with self.writer.as_default(step=step):
                tf.summary.scalar("loss", loss)
                tf.summary.scalar("perplexity", math.exp(min(loss, 50.0)))
                tf.summary.scalar("masked_accuracy", accuracy)
                tf.summary.scalar("tokens_per_second", rate)
                tf.summary.scalar("learning_rate", lr)
        if observer:
            observer.on_progress(Progress(step, self.config.train_steps, loss, accuracy, rate, lr))

    def _checkpoint_if_due(self, steps: int) -> None:
        """A checkpoint when the last host call crossed a --checkpoint-every multiple, and at the end."""
        config, step = self.config, self.step
        crossed = step // config.checkpoint_every > (step - steps) // config.checkpoint_every
        if not crossed and step < config.train_steps:
            return
        self.state.manager.save(checkpoint_number=step)
        self.saved_step = step
        if self.runtime.plan.is_chief:
            write_history(config.output_dir, self.history)
            write_train_record(config, step)
            log.debug("checkpoint at step %d", step)
        checkpoint_written(step)


def _finish(config: TrainerConfig, runtime: Runtime, state: _State, loop: _TrainLoop, train_compiles: int,
            dry_seconds: float) -> TrainResult:
    """Save the model (chief), record the finished run, and wait for every worker."""
    out, plan = config.output_dir, runtime.plan
    if not plan.is_chief:
        shutil.rmtree(state.save_dir, ignore_errors=True)
    artifacts: list[str] = []
    if plan.is_chief:
        model_dir = storage.join(out, MODEL_DIR)
        _save_model(state.model, storage.join(out, TOKENIZER_DIR), model_dir)
        write_history(out, loop.history)
        artifacts = [state.chief_dir, model_dir, storage.join(out, LOG_DIR), history_path(out)]
    if not loop.history:
        raise StageError(f"no training history in {out}; delete {state.chief_dir} and train again")
    first, last = loop.history[0], loop.history[-1]
    result = TrainResult(
        start_step=state.start_step, final_step=loop.step, first_loss=first["loss"], last_loss=last["loss"],
        first_masked_accuracy=first["masked_accuracy"], last_masked_accuracy=last["masked_accuracy"],
        tokens_per_second=loop.throughput.steady_rate,
        tokens_per_second_with_compile=loop.throughput.rate_with_compile,
        real_tokens=int(loop.throughput.tokens), train_compiles=train_compiles, batch_shapes=tuple(sorted(loop.shapes)),
        jit_compile=plan.jit_compile, jit_reason=plan.jit_reason, precision=config.precision, strategy=plan.kind, replicas=runtime.num_replicas,
        dry_run_seconds=dry_seconds, wall_seconds=loop.wall_seconds,
        history=tuple((int(row["step"]), float(row["loss"])) for row in loop.history), artifacts=tuple(artifacts),
    )
    if plan.is_chief:
        write_train_record(
            config, loop.step, finished=True, model_dir=MODEL_DIR, checkpoint_dir=CHECKPOINT_DIR,
            jit_compile=plan.jit_compile, precision=config.precision, strategy=plan.kind, replicas=runtime.num_replicas,
            train_compiles=result.train_compiles, batch_shapes=[list(s) for s in result.batch_shapes],
            tokens_per_second=result.tokens_per_second,
        )
    if plan.workers > 1:
        # Other workers must not read the model or manifest before the chief has written them.
        _barrier(runtime.strategy)
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
