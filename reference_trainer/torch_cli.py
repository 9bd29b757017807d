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


def run_torch(stage: str, config: TrainerConfig, console: Any, observer: Any) -> int:
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
    summary(console, results, timings, artifacts)
    problem = accounting_problem(results)
    if problem:
        console.print(f"[red]error:[/] torch_xla accounting failed: {problem}; the step must compile once per batch "
                      "shape, with no CPU fallback and no host read inside it (see PT_XLA_DEBUG_LEVEL=1 for the line)",
                      soft_wrap=True)
        return 1
    return 0


def accounting_problem(results: dict[str, Any]) -> str | None:
    tr = results.get("train")
    if not tr:
        return None
    from reference_trainer.torch_train import XlaAccounting

    acc = tr["accounting"]
    accounting = XlaAccounting(**{**acc, "recompile_steps": tuple(acc["recompile_steps"]),
                                  "fallbacks": tuple(acc["fallbacks"])})
    return accounting.problem()


def summary(console: Any, results: dict[str, Any], timings: dict[str, float], artifacts: list[str]) -> None:
    from rich.table import Table

    table = Table(title="reference_trainer summary (PyTorch/XLA)")
    table.add_column("figure")
    table.add_column("value")
    table.add_column("check")
    ok, bad = "[green]ok[/]", "[red]NO[/]"
    prep = results.get("prepare")
    if prep:
        table.add_row("data", f"{prep['train_records']} train / {prep['eval_records']} eval records ({prep['layout']}), "
                      f"{prep['train_tokens']:,} train tokens, vocab {prep['vocab_size']}", "reused" if prep["reused"] else "")
    tr = results.get("train")
    if tr:
        acc = tr["accounting"]
        table.add_row("train loss (first -> last log)", f"{tr['first_loss']:.3f} -> {tr['last_loss']:.3f}",
                      ok if tr["last_loss"] < tr["first_loss"] else bad)
        table.add_row("train masked accuracy (first -> last)",
                      f"{tr['first_masked_accuracy']:.3f} -> {tr['last_masked_accuracy']:.3f}", "")
        table.add_row("steps", f"{tr['start_step']} -> {tr['final_step']}" + (" (resumed)" if tr["start_step"] else ""), "")
        shapes = ", ".join(f"{b}x{n}" for b, n in tr["batch_shapes"])
        table.add_row("compiles (CompileTime) vs distinct batch shapes",
                      f"{acc['compiles']} vs {acc['distinct_shapes']} ({shapes})",
                      ok if acc["compiles"] == acc["distinct_shapes"] and not acc["recompile_steps"] else bad)
        table.add_row("aten:: CPU fallbacks", ", ".join(acc["fallbacks"]) or "0", ok if not acc["fallbacks"] else bad)
        table.add_row("device-to-host transfers inside the step", str(acc["in_step_transfers"]),
                      ok if acc["in_step_transfers"] == 0 else bad)
        table.add_row("syncs / steps", f"{acc['syncs']} / {tr['final_step'] - tr['start_step']}", "")
        table.add_row("device", f"{tr['device']}, {tr['replicas']} replica(s), loop {tr['loop']}, {tr['precision']}", "")
        table.add_row("first step (trace + compile + run)", f"{acc['first_step_seconds']:.1f} s", "")
        table.add_row("real tokens/s (after the first log)", f"{tr['tokens_per_second']:,.0f}", "")
        table.add_row("real tokens/s (incl. compile)", f"{tr['tokens_per_second_with_compile']:,.0f}", "")
    ev = results.get("evaluate")
    if ev:
        table.add_row("eval masked accuracy vs frequency baseline",
                      f"{ev['masked_accuracy']:.3f} vs {ev['frequency_baseline']:.3f} (always {ev['most_frequent_token']!r})",
                      ok if ev["masked_accuracy"] > ev["frequency_baseline"] else bad)
        table.add_row("eval loss / perplexity",
                      f"{ev['loss']:.3f} / {ev['perplexity']:.1f} on {ev['masked_tokens']:,} masked tokens", "")
        table.add_row("eval compiles vs batch shapes", f"{ev['eval_compiles']} vs {len(ev['batch_shapes'])}",
                      ok if ev["eval_compiles"] <= len(ev["batch_shapes"]) else bad)
    fm = results.get("fill_mask")
    if fm:
        table.add_row("fill-mask (reloaded model, CPU)",
                      f"top-1 {fm['top1']:.3f}, top-5 {fm['top5']:.3f} on {fm['checked_positions']} eval positions", "")
    for name, seconds in timings.items():
        table.add_row(f"time: {name}", f"{seconds:.1f} s", "")
    for path in artifacts:
        table.add_row("artifact", path, "")
    console.print(table)
    if fm:
        for prediction in fm["predictions"]:
            guesses = ", ".join(f"{t!r} {s:.2f}" for t, s in zip(prediction["tokens"], prediction["scores"]))
            console.print(f"  [bold]{prediction['prompt']}[/] -> {guesses}")


def require_torch_xla() -> None:
    try:
        import torch_xla  # noqa: F401
    except ImportError as error:
        raise StageError(
            f"--framework torch needs torch_xla ({error}); pip install \".[torch-xla]\""
        ) from error
