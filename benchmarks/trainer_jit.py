"""Real (non-pad) tokens/s of the reference trainer with jit_compile on vs off, same run otherwise.

Both runs train the same model preset from scratch on the same prepared shards (one `prepare`,
copied), with the same seed, batches and masks, in one process, one after the other. Two
figures each: steady state (every execution after the first, so compilation is excluded) and
end to end (XLA dry run + every execution, compilation included). The ratio on/off is printed
for both. The machine is shared: the load average before and after is printed with the figures.

    python benchmarks/trainer_jit.py [--steps 200] [--model-preset tiny] [--batch-size 32]
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
    runs: dict[str, list] = {"on": [], "off": []}
    load_before = os.getloadavg()
    # Interleaved so that a change in the shared machine's load does not favour one setting.
    order = [s for r in range(args.repeats) for s in (("on", "off") if r % 2 == 0 else ("off", "on"))]
    for index, setting in enumerate(order):
        out = os.path.join(work, f"run{index}_jit_{setting}")
        os.makedirs(out)
        shutil.copytree(os.path.join(base, "data"), os.path.join(out, "data"))
        shutil.copytree(os.path.join(base, "tokenizer"), os.path.join(out, "tokenizer"))
        manifest = json.load(open(os.path.join(base, "manifest.json")))
        json.dump({"format": manifest["format"], "prepare": manifest["prepare"]}, open(os.path.join(out, "manifest.json"), "w"))
        config = TrainerConfig(output_dir=out, jit_compile=setting, **common)
        runs[setting].append(train(config, resolve_strategy(None, setting)))
    load_after = os.getloadavg()
    shutil.rmtree(work, ignore_errors=True)

    def end_to_end(r) -> float:  # noqa: ANN001
        return r.real_tokens / (r.wall_seconds + r.dry_run_seconds)

    print(f"reference_trainer jit benchmark: {args.model_preset} RoBERTa, batch {args.batch_size} x "
          f"{args.block_length}, {args.steps} steps, {args.steps_per_execution} steps/execution, embedded corpus")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} on {os.cpu_count()} CPUs")
    print(f"{'jit_compile':<12}{'steady tok/s':>14}{'end-to-end tok/s':>18}{'dry run s':>11}{'train s':>9}{'compiles':>10}{'last loss':>11}")
    for setting in ("on", "off"):
        for r in runs[setting]:
            print(f"{setting:<12}{r.tokens_per_second:>14,.0f}{end_to_end(r):>18,.0f}{r.dry_run_seconds:>11.1f}"
                  f"{r.wall_seconds:>9.1f}{r.train_compiles:>10}{r.last_loss:>11.3f}")
    steady = {s: statistics.median(r.tokens_per_second for r in runs[s]) for s in runs}
    e2e = {s: statistics.median(end_to_end(r) for r in runs[s]) for s in runs}
    print(f"ratio on/off (medians): steady {steady['on'] / steady['off']:.2f}x, end-to-end {e2e['on'] / e2e['off']:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
