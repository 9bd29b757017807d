"""The PyTorch/XLA path: train, evaluate and fill-mask on ``torch_xla.device()``.

Same stages, artifacts and manifest records as the TensorFlow path (``train.py``,
``evaluate.py``, ``fill_mask.py``), on lazy tensors:

- batches come from a ``DataLoader`` (:mod:`reference_trainer.torch_data`) through
  ``MpDeviceLoader``, whose ``next()`` is the one ``torch_xla.sync()`` of each step;
- the step (:mod:`reference_trainer.torch_steps`) reads nothing back: loss, masked accuracy and
  token counts leave it as device tensors that an ``xm.add_step_closure`` reads after the
  graph ran;
- compile accounting comes from torch_xla's own metrics: ``CompileTime`` per step, every
  ``aten::`` fallback counter, ``TransferFromDeviceTime`` inside the step. A step that compiles
  for a shape already seen, a fallback, or an in-step transfer is a failed check in the run's
  summary (:mod:`reference_trainer.summary`: exit code 3) after the run's figures are recorded;
- checkpoints are CPU copies: weights as safetensors, optimizer and scheduler state through
  ``xm.save`` and read back with ``torch.load(weights_only=True)``, so loading a run
  directory never executes code (:func:`load_checkpoint`).

Framework imports stay inside functions: importing this module costs nothing.
"""

from __future__ import annotations

import json
import logging
import math
import os
import pickle
import shutil
import tempfile
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from reference_trainer import storage
from reference_trainer.config import DATA_FIELDS, TRAIN_FIELDS, TrainerConfig
from reference_trainer.manifest import (
    CHECKPOINT_DIR,
    LOG_DIR,
    MODEL_DIR,
    StageError,
    check_fields,
    finished_model_dir,
    require_section,
    write_section,
    write_train_record,
)
from reference_trainer.pipeline import DataSpec
from reference_trainer.shards import TOKENIZER_DIR, verify_prepared
from reference_trainer.progress import (
    Progress,
    Throughput,
    TrainStart,
    checkpoint_written,
    history_path,
    read_history,
    write_history,
)

log = logging.getLogger(__name__)

WEIGHTS_FILE = "model.safetensors"
OPTIMIZER_FILE = "optimizer.pt"
SCHEDULER_FILE = "scheduler.pt"
STATE_FILE = "trainer_state.json"  # written last: a checkpoint without it is incomplete
KEEP_CHECKPOINTS = 3
# RoBERTa's SDPA path calls torch.all(mask == 1) on the host every forward (a device->host
# transfer per step, and a different graph when a batch has no padding); "eager" attention
# builds the additive mask on the device.
ATTENTION = "eager"


class UnsafeCheckpoint(StageError):
    """A checkpoint file that is not plain tensors and containers (it could execute code)."""


@dataclass(frozen=True)
class XlaAccounting:
    """torch_xla's metrics over the train loop of this process (one program, all its devices)."""

    compiles: int  # CompileTime samples during the loop
    distinct_shapes: int  # distinct global (batch, length) shapes the loop ran
    recompile_steps: tuple[int, ...]  # steps that compiled for a shape already seen
    fallbacks: tuple[str, ...]  # aten:: counters that moved (CPU fallbacks)
    in_step_transfers: int  # TransferFromDeviceTime samples while step code ran
    syncs: int  # torch_xla.sync() calls the loop made or MpDeviceLoader made for it
    first_step_seconds: float


@dataclass(frozen=True)
class TorchTrainResult:
    start_step: int
    final_step: int
    first_loss: float
    last_loss: float
    first_masked_accuracy: float
    last_masked_accuracy: float
    tokens_per_second: float
    tokens_per_second_with_compile: float
    real_tokens: int
    batch_shapes: tuple[tuple[int, int], ...]
    accounting: XlaAccounting
    device: str
    replicas: int
    loop: str  # "torch_xla" or "accelerate"
    precision: str
    wall_seconds: float
    history: tuple[tuple[int, float], ...]
    artifacts: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class TorchEvalResult:
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
    replicas: int


