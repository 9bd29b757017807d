"""``python -m reference_trainer [run|prepare|train|evaluate|fill-mask] [flags]``: the only module that prints.

``run`` (the default) does every stage. A stage started on an output directory that already has
a manifest takes the recorded config and applies only the flags given explicitly; a flag that
contradicts what an earlier stage recorded is one clear error naming the flag and the fix.
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from collections.abc import Sequence
from typing import Any

from reference_trainer.config import JIT_CHOICES, MODEL_PRESETS, TrainerConfig
from reference_trainer.summary import EXIT_CHECKS_FAILED, Summary, build_summary, exit_code, print_summary

__all__ = ["EXIT_CHECKS_FAILED", "EXIT_INTERRUPTED", "main"]

STAGES = ("run", "prepare", "train", "evaluate", "fill-mask")
# Flags of this process only: not part of the recorded config.
_CLI_ONLY = frozenset({"stage", "log_level", "no_progress", "log_every", "allow_failed_checks"})
# Plain progress lines per run when stdout is not a terminal and --log-every is not given.
_DEFAULT_LOG_LINES = 20
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a Ctrl-C
log = logging.getLogger("reference_trainer")


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False, argument_default=argparse.SUPPRESS)
    c = common.add_argument
    c("--output-dir", help="run directory, local or gs:// (default: reference_trainer_run)")
    data = common.add_argument_group("data (recorded by `prepare`)")
    d = data.add_argument
    d("--train-files", nargs="+", help="text files or globs (local or gs://) instead of the embedded corpus")
    d("--hf-dataset", help="a Hugging Face dataset already on this machine: a save_to_disk directory or a cached name")
    d("--hf-config", help="the dataset's configuration, e.g. wikitext-2-raw-v1")
    d("--hf-split", help="split to read (default: train)")
    d("--hf-text-column", help="text column (default: text)")
    d("--hf-cache-dir", help="datasets cache directory to read offline")
    d("--max-documents", type=int, help="use at most this many documents")
    d("--eval-fraction", type=float, help="share of documents held out for evaluation (default 0.05)")
    d("--vocab-size", type=int, help="Unigram vocabulary size (default 4096)")
    d("--block-length", type=int, help="tokens per block, or the longest sequence with --bucketing (default 64)")
    d("--bucketing", action="store_true", help="one record per document, batched by the bucketing package")
    d("--max-shapes", type=int, help="with --bucketing: at most this many batch shapes (default 4)")
    d("--pad-to-multiple-of", type=int, help="with --bucketing: bucket lengths are multiples of this (default 8)")
    d("--records-per-shard", type=int, help="records per TFRecord shard (default 2048)")
    model = common.add_argument_group("model and training (recorded by `train`)")
    m = model.add_argument
    m("--model-preset", choices=sorted(MODEL_PRESETS), help="RoBERTa size (default tiny)")
    m("--batch-size", type=int, help="global batch size (default 32)")
    m("--train-steps", type=int, help="optimizer steps (default 600)")
    m("--warmup-steps", type=int, help="linear warmup steps, fewer than --train-steps (default 60)")
    m("--learning-rate", type=float, help="peak learning rate (default 1e-3)")
    m("--weight-decay", type=float, help="AdamW weight decay (default 0.01)")
    m("--mlm-probability", type=float, help="share of tokens selected for masking (default 0.15)")
    m("--seed", type=int, help="shuffle and masking seed (default 0)")
    m("--shuffle-buffer", type=int, help="records in the shuffle buffer (default 10000)")
    m("--framework", choices=("tf", "torch"), help="tf (default): TensorFlow/Keras; torch: PyTorch/XLA on torch_xla.device()")
    m("--precision", choices=("fp32", "bf16"), help="bf16: Keras mixed_bfloat16 policy on TF, autocast on torch; float32 variables and loss "
      "(default fp32)")
    runtime = common.add_argument_group("runtime (may change when resuming)")
    r = runtime.add_argument
    r("--steps-per-execution", type=int, help="train steps per host call (default 20)")
    r("--checkpoint-every", type=int, help="checkpoint every N steps (default 100)")
    r("--jit-compile", choices=JIT_CHOICES, help="XLA for the train step: auto = on for CPU/GPU, off on TPU")
    r("--tpu", help="TPU name (or `local`); also read from TPU_NAME")
    r("--skip-preflight", action="store_true", help="train without the xlacheck static preflight")
    r("--check-module", dest="check_modules", action="append", metavar="PATH",
      help="also lint this model/loss module with xlacheck before training (repeatable)")
    r("--fill-mask-prompt", dest="fill_mask_prompts", action="append", metavar="TEXT",
      help="a prompt containing <mask> for the fill-mask check (repeatable)")
    r("--accelerate", action="store_true", help="torch only: run the train loop under Hugging Face accelerate")
    r("--log-level", default="INFO", help="logging level (default INFO)")
    r("--no-progress", action="store_true", help="no live progress bar (logs only)")
    r("--allow-failed-checks", action="store_true",
      help="exit 0 even when a summary check says NO (default: exit 3 with advice)")
    r("--log-every", type=int, metavar="N",
      help="when stdout is not a terminal (CI, tee, nohup): a progress line every N steps "
      "(default: about 20 lines per run)")

    parser = argparse.ArgumentParser(
        prog="python -m reference_trainer",
        description="Run the whole masked-LM path (tokenizer, TFRecord shards, TF-native masking, RoBERTa, "
        "distribution strategy, jit_compile) on this machine exactly as it will run on a TPU.",
        epilog="Flags go after the stage (or alone, meaning `run`): python -m reference_trainer run --help",
    )
    sub = parser.add_subparsers(dest="stage")
    helps = {
        "run": "every stage (the default)", "prepare": "corpus -> tokenizer -> TFRecord shards + manifest",
        "train": "train (resumes from the last checkpoint)", "evaluate": "masked accuracy and perplexity on eval",
        "fill-mask": "reload the saved model and fill masks",
    }
    for stage in STAGES:
        sub.add_parser(stage, parents=[common], help=helps[stage], argument_default=argparse.SUPPRESS)
    return parser


def _config(args: argparse.Namespace) -> TrainerConfig:
    from reference_trainer.manifest import read_manifest, recorded_config

    explicit = {k: v for k, v in vars(args).items() if k not in _CLI_ONLY}
    for key in ("train_files", "check_modules", "fill_mask_prompts"):
        if key in explicit:
            explicit[key] = tuple(explicit[key])
    output_dir = explicit.get("output_dir", TrainerConfig.output_dir)
    manifest = read_manifest(output_dir)
    base: dict[str, Any] = recorded_config(manifest) if manifest else {}
    # Explicit flags win, so that a contradiction reaches the stage's manifest check.
    return TrainerConfig.from_dict({**base, **explicit})


class _RichObserver:
    """Progress: a live bar with loss, masked accuracy, tokens/s and ETA on a terminal; plain log
    lines every ``log_every`` steps when stdout is not one (CI, ``tee``, ``nohup``), where a live
    bar shows nothing until it stops (the convention of rich's and tqdm's non-interactive modes)."""

    def __init__(self, console: Any, enabled: bool, log_every: int | None = None) -> None:
        self.console = console
        # --no-progress: a log line per host call, as before; no terminal: a line every N steps.
        self.live = enabled and console.is_terminal
        self.per_call = not enabled
        self.log_every = log_every
        self.progress: Any = None
        self.task: Any = None
        self._next_line = 0
        self._started = 0.0
        self.stage: str | None = None  # the stage running now, for a Ctrl-C message

    def on_start(self, start: Any) -> None:
        self.console.print(
            f"[bold]train[/]: {start.strategy} strategy, {start.replicas} replica(s), jit_compile="
            f"{'on' if start.jit_compile else 'off'} ({start.jit_reason}); XLA dry run "
            f"{start.dry_run_seconds:.1f} s; steps {start.start_step} -> {start.total_steps}"
        )
        self._started = time.perf_counter()
        if self.log_every is None:
            self.log_every = max(1, -(-(start.total_steps - start.start_step) // _DEFAULT_LOG_LINES))
        self._next_line = start.start_step + 1  # the first host call always logs: compile done
        if not self.live:
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        self.progress = Progress(
            TextColumn("[bold blue]train"), BarColumn(), MofNCompleteColumn(),
            TextColumn("loss {task.fields[loss]}  acc {task.fields[acc]}  {task.fields[rate]} tok/s"),
            TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=self.console,
        )
        self.progress.start()
        self.task = self.progress.add_task("train", total=start.total_steps, completed=start.start_step,
                                           loss="-", acc="-", rate="-")

    def on_progress(self, p: Any) -> None:
        if self.progress is not None:
            self.progress.update(self.task, completed=p.step, loss=f"{p.loss:.3f}", acc=f"{p.masked_accuracy:.3f}",
                                 rate=f"{p.tokens_per_second:,.0f}")
            return
        if not self.per_call:
            if p.step < self._next_line and p.step < p.total_steps:
                return
            self._next_line = (p.step // self.log_every + 1) * self.log_every
        log.info("step %d/%d loss %.4f masked acc %.3f %.0f tok/s lr %.2e (%.0f s)", p.step, p.total_steps, p.loss,
                 p.masked_accuracy, p.tokens_per_second, p.learning_rate, time.perf_counter() - self._started)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None


def main(argv: Sequence[str] | None = None) -> int:
    import sys

    from rich.console import Console
    from rich.logging import RichHandler

    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in STAGES and argv[0] not in ("-h", "--help"):
        argv.insert(0, "run")
    args = _parser().parse_args(argv)
    console = Console(stderr=False)
    logging.basicConfig(level=args.log_level.upper() if hasattr(args, "log_level") else "INFO", format="%(message)s",
                        handlers=[RichHandler(console=console, show_path=False)], force=True)
    for noisy in ("absl", "tensorflow", "h5py", "matplotlib"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

    from rich.markup import escape

    from reference_trainer.manifest import Interrupted, StageError

    if getattr(args, "log_every", 1) < 1:
        console.print(f"[red]error:[/] --log-every must be positive, got {args.log_every}", soft_wrap=True)
        return 2
    observer = _RichObserver(console, enabled=not getattr(args, "no_progress", False),
                             log_every=getattr(args, "log_every", None))
    try:
        return _run(args, console, observer)
    except KeyboardInterrupt:  # Ctrl-C outside the training loop (which says where it stopped)
        observer.close()
        stage = observer.stage or "start-up"
        console.print(f"[yellow]interrupted[/] during {stage}; rerun the same command to continue (finished "
                      "stages are reused, training resumes from its last checkpoint)", soft_wrap=True)
        return EXIT_INTERRUPTED
    except Interrupted as error:
        observer.close()
        console.print(f"[yellow]{escape(str(error))}[/]", soft_wrap=True)
        return EXIT_INTERRUPTED
    except (StageError, ValueError) as error:
        return _error(console, observer, error)
    finally:
        observer.close()


def _framework(args: argparse.Namespace) -> str:
    """The explicit --framework, else the one a local run directory's manifest recorded."""
    from reference_trainer import storage
    from reference_trainer.manifest import read_manifest

    if hasattr(args, "framework"):
        return str(args.framework)
    output_dir = getattr(args, "output_dir", TrainerConfig.output_dir)
    manifest = None if storage.is_url(output_dir) else read_manifest(output_dir)
    return str(((manifest or {}).get("train") or {}).get("config", {}).get("framework", "tf"))


