"""What torch-recall15 added to the PyTorch adapter and its rules, pinned on small programs with the near miss
that stays silent:

* an optimizer step is ``.step()`` on an object the file builds from a ``torch.optim`` optimizer class (whatever
  its name) or a step handed the optimizer (``scaler.step(optimizer)``); ``torch.autograd.grad`` is a backward
  pass; learning-rate schedulers are not optimizers;
* backward-only fallbacks (XLA351, ``torch.pdist`` -> ``aten::_pdist_backward``) need a backward pass in step
  code (anywhere in the file where torch code is declared to run on XLA), not an optimizer step beside it;
* a ``torch.nn`` loss module (xlacheck/data/torch_module.json ``losses``) returns a proven tensor when called;
* host-table rows: ``torch.tensor([loss, acc])`` (a list display of device scalars), ``xm.master_print(t)``,
  ``ReduceLROnPlateau.step(loss)``.
"""

from __future__ import annotations

import textwrap

import pytest

from xlacheck.engine import check_source


def _found(src: str, declared: bool = True) -> list[tuple[int, str]]:
    return [(d.line, d.code) for d in check_source(textwrap.dedent(src), "t.py", torch_xla=declared).diagnostics]


PDIST = """
import torch
import torch.nn as nn


class Emb(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 16)

    def forward(self, x):
        return torch.pdist(self.fc(x)).mean()


def step(model, {params}, x):
    loss = model(x)
{body}
"""


@pytest.mark.parametrize("params, body", [
    ("opt", "    loss.backward()\n    opt.step()"),
    ("solver", "    loss.backward()\n    solver.step()"),  # the optimizer is the caller's: a backward runs all the same
    ("lr", "    grads = torch.autograd.grad(loss, list(model.parameters()))\n    return grads"),
])
def test_backward_only_fallback_needs_a_backward_pass(params: str, body: str) -> None:
    assert _found(PDIST.format(params=params, body=body)) == [(12, "XLA351")]


def test_backward_only_fallback_without_backward_is_silent() -> None:
    assert _found(PDIST.format(params="opt", body="    return loss.detach()")) == []


STEP = """
import torch
import torch.nn.functional as F
{build}


def train_step(model, x, y):
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    {step}
    print(loss)
"""


@pytest.mark.parametrize("build, step", [
    ("solver = torch.optim.SGD([torch.zeros(1)], lr=0.1)", "solver.step()"),
    ("from torch.optim import AdamW\nsolver = AdamW([torch.zeros(1)])", "solver.step()"),
    ("optimizer = None", "scaler.step(optimizer)"),
])
def test_optimizer_steps_make_a_training_step(build: str, step: str) -> None:
    line = 11 + build.count("\n")
    assert _found(STEP.format(build=build, step=step)) == [(line, "XLA350")]


@pytest.mark.parametrize("build, step", [
    ("solver = torch.optim.lr_scheduler.StepLR(None, 1)", "solver.step()"),
    ("solver = object()", "solver.step()"),
])
def test_other_steps_do_not(build: str, step: str) -> None:
    assert _found(STEP.format(build=build, step=step)) == []


LOSS = """
import torch
import torch.nn as nn
import torch_xla

{module}


class Trainer:
    def __init__(self, model):
        self.model = model
        self.criterion = {ctor}
        self.optimizer = torch.optim.AdamW(model.parameters())

    def train_step(self, x, y):
        loss = self.criterion(self.model(x), y)
        if loss > 10:
            print("diverging")
        loss.backward()
        self.optimizer.step()
"""


def test_loss_module_call_is_a_tensor() -> None:
    assert _found(LOSS.format(module="", ctor="nn.CrossEntropyLoss()")) == [(17, "XLA350")]


def test_other_module_call_is_not_proven_a_tensor() -> None:
    # a module of the user's (or one that returns a structure) is a module output, not a proven tensor (until
    # its `.backward()`)
    assert _found(LOSS.format(module="from mylib import Criterion", ctor="Criterion()")) == []


TABLE_ROWS = """
import torch
import torch.nn.functional as F
import torch_xla
import torch_xla.core.xla_model as xm


def train(model, loader, opt, sched):
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        {line}
        torch_xla.sync()
"""


@pytest.mark.parametrize("line, found", [
    ("stats = torch.tensor([loss, loss * 2])", [(14, "XLA350")]),
    ("stats = torch.as_tensor((loss.detach(),))", [(14, "XLA350")]),
    ("xm.master_print(loss)", [(14, "XLA350")]),
    ("sched.step(loss)", [(14, "XLA350")]),
    ("stats = torch.tensor(loss)", []),  # a copy of the tensor: no read (measured)
    ("stats = torch.tensor([1.0, 2.0], device=loss.device)", []),
    ("xm.master_print('step done')", []),
])
def test_host_table_rows(line: str, found: list[tuple[int, str]]) -> None:
    assert _found(TABLE_ROWS.format(line=line)) == found


FLOW = """
import torch
import torch.nn.functional as F
import torch_xla


def train(model, loader, opt, history):
    for step, (x, y) in enumerate(loader):
        out = model(x)
        loss = F.cross_entropy(out, y)
        loss.backward()
        opt.step()
        {line}
        torch_xla.sync()
"""


