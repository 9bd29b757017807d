"""torch-prec25: facts measured on torch_xla that set PyTorch findings aside on real code.

The truth test runs tools/probe_torch_nested.py under a Python with torch_xla (this one, or
``XLACHECK_TORCH_XLA_PYTHON``) and checks that every constructor of ``NO_XLA_TORCH_CALLS`` still fails
there; the others pin what the analyzer does with the fact.
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

from xlacheck.analysis.tables import NO_XLA_TORCH_CALLS
from xlacheck.engine import check_source

ROOT = Path(__file__).resolve().parents[2]


def _torch_xla_python() -> str:
    if importlib.util.find_spec("torch_xla") is not None:
        return sys.executable
    other = os.environ.get("XLACHECK_TORCH_XLA_PYTHON")
    if other and Path(other).exists():
        return other
    pytest.skip("torch_xla is not installed here: install the [torch-xla] extra or set XLACHECK_TORCH_XLA_PYTHON")


def test_nested_constructors_fail_on_xla() -> None:
    done = subprocess.run([_torch_xla_python(), str(ROOT / "tools" / "probe_torch_nested.py")],
                          env={**os.environ, "PJRT_DEVICE": "CPU"}, capture_output=True, text=True, timeout=600,
                          check=True)
    got = json.loads(done.stdout.strip().splitlines()[-1])
    for name in NO_XLA_TORCH_CALLS:
        assert got[name] != "ok", (name, got)
    assert all(v != "ok" for k, v in got.items() if k != "versions"), got


NAVIT = textwrap.dedent("""\
    import torch
    import torch_xla
    from torch import nn


    class NaViT(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.proj = nn.Linear(dim, dim)

        def forward(self, images):
            lens = torch.tensor([i.shape[0] for i in images], device=images[0].device)
            tokens = torch.cat(images).split(lens.tolist())
            return self.proj(BUILD)


    def train(model, loader, opt):
        device = torch_xla.device()
        for images in loader:
            loss = model([i.to(device) for i in images]).sum()
            loss.backward()
            opt.step()
            torch_xla.sync()
    """)


def _codes(source: str) -> list[str]:
    return sorted(d.code for d in check_source(source, "navit.py", torch_xla=True).diagnostics)


@pytest.mark.parametrize("build", ["torch.nested.nested_tensor(list(tokens), layout=torch.jagged)",
                                   "torch.nested.as_nested_tensor(list(tokens))"])
def test_forward_building_a_nested_tensor_is_not_step_code(build: str) -> None:
    assert _codes(NAVIT.replace("BUILD", build)) == []


def test_padded_forward_is_still_flagged() -> None:
    # the same forward padding the tokens (vit-pytorch's na_vit.py) runs on XLA: its reads are found
    assert "XLA350" in _codes(NAVIT.replace("BUILD", "torch.nn.utils.rnn.pad_sequence(list(tokens))"))


def test_tensor_narrow_is_not_torch_nested_narrow() -> None:
    source = NAVIT.replace("BUILD", "torch.cat(tokens).narrow(0, 0, 2)")
    assert "XLA350" in _codes(source)


CT2 = textwrap.dedent("""\
    import torch
    import ctranslate2

    def lm_prior_loss(lm, scores, target, pad):
        src = target.clone()
        src[src == 2] = pad
        lm_scores = lm.forward_batch(ctranslate2.StorageView.from_array(ARG))
        lm_scores = torch.as_tensor(lm_scores, device=scores.device)
        return (scores - lm_scores).masked_select(target != pad).sum()

    def train(model, lm, loader, opt):
        for x, y in loader:
            loss = lm_prior_loss(lm, model(x), y, 0)
            loss.backward()
            opt.step()
    """)


def test_ctranslate2_of_a_torch_tensor_is_cuda_only() -> None:
    # StorageView.from_array takes a torch tensor only through __cuda_array_interface__ (CTranslate2 4.8.5)
    assert _codes(CT2.replace("ARG", "src.to(torch.int32)")) == []


def test_ctranslate2_of_a_numpy_array_runs_anywhere() -> None:
    # a NumPy array is taken on any device: the loss runs on XLA, its reads and masks are found
    # (`src.numpy()` alone raises on an XLA tensor: the read is the `.cpu()`, a NumPy array by `np.asarray`)
    assert _codes(CT2.replace("ARG", "np.asarray(src.cpu())")) == ["XLA250", "XLA250", "XLA350"]


def test_dict_entry_passing_a_falsy_literal_does_not_set_the_flag() -> None:
    from xlacheck.analysis.project import _never_set

    model = ("class Disc:\n    def __init__(self, n=3, use_actnorm=False):\n        if not use_actnorm:\n"
             "            self.norm = 1\n        else:\n            self.norm = ActNorm()\n")
    off = "cfg = {'target': 'pkg.Disc', 'params': {'n': 3, 'use_actnorm': False}}\n"
    on = "cfg = {'target': 'pkg.Disc', 'params': {'n': 3, 'use_actnorm': True}}\n"
    assert _never_set("use_actnorm", [("m.py", model), ("c.py", off)])
    assert not _never_set("use_actnorm", [("m.py", model), ("c.py", on)])
    assert not _never_set("use_actnorm", [("m.py", model), ("c.py", "print('use_actnorm')\n")])
