"""Generate xlacheck/data/torch_xla_recompile.json: which per-step variations make torch_xla compile again.

One command (needs torch and torch_xla; xlacheck itself never imports them):

    PJRT_DEVICE=CPU nice python tools/generate_torch_recompile_table.py
    python tools/generate_torch_recompile_table.py --check [--sample N]  # reruns a sample, compares (exit 1: stale)

Each probe is a small step function ``step(x, v)`` run on the XLA device the way a training loop
runs it: three warm steps with the first value, then one step with each other value, a
``torch_xla.sync()`` after each. The count of ``CompileTime`` samples (``torch_xla.debug.metrics``)
taken during each later step is recorded (each probe in a fresh process, so no graph of another
probe is in the compilation cache); ``recompiles`` is true when any later step compiled.
``x`` is a device tensor; ``v`` is what varies per step (a Python int, a float, a list, the input's
own shape ...), as the ``varies`` field says. The rules (XLA450, XLA451, XLA561) read the probes
by name through ``xlacheck.analysis.torch_model.recompiles``;
``--check`` reruns a sample against torch_xla (``tests/xlacheck/test_torch_recompile_table.py`` calls it).
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
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "torch_xla_recompile.json"
COMMAND = "PJRT_DEVICE=CPU python tools/generate_torch_recompile_table.py"

# name -> (what varies, the step's body as source: `x` is the device input, `v` the varying value; it
# returns a tensor), the value per step (the first is the warm value, used three times), and how
# the input is built: "fixed" (x is (8, 16) every step) or "shape" (v is x's shape: x = randn(*v)).
PROBES: dict[str, tuple[str, str, list, str]] = {
    "batch_dim": ("the input's batch dimension (a last partial batch)", "return (x * 2).sum(1)",
                  [(8, 16), (5, 16), (3, 16)], "shape"),
    "sequence_length": ("the input's sequence length (padding to the longest of each batch)",
                        "return (x * 2).sum(1)", [(4, 16), (4, 12), (4, 20)], "shape"),
    "same_shape_new_values": ("only the input's values (a fixed-shape batch)", "return (x * 2).sum(1)",
                              [(8, 16), (8, 16), (8, 16)], "shape"),
    "float_scalar": ("a Python float multiplied in (a learning rate, a schedule)", "return x * v",
                     [0.5, 0.7, 0.9], "fixed"),
    "float_scalar_reaches_one": ("a Python float that reaches 1.0 (a warm-up factor)", "return x * v",
                                 [0.5, 0.7, 1.0], "fixed"),
    "float_scalar_reaches_zero": ("a Python float that reaches 0.0 (a decayed weight)", "return x * v",
                                  [0.5, 0.7, 0.0], "fixed"),
    "int_scalar_multiplied": ("a Python int multiplied in", "return x * v", [2, 3, 5], "fixed"),
    "int_in_factory_size": ("a Python int as a factory's size", "return torch.zeros(v, device=x.device) + x.sum()",
                            [4, 5, 6], "fixed"),
    "int_in_arange": ("a Python int as torch.arange's end", "return torch.arange(v, device=x.device) * x.sum()",
                      [4, 5, 6], "fixed"),
    "int_fill_value": ("a Python int as torch.full's fill value (the size fixed)",
                       "return torch.full((4,), v, device=x.device) + x.sum()", [2, 3, 5], "fixed"),
    "int_slice_offset": ("a Python int slice offset, constant length (a random crop)", "return x[:, v:v + 4]",
                         [0, 2, 5], "fixed"),
    "int_slice_length": ("a Python int slice end (truncation to a per-batch length)", "return x[:, :v]",
                         [4, 6, 9], "fixed"),
    "int_index": ("a Python int index (a decode position, a schedule's step index)", "return x[:, v]",
                  [1, 2, 3], "fixed"),
    "device_index_tensor": ("an index held in a device tensor (index_select)",
                            "return x.index_select(1, torch.tensor([v], device=x.device))", [1, 2, 3], "fixed"),
    "int_in_view": ("a Python int in view", "return x.view(v, -1)", [2, 4, 8], "fixed"),
    "int_in_reshape": ("a Python int in reshape", "return x.reshape(-1, v)", [4, 8, 2], "fixed"),
    "int_in_narrow_start": ("a Python int start of narrow (constant length)", "return x.narrow(1, v, 4)",
                            [0, 3, 6], "fixed"),
    "int_split_size": ("a Python int split size", "return torch.stack([c.sum() for c in torch.split(x, v, 1)])",
                       [4, 8, 2], "fixed"),
    "int_split_sections": ("a list of Python ints as split sections (per-example lengths)",
                           "return torch.stack([c.sum() for c in torch.split(x, v, 1)])",
                           [[4, 12], [7, 9], [10, 6]], "fixed"),
    "int_chunk_count": ("a Python int chunk count", "return torch.stack([c.sum() for c in x.chunk(v, 0)])",
                        [2, 4, 8], "fixed"),
    "int_in_repeat": ("a Python int in repeat", "return x.repeat(v, 1)", [1, 2, 3], "fixed"),
    "int_in_expand": ("a Python int in expand", "return x[:1].expand(v, 16)", [2, 3, 4], "fixed"),
    "int_in_pad": ("a Python int pad amount (F.pad to a per-batch length)",
                   "return torch.nn.functional.pad(x, (0, v))", [1, 2, 3], "fixed"),
    "loop_count": ("a Python int loop count over tensor ops (micro-batches, chunks)",
                   "y = x[0]\nfor i in range(v):\n    y = y * 2 + x[i]\nreturn y", [2, 3, 4], "fixed"),
    "size_from_varying_input": ("torch.Size from .shape of an input whose shape varies",
                                "return torch.zeros(x.shape, device=x.device) + x", [(8, 16), (6, 16), (4, 16)],
                                "shape"),
    "size_from_fixed_input": ("torch.Size from .shape of a fixed-shape input",
                              "return torch.zeros(x.shape, device=x.device) + x", [(8, 16), (8, 16), (8, 16)],
                              "shape"),
    "tensor_from_list_new_length": ("torch.tensor of a list whose length changes",
                                    "return torch.tensor(v, device=x.device).float().sum() + x.sum()",
                                    [[1, 2], [1, 2, 3], [1, 2, 3, 4]], "fixed"),
    "tensor_from_list_same_length": ("torch.tensor of a list whose values change, not its length",
                                     "return torch.tensor(v, device=x.device).float().sum() + x.sum()",
                                     [[1, 2, 3], [4, 5, 6], [7, 8, 9]], "fixed"),
    "cat_varying_count": ("torch.cat of a varying number of tensors (packing examples)",
                          "return torch.cat([x[i] for i in range(v)])", [2, 3, 4], "fixed"),
    "cat_fixed_count": ("torch.cat of a fixed number of tensors whose values change",
                        "return torch.cat([x[i] * v for i in range(3)])", [0.5, 0.7, 0.9], "fixed"),
    # sizes set by other arguments than a factory's or a view's (multi-scale resizing, pooling grids,
    # random shifts, permutations, band masks, top-k): does a new value compile a new graph?
    "int_in_interpolate_size": ("a Python int as F.interpolate's size (multi-scale training)",
                                "return torch.nn.functional.interpolate(x[None, None], size=(v, v), mode='bilinear', "
                                "align_corners=False)", [8, 10, 12], "fixed"),
    "float_interpolate_scale_factor": ("a Python float as F.interpolate's scale_factor (a random zoom)",
                                       "return torch.nn.functional.interpolate(x[None, None], scale_factor=v, "
                                       "mode='nearest')", [0.5, 0.75, 1.5], "fixed"),
    "float_interpolate_scale_factor_same_size": ("a Python float scale_factor whose output size stays the same",
                                                 "return torch.nn.functional.interpolate(x[None, None], "
                                                 "scale_factor=v, mode='nearest')", [0.5, 0.52, 0.55], "fixed"),
    "int_in_adaptive_pool_output_size": ("a Python int as an adaptive pool's output size",
                                         "return torch.nn.functional.adaptive_avg_pool2d(x[None], v)", [1, 2, 4],
                                         "fixed"),
    "int_roll_shift": ("a Python int as torch.roll's shift (a random time shift)", "return torch.roll(x, v, 1)",
                       [1, 3, 5], "fixed"),
    "int_in_randperm": ("a Python int as torch.randperm's n",
                        "return torch.randperm(v, device=x.device).float().sum() + x.sum()", [4, 5, 6], "fixed"),
    "int_tril_diagonal": ("a Python int as torch.tril's diagonal (a band mask)", "return torch.tril(x, v)",
                          [1, 2, 3], "fixed"),
    "int_topk_k": ("a Python int as topk's k", "return x.topk(v, 1).values", [2, 3, 4], "fixed"),
    # gradient accumulation with a sync after every micro-batch: backward every call, the optimizer
    # update (AdamW, then zero_grad) only on the calls where v is true (`step % n == 0`)
    "optimizer_step_every_n_calls": (
        "whether this call also runs the optimizer update (gradient accumulation, a sync per micro-batch)",
        "st = globals().setdefault('st', {})\n"
        "if not st:\n"
        "    st['w'] = torch.zeros(16, 4, device=x.device, requires_grad=True)\n"
        "    st['opt'] = torch.optim.AdamW([st['w']], lr=1e-3)\n"
        "loss = (x @ st['w']).square().mean()\n"
        "loss.backward()\n"
        "if v:\n"
        "    st['opt'].step()\n"
        "    st['opt'].zero_grad()\n"
        "return loss.detach()",
        [False, True, False, False, False, True, False, False, False, True], "fixed"),
}

_WORKER = r'''
import json, sys
import torch, torch_xla
import torch_xla.debug.metrics as met
device = torch_xla.device()
probes = json.loads(open(sys.argv[1]).read())
out = {}
def compiles():
    data = met.metric_data("CompileTime")
    return data[0] if data else 0
for name, (varies, body, values, kind) in probes.items():
    src = "def step(x, v):\n" + "".join("    " + line + "\n" for line in body.splitlines())
    scope = {"torch": torch}
    exec(src, scope)
    step = scope["step"]
    g = torch.Generator().manual_seed(0)
    def make(v):
        return torch.randn(*(v if kind == "shape" else (8, 16)), generator=g).to(device)
    per_step = []
    try:
        for i, v in enumerate([values[0]] * 3 + values[1:]):
            x = make(v)
            torch_xla.sync()
            before = compiles()
            y = step(x, None if kind == "shape" else v)  # kept alive: sync executes live tensors only
            torch_xla.sync()
            del y
            per_step.append(compiles() - before)
        out[name] = {"warm": per_step[:3], "later": per_step[3:], "error": None}
    except Exception as exc:  # recorded, never guessed
        out[name] = {"warm": per_step[:3], "later": per_step[3:], "error": f"{type(exc).__name__}: {exc}"[:200]}
print(json.dumps({"torch": torch.__version__, "torch_xla": torch_xla.__version__, "results": out}))
'''


def run_probes(python: str, names: list[str], scratch: Path) -> dict:
    """Run the named probes in a fresh torch_xla process (``python``); its JSON answer."""
    spec = scratch / "probes.json"
    spec.write_text(json.dumps({n: PROBES[n] for n in names}))
    worker = scratch / "worker.py"
    worker.write_text(_WORKER)
    proc = subprocess.run([python, str(worker), str(spec)], check=True, capture_output=True, text=True,
                          env={**os.environ, "PJRT_DEVICE": "CPU"}, timeout=900)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def check_table(python: str, path: Path, sample: int) -> int:
    """Rerun a sample of the probes (each in a fresh process, as the full run does) and compare their
    verdicts, and every probe's code, with the file. Exit status 1 when stale."""
    import tempfile

    table = json.loads(path.read_text())
    probes = table["probes"]
    differences = [line for name, (varies, body, values, kind) in json.loads(json.dumps(PROBES)).items()
                   if (line := _table_check.difference(f"{name} (its code)", {k: probes.get(name, {}).get(k) for k in
                                                        ("varies", "step", "values", "input")},
                                                       {"varies": varies, "step": body, "values": values,
                                                        "input": kind}))]
    names = _table_check.spread_sample({str(v): [n for n, p in probes.items() if p["recompiles"] is v]
                                        for v in (True, False)}, sample)
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            got = run_probes(python, [name], Path(tmp))
            r = got["results"][name]
            measured = bool(sum(r["later"])) if r["error"] is None else None
            if (line := _table_check.difference(f"{name} recompiles", probes[name]["recompiles"], measured)):
                differences.append(line)
    versions = f"torch {got['torch']}, torch_xla {got['torch_xla']}" if names else "nothing sampled"
    for key in ("torch", "torch_xla"):
        if names and (line := _table_check.difference(key, table[key], got[key])):
            differences.append(line)
    return _table_check.report("generate_torch_recompile_table", len(PROBES) + len(names), differences, versions)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", default=sys.executable, help="a Python with torch and torch_xla")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true", help="rerun a sample of the probes and compare with --out")
    ap.add_argument("--sample", type=int, default=4, help="with --check: how many probes to rerun")
    ap.add_argument("--only", default="", help="comma list of probe names: run only these and merge them "
                                                "into --out (the other rows are kept)")
    args = ap.parse_args(argv)
    if (status := _table_check.gate("generate_torch_recompile_table", "torch_xla", args.python, args.check,
                                    lambda: check_table(args.python, args.out, args.sample))) is not None:
        return status
    import tempfile

    got: dict = {"results": {}}
    only = [n for n in args.only.split(",") if n]
    if unknown := [n for n in only if n not in PROBES]:
        ap.error(f"--only: no probe named {', '.join(unknown)}")
    old = json.loads(args.out.read_text()) if only and args.out.exists() else None
    with tempfile.TemporaryDirectory() as tmp:
        for name in only or PROBES:  # one process per probe: no graph another probe compiled is in the cache
            one = run_probes(args.python, [name], Path(tmp))
            got["torch"], got["torch_xla"] = one["torch"], one["torch_xla"]
            got["results"].update(one["results"])
    table = {
        "generated_by": COMMAND,
        "generated_at": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d"),
        "torch": got["torch"], "torch_xla": got["torch_xla"], "device": "PJRT_DEVICE=CPU",
        "protocol": "3 warm steps with the first value, then one step per other value, torch_xla.sync() after "
                    "each; `later` counts CompileTime samples in each later step",
        "probes": {},
    }
    for name, (varies, body, values, kind) in PROBES.items():
        if name not in got["results"]:
            table["probes"][name] = old["probes"][name]  # --only: a row this run did not measure again
            continue
        r = got["results"][name]
        table["probes"][name] = {"varies": varies, "step": body, "values": values, "input": kind,
                                 "warm": r["warm"], "later": r["later"], "error": r["error"],
                                 "recompiles": bool(sum(r["later"])) if r["error"] is None else None}
    args.out.write_text(json.dumps(table, indent=1, sort_keys=False) + "\n")
    print(f"wrote {args.out}: " + ", ".join(f"{n}={'yes' if p['recompiles'] else 'no'}"
                                            for n, p in table["probes"].items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
