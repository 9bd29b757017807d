"""``python -m reference_trainer --framework torch``: the stages on PyTorch/XLA, and their summary.

One device: the stages run in this process. Several (``PJRT_DEVICE=CPU CPU_NUM_DEVICES=2``, or
a TPU): ``torch_xla.launch`` runs train/evaluate/fill-mask once per device, and the master
replica writes its figures to ``RUN/torch_results.json`` for this process to print.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from dataclasses import asdict
from typing import Any

from reference_trainer import storage
from reference_trainer.config import TrainerConfig
from reference_trainer.manifest import StageError
from reference_trainer.summary import Summary, build_summary

log = logging.getLogger("reference_trainer")
RESULTS_FILE = "torch_results.json"


def device_count_from_env() -> int:
    """Devices torch_xla will use, read from the environment (the runtime must not start
    before ``torch_xla.launch``): CPU_NUM_DEVICES on the CPU; 0 (= all) for anything else."""
    kind = os.environ.get("PJRT_DEVICE", "CPU").upper()
    if kind == "CPU":
        return max(1, int(os.environ.get("CPU_NUM_DEVICES", "1") or 1))
    return 0


def _run_stages(config: TrainerConfig, stage: str, observer: Any) -> dict[str, Any]:
    """The device stages of one replica; returns the figures as JSON-ready dicts."""
    import torch_xla
    import torch_xla.runtime as xr

    from reference_trainer.torch_train import evaluate, fill_mask, train

    torch_xla.device()  # first: before any backward of this process
    results: dict[str, Any] = {}
    timings: dict[str, float] = {}
    for name, fn, wanted in (("train", train, ("run", "train")), ("evaluate", evaluate, ("run", "evaluate"))):
        if stage in wanted:
            started = time.perf_counter()
            value = fn(config, observer) if name == "train" else fn(config)
            timings[name] = time.perf_counter() - started
            results[name] = asdict(value)
    if stage in ("run", "fill-mask") and xr.global_ordinal() == 0:
        started = time.perf_counter()
        results["fill_mask"] = asdict(fill_mask(config))
        timings["fill-mask"] = time.perf_counter() - started
    results["timings"] = timings
    return results


class _LogObserver:
    def on_start(self, start: Any) -> None:
        log.info("train: %s, %d replica(s), steps %d -> %d, shapes %s", start.strategy, start.replicas,
                 start.start_step, start.total_steps, list(start.batch_shapes))

    def on_progress(self, p: Any) -> None:
        log.info("step %d/%d loss %.4f masked acc %.3f %.0f tok/s lr %.2e", p.step, p.total_steps, p.loss,
                 p.masked_accuracy, p.tokens_per_second, p.learning_rate)


_IMPORT_LOCK = threading.Lock()


def _replica(index: int, config_dict: dict[str, Any], stage: str, log_level: str) -> None:
    """``torch_xla.launch`` target: one replica (process or thread per device)."""
    import torch_xla.runtime as xr

    # On the CPU the replicas are threads of one process: import the heavy, lazily-importing
    # modules (transformers' model classes) one thread at a time.
    with _IMPORT_LOCK:
        import safetensors.torch  # noqa: F401
        import transformers.models.roberta.modeling_roberta  # noqa: F401
        from torch.utils import tensorboard  # noqa: F401
        from transformers import AutoTokenizer, RobertaForMaskedLM  # noqa: F401

        import reference_trainer.torch_data  # noqa: F401
        import reference_trainer.torch_train  # noqa: F401

    logging.basicConfig(level=log_level, format="%(message)s")
    config = TrainerConfig.from_dict(config_dict)
    results = _run_stages(config, stage, _LogObserver() if xr.global_ordinal() == 0 else None)
    if xr.global_ordinal() == 0:
        storage.write_text_atomic(storage.join(config.output_dir, RESULTS_FILE), json.dumps(results))


def run_torch(stage: str, config: TrainerConfig, observer: Any) -> Summary:
    """The stages of ``stage`` on torch_xla; their summary (the CLI prints it and picks the exit code)."""
    if stage != "prepare":
        require_torch_xla()
    results: dict[str, Any] = {}
    timings: dict[str, float] = {}
    artifacts: list[str] = []
    if stage in ("run", "train"):
        if config.skip_preflight:
            log.warning("preflight: static xlacheck check skipped (--skip-preflight)")
        else:
            from reference_trainer.preflight import static_check

            started = time.perf_counter()
            here = os.path.dirname(os.path.abspath(__file__))
            static_check((os.path.join(here, "torch_steps.py"), *config.check_modules))
            timings["preflight"] = time.perf_counter() - started
    if stage in ("run", "prepare"):
        from reference_trainer.shards import prepare

        started = time.perf_counter()
        prep = prepare(config)
        timings["prepare"] = time.perf_counter() - started
        results["prepare"] = asdict(prep)
        artifacts += list(prep.artifacts[:2])
    if stage != "prepare":
        devices = device_count_from_env()
        if devices == 1:
            try:
                device_results = _run_stages(config, stage, observer)
            finally:
                close = getattr(observer, "close", None)
                if close:
                    close()
        else:
            import torch_xla

            path = storage.join(config.output_dir, RESULTS_FILE)
            if storage.exists(path):
                storage.gfile().remove(path) if storage.is_url(path) else os.remove(path)
            torch_xla.launch(_replica, args=(config.to_dict(), stage, logging.getLevelName(log.getEffectiveLevel())))
            device_results = json.loads(storage.read_text(path))
        timings.update(device_results.pop("timings", {}))
        results.update(device_results)
    if "train" in results:
        artifacts += list(results["train"]["artifacts"])
        from reference_trainer.plot import plot_loss

        png = plot_loss([tuple(h) for h in results["train"]["history"]], storage.join(config.output_dir, "loss.png"),
                        f"{config.model_preset} RoBERTa (torch_xla), {config.output_dir}")
        if png:
            artifacts.append(png)
    return build_summary(results, timings, artifacts, framework="torch")


def require_torch_xla() -> None:
    try:
        import torch_xla  # noqa: F401
    except ImportError as error:
        raise StageError(
            f"--framework torch needs torch_xla ({error}); pip install \".[torch-xla]\""
        ) from error
