"""The torch rules' fixes, proven by torch_xla: the original and the fixed step run on the XLA
device (PJRT CPU) in a subprocess; their results must be equal and the fixed step must not have the
cost the rule claims (counted from ``torch_xla.debug.metrics``).

Skipped with the reason when no interpreter with torch_xla is available (see test_torch.py).
xlacheck itself never imports torch; the subprocess never imports TensorFlow.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from xlacheck.engine import check_source
from xlacheck.rewrites._fix import apply_edits


def _torch_xla_python() -> str:
    """This interpreter when it has torch_xla, else XLACHECK_TORCH_XLA_PYTHON (as in test_torch.py)."""
    if importlib.util.find_spec("torch_xla") is not None:
        return sys.executable
    other = os.environ.get("XLACHECK_TORCH_XLA_PYTHON")
    if other and Path(other).exists():
        return other
    pytest.skip("torch_xla is not installed here: install the [torch-xla] extra or set XLACHECK_TORCH_XLA_PYTHON")

# One training loop; {line} builds `extra` on the device inside the step. The loop counts the
# host-to-device transfers of each steady step and returns them with the trained weight.
_PROGRAM = '''
import json
import torch
import torch_xla
import torch_xla.debug.metrics as met


def train(w, xs):
    device = torch_xla.device()
    transfers = []
    for x in xs:
        before = met.metric_data("TransferToDeviceTime")
        {line}
        loss = ((x @ w) * extra).sum()
        loss.backward()
        with torch.no_grad():
            w -= 0.01 * w.grad
            w.grad = None
        torch_xla.sync()
        after = met.metric_data("TransferToDeviceTime")
        transfers.append((after[0] if after else 0) - (before[0] if before else 0))
    return w, transfers


if __name__ == "__main__":
    device = torch_xla.device()
    torch.manual_seed(0)
    w0 = torch.randn(8, 4).to(device).requires_grad_(True)
    xs = [torch.randn(4, 8).to(device) for _ in range(5)]
    torch_xla.sync()
    w, transfers = train(w0, xs)
    print(json.dumps({"w": w.detach().cpu().tolist(), "transfers": transfers[2:]}))
'''

CASES = [
    ("extra = torch.ones(4, 4).to(device)", "extra = torch.ones(4, 4, device=device)"),
    ("extra = torch.arange(4).to(device)", "extra = torch.arange(4, device=device)"),
    ("extra = torch.full((4, 4), 0.5).to(device)", "extra = torch.full((4, 4), 0.5, device=device)"),
    ("extra = torch.eye(4).to(device)", "extra = torch.eye(4, device=device)"),
]


# Runs each program as __main__ in one torch_xla process (one start-up instead of two), clearing
# torch_xla's metrics before each, and prints the last JSON line each program printed.
_DRIVER = '''
import contextlib, io, json, runpy, sys
import torch_xla.debug.metrics as met

results = []
for path in sys.argv[1:]:
    met.clear_all()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(path, run_name="__main__")
    results.append(json.loads(out.getvalue().strip().splitlines()[-1]))
print(json.dumps(results))
'''


def _run_both(python: str, original: str, fixed: str, tmp_path: Path) -> tuple[dict, dict]:
    """The original and the fixed program's results, run one after the other in one process."""
    paths = []
    for name, source in (("original", original), ("fixed", fixed)):
        paths.append(tmp_path / f"{name}.py")
        paths[-1].write_text(source)
    driver = tmp_path / "driver.py"
    driver.write_text(_DRIVER)
    env = {**os.environ, "PJRT_DEVICE": "CPU", "USE_TORCH_XLA": "1"}
    proc = subprocess.run([python, str(driver), *map(str, paths)], env=env, capture_output=True, text=True,
                          timeout=600, check=True)
    before, after = json.loads(proc.stdout.strip().splitlines()[-1])
    return before, after