def _error(console: Any, observer: _RichObserver, error: Exception) -> int:
    observer.close()
    from rich.markup import escape

    console.print(f"[red]error:[/] {escape(str(error))}", soft_wrap=True)
    for finding in getattr(error, "findings", ()):
        console.print(f"  {escape(str(finding))}", soft_wrap=True)
    return 1


def _check_inputs(stage: str, config: TrainerConfig) -> None:
    from reference_trainer.manifest import StageError, read_manifest

    if stage in ("run", "prepare"):
        manifest = read_manifest(config.output_dir)
        if manifest is None or "prepare" not in manifest:  # else the recorded shards are reused
            from reference_trainer.corpus import check_inputs

            check_inputs(config)
    if stage in ("run", "train") and not config.skip_preflight:
        for path in config.check_modules:
            if not os.path.isfile(path):
                raise StageError(f"--check-module {path} is not a file; give the path of a Python module")


def _run(args: argparse.Namespace, console: Any, observer: _RichObserver) -> int:
    stage = args.stage
    # Flags, the recorded config and local inputs are checked before TensorFlow or torch loads (it
    # takes 15-20 s): a mistake costs a second, not a framework start-up.
    config = _config(args)
    _check_inputs(stage, config)
    if _framework(args) == "torch":
        from reference_trainer.torch_cli import run_torch

        summary = run_torch(stage, config, observer)
    else:
        summary = _run_tf(stage, config, observer)
    print_summary(console, summary)
    return exit_code(console, summary, getattr(args, "allow_failed_checks", False))


