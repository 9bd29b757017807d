"""Real (non-pad) tokens/s of the reference trainer with jit_compile on vs off (or, with
``--compare precision``, bf16 vs fp32), same run otherwise.

Both runs train the same model preset from scratch on the same prepared shards (one `prepare`,
copied), with the same seed, batches and masks, in one process, one after the other. Two
figures each: steady state (every execution after the first, so compilation is excluded) and
end to end (XLA dry run + every execution, compilation included). The ratio of the two settings
is printed for both. ``--compare precision`` also prints the largest gap between the two loss
curves (every logged step) and each run's compile count: bf16 must change neither the curve
beyond its tolerance nor the number of compilations. The machine is shared: the load average
before and after is printed with the figures.

    python benchmarks/trainer_jit.py [--steps 200] [--model-preset tiny] [--batch-size 32]
    python benchmarks/trainer_jit.py --compare precision --steps 600   # the default run's length
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from reference_trainer.config import TrainerConfig  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--model-preset", default="tiny")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--block-length", type=int, default=64)
    parser.add_argument("--steps-per-execution", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=1,
                        help="runs per setting, interleaved (on/off, then off/on, ...); medians are compared")
    parser.add_argument("--compare", choices=("jit", "precision"), default="jit",
                        help="jit: jit_compile on vs off; precision: --precision bf16 vs fp32 (jit_compile auto)")
    args = parser.parse_args()

    import json

    from reference_trainer.shards import prepare
    from reference_trainer.strategy import resolve_strategy
    from reference_trainer.train import train

    work = tempfile.mkdtemp(prefix="trainer_jit_bench_")
    common = dict(
        model_preset=args.model_preset, batch_size=args.batch_size, block_length=args.block_length,
        train_steps=args.steps, warmup_steps=max(1, args.steps // 10), steps_per_execution=args.steps_per_execution,
        checkpoint_every=args.steps, skip_preflight=True,
    )
    base = os.path.join(work, "prepared")
    prepare(TrainerConfig(output_dir=base, **common))
    field, settings = ("jit_compile", ("on", "off")) if args.compare == "jit" else ("precision", ("bf16", "fp32"))
    runs: dict[str, list] = {s: [] for s in settings}
    load_before = os.getloadavg()
    # Interleaved so that a change in the shared machine's load does not favour one setting.
    order = [s for r in range(args.repeats) for s in (settings if r % 2 == 0 else settings[::-1])]
    for index, setting in enumerate(order):
        out = os.path.join(work, f"run{index}_{field}_{setting}")
        os.makedirs(out)
        shutil.copytree(os.path.join(base, "data"), os.path.join(out, "data"))
        shutil.copytree(os.path.join(base, "tokenizer"), os.path.join(out, "tokenizer"))
        manifest = json.load(open(os.path.join(base, "manifest.json")))
        json.dump({"format": manifest["format"], "prepare": manifest["prepare"]}, open(os.path.join(out, "manifest.json"), "w"))
        config = TrainerConfig(output_dir=out, **{field: setting}, **common)
        runs[setting].append(train(config, resolve_strategy(None, config.jit_compile)))
    load_after = os.getloadavg()
    shutil.rmtree(work, ignore_errors=True)

    def end_to_end(r) -> float:  # noqa: ANN001
        return r.real_tokens / (r.wall_seconds + r.dry_run_seconds)

    print(f"reference_trainer {field} benchmark: {args.model_preset} RoBERTa, batch {args.batch_size} x "
          f"{args.block_length}, {args.steps} steps, {args.steps_per_execution} steps/execution, embedded corpus")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} on {os.cpu_count()} CPUs")
    print(f"{field:<12}{'steady tok/s':>14}{'end-to-end tok/s':>18}{'dry run s':>11}{'train s':>9}{'compiles':>10}{'last loss':>11}")
    for setting in settings:
        for r in runs[setting]:
            print(f"{setting:<12}{r.tokens_per_second:>14,.0f}{end_to_end(r):>18,.0f}{r.dry_run_seconds:>11.1f}"
                  f"{r.wall_seconds:>9.1f}{r.train_compiles:>10}{r.last_loss:>11.3f}")
    steady = {s: statistics.median(r.tokens_per_second for r in runs[s]) for s in runs}
    e2e = {s: statistics.median(end_to_end(r) for r in runs[s]) for s in runs}
    first, second = settings
    print(f"ratio {first}/{second} (medians): steady {steady[first] / steady[second]:.2f}x, "
          f"end-to-end {e2e[first] / e2e[second]:.2f}x")
    if args.compare == "precision":
        gaps = [abs(a - b) for x, y in zip(runs["bf16"], runs["fp32"]) for (_, a), (_, b) in zip(x.history, y.history)]
        print(f"loss curves bf16 vs fp32: largest gap {max(gaps):.4f} nats over {len(gaps)} logged points; "
              f"compiles bf16 {sorted({r.train_compiles for r in runs['bf16']})}, "
              f"fp32 {sorted({r.train_compiles for r in runs['fp32']})}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
