"""Which torch functions prove that a name passed to them first is a tensor: the op table's
``not_tensor_first`` list, read by tools/generate_torch_table.py from torch's documentation and ATen
schemas (it replaced a hand-written list that missed the window functions, ``polygamma`` and
``range``; reports32 found the gap as an XLA350 false alarm on ``torch.hann_window(n_fft)``).
"""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from xlacheck.analysis.torch_model import not_tensor_first, op_table
from xlacheck.engine import check_source

ROOT = Path(__file__).resolve().parents[2]

STEP = """
import torch
import torch_xla.core.xla_model as xm


def spectral_loss(pred, target, {param}):
    window = {call}
    loss = (pred - target).abs().mean() * window.sum()
    print("window size", {param})
    return loss


def train(model, loader, opt, device):
    for wav, target in loader:
        opt.zero_grad()
        loss = spectral_loss(model(wav.to(device)), target.to(device), 1024)
        loss.backward()
        opt.step()
        xm.mark_step()
"""


@pytest.mark.parametrize("call", [
    "torch.hann_window(n_fft, device=pred.device)", "torch.kaiser_window(n_fft)", "torch.zeros(n_fft)",
    "torch.arange(n_fft, device=pred.device)", "torch.eye(n_fft)",
])
def test_a_size_passed_to_a_factory_or_window_is_not_a_tensor(call: str) -> None:
    src = textwrap.dedent(STEP.format(param="n_fft", call=call))
    found = [(d.line, d.code) for d in check_source(src, "t.py", torch_xla=True).diagnostics]
    assert found == [], found


def test_a_name_passed_first_to_an_op_on_tensors_still_is_one() -> None:
    src = textwrap.dedent(STEP.format(param="scale", call="torch.exp(scale) * pred.new_ones(4)"))
    found = [(d.line, d.code) for d in check_source(src, "t.py", torch_xla=True).diagnostics]
    assert (9, "XLA350") in found, found  # print of a tensor in the step: a host read


def test_the_list_holds_what_the_documentation_types_as_no_tensor() -> None:
    listed = not_tensor_first()
    assert {"torch.zeros", "torch.hann_window", "torch.cat", "torch.stack", "torch.einsum", "torch.polygamma",
            "torch.linspace", "torch.as_tensor", "torch.range"} <= listed
    assert not {"torch.add", "torch.exp", "torch.where", "torch.matmul", "torch.normal", "torch.full_like"} & listed
    assert listed <= set(op_table()["ops"])


def test_the_list_agrees_with_torch(tmp_path: Path) -> None:
    torch_python = os.environ.get("XLACHECK_TORCH_XLA_PYTHON") or ""
    python = torch_python if torch_python and Path(torch_python).exists() else None
    if python is None:
        pytest.importorskip("torch")
        import sys
        python = sys.executable
    script = ("import json, sys; sys.path.insert(0, sys.argv[1]); import torch, generate_torch_table as g; "
              "print(json.dumps(g.not_tensor_first(torch, json.load(open(sys.argv[2])))))")
    ops = tmp_path / "ops.json"
    ops.write_text(json.dumps(sorted(op_table()["ops"])))
    proc = subprocess.run([python, "-c", script, str(ROOT / "tools"), str(ops)], check=True, timeout=300,
                          capture_output=True, text=True, env={**os.environ, "PJRT_DEVICE": "CPU"})
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == op_table()["not_tensor_first"]