def _metric_count(name: str) -> int:
    import torch_xla.debug.metrics as met

    data = met.metric_data(name)
    return int(data[0]) if data else 0


def _aten_counters() -> dict[str, int]:
    import torch_xla.debug.metrics as met

    # _local_scalar_dense is a host read (.item()), counted as a transfer, not a missing op
    return {name: int(met.counter_value(name) or 0) for name in met.counter_names()
            if name.startswith("aten::") and name != "aten::_local_scalar_dense"}


# --------------------------------------------------------------------------- model and optimizer


def build_torch_model(config: TrainerConfig, tokenizer: dict[str, Any]) -> Any:
    """``RobertaForMaskedLM.from_config`` on the CPU, seeded (moved to the device by the caller)."""
    import torch
    from transformers import RobertaForMaskedLM

    from reference_trainer.model import roberta_config

    torch.manual_seed(config.seed)
    return RobertaForMaskedLM._from_config(roberta_config(config, tokenizer), attn_implementation=ATTENTION)


def lr_factor(step: int, warmup: int, total: int) -> float:
    """Linear warmup then linear decay, never exactly 0: the step's graph would change.

    torch_xla uploads a Python float scalar as data, except 0 and +-1, which it bakes into the
    graph as constants; a rate of 0 (HF's warmup at step 0, or its decay at the end) compiles a
    second graph. So warmup reaches the peak at step ``warmup`` from ``1 / (warmup + 1)``, and
    the decay ends at ``1 / (total - warmup)`` on the last step.
    """
    return min((step + 1) / (warmup + 1), (total - step) / (total - warmup))


def build_torch_optimizer(config: TrainerConfig, model: Any) -> tuple[Any, Any]:
    """AdamW (no decay on biases and LayerNorm, as the TF path) + the warmup/decay schedule."""
    import torch

    decay, no_decay = [], []
    for name, param in model.named_parameters():
        (no_decay if name.endswith("bias") or "LayerNorm" in name else decay).append(param)
    optimizer = torch.optim.AdamW(
        [{"params": decay, "weight_decay": config.weight_decay}, {"params": no_decay, "weight_decay": 0.0}],
        lr=config.learning_rate, betas=(0.9, 0.999), eps=1e-8, foreach=True,
    )
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: lr_factor(step, config.warmup_steps, config.train_steps)
    )
    return optimizer, schedule


def init_optimizer_state(optimizer: Any) -> None:
    """Create AdamW's state before the first step, so step 1 traces the same graph as step 2
    (lazily created state would make the first step's graph different: a second compile)."""
    import torch

    for group in optimizer.param_groups:
        for param in group["params"]:
            if param not in optimizer.state or not optimizer.state[param]:
                optimizer.state[param] = {
                    "step": torch.tensor(0.0),  # on the CPU, as torch keeps it when not capturable
                    "exp_avg": torch.zeros_like(param, memory_format=torch.preserve_format),
                    "exp_avg_sq": torch.zeros_like(param, memory_format=torch.preserve_format),
                }


# --------------------------------------------------------------------------- checkpoints


def _checkpoint_name(step: int) -> str:
    return f"step-{step:08d}"


def complete_checkpoints(out: str) -> list[tuple[int, str]]:
    """(step, directory) of every checkpoint whose state file was written, oldest first."""
    root = storage.join(out, CHECKPOINT_DIR)
    if not storage.exists(root):
        return []
    found = []
    for name in storage.gfile().listdir(root):
        name = name.rstrip("/")
        if name.startswith("step-") and name[5:].isdigit() and storage.exists(storage.join(root, name, STATE_FILE)):
            found.append((int(name[5:]), storage.join(root, name)))
    return sorted(found)


