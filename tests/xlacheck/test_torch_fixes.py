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


def _run(python: str, source: str, tmp_path: Path, name: str) -> dict:
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    env = {**os.environ, "PJRT_DEVICE": "CPU", "USE_TORCH_XLA": "1"}
    proc = subprocess.run([python, str(path)], env=env, capture_output=True, text=True, timeout=600, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(("line", "fixed_line"), CASES)
def test_xla553_fix_is_equal_and_drops_the_per_step_transfer(line: str, fixed_line: str, tmp_path: Path) -> None:
    python = _torch_xla_python()
    original = textwrap.dedent(_PROGRAM).replace("{line}", line)
    found = [d for d in check_source(original, "train.py").diagnostics if d.code == "XLA553"]
    assert len(found) == 1 and found[0].fix is not None
    fixed = apply_edits(original, found[0].fix.edits)
    assert fixed == original.replace(line, fixed_line)
    assert not [d for d in check_source(fixed, "train.py").diagnostics if d.code == "XLA553"]
    before = _run(python, original, tmp_path, "original")
    after = _run(python, fixed, tmp_path, "fixed")
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
    before = _run(python, original, tmp_path, "original")
    after = _run(python, fixed, tmp_path, "fixed")
    assert before["nonzero"] > 0 and after["nonzero"] == 0  # the fallback is gone
    for a, b in zip(before["out"], after["out"], strict=True):
        assert _close(a["loss"], b["loss"]), (a, b)
        assert all(_close(g, h) for g, h in zip(a["grad"], b["grad"], strict=True)), (a, b)
