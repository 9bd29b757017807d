"""What torch-forms12 added to what reaches a torch_xla step (the PyTorch adapter), pinned on small programs
that prove the step themselves (no ``--torch-xla`` declaration), each with the near miss that stays silent:

* the ``forward`` of a same-file module that a module of the step holds (``self.block``, an item of
  ``nn.Sequential(...)`` or ``nn.ModuleList([...])``) runs in the step; the first parameter of an
  ``nn.Sequential`` item is what the item before it returns;
* a hook registered on a layer (``register_forward_hook(fn)``) runs in the forward, with the layer's output;
* ``step = make_step(model, opt)`` before the loop: calling ``step`` runs the closure the factory returns;
* ``torch.compile(model, backend="openxla")`` of ``model = Net().to(device)`` compiles ``Net.forward``;
* ``step = functools.partial(train_step, model, opt)``: calling ``step`` runs ``train_step``;
* ``super().forward(x)`` runs the same-file base class's ``forward``, and ``model(x)`` builds the subclass;
* a hook registered in the function that holds the step loop, before it;
* an accelerate loop in a file that names the XLA distributed type but does not import torch_xla.

The generated matrix (``tools/generate_form_cases_torch.py``) in the tree is checked to be current.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from xlacheck.engine import check_source

ROOT = Path(__file__).resolve().parents[2]


def _found(src: str, declared: bool = False) -> list[tuple[int, str]]:
    return [(d.line, d.code) for d in check_source(textwrap.dedent(src), "t.py", torch_xla=declared).diagnostics]


def _line(src: str, text: str) -> int:
    return next(i for i, line in enumerate(textwrap.dedent(src).splitlines(), 1) if text in line)


LOOP = """
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla

{model}

def train(model, opt, batches):
    for x, y in batches:
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        torch_xla.sync()
"""

SUBMODULE = """
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(16, 16)

    def forward(self, h):
        {sink}
        return self.lin(h)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        {holder}

    def forward(self, x):
        {use}
"""
HOLDERS = {
    "attribute": ("self.block = Block()", "return self.block(torch.relu(self.fc1(x)))"),
    "sequential": ("self.body = nn.Sequential(nn.ReLU(), Block())", "return self.body(self.fc1(x))"),
    "modulelist": ("self.blocks = nn.ModuleList([Block() for _ in range(2)])",
                   "h = self.fc1(x)\n        for blk in self.blocks:\n            h = blk(h)\n        return h"),
}


@pytest.mark.parametrize("holder", sorted(HOLDERS))
def test_forward_of_a_held_module_runs_in_the_step(holder: str) -> None:
    built, use = HOLDERS[holder]
    model = SUBMODULE.replace("{holder}", built).replace("{use}", use)
    src = LOOP.replace("{model}", model.replace("{sink}", "scale = h.abs().mean().item()"))
    assert _found(src) == [(_line(src, ".item()"), "XLA350")]
    near = LOOP.replace("{model}", model.replace("{sink}", "scale = h.abs().mean()"))
    assert _found(near) == []


def test_module_held_but_never_read_in_forward_is_not_reached() -> None:
    """A submodule the forward never reads (used by another method, ``generate``) does not run in the step."""
    model = SUBMODULE.replace("{holder}", "self.block = Block()").replace("{use}", "return self.fc1(x)")
    src = LOOP.replace("{model}", model.replace("{sink}", "scale = h.abs().mean().item()"))
    assert _found(src) == []


def test_sequential_item_gets_the_output_of_the_layer_before_it() -> None:
    """Declared: ``Probe.forward`` is a step anyway; its parameter is a tensor only through the Sequential."""
    model = """
class Probe(nn.Module):
    def forward(self, h):
        keep = h[h > 0]
        return h + keep.sum()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), Probe(), nn.Linear(16, 4))

    def forward(self, x):
        return self.body(x)
"""
    src = LOOP.replace("{model}", model)
    assert _found(src, declared=True) == [(_line(src, "keep = h[h > 0]"), "XLA250")]
    assert _found(src) == [(_line(src, "keep = h[h > 0]"), "XLA250")]


HOOKED = """
def feature_hook(module, inputs, output):
    {sink}
    return output


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 4)
        self.fc1.register_forward_hook(feature_hook)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))