@pytest.mark.parametrize(("line", "fixed_line"), CASES)
def test_xla553_fix_is_equal_and_drops_the_per_step_transfer(line: str, fixed_line: str, tmp_path: Path) -> None:
    python = _torch_xla_python()
    original = textwrap.dedent(_PROGRAM).replace("{line}", line)
    found = [d for d in check_source(original, "train.py", preview=True).diagnostics  # XLA553: --preview
             if d.code == "XLA553"]
    assert len(found) == 1 and found[0].fix is not None
    fixed = apply_edits(original, found[0].fix.edits)
    assert fixed == original.replace(line, fixed_line)
    assert not [d for d in check_source(fixed, "train.py", preview=True).diagnostics if d.code == "XLA553"]
    before, after = _run_both(python, original, fixed, tmp_path)
    assert before["w"] == after["w"]  # the same values, bit for bit
    assert all(n >= 1 for n in before["transfers"]), before["transfers"]  # an upload every steady step
    assert all(n == 0 for n in after["transfers"]), after["transfers"]  # built on the device: none


# XLA250: a boolean selection reduced at once. x holds NaN in rows the mask leaves out (and in
# elements `h > 0` is False for); the last batch selects nothing (sum 0, mean NaN in both versions).
_MASKED = '''
import json
import torch
import torch_xla
import torch_xla.debug.metrics as met


def step(w, x, m):
    h = x * w
    keep = m > 0.5
    {line}
    loss.backward()
    return loss


if __name__ == "__main__":
    device = torch_xla.device()
    torch.manual_seed(0)
    out = []
    for b in range(3):
        x = torch.randn(2, 3, 4)
        keep = torch.rand(2, 3) < 0.5 if b < 2 else torch.zeros(2, 3, dtype=torch.bool)
        x[~keep] = float("nan")
        w = torch.randn(4).to(device).requires_grad_(True)
        loss = step(w, x.to(device), keep.float().to(device))
        torch_xla.sync()
        out.append({"loss": loss.item(), "grad": w.grad.cpu().tolist()})
    print(json.dumps({"out": out, "nonzero": met.counter_value("aten::nonzero") or 0}))
'''

MASKED_CASES = [
    ("loss = h[keep].sum()", "loss = torch.where(keep.view(*keep.shape, *[1] * (h.dim() - keep.dim())), h, 0).sum()"),
    ("loss = h[keep].mean()", "loss = (torch.where(keep.view(*keep.shape, *[1] * (h.dim() - keep.dim())), h, 0).sum()"
                              " / (keep.view(*keep.shape, *[1] * (h.dim() - keep.dim()))).expand_as(h).sum())"),
    ("loss = h[h > 0].sum()", "loss = torch.where(h > 0, h, 0).sum()"),
    ("loss = h[h > 0].mean()", "loss = (torch.where(h > 0, h, 0).sum() / (h > 0).expand_as(h).sum())"),
]


def _close(a: float, b: float) -> bool:
    return (a != a and b != b) or abs(a - b) <= 1e-5 * max(1.0, abs(a))


@pytest.mark.parametrize(("line", "fixed_line"), MASKED_CASES)
def test_xla250_reduction_fix_is_equal_and_static(line: str, fixed_line: str, tmp_path: Path) -> None:
    python = _torch_xla_python()
    original = textwrap.dedent(_MASKED).replace("{line}", line)
    found = [d for d in check_source(original, "step.py", torch_xla=True).diagnostics if d.code == "XLA250"]
    assert len(found) == 1 and found[0].fix is not None
    fixed = apply_edits(original, found[0].fix.edits)
    assert fixed == original.replace(line, fixed_line)
    assert not [d for d in check_source(fixed, "step.py", torch_xla=True).diagnostics if d.code == "XLA250"]
    before, after = _run_both(python, original, fixed, tmp_path)
    assert before["nonzero"] > 0 and after["nonzero"] == 0  # the fallback is gone
    for a, b in zip(before["out"], after["out"], strict=True):
        assert _close(a["loss"], b["loss"]), (a, b)
        assert all(_close(g, h) for g, h in zip(a["grad"], b["grad"], strict=True)), (a, b)


