"""Generate xlacheck/data/hf_trainer.json: which methods of Hugging Face's ``Trainer`` run once per batch.

A ``Trainer`` subclass overrides methods the Trainer's own loop calls (``compute_loss``, ``training_step``,
``prediction_step``); on an XLA device the loop syncs once per step, so an override that runs once per batch
is step code, and a host read in it cuts every step's graph. Which methods those are is measured here, not
listed by hand: a tiny model is trained for ``STEPS[0]`` and then ``STEPS[1]`` optimizer steps and evaluated
on ``BATCHES[0]`` and ``BATCHES[1]`` batches, with every function of ``Trainer`` (and of its public
subclasses) counting its calls. A method whose count grows by exactly one per step (per eval batch) and that
takes the batch (a parameter named ``inputs``) is recorded with its parameter names. ``classes``: the public
classes of ``transformers`` that derive from ``Trainer`` (what a subclass may name as its base).

    python tools/generate_hf_trainer_table.py            # rewrite the table (CPU, ~1 minute plus imports)
    python tools/generate_hf_trainer_table.py --check    # exit 1 when a measured row differs
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import inspect
import json
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "xlacheck" / "data" / "hf_trainer.json"
STEPS = (2, 4)
BATCHES = (2, 4)


def _measure() -> dict:
    os.environ.setdefault("USE_TF", "0")  # transformers imports TensorFlow too where it is installed
    os.environ.setdefault("USE_JAX", "0")
    os.environ.setdefault("USE_TORCH_XLA", "0")  # counted on the CPU: the Trainer's XLA path runs the same loop
    import torch
    import transformers
    from torch import nn
    from transformers import Trainer, TrainingArguments

    classes = sorted(n for n in dir(transformers) if n.endswith("Trainer") and isinstance(
        getattr(transformers, n), type) and issubclass(getattr(transformers, n), Trainer))
    calls: Counter[str] = Counter()
    originals: dict[tuple[type, str], object] = {}
    for cls in {getattr(transformers, n) for n in classes}:
        for name, fn in list(vars(cls).items()):
            if inspect.isfunction(fn) and not name.startswith("__"):
                originals[(cls, name)] = fn

                def counted(*a, __fn=fn, __name=name, **k):
                    calls[__name] += 1
                    return __fn(*a, **k)
                setattr(cls, name, functools.wraps(fn)(counted))

    class Tiny(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 2)

        def forward(self, x, labels=None):
            logits = self.lin(x)
            return {"loss": nn.functional.cross_entropy(logits, labels), "logits": logits}

    rows = [{"x": torch.randn(4), "labels": torch.tensor(i % 2)} for i in range(64)]

    def run(steps: int, batches: int) -> tuple[Counter[str], Counter[str]]:
        with tempfile.TemporaryDirectory() as tmp:
            torch.manual_seed(0)
            args = TrainingArguments(tmp, max_steps=steps, per_device_train_batch_size=2,
                                     per_device_eval_batch_size=2, logging_steps=1000, save_strategy="no",
                                     report_to=[], use_cpu=True, disable_tqdm=True, eval_strategy="no")
            trainer = Trainer(model=Tiny(), args=args, train_dataset=rows, eval_dataset=rows[: 2 * batches])
            calls.clear()
            trainer.train()
            train = Counter(calls)
            calls.clear()
            trainer.evaluate()
            return train, Counter(calls)

    (t0, e0), (t1, e1) = run(STEPS[0], BATCHES[0]), run(STEPS[1], BATCHES[1])
    for (cls, name), fn in originals.items():
        setattr(cls, name, fn)

    def per(a: Counter[str], b: Counter[str], more: int) -> dict[str, list[str]]:
        return {n: [p for p in inspect.signature(getattr(Trainer, n)).parameters if p != "self"]
                for n in sorted(b) if b[n] - a[n] == more and hasattr(Trainer, n)
                and "inputs" in inspect.signature(getattr(Trainer, n)).parameters}

    return {"_generated_by": "tools/generate_hf_trainer_table.py", "transformers": transformers.__version__,
            "torch": torch.__version__.split("+")[0],
            "classes": [f"transformers.{n}" for n in classes],
            "per_train_step": per(t0, t1, STEPS[1] - STEPS[0]),
            "per_eval_batch": per(e0, e1, BATCHES[1] - BATCHES[0])}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="measure again and compare with the table")
    args = ap.parse_args(argv)
    if args.check and importlib.util.find_spec("transformers") is None:
        print("--check: skipped: transformers is not installed")
        return 0
    table = _measure()
    if args.check:
        old = json.loads(OUT.read_text())
        differ = [k for k in ("classes", "per_train_step", "per_eval_batch") if old.get(k) != table[k]]
        print(f"hf_trainer.json: re-measured facts agree (transformers {table['transformers']})" if not differ
              else f"hf_trainer.json: {', '.join(differ)} differ: {[table[k] for k in differ]}")
        return 1 if differ else 0
    OUT.write_text(json.dumps(table, indent=1) + "\n")
    print(f"wrote {OUT}: {table['per_train_step']} {table['per_eval_batch']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