"""


@pytest.mark.parametrize("declared", [False, True])
def test_forward_hook_registered_by_the_model_runs_in_the_step(declared: bool) -> None:
    src = LOOP.replace("{model}", HOOKED.replace("{sink}", "print(\"peak\", output.max())"))
    assert _found(src, declared) == [(_line(src, "print("), "XLA350")]
    near = LOOP.replace("{model}", HOOKED.replace("{sink}", "print(\"shape\", output.shape)"))
    assert _found(near, declared) == []


def test_hook_of_a_module_outside_any_step_is_not_reached() -> None:
    """A hook registered in a function that is no step and no module's method (an eval-only analysis script)."""
    src = """
    import torch
    import torch.nn as nn

    def feature_hook(module, inputs, output):
        print("peak", output.max())

    def inspect(model, x):
        model.fc1.register_forward_hook(feature_hook)
        return model(x)
    """
    assert _found(src) == []


CLOSURE = """
import torch
import torch.nn.functional as F
import torch_xla


def make_train_step(model, opt):
    def train_step(x, y):
        opt.zero_grad()
        out = model(x)
        {sink}
        loss = F.cross_entropy(out, y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


def train_epoch(model, opt, batches):
    step = make_train_step(model, opt)
    for x, y in batches:
        step(x, y)
        torch_xla.sync()
"""


def test_closure_returned_by_a_factory_runs_in_the_loop_that_calls_it() -> None:
    src = CLOSURE.replace("{sink}", "keep = out[out > 0]")
    assert _found(src) == [(_line(src, "keep = out[out > 0]"), "XLA250")]
    assert _found(CLOSURE.replace("{sink}", "keep = out * (out > 0)")) == []


COMPILED = """
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        {sink}
        return h


def build_model(device):
    model = Net().to(device)
    return torch.compile(model, backend="openxla")
"""


def test_model_instance_compiled_with_openxla_compiles_its_forward() -> None:
    src = COMPILED.replace("{sink}", "scale = h.mean().item()")
    assert _found(src) == [(_line(src, ".item()"), "XLA350")]
    assert _found(COMPILED.replace("{sink}", "scale = h.mean()")) == []
    inductor = COMPILED.replace("{sink}", "scale = h.mean().item()").replace(', backend="openxla"', "")
    assert _found(inductor) == []



EXTRA = {
    "partial": ("""
import functools
import torch
import torch.nn.functional as F
import torch_xla


def train_step(model, opt, x, y):
    opt.zero_grad()
    out = model(x)
    {sink}
    loss = F.cross_entropy(out, y)
    loss.backward()
    opt.step()


def train_epoch(model, opt, batches):
    step = functools.partial(train_step, model, opt)
    for x, y in batches:
        step(x, y)
        torch_xla.sync()
""", "keep = out[out > 0]", "keep = out * (out > 0)"),
    "super": ("""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla


class Base(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)

    def forward(self, x):
        h = self.fc1(x)
        {sink}
        return h


class Net(Base):
    def forward(self, x):
        return torch.relu(super().forward(x))


def train(opt, batches):
    model = Net()
    for x, y in batches:
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        torch_xla.sync()
""", "print(\"base\", h.mean())", "print(\"base\", h.shape)"),
    "hook_before_loop": ("""
import torch
import torch.nn.functional as F
import torch_xla

FEATS = []


def save_hook(module, inputs, output):
    {sink}


def train(model, opt, batches):
    model.fc1.register_forward_hook(save_hook)
    for x, y in batches:
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        torch_xla.sync()
""", "FEATS.append(output.detach().cpu())", "FEATS.append(output.detach())"),
    "accelerate": ("""
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import DistributedType


def train(model, opt, loader):
    accelerator = Accelerator()
    model, opt, loader = accelerator.prepare(model, opt, loader)
    if accelerator.distributed_type == DistributedType.XLA:
        print("on XLA")
    for x, y in loader:
        out = model(x)
        {sink}
        loss = F.cross_entropy(out, y)
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
""", "keep = out[out > 0]", "keep = out * (out > 0)"),
}


@pytest.mark.parametrize("form", sorted(EXTRA))
def test_more_ways_code_reaches_the_step(form: str) -> None:
    template, sink, near = EXTRA[form]
    src = template.replace("{sink}", sink)
    assert [line for line, _ in _found(src)] == [_line(src, sink)]
    assert _found(template.replace("{sink}", near)) == []


def test_accelerate_loop_without_the_xla_distributed_type_is_not_a_step() -> None:
    template, sink, _ = EXTRA["accelerate"]
    src = template.replace("{sink}", sink).replace("DistributedType.XLA", "DistributedType.MULTI_GPU")
    assert _found(src) == []


def test_generated_form_matrix_is_current() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "generate_form_cases_torch.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
