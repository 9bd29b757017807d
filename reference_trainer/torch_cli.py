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