# XLA350: a host read that only feeds a log line or a record, deferred to xm.add_step_closure.
# The original and the fixed training loop live in one program (the fixed one renamed
# train_fixed); hypothesis draws the weights and batches inside the subprocess and both loops run
# on each draw. Per loop: what it logged (prints captured, list records, writer calls), the weights,
# the device-to-host transfers while each step's Python ran (before its sync: the oracle's
# `transfers_in_step`) and the compiles of each step.
_LOGGED = '''
import torch
import torch_xla


def train(w, xs, ys, history, writer):
    device = torch_xla.device()
    for step, (x, y) in enumerate(zip(xs, ys)):
        before = _marks()
        pred = torch.matmul(x, w)
        loss = torch.nn.functional.mse_loss(pred, y)
        {line}
        loss.backward()
        with torch.no_grad():
            w -= 0.05 * w.grad
            w.grad = None
        in_step = _marks()
        torch_xla.sync()
        _record(before, in_step, _marks())
    return w
'''

_HARNESS = '''
import contextlib
import io
import json
import sys

import torch_xla.debug.metrics as met
from hypothesis import HealthCheck, given, settings, strategies as st

STEPS = []


def _marks():
    def n(name):
        d = met.metric_data(name)
        return d[0] if d else 0
    return n("TransferFromDeviceTime"), n("CompileTime")


def _record(before, in_step, after):
    STEPS.append({"in_step": in_step[0] - before[0], "compiles": after[1] - before[1]})


class Writer:
    def __init__(self):
        self.calls = []
        self.ema = 0.0
        self.tags = {}

    def add_scalar(self, tag, value, step):
        self.calls.append([tag, value, step])


def run(fn, w, xs, ys):
    device = torch_xla.device()
    STEPS.clear()
    history, writer, out = [], Writer(), io.StringIO()
    w = torch.tensor(w).to(device).requires_grad_(True)
    xs = [torch.tensor(x).to(device) for x in xs]
    ys = [torch.tensor(y).to(device) for y in ys]
    torch_xla.sync()
    with contextlib.redirect_stdout(out):
        w = fn(w, xs, ys, history, writer)
        torch_xla.sync()
    logged = {"printed": out.getvalue(), "history": history, "writer": writer.calls, "ema": writer.ema,
              "tags": writer.tags}
    return logged, w.detach().cpu().tolist(), list(STEPS)


RESULTS = []
floats = st.floats(-3, 3, width=32)
matrix = lambda r, c: st.lists(st.lists(floats, min_size=c, max_size=c), min_size=r, max_size=r)


@settings(max_examples=int(sys.argv[1]), deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(w=matrix(8, 1), xs=st.lists(matrix(4, 8), min_size=4, max_size=4),
       ys=st.lists(matrix(4, 1), min_size=4, max_size=4))
def compare(w, xs, ys):
    fixed = run(train_fixed, w, xs, ys)  # first: its graphs are not in the compile cache yet
    original = run(train, w, xs, ys)
    RESULTS.append({"original": original, "fixed": fixed})


if __name__ == "__main__":
    torch_xla.device()
    compare()
    print(json.dumps(RESULTS))
'''

LOGGED_CASES = [
    'print(f"step {step} loss {loss.item():.6f}")',
    "history.append(loss.item())",
    'writer.add_scalar("loss", loss.item(), step)',
    'history.append({"loss": float(loss), "step": step, "out": pred.sum(0).tolist()})',
    'print("pred", pred.detach().cpu().round(decimals=4).tolist(), step)',
    'print("pred", pred.detach().cpu().numpy().round(4), step)',
    "print(loss)",
    "writer.ema = 0.9 * writer.ema + 0.1 * loss.item()",
    'writer.tags[step] = f"{loss.item():.5f}"',
]


