"""``python -m reference_trainer --framework torch``: the stages on PyTorch/XLA, and their summary.

The stages run in this process on every device: one device plainly, several
(``PJRT_DEVICE=CPU CPU_NUM_DEVICES=2``, or a TPU) as SPMD data parallel over a mesh of all of
them (:mod:`reference_trainer.torch_parallel`), one program with the batch sharded on its rows.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import asdict
from typing import Any

from reference_trainer import storage
from reference_trainer.config import TrainerConfig
from reference_trainer.manifest import StageError
from reference_trainer.summary import Summary, build_summary

log = logging.getLogger("reference_trainer")


def _run_stages(config: TrainerConfig, stage: str, observer: Any) -> dict[str, Any]:
    """The device stages (every device of this process); returns the figures as JSON-ready dicts."""
    import torch_xla

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
    if stage in ("run", "fill-mask"):
        started = time.perf_counter()
        results["fill_mask"] = asdict(fill_mask(config))
        timings["fill-mask"] = time.perf_counter() - started
    results["timings"] = timings
    return results


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
        from reference_trainer.torch_parallel import enable

        enable()  # SPMD over every device when there are several: before any XLA tensor exists
        try:
            device_results = _run_stages(config, stage, observer)
        finally:
            close = getattr(observer, "close", None)
            if close:
                close()
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
