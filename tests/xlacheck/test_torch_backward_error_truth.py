"""XLA351's backward errors against torch_xla: the table's backward probes recorded ``xla_error`` for
``torch.logdet``, ``torch.slogdet`` and ``torch.linalg.slogdet`` (the forward lowers, the backward raises on
the XLA device where the CPU runs it). The rule's examples about them run here, one training step each, on
the XLA device and on the CPU: the flagged ones raise on XLA only, the valid ones run on both, and xlacheck
flags exactly the ones that raise. Run in a Python that has torch_xla (skipped without one, as the other
torch_xla tests are)."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.xlacheck.test_torch import _torch_xla_python
from xlacheck.engine import check_source
from xlacheck.rules.torch_op_without_lowering import TorchOpWithoutLowering

# One training step of each example's ``train`` (argv[3:]: file, how to call it), on the device named by
# argv[1]; prints a JSON list of "ok" or the exception's class and first line, one per example.
_HARNESS = r"""
import json, sys
import torch, torch_xla
import torch.nn as nn
device = torch_xla.device() if sys.argv[1] == "xla" else torch.device("cpu")  # before any CPU autograd


def step(source, kind):
    namespace = {}
    exec(compile(source, "example.py", "exec"), namespace)
    torch.manual_seed(0)
    if kind == "flow":
        model = namespace["InvConv"](3).to(device)
        args = [[torch.randn(2, 3, 4, 4).to(device)]]
    else:
        model = nn.Linear(3, 16).to(device)
        args = [[(torch.randn(2, 3).to(device), torch.randn(2).to(device))]]
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    try:
        namespace["train"](model, *args, opt, *([[]] if kind == "logged" else []))
        torch_xla.sync()
        return "ok"
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"


pairs = sys.argv[2:]
print(json.dumps([step(open(pairs[i]).read(), pairs[i + 1]) for i in range(0, len(pairs), 2)]))
"""

# (example id, how the harness calls its ``train``)
EXAMPLES = (("invalid-8", "loss"), ("invalid-9", "flow"), ("valid-7", "logged"), ("valid-8", "loss"))


def _example(name: str) -> str:
    kind, number = name.split("-")
    examples = TorchOpWithoutLowering.INVALID if kind == "invalid" else TorchOpWithoutLowering.VALID
    return examples[int(number) - 1].code


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    """{device: {example id: outcome}}: one process per device runs every example's step."""
    python = _torch_xla_python()
    folder = tmp_path_factory.mktemp("backward_errors")
    harness = folder / "harness.py"
    harness.write_text(_HARNESS)
    pairs: list[str] = []
    for name, kind in EXAMPLES:
        (folder / f"{name}.py").write_text(_example(name))
        pairs += [str(folder / f"{name}.py"), kind]
    env = {**os.environ, "PJRT_DEVICE": "CPU"}
    out: dict[str, dict[str, str]] = {}
    for device in ("cpu", "xla"):
        proc = subprocess.run([python, str(harness), device, *pairs], env=env, capture_output=True, text=True,
                              timeout=900, check=True)
        results = json.loads(proc.stdout.strip().splitlines()[-1])
        out[device] = dict(zip((name for name, _ in EXAMPLES), results))
    return out


@pytest.mark.torch_xla
@pytest.mark.parametrize("name", [name for name, _ in EXAMPLES])
def test_backward_error_examples_against_torch_xla(name: str, outcomes: dict[str, dict[str, str]]) -> None:
    source = _example(name)
    assert outcomes["cpu"][name] == "ok"  # the CPU runs forward and backward
    on_xla = outcomes["xla"][name]
    flagged = [d for d in check_source(source, "example.py").diagnostics
               if d.code == "XLA351" and "backward raises" in d.message]
    assert bool(flagged) == name.startswith("invalid"), flagged
    assert (on_xla != "ok") == bool(flagged), on_xla
    if flagged:
        assert on_xla.startswith("RuntimeError: "), on_xla


_STEP = """
import torch
import torch_xla


def train(model, loader, opt, log):
    for x, y in loader:
        a = model(x).view(-1, 4, 4)
        cov = a @ a.transpose(1, 2) + torch.eye(4, device=a.device)
        {line}
        loss.backward()
        opt.step()
        torch_xla.sync()
"""


def _backward_errors(line: str) -> list[int]:
    source = _STEP.replace("{line}", line.replace("\n", "\n        "))
    return [d.line for d in check_source(source, "t.py").diagnostics
            if d.code == "XLA351" and "backward raises" in d.message]


@pytest.mark.parametrize(("line", "flagged"), [
    # the method shares the function's backward; the named-tuple field and a list of loss terms carry the result
    ("loss = a.sum() + cov.logdet().mean()", True),
    ("terms = [a.sum()]\nterms.append(torch.linalg.slogdet(cov).logabsdet.sum())\nloss = sum(terms)", True),
    ("sign, logabsdet = torch.slogdet(cov)\nloss = logabsdet.mean() + a.sum()", True),
    # read to the host or detached for logging: the backward pass never reaches its backward
    ("log(float(torch.logdet(cov).mean()))\nloss = a.sum()", False),
    ("log(torch.logdet(cov).detach())\nloss = a.sum()", False),
    ("with torch.no_grad():\n    d = torch.logdet(cov)\nloss = a.sum() * d.mean()", False),
])
def test_backward_error_follows_the_result_to_the_loss(line: str, flagged: bool) -> None:
    assert bool(_backward_errors(line)) == flagged