def _to_cpu(value: Any) -> Any:
    import torch

    if isinstance(value, torch.Tensor):
        # runs at a checkpoint, after the iteration's torch_xla.sync(); XLA350 does not see that
        # sync (it sits under another `if` of the loop body): a known false positive, docs/torch.md
        return value.detach().cpu()  # noqa: XLA350
    if isinstance(value, dict):
        return {k: _to_cpu(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_to_cpu(v) for v in value)
    return value


def save_checkpoint(out: str, step: int, model: Any, optimizer: Any, scheduler: Any, history: list[dict[str, Any]],
                    is_master: bool) -> str:
    """Every replica calls this after ``torch_xla.sync()`` (``xm.save`` is a rendezvous)."""
    import torch_xla.core.xla_model as xm

    target = storage.join(out, CHECKPOINT_DIR, _checkpoint_name(step))
    with tempfile.TemporaryDirectory(prefix="reference_trainer_ckpt_") as tmp:
        # xm.save: CPU copies, written by the master only, then a rendezvous of all replicas
        xm.save(optimizer.state_dict(), os.path.join(tmp, OPTIMIZER_FILE), master_only=True)
        xm.save(scheduler.state_dict(), os.path.join(tmp, SCHEDULER_FILE), master_only=True)
        if is_master:
            from safetensors.torch import save_file

            state = {name: tensor.contiguous() for name, tensor in _to_cpu(model.state_dict()).items()}
            save_file(state, os.path.join(tmp, WEIGHTS_FILE), metadata={"format": "pt", "step": str(step)})
            with open(os.path.join(tmp, STATE_FILE), "w", encoding="utf-8") as handle:
                json.dump({"step": step}, handle)
            # the state file last: a checkpoint directory without it is ignored
            storage.makedirs(target)
            for name in (WEIGHTS_FILE, OPTIMIZER_FILE, SCHEDULER_FILE, STATE_FILE):
                storage.gfile().copy(os.path.join(tmp, name), storage.join(target, name), overwrite=True)
            write_history(out, history)
            for _, old in complete_checkpoints(out)[:-KEEP_CHECKPOINTS]:
                _remove_tree(old)
    return target


def _remove_tree(path: str) -> None:
    if storage.is_url(path):
        storage.gfile().rmtree(path)
    else:
        shutil.rmtree(path, ignore_errors=True)


def _safe_torch_load(path: str) -> Any:
    import torch

    with storage.gfile().GFile(path, "rb") as handle:
        try:
            return torch.load(handle, map_location="cpu", weights_only=True)
        except (pickle.UnpicklingError, RuntimeError, AttributeError, TypeError, EOFError) as error:
            # torch's message suggests weights_only=False; name only what it refused
            lines = [line.strip() for line in str(error).splitlines() if "Unsupported" in line or "unpickler" in line.lower()]
            first = lines[-1] if lines else type(error).__name__
            raise UnsafeCheckpoint(
                f"{path} was refused by torch.load(weights_only=True): it holds more than tensors and "
                f"plain containers, which could run code when unpickled ({first}); this run never loads "
                f"it: delete {posix_dirname(path)} to resume from the previous checkpoint, or start a new "
                "--output-dir"
            ) from error


def posix_dirname(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else os.path.dirname(path)


def load_checkpoint(directory: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], int]:
    """(weights, optimizer state, scheduler state, step); safetensors and weights-only loads."""
    from safetensors.torch import load

    with storage.gfile().GFile(storage.join(directory, WEIGHTS_FILE), "rb") as handle:
        weights = load(handle.read())
    optimizer_state = _safe_torch_load(storage.join(directory, OPTIMIZER_FILE))
    scheduler_state = _safe_torch_load(storage.join(directory, SCHEDULER_FILE))
    step = int(json.loads(storage.read_text(storage.join(directory, STATE_FILE)))["step"])
    return weights, optimizer_state, scheduler_state, step


# --------------------------------------------------------------------------- train


def _check_inputs(config: TrainerConfig) -> tuple[dict[str, Any], dict[str, Any], DataSpec]:
    out = config.output_dir
    manifest, prepared = require_section(out, "prepare", "prepare")
    check_fields(config, prepared["config"], DATA_FIELDS, out, "prepare")
    if "train" in manifest:
        check_fields(config, manifest["train"]["config"], TRAIN_FIELDS, out, "train")
    verify_prepared(out, prepared)
    return manifest, prepared, DataSpec.from_manifest(out, prepared, config.mlm_probability)


def _restore(config: TrainerConfig, tokenizer: dict[str, Any], device: Any) -> tuple[Any, Any, Any, int]:
    """(model on the device, optimizer, scheduler, start step), from the newest complete
    checkpoint when there is one."""
    model = build_torch_model(config, tokenizer)
    checkpoints = complete_checkpoints(config.output_dir)
    start_step, optimizer_state, scheduler_state = 0, None, None
    if checkpoints:
        weights, optimizer_state, scheduler_state, start_step = load_checkpoint(checkpoints[-1][1])
        missing, unexpected = model.load_state_dict(weights, strict=False)
        if unexpected or [m for m in missing if not m.startswith("lm_head.decoder")]:
            raise StageError(f"checkpoint {checkpoints[-1][1]} does not match the {config.model_preset} model "
                             f"(missing {missing[:3]}, unexpected {unexpected[:3]}); start a new --output-dir")
        model.tie_weights()
        log.info("resuming from %s at step %d of %d", checkpoints[-1][1], start_step, config.train_steps)
    model.to(device)
    # Moving CPU parameters to an XLA device makes new Parameter objects, one per module: the
    # LM head's decoder would no longer share the word embeddings (and save_pretrained, which
    # writes only one of them, would drop what the decoder learned). Tie them again here.
    model.tie_weights()
    model.train()
    optimizer, scheduler = build_torch_optimizer(config, model)
    if optimizer_state is not None:
        optimizer.load_state_dict(optimizer_state)
        scheduler.load_state_dict(scheduler_state)
    init_optimizer_state(optimizer)
    from reference_trainer.torch_parallel import current

    # under SPMD: step 2 reads step 1's outputs, which carry a sharding that is part of the graph
    # hash, so parameters and optimizer state are marked replicated before step 1
    current().replicate(model, optimizer)
    return model, optimizer, scheduler, start_step


class _Reporter:
    """The step closure (``xm.add_step_closure``): runs inside ``torch_xla.sync()`` after a
    window's graphs executed, reads their totals and writes the history row, TensorBoard
    scalars and a progress point (master process only)."""

    def __init__(self, config: TrainerConfig, start_step: int, observer: Any) -> None:
        self.config, self.observer = config, observer
        self.history = read_history(config.output_dir, start_step)
        self.throughput = Throughput()
        self.last = time.perf_counter()
        self.error: str | None = None
        self.writer = None
        try:
            from torch.utils.tensorboard import SummaryWriter

            self.writer = SummaryWriter(storage.join(config.output_dir, LOG_DIR, "train"))
        except ImportError:
            log.warning("tensorboard is not installed: no TensorBoard logs (pip install tensorboard)")

    def __call__(self, step: int, totals_list: list[Any], lr: float) -> None:
        import numpy as np

        totals = np.sum([t.cpu().numpy() for t in totals_list], axis=0)
        now = time.perf_counter()
        seconds, self.last = now - self.last, now
        tokens = float(totals[3])  # a global sum: the step is one program over the mesh
        self.throughput.add(tokens, seconds)
        loss = float(totals[0] / max(totals[1], 1.0))
        if not math.isfinite(loss):
            self.error = f"loss became {loss} at step {step}; lower --learning-rate or check the data"
            return
        accuracy = float(totals[2] / max(totals[1], 1.0))
        rate = tokens / max(seconds, 1e-9)
        self.history.append({"step": step, "loss": loss, "masked_accuracy": accuracy, "tokens_per_second": rate,
                             "learning_rate": lr})
        if self.writer is not None:
            for name, value in (("loss", loss), ("perplexity", math.exp(min(loss, 50.0))),
                                ("masked_accuracy", accuracy), ("tokens_per_second", rate), ("learning_rate", lr)):
                self.writer.add_scalar(name, value, step)
        if self.observer:
            self.observer.on_progress(Progress(step, self.config.train_steps, loss, accuracy, rate, lr))

    def close(self) -> None:
        if self.writer is not None:
            self.writer.flush()
            self.writer.close()


def train(config: TrainerConfig, observer: Any = None) -> TorchTrainResult:
    """Train on this process's XLA devices: one, or SPMD data parallel over all of them
    (:mod:`reference_trainer.torch_parallel`; ``--batch-size`` is then the global batch)."""
    import torch
    import torch_xla
    import torch_xla.core.xla_model as xm
    import torch_xla.runtime as xr

    from reference_trainer.torch_data import batch_spec, read_split, train_loader
    from reference_trainer.torch_parallel import current
    from reference_trainer.torch_steps import accelerate_train_step, train_step

    device = torch_xla.device()  # before any backward of this process
    out = config.output_dir
    _, prepared, data = _check_inputs(config)
    is_master = xr.global_ordinal() == 0
    parallel = current()
    devices = parallel.devices
    if config.batch_size % devices:
        raise StageError(f"--batch-size {config.batch_size} is not divisible by the {devices} devices; change it")
    if config.accelerate and parallel.devices > 1:
        raise StageError(f"--accelerate runs on one device, this process has {parallel.devices} "
                         "(CPU_NUM_DEVICES); drop --accelerate or CPU_NUM_DEVICES")
    per_device = config.batch_size // devices
    # the loader's batches are global under SPMD: per-device rows times the mesh's devices
    spec = parallel.global_spec(batch_spec(data, per_device, config.max_shapes, config.pad_to_multiple_of))
    records = read_split(data.train_files)
    autocast = torch.bfloat16 if config.precision == "bf16" else None

    model, optimizer, scheduler, start_step = _restore(config, prepared["tokenizer"], device)
    accelerator = None
    loader = train_loader(data, records, spec, seed=config.seed, start_step=start_step,
                          total_steps=config.train_steps, num_replicas=1, rank=0)
    if config.accelerate:
        from accelerate import Accelerator

        accelerator = Accelerator()
        model, optimizer, scheduler = accelerator.prepare(model, optimizer, scheduler)
    device_loader = parallel.device_loader(loader, device)
    if is_master:
        write_train_record(config, start_step)
    torch_xla.sync()  # the model, optimizer state and schedule on the device: not part of step 1

    loop = "accelerate" if accelerator is not None else "torch_xla"
    if observer and is_master:
        observer.on_start(TrainStart(start_step, config.train_steps, f"{loop} on {device}", devices, True,
                                     "torch_xla lazy tensors, one graph per batch shape", 0.0,
                                     tuple(spec.shapes())))
    window: list[Any] = []
    # only the master reads values back (its closures); the others keep the history file's rows
    report = _Reporter(config, start_step, observer) if is_master else None
    history = report.history if report is not None else read_history(out, start_step)

    # Metrics are per process, and this process runs one program (over every device under
    # SPMD), so each step's CompileTime delta is that step's own compile.
    seen: set[tuple[int, int]] = set()
    recompile_steps: list[int] = []
    compiles = transfers = syncs = 0
    fallbacks_before = _aten_counters()
    first_step_seconds = 0.0
    step = start_step
    iterator = iter(device_loader)
    started = time.perf_counter()
    if report is not None:
        report.last = started
    if step < config.train_steps:
        batch = next(iterator)
        syncs += 1
    while step < config.train_steps:
        shape = tuple(int(d) for d in batch["input_ids"].shape)
        t_step = time.perf_counter()
        compiles_before = _metric_count("CompileTime")
        transfers_before = _metric_count("TransferFromDeviceTime")
        if accelerator is not None:
            totals = accelerate_train_step(model, batch, optimizer, scheduler, accelerator)
        else:
            totals = train_step(model, batch, optimizer, scheduler, autocast)
        if is_master:  # only the master reads values back (its closures), so its window is exact
            transfers += _metric_count("TransferFromDeviceTime") - transfers_before
        step += 1
        window.append(totals)
        if (step % config.steps_per_execution == 0 or step >= config.train_steps) and is_master:
            xm.add_step_closure(report, args=(step, list(window), config.learning_rate * lr_factor(
                step - 1, config.warmup_steps, config.train_steps)))
            window = []
        checkpoint_due = step % config.checkpoint_every == 0 or step >= config.train_steps
        if checkpoint_due or step >= config.train_steps:
            torch_xla.sync()  # the loader's next sync is then empty
            syncs += 1
        else:
            batch = next(iterator)  # MpDeviceLoader: torch_xla.sync() of this step, then the next batch
            syncs += 1
        new = _metric_count("CompileTime") - compiles_before
        if step == start_step + 1:
            first_step_seconds = time.perf_counter() - t_step
        if new and shape in seen:
            recompile_steps.append(step)
        compiles += new
        seen.add(shape)
        if report is not None and report.error:
            raise StageError(report.error)
        if checkpoint_due:
            save_checkpoint(out, step, model, optimizer, scheduler, history, is_master)
            if is_master:
                write_train_record(config, step)
            checkpoint_written(step)
            if step < config.train_steps:
                batch = next(iterator)
                syncs += 1
    wall = time.perf_counter() - started
    fallbacks_after = _aten_counters()
    fallbacks = tuple(sorted(n for n, v in fallbacks_after.items() if v != fallbacks_before.get(n, 0)))
    accounting = XlaAccounting(
        compiles=compiles, distinct_shapes=len(seen), recompile_steps=tuple(recompile_steps),
        fallbacks=fallbacks, in_step_transfers=transfers, syncs=syncs, first_step_seconds=first_step_seconds,
    )
    if report is not None:
        report.close()
    throughput = report.throughput if report is not None else Throughput()

    artifacts: list[str] = []
    model_dir = storage.join(out, MODEL_DIR)
    if is_master:
        unwrapped = accelerator.unwrap_model(model) if accelerator is not None else model
        _save_pretrained(unwrapped, storage.join(out, TOKENIZER_DIR), model_dir)
        write_history(out, history)
        artifacts = [storage.join(out, CHECKPOINT_DIR), model_dir, storage.join(out, LOG_DIR), history_path(out)]
    if not history:
        raise StageError(f"no training history in {out}; delete {storage.join(out, CHECKPOINT_DIR)} and train again")
    first, last = history[0], history[-1]
    result = TorchTrainResult(
        start_step=start_step, final_step=step, first_loss=first["loss"], last_loss=last["loss"],
        first_masked_accuracy=first["masked_accuracy"], last_masked_accuracy=last["masked_accuracy"],
        tokens_per_second=throughput.steady_rate, tokens_per_second_with_compile=throughput.rate_with_compile,
        real_tokens=int(throughput.tokens), batch_shapes=tuple(sorted(seen)), accounting=accounting,
        device=str(device), replicas=devices, loop=loop, precision=config.precision, wall_seconds=wall,
        history=tuple((int(r["step"]), float(r["loss"])) for r in history), artifacts=tuple(artifacts),
    )
    if is_master:
        write_train_record(
            config, step, finished=True, model_dir=MODEL_DIR, checkpoint_dir=CHECKPOINT_DIR, framework="torch",
            loop=loop, replicas=devices, batch_shapes=[list(s) for s in result.batch_shapes],
            accounting=asdict(accounting), tokens_per_second=result.tokens_per_second,
        )
    return result


def _save_pretrained(model: Any, tokenizer_dir: str, model_dir: str) -> None:
    """``save_pretrained`` (safetensors) of the model moved to the CPU (training is over), with
    the tokenizer's files beside it."""
    cpu_model = model.to("cpu")
    with tempfile.TemporaryDirectory(prefix="reference_trainer_model_") as tmp:
        cpu_model.save_pretrained(tmp, safe_serialization=True)
        storage.copy_tree(tmp, model_dir)
    for name in storage.gfile().listdir(tokenizer_dir):
        storage.gfile().copy(storage.join(tokenizer_dir, name), storage.join(model_dir, name), overwrite=True)
    log.info("model and tokenizer saved to %s", model_dir)


# --------------------------------------------------------------------------- evaluate and fill-mask


def load_saved_model(output_dir: str) -> Any:
    """The ``save_pretrained`` directory of a finished run: safetensors only, no code."""
    from transformers import RobertaForMaskedLM

    model_dir = finished_model_dir(output_dir)
    try:
        with storage.local_copy(model_dir) as local:
            return RobertaForMaskedLM.from_pretrained(local, use_safetensors=True, attn_implementation=ATTENTION)
    except OSError as error:
        raise StageError(f"{model_dir} does not hold a loadable model ({error}); run `train` again") from error


def evaluate(config: TrainerConfig) -> TorchEvalResult:
    import torch
    import torch_xla
    import torch_xla.runtime as xr

    from reference_trainer.torch_data import batch_spec, eval_loader, read_split
    from reference_trainer.torch_parallel import current
    from reference_trainer.torch_steps import TOTALS, eval_step

    device = torch_xla.device()
    out = config.output_dir
    _, prepared = require_section(out, "prepare", "prepare")
    check_fields(config, prepared["config"], DATA_FIELDS, out, "prepare")
    _, trained = require_section(out, "train", "train")
    check_fields(config, trained["config"], TRAIN_FIELDS, out, "train")
    verify_prepared(out, prepared)
    data = DataSpec.from_manifest(out, prepared, config.mlm_probability)
    rank = xr.global_ordinal()
    parallel = current()
    devices = parallel.devices
    vocab_size = prepared["tokenizer"]["vocab_size"]
    spec = parallel.global_spec(batch_spec(data, config.batch_size // devices, config.max_shapes,
                                           config.pad_to_multiple_of))
    model = load_saved_model(out).to(device)
    model.tie_weights()
    model.eval()
    autocast = torch.bfloat16 if config.precision == "bf16" else None
    # one loader of global batches (under SPMD each device reads its rows of every batch)
    loader = eval_loader(data, read_split(data.eval_files), spec, seed=config.seed, num_replicas=1, rank=0)
    # accumulators uploaded as data (a zeros() traced in the first step would change its graph)
    totals = torch.zeros(TOTALS).to(device)
    histogram = torch.zeros(vocab_size).to(device)
    # under SPMD: batch 2 reads batch 1's outputs, which carry a sharding; mark both replicated
    # from the start so every batch of a shape is one graph (measured with bf16: 2 compiles for 1)
    parallel.replicate(model)
    parallel.replicate_tensors((totals, histogram))
    torch_xla.sync()
    compiles_before = _metric_count("CompileTime")
    steps = 0
    for batch in parallel.device_loader(loader, device):
        step_totals, step_histogram = eval_step(model, batch, vocab_size, autocast)
        totals = totals + step_totals
        histogram = histogram + step_histogram
        steps += 1
    torch_xla.sync()
    eval_compiles = _metric_count("CompileTime") - compiles_before
    # sums over the whole global batch (the SPMD partitioner reduces over the mesh): each eval
    # token once, no mesh_reduce
    totals_np, histogram_np = totals.cpu().numpy(), histogram.cpu().numpy()
    masked = max(float(totals_np[1]), 1.0)
    loss = float(totals_np[0] / masked)
    from reference_trainer.tokenizer import load_tokenizer

    tokenizer = load_tokenizer(storage.join(out, prepared["tokenizer"]["path"]))
    result = TorchEvalResult(
        loss=loss, perplexity=math.exp(min(loss, 50.0)), masked_accuracy=float(totals_np[2] / masked),
        frequency_baseline=float(histogram_np.max() / masked),
        most_frequent_token=tokenizer.convert_ids_to_tokens(int(histogram_np.argmax())),
        masked_tokens=int(totals_np[1]), real_tokens=int(totals_np[3]), steps=steps, eval_compiles=eval_compiles,
        batch_shapes=tuple(spec.shapes()), replicas=devices,
    )
    log.info("eval: loss %.3f, perplexity %.1f, masked accuracy %.3f (baseline %.3f)", result.loss,
             result.perplexity, result.masked_accuracy, result.frequency_baseline)
    if rank == 0:
        write_section(out, "evaluate", {k: v for k, v in asdict(result).items() if k != "batch_shapes"})
    return result


def fill_mask(config: TrainerConfig, top_k: int = 5) -> Any:
    """Reload the saved directory alone (model + tokenizer) on the CPU and fill masks."""
    import numpy as np
    import torch
    from transformers import AutoTokenizer

    from reference_trainer.fill_mask import _HIT_RECORDS, DEFAULT_PROMPTS, FillMaskResult, Prediction, check_prompt
    from reference_trainer.tfrecord import decode_int64_example, read_records

    out = config.output_dir
    _, prepared = require_section(out, "prepare", "prepare")
    _, trained = require_section(out, "train", "train")
    model_dir = storage.join(out, trained["model_dir"])
    model = load_saved_model(out)
    model.eval()
    with storage.local_copy(model_dir) as local:
        tokenizer = AutoTokenizer.from_pretrained(local)
    block_length = prepared["block_length"]
    predictions = []
    with torch.no_grad():
        for prompt in config.fill_mask_prompts or DEFAULT_PROMPTS:
            encoded = tokenizer(prompt, return_tensors="pt")
            if not check_prompt(config, prompt, tokenizer.mask_token, encoded["input_ids"].shape[1], block_length):
                continue
            logits = model(**encoded).logits[0]
            position = int((encoded["input_ids"][0] == tokenizer.mask_token_id).nonzero()[0, 0])
            probs = torch.softmax(logits[position], dim=-1)
            best = torch.argsort(probs, descending=True)[:top_k].tolist()
            predictions.append(Prediction(prompt, tuple(tokenizer.convert_ids_to_tokens(best)),
                                          tuple(float(probs[i]) for i in best)))
        first_shard = storage.join(out, prepared["splits"]["eval"]["shards"][0]["file"])
        special = set(tokenizer.all_special_ids)
        hits1 = hits5 = checked = 0
        with storage.gfile().GFile(first_shard, "rb") as handle:
            for index, raw in enumerate(read_records(handle, first_shard)):
                if index >= _HIT_RECORDS:
                    break
                ids = np.asarray(decode_int64_example(raw, "input_ids"), dtype=np.int64)
                candidates = [i for i, t in enumerate(ids) if int(t) not in special]
                if not candidates:
                    continue
                position = candidates[len(candidates) // 2]
                original = int(ids[position])
                masked = torch.from_numpy(ids.copy())[None]
                masked[0, position] = tokenizer.mask_token_id
                ranked = torch.argsort(model(input_ids=masked, attention_mask=torch.ones_like(masked)).logits[0, position],
                                       descending=True)
                hits1 += int(int(ranked[0]) == original)
                hits5 += int(original in ranked[:5].tolist())
                checked += 1
    top1, top5 = hits1 / max(checked, 1), hits5 / max(checked, 1)
    log.info("fill-mask: top-1 %.3f, top-5 %.3f on %d masked eval positions", top1, top5, checked)
    return FillMaskResult(model_dir, tuple(predictions), top1, top5, checked)
