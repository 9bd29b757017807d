"""Generate xlacheck/data/torch_xla_pools.json: which (input size, output size) pairs of torch's adaptive
pools torch_xla lowers and which fall back to the CPU.

One command (needs torch and torch_xla; xlacheck itself never imports them):

    PJRT_DEVICE=CPU nice python tools/generate_torch_pool_table.py
    python tools/generate_torch_pool_table.py --check --sample 24  # re-measures a sample (exit 1: stale)

Each probe runs one adaptive pool on the XLA device, forward and backward (as a training step does),
on a square map (`(1, 2, n, n)`; `(1, 2, n)` for the 1-d pools) of side `n` in INPUTS pooled to side
`m` in OUTPUTS, and records whether an `aten::` counter of ``torch_xla.debug.metrics`` moved (the op or
its backward ran in ATen on the CPU: ``fallback``) or not (``lowered``). XLA352 reads the rows: an
adaptive pool to a literal size that falls back for every usual feature-map side the table measured
(powers of two and 7 * 2^k) is reported, the input's size being unknown statically.
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
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "torch_xla_pools.json"
COMMAND = "PJRT_DEVICE=CPU python tools/generate_torch_pool_table.py"
POOLS = ("adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool1d", "adaptive_max_pool2d")
INPUTS = tuple(range(1, 17)) + (24, 28, 32, 56, 64)
OUTPUTS = tuple(range(1, 11)) + (12, 14, 16)

_WORKER = r'''
import json, sys, warnings
warnings.filterwarnings("ignore")
import torch, torch_xla
import torch.nn.functional as F
import torch_xla.debug.metrics as met
device = torch_xla.device()
probes = json.loads(open(sys.argv[1]).read())

def aten():
    return {n: met.counter_value(n) for n in met.counter_names() if n.startswith("aten::")
            and n != "aten::_local_scalar_dense"}

out = {}
for pool, n, m in probes:
    rank = 1 if pool.endswith("1d") else 2
    x = torch.randn(*((1, 2) + (n,) * rank)).to(device).requires_grad_(True)
    torch_xla.sync()
    before = aten()
    try:
        y = getattr(F, pool)(x, m)
        (y[0] if isinstance(y, tuple) else y).sum().backward()
        torch_xla.sync()
        after = aten()
        moved = sorted(k for k in after if after[k] != before.get(k, 0))
        out[f"{pool}:{n}->{m}"] = {"status": "fallback" if moved else "lowered", "aten": moved, "error": None}
    except Exception as exc:  # recorded, never guessed
        out[f"{pool}:{n}->{m}"] = {"status": None, "aten": [], "error": f"{type(exc).__name__}: {exc}"[:160]}
        try:
            torch_xla.sync()
        except Exception:
            pass
print(json.dumps({"torch": torch.__version__, "torch_xla": torch_xla.__version__, "rows": out}))
'''


def all_probes() -> list[tuple[str, int, int]]:
    return [(pool, n, m) for pool in POOLS for n in INPUTS for m in OUTPUTS if m <= n]


def run_probes(python: str, probes: list[tuple[str, int, int]], scratch: Path) -> dict:
    spec, worker = scratch / "probes.json", scratch / "worker.py"
    spec.write_text(json.dumps(probes))
    worker.write_text(_WORKER)
    proc = subprocess.run([python, str(worker), str(spec)], check=True, capture_output=True, text=True,
                          env={**os.environ, "PJRT_DEVICE": "CPU"}, timeout=3600)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def build(got: dict) -> dict:
    return {"command": COMMAND, "generated": dt.date.today().isoformat(), "device": "PJRT_DEVICE=CPU",
            "torch": got["torch"], "torch_xla": got["torch_xla"], "schema": 1,
            "probe": "F.<pool>(x, m) on a (1, 2, n, n) map ((1, 2, n) for 1-d), forward and backward",
            "inputs": list(INPUTS), "outputs": list(OUTPUTS), "rows": dict(sorted(got["rows"].items()))}


def check_table(python: str, path: Path, sample: int) -> int:
    import tempfile

    table = json.loads(path.read_text())
    groups: dict[str, list[str]] = {}
    for key, row in table["rows"].items():
        groups.setdefault(str(row["status"]), []).append(key)
    keys = _table_check.spread_sample(groups, sample) if sample else sorted(table["rows"])
    probes = [(k.split(":")[0], int(k.split(":")[1].split("->")[0]), int(k.split("->")[1])) for k in keys]
    with tempfile.TemporaryDirectory() as tmp:
        fresh = run_probes(python, probes, Path(tmp))
    differences = [line for k in keys if (line := _table_check.difference(
        f"{k} status", table["rows"][k]["status"], fresh["rows"].get(k, {}).get("status")))]
    for key in ("torch", "torch_xla"):
        if (line := _table_check.difference(key, table[key], fresh[key])):
            differences.append(line)
    return _table_check.report("generate_torch_pool_table", len(keys) + 2, differences,
                               f"torch {fresh['torch']}, torch_xla {fresh['torch_xla']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", default=sys.executable, help="a Python with torch and torch_xla")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true", help="re-measure and compare with --out")
    ap.add_argument("--sample", type=int, default=0, help="with --check: re-measure N rows (0: all)")
    args = ap.parse_args(argv)
    if (status := _table_check.gate("generate_torch_pool_table", "torch_xla", args.python, args.check,
                                    lambda: check_table(args.python, args.out, args.sample))) is not None:
        return status
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        table = build(run_probes(args.python, all_probes(), Path(tmp)))
    args.out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    falls = sum(r["status"] == "fallback" for r in table["rows"].values())
    print(f"wrote {args.out}: {len(table['rows'])} (pool, input, output) probes, {falls} fall back")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