@pytest.mark.parametrize("line, found", [
    # the last operand of an `and`/`or` chain that an `if` tests is converted to bool too
    ("if len(history) > 5 and loss > 1:\n            history.clear()", [(13, "XLA350")]),
    ("if step > 2 or (step == 1 and torch.isnan(loss)):\n            history.clear()", [(13, "XLA350")]),
    ("if len(history) > 5 and step > 1:\n            history.clear()", []),
    ("keep = step > 2 and loss > 1", []),  # (bound, not tested: the last operand is not converted)
    # the values of a dict of tensors, iterated by a `for` statement as in a comprehension
    ("for k, v in {'loss': loss, 'acc': (out.argmax(-1) == y).float().mean()}.items():\n            print(k, v)",
     [(14, "XLA350")]),
    ("for v in {'loss': loss}.values():\n            print(v)", [(14, "XLA350")]),
    ("for k, v in {'step': step}.items():\n            print(k, v)", []),
])
def test_value_flow(line: str, found: list[tuple[int, str]]) -> None:
    assert _found(FLOW.format(line=line)) == found


CALLER_LOSS = """
import torch
import torch_xla


def make_step(model, opt, loss_fn):
    def step(x, y):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        {before}
        loss.backward()
        opt.step()
        {after}
    return step
"""


@pytest.mark.parametrize("before, after, found", [
    ("pass", "print(loss)", [(13, "XLA350")]),  # `.backward()` proves the loss a tensor from there on
    ("pass", "return loss.item()", [(13, "XLA350")]),
    ("print(loss)", "pass", []),  # (before it, nothing proves the value of the caller's loss function)
    ("pass", "accelerator.backward(loss)\n        print(accelerator)", []),
])
def test_backward_proves_a_tensor(before: str, after: str, found: list[tuple[int, str]]) -> None:
    assert _found(CALLER_LOSS.format(before=before, after=after)) == found


POOL = """
import torch
import torch.nn.functional as F
import torch_xla


def train(model, loader, opt):
    for x, y in loader:
        h = model(x)
        r = F.{pool}(h.view({shape}), {size})
        loss = F.cross_entropy(h, y) + r.mean()
        loss.backward()
        opt.step()
        torch_xla.sync()
"""


@pytest.mark.parametrize("pool, shape, size, found", [
    ("adaptive_max_pool2d", "-1, 1, 4, 4", "3", [(10, "XLA351")]),  # the pool table: 4->3 falls back
    ("adaptive_avg_pool2d", "(-1, 2, 8, 8)", "(3, 3)", [(10, "XLA351")]),
    ("adaptive_avg_pool1d", "-1, 1, 16", "5", [(10, "XLA351")]),
    ("adaptive_avg_pool2d", "-1, 1, 4, 4", "2", []),  # 4->2 lowers
    ("adaptive_avg_pool2d", "-1, 1, 4, 4", "(2, None)", []),
    ("adaptive_avg_pool2d", "-1, 1, 4, 6", "3", []),  # sides that differ: the table measured square maps only
    ("adaptive_avg_pool2d", "-1, 1, n, n", "3", []),  # sizes not known here
])
def test_adaptive_pool_on_a_literal_reshape(pool: str, shape: str, size: str, found: list[tuple[int, str]]) -> None:
    assert _found(POOL.format(pool=pool, shape=shape, size=size)) == found


BUFFER = """
import torch
import torch.nn as nn


class Quantizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("initted", {value})
        self.register_buffer("codebook", torch.randn(16, 8))

    def forward(self, x):
        if not self.initted:
            self.codebook.data.copy_(x[:16])
        return torch.cdist(x, self.codebook).argmin(-1)
"""


@pytest.mark.parametrize("value, found", [
    ("torch.tensor(False)", [(13, "XLA350")]),  # a buffer moves with the module: on the device in the step
    ("torch.zeros(())", [(13, "XLA350")]),
    ("None", []),  # (registered as None: not a tensor)
])
def test_registered_buffer_is_a_device_tensor(value: str, found: list[tuple[int, str]]) -> None:
    assert _found(BUFFER.format(value=value)) == found


def test_buffer_rebound_to_python_value_is_not() -> None:
    src = BUFFER.format(value="torch.tensor(False)").replace(
        "            self.codebook.data.copy_(x[:16])", "            self.initted = True")
    assert _found(src) == []


BATCH_MASK = """
import torch
import torch.nn.functional as F
import torch_xla.distributed.parallel_loader as pl


def train(model, loader, opt, device):
    for x, y in pl.MpDeviceLoader(loader, device):
        {line}
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
"""


@pytest.mark.parametrize("line, found", [
    # a batch item compared to a number, then a method a Python bool lacks: the item was a tensor
    ("n = (y != -100).sum().item()", [(9, "XLA350")]),
    ("if (y == 0).all():\n            continue", [(9, "XLA350")]),
    ("mask = y != -100\n        n = int(mask.sum())", [(10, "XLA350")]),
    ("same = (y == x).real", []),  # (an attribute a bool has too: nothing proven)
    ("n = (y != -100)", []),
])
def test_batch_item_comparison_then_tensor_method(line: str, found: list[tuple[int, str]]) -> None:
    assert _found(BATCH_MASK.format(line=line)) == found


def test_code_after_an_isinstance_return_is_its_else() -> None:
    src = """
    import torch


    @torch.no_grad()
    def batched(x, device=None):
        if isinstance(x, torch.Tensor):
            return x.unsqueeze(dim=0)
        return torch.tensor([x], device=device)


    @torch.no_grad()
    def update(model, inp):
        return batched(model(inp).sum())
    """
    assert _found(src) == []
    assert _found(src.replace("            return x.unsqueeze(dim=0)\n", "            x = x.unsqueeze(dim=0)\n")) \
        == [(9, "XLA350")]