def _run_tf(stage: str, config: TrainerConfig, observer: _RichObserver) -> Summary:
    # transformers imports torch_xla whenever it is installed, and torch_xla aborts a process that
    # has TensorFlow loaded ("LLVM ERROR: inconsistency in registered CommandLine options"): the TF
    # path tells transformers not to look for it (USE_TORCH_XLA is transformers' own switch).
    os.environ.setdefault("USE_TORCH_XLA", "0")
    from reference_trainer.tf_logging import import_tensorflow

    # TensorFlow's start-up lines, filtered: no CUDA probe error on a machine without a GPU.
    import_tensorflow(list_gpus=not (config.tpu or os.environ.get("TPU_NAME")))
    runtime = None
    if stage in ("run", "train", "evaluate"):
        from reference_trainer.strategy import resolve_strategy

        # First TensorFlow work of the process: MultiWorkerMirroredStrategy requires it.
        runtime = resolve_strategy(config.tpu, config.jit_compile)
    results: dict[str, Any] = {}
    timings: dict[str, float] = {}
    artifacts: list[str] = []

    def timed(name: str, fn: Any, *fn_args: Any) -> Any:
        # One line as each stage starts and ends: a piped log shows where a run is.
        log.info("stage %s: started", name)
        observer.stage = name
        started = time.perf_counter()
        value = fn(*fn_args)
        timings[name] = time.perf_counter() - started
        log.info("stage %s: done in %.1f s", name, timings[name])
        return value

    if stage in ("run", "train"):
        # Static preflight first: a finding should stop the run before any long stage.
        if config.skip_preflight:
            log.warning("preflight: static xlacheck check skipped (--skip-preflight)")
        else:
            from reference_trainer.preflight import static_check

            timed("preflight", static_check, config.check_modules)
    if stage in ("run", "prepare"):
        from reference_trainer.shards import prepare

        if runtime is not None and runtime.plan.workers > 1:
            from reference_trainer.manifest import require_section

            require_section(config.output_dir, "prepare", "prepare")
        results["prepare"] = timed("prepare", prepare, config)
        artifacts += results["prepare"].artifacts[:2]
    if stage in ("run", "train"):
        from reference_trainer.train import train

        try:
            results["train"] = timed("train", train, config, runtime, observer)
        finally:
            observer.close()
        artifacts += results["train"].artifacts
    if stage in ("run", "evaluate"):
        from reference_trainer.evaluate import evaluate

        results["evaluate"] = timed("evaluate", evaluate, config, runtime)
    if stage in ("run", "train", "evaluate") and runtime is not None and runtime.plan.is_chief:
        from reference_trainer.plot import plot_run

        # train and eval curves with the frequency baseline (redrawn by each later evaluation)
        png = plot_run(config.output_dir, f"{config.model_preset} RoBERTa, {config.output_dir}")
        if png:
            artifacts.append(png)
    if stage in ("run", "fill-mask") and (runtime is None or runtime.plan.is_chief):
        from reference_trainer.fill_mask import fill_mask

        results["fill_mask"] = timed("fill-mask", fill_mask, config)
    return build_summary(results, timings, artifacts, framework="tf")
