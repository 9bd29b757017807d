"""Generate xlacheck/data/torch_xla_host.json: library calls that read a torch_xla tensor back to the host.

One command (needs torch and torch_xla; xlacheck itself never imports them):

    PJRT_DEVICE=CPU nice python tools/generate_torch_host_table.py
    python tools/generate_torch_host_table.py --check  # reruns every probe, compares (exit 1: stale)

Each probe runs one library call on the XLA device the way a training step makes it: the tensor it
is handed is computed lazily in the step (not synced), the call runs, and the probe records what
``torch_xla.debug.metrics`` counted during the call alone: ``TransferFromDeviceTime`` samples (a
device-to-host copy) and the ``aten::_local_scalar_dense`` counter (a ``.item()``-style read).
``reads`` is true when either moved. Three sections:

* ``sinks``: logging and progress calls handed a device tensor (``SummaryWriter.add_scalar(tag,
  loss, step)``); ``argument`` names the parameter that held the tensor and ``position`` its
  place after ``self``. XLA350 reads them: the call, on an object the file builds from that class,
  with a proven tensor in that argument, is a host read inside the step.
* ``optimizers``: every ``torch.optim.Optimizer`` subclass in ``torch.optim`` (and
  ``torch.nn.utils.clip_grad_norm_`` with and without ``error_if_nonfinite``), stepped three times
  on an ``nn.Linear`` on the XLA device; the third ``step()`` is measured (``reads_per_step``: the
  ``_local_scalar_dense`` count; ``LBFGS`` with ``max_iter=2`` and a closure, an optimizer that
  rejects the probe's parameters, ``SparseAdam``/``Muon``, is recorded with its error).
  XLA350 reads them: ``opt.step()`` in a step, where the file
  builds ``opt`` from a class that reads, is a host read at every step.
* ``functions``: Python and NumPy functions handed a device tensor (``math.isnan(loss)``,
  ``str(t)``, ``range(n)`` of an integer tensor, ``"%.3f" % loss``, ``"{}".format(loss)``); a row
  that raised (NumPy on an XLA tensor: a TypeError, not a read) or read nothing is kept with its
  verdict. XLA350 reads the rows that read: such a call on a proven tensor in step code.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _table_check  # noqa: E402  (tools/ is not a package)

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "torch_xla_host.json"
COMMAND = "PJRT_DEVICE=CPU python tools/generate_torch_host_table.py"

# qualified name of the method -> (the argument handed the tensor, its position after self, how the
# object is built, the call: `w` is the object, `t` a lazily computed scalar tensor, `v` a vector)
SINKS: dict[str, tuple[str, int, str, str]] = {
    "torch.utils.tensorboard.SummaryWriter.add_scalar": (
        "scalar_value", 1, "SummaryWriter(tmp)", "w.add_scalar('loss', t, 0)"),
    "torch.utils.tensorboard.SummaryWriter.add_scalars": (
        "tag_scalar_dict", 1, "SummaryWriter(tmp)", "w.add_scalars('run', {'loss': t}, 0)"),
    "torch.utils.tensorboard.SummaryWriter.add_histogram": (
        "values", 1, "SummaryWriter(tmp)", "w.add_histogram('weights', v, 0)"),
    "tqdm.tqdm.set_postfix": ("kwargs", -1, "tqdm.tqdm(total=3, file=io.StringIO())", "w.set_postfix(loss=t)"),
    "tqdm.tqdm.set_description": ("desc", 0, "tqdm.tqdm(total=3, file=io.StringIO())", "w.set_description(f'{t}')"),
}

# Python and NumPy functions (and the two str formatting operators) handed a device tensor in
# the step: name -> (the position of the tensor argument, the call: `t` is a lazily computed scalar
# float tensor, `i` a scalar integer one). Rows that read nothing are kept: the file says which do not.
FUNCTIONS: dict[str, tuple[int, str]] = {
    "math.isnan": (0, "math.isnan(t)"), "math.isinf": (0, "math.isinf(t)"),
    "math.isfinite": (0, "math.isfinite(t)"), "math.exp": (0, "math.exp(t)"), "math.log": (0, "math.log(t)"),
    "math.sqrt": (0, "math.sqrt(t)"), "math.floor": (0, "math.floor(t)"), "math.ceil": (0, "math.ceil(t)"),
    "numpy.isnan": (0, "numpy.isnan(t)"), "numpy.asarray": (0, "numpy.asarray(t)"),
    "numpy.array": (0, "numpy.array(t)"), "numpy.mean": (0, "numpy.mean(t)"),
    "builtins.str": (0, "str(t)"), "builtins.repr": (0, "repr(t)"), "builtins.format": (0, "format(t, '.3f')"),
    "builtins.range": (0, "range(i)"), "builtins.round": (0, "round(t)"), "builtins.abs": (0, "abs(t)"),
    "builtins.len": (0, "len(t.reshape(1))"),
    "str.__mod__": (1, "'loss %.3f' % t"), "str.format": (0, "'loss {}'.format(t)"),
}

_WORKER = r'''
import io, json, sys, tempfile, inspect
import torch, torch_xla, tqdm
import torch_xla.debug.metrics as met
from torch.utils.tensorboard import SummaryWriter
device = torch_xla.device()
spec = json.loads(open(sys.argv[1]).read())
tmp = tempfile.mkdtemp(prefix="xlacheck_host_")

def counts():
    transfers = met.metric_data("TransferFromDeviceTime")
    return (transfers[0] if transfers else 0, met.counter_value("aten::_local_scalar_dense") or 0)

def measure(run):
    torch_xla.sync()
    before = counts()
    run()
    after = counts()
    torch_xla.sync()
    return {"transfers": after[0] - before[0], "scalar_reads": after[1] - before[1]}

out = {"sinks": {}, "optimizers": {}}
for name, (argument, position, build, call) in spec["sinks"].items():
    w = eval(build)
    x = torch.randn(8, 4).to(device)
    torch_xla.sync()
    def run():
        t = (x * 2).sum()
        v = (x * 3).flatten()
        eval(call, {"w": w, "t": t, "v": v})
    try:
        out["sinks"][name] = {**measure(run), "error": None}
    except Exception as exc:  # recorded, never guessed
        out["sinks"][name] = {"transfers": None, "scalar_reads": None, "error": f"{type(exc).__name__}: {exc}"[:200]}

import math, numpy
out["functions"] = {}
for name, (position, call) in spec.get("functions", {}).items():
    x = torch.randn(8, 4).to(device)
    torch_xla.sync()
    def run():
        t = (x * 2).sum().abs() + 1.0
        i = (x * 2).sum().abs().long() + 1
        eval(call, {"t": t, "i": i, "math": math, "numpy": numpy})
    try:
        out["functions"][name] = {**measure(run), "error": None}
    except Exception as exc:  # recorded, never guessed
        out["functions"][name] = {"transfers": None, "scalar_reads": None,
                                  "error": f"{type(exc).__name__}: {exc}"[:200]}

def optimizers():
    for n in sorted(dir(torch.optim)):
        cls = getattr(torch.optim, n)
        if inspect.isclass(cls) and issubclass(cls, torch.optim.Optimizer) and cls is not torch.optim.Optimizer:
            yield "torch.optim." + n, cls

def probe_optimizer(name, cls):
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 3).to(device)
    x = torch.randn(8, 4).to(device)
    if cls is None:
        params = list(model.parameters())
        nonfinite = "error_if_nonfinite" in name
        step = lambda: torch.nn.utils.clip_grad_norm_(params, 1.0, error_if_nonfinite=nonfinite)
    else:
        extra = {"max_iter": 2} if cls.__name__ == "LBFGS" else {}  # its default 20 inner iterations take minutes
        opt = (cls(model.parameters(), lr=0.1, **extra) if "lr" in inspect.signature(cls).parameters
               else cls(model.parameters()))
        def closure():
            opt.zero_grad()
            loss = model(x).square().mean()
            loss.backward()
            return loss
        step = (lambda: opt.step(closure)) if cls.__name__ == "LBFGS" else (lambda: opt.step())
    rows = []
    for i in range(3):
        model.zero_grad()
        model(x).square().mean().backward()
        rows.append(measure(step))
    return rows[-1]

for name, cls in list(optimizers()) + [("torch.nn.utils.clip_grad_norm_", None),
                                        ("torch.nn.utils.clip_grad_norm_(error_if_nonfinite=True)", None)]:
    print(name, file=sys.stderr, flush=True)
    try:
        out["optimizers"][name] = {**probe_optimizer(name, cls), "error": None}
    except Exception as exc:  # recorded, never guessed
        out["optimizers"][name] = {"transfers": None, "scalar_reads": None,
                                   "error": f"{type(exc).__name__}: {exc}"[:200]}
print(json.dumps({"torch": torch.__version__, "torch_xla": torch_xla.__version__, **out}))
'''


def run_probes(python: str, scratch: Path) -> dict:
    """Run every probe in a fresh torch_xla process (``python``); its JSON answer."""
    spec = scratch / "probes.json"
    spec.write_text(json.dumps({"sinks": SINKS, "functions": FUNCTIONS}))
    worker = scratch / "worker.py"
    worker.write_text(_WORKER)
    proc = subprocess.run([python, str(worker), str(spec)], check=True, capture_output=True, text=True,
                          env={**os.environ, "PJRT_DEVICE": "CPU"}, timeout=900)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _verdict(r: dict) -> bool | None:
    if r["error"] is not None:
        return None
    return bool(r["transfers"] or r["scalar_reads"])


def build(got: dict) -> dict:
    sinks = {name: {"argument": argument, "position": position, "builds": build_, "call": call,
                    "transfers": got["sinks"][name]["transfers"], "scalar_reads": got["sinks"][name]["scalar_reads"],
                    "error": got["sinks"][name]["error"], "reads": _verdict(got["sinks"][name])}
             for name, (argument, position, build_, call) in SINKS.items()}
    optimizers = {name: {"transfers": r["transfers"], "reads_per_step": r["scalar_reads"], "error": r["error"],
                         "reads": _verdict(r)} for name, r in got["optimizers"].items()}
    functions = {name: {"position": position, "call": call, "transfers": got["functions"][name]["transfers"],
                        "scalar_reads": got["functions"][name]["scalar_reads"],
                        "error": got["functions"][name]["error"],
                        "reads": _verdict(got["functions"][name])}
                 for name, (position, call) in FUNCTIONS.items()}
    return {"command": COMMAND, "generated": dt.date.today().isoformat(), "device": "PJRT_DEVICE=CPU",
            "torch": got["torch"], "torch_xla": got["torch_xla"], "schema": 1, "sinks": sinks,
            "optimizers": optimizers, "functions": functions}


def check_table(python: str, path: Path) -> int:
    """Rerun every probe (one process, as the full run does) and compare the verdicts with the file."""
    import tempfile

    table = json.loads(path.read_text())
    table.setdefault("functions", {})
    with tempfile.TemporaryDirectory() as tmp:
        fresh = build(run_probes(python, Path(tmp)))
    differences = []
    for section in ("sinks", "optimizers", "functions"):
        for name in sorted(set(table[section]) | set(fresh[section])):
            keep = table[section].get(name, {}).get("reads"), fresh[section].get(name, {}).get("reads")
            if (line := _table_check.difference(f"{section}:{name} reads", *keep)):
                differences.append(line)
    for key in ("torch", "torch_xla"):
        if (line := _table_check.difference(key, table[key], fresh[key])):
            differences.append(line)
    checked = len(fresh["sinks"]) + len(fresh["optimizers"]) + len(fresh["functions"]) + 2
    return _table_check.report("generate_torch_host_table", checked, differences,
                               f"torch {fresh['torch']}, torch_xla {fresh['torch_xla']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", default=sys.executable, help="a Python with torch, torch_xla, tensorboard and tqdm")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true", help="rerun the probes and compare with --out")
    ap.add_argument("--sample", type=int, default=0, help="ignored: --check reruns every probe (one process)")
    args = ap.parse_args(argv)
    reason = _table_check.missing("torch_xla", args.python)
    if args.check:
        if reason:
            return _table_check.skipped("generate_torch_host_table", reason)
        return check_table(args.python, args.out)
    if reason:
        print(f"generate_torch_host_table: {reason}", file=sys.stderr)
        return 2
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        table = build(run_probes(args.python, Path(tmp)))
    args.out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    reads = [n for s in ("sinks", "optimizers") for n, r in table[s].items() if r["reads"]]
    print(f"wrote {args.out}: {len(table['sinks'])} sinks, {len(table['optimizers'])} optimizer steps; "
          f"read back: {', '.join(reads)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