@pytest.mark.parametrize("line", LOGGED_CASES)
def test_xla350_step_closure_fix_logs_the_same_values_without_in_step_transfers(line: str, tmp_path: Path) -> None:
    python = _torch_xla_python()
    original = textwrap.dedent(_LOGGED).replace("{line}", line)
    found = [d for d in check_source(original, "train.py").diagnostics if d.code == "XLA350"]
    fixes = [d.fix for d in found if d.fix is not None]
    assert len(fixes) == 1 and fixes[0].applicability.value == "unsafe"
    fixed = apply_edits(original, fixes[0].edits)
    assert "import torch_xla.core.xla_model as xm\n" in fixed and "xm.add_step_closure(lambda " in fixed
    assert not [d for d in check_source(fixed, "train.py").diagnostics if d.code == "XLA350"]
    program = fixed.replace("def train(", "def train_fixed(") + original.split("import torch_xla\n", 1)[1] + _HARNESS
    path = tmp_path / "both.py"
    path.write_text(program)
    env = {**os.environ, "PJRT_DEVICE": "CPU", "USE_TORCH_XLA": "1"}
    proc = subprocess.run([python, str(path), "4"], env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    assert len(results) == 4
    assert len({json.dumps(r["original"][0]) for r in results}) > 1  # the draws log different values
    for r in results:
        (logged, w, steps), (logged_fixed, w_fixed, steps_fixed) = r["original"], r["fixed"]
        assert logged_fixed == logged  # the same values, in the same order, bit for bit
        assert w_fixed == w
        assert any(s["in_step"] > 0 for s in steps), steps  # the original reads inside every step
        assert all(s["in_step"] == 0 for s in steps_fixed), steps_fixed  # the fixed one never does
        assert all(s["compiles"] == 0 for s in steps[2:] + steps_fixed[2:])  # no recompiles in steady steps
    first_original, first_fixed = results[0]["original"][2], results[0]["fixed"][2]
    assert sum(s["compiles"] for s in first_fixed) <= sum(s["compiles"] for s in first_original)


# Which statements get the step-closure fix (lint only: no torch_xla needed). The loop syncs every
# iteration unless the case says otherwise.
_LOOP = '''import torch
import torch_xla
{imports}
def train(model, loader, opt, log, state):
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
{body}
        loss.backward()
        opt.step()
        {sync}
'''

REFUSED = [
    ("        if loss.item() > 10:\n            break", "torch_xla.sync()"),  # the branch needs the value now
    ("        acc = loss.item()\n        log(acc)", "torch_xla.sync()"),  # a local name: a lambda cannot bind it
    ('        print("big" if loss.item() > 1 else "small")', "torch_xla.sync()"),  # IfExp: its test is a truth test
    ("        print(loss.item() or step)", "torch_xla.sync()"),  # short-circuit: `step` would be evaluated always
    ("        print([loss.item() for _ in range(2)])", "torch_xla.sync()"),  # a comprehension
    ("        opt.consider(loss.item())", "torch_xla.sync()"),  # not a known sink: it may feed the step
    ("        print(loss.item())", "xm.optimizer_step(opt)"),  # the loop never syncs: the closure would wait
    ('        state["ema"] = 0.9 * state["ema"] + 0.1 * loss.item()\n        log(state)', "torch_xla.sync()"),
]


@pytest.mark.parametrize(("body", "sync"), REFUSED)
def test_xla350_offers_no_closure_where_the_rewrite_is_not_equal(body: str, sync: str) -> None:
    src = _LOOP.format(imports="import torch_xla.core.xla_model as xm", body=body, sync=sync)
    found = [d for d in check_source(src, "train.py").diagnostics if d.code == "XLA350"]
    assert found and all(d.fix is None for d in found), [d.fix for d in found]


def test_xla350_closure_keeps_the_call_as_written_and_reuses_a_guarded_alias() -> None:
    src = _LOOP.format(imports="try:\n    import torch_xla.core.xla_model as xla\nexcept ImportError:\n    xla = None",
                       body='        log.info(  # the loss\n            "loss %.3f", loss.item()\n        )',
                       sync="torch_xla.sync()")
    (diag,) = [d for d in check_source(src, "train.py").diagnostics if d.code == "XLA350"]
    assert diag.fix is not None and diag.fix.applicability.value == "unsafe"
    fixed = apply_edits(src, diag.fix.edits)
    assert fixed == src.replace('        log.info(  # the loss\n            "loss %.3f", loss.item()\n        )',
                                '        xla.add_step_closure(lambda log, loss: log.info(  # the loss\n'
                                '            "loss %.3f", loss.item()\n        ), args=(log, loss))')
