"""What torch-reports18 added to the PyTorch rules, pinned on small programs with the near misses that stay
silent:

* XLA350: a learning-rate scheduler the file does not build (handed in as a parameter, set up elsewhere) whose
  name says scheduler, stepped with exactly one proven device tensor (``scheduler.step(val_loss)``): the one
  torch scheduler whose ``step`` takes a value is ``ReduceLROnPlateau``, which xlacheck/data/torch_xla_host.json
  measured reading its ``metrics`` argument on the host. A diffusion scheduler's ``step(pred, t, latents)``, a
  plain ``step()``, a Python number and a receiver named otherwise stay silent.
"""

from __future__ import annotations

import textwrap

import pytest

from xlacheck.engine import check_source


def _found(src: str, declared: bool = True) -> list[tuple[int, str]]:
    return [(d.line, d.code) for d in check_source(textwrap.dedent(src), "t.py", torch_xla=declared).diagnostics]


SCHED = """
import torch
import torch.nn.functional as F
import torch_xla


def train(model, loader, opt, scheduler, noise_scheduler, helper, epoch):
    for x, y in loader:
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        {line}
        torch_xla.sync()
"""


@pytest.mark.parametrize("line, found", [
    ("scheduler.step(loss.detach())", [(12, "XLA350")]),
    ("scheduler.step(metrics=loss)", [(12, "XLA350")]),
    ("scheduler.step()", []),
    ("scheduler.step(epoch)", []),  # a Python number: nothing to read
    ("noise_scheduler.step(loss, 3, x)", []),  # a diffusion scheduler's step: not a metric
    ("helper.step(loss)", []),  # the name does not say scheduler
])
def test_scheduler_stepped_with_a_device_metric(line: str, found: list[tuple[int, str]]) -> None:
    assert _found(SCHED.format(line=line)) == found


ATTR = """
import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, opt, lr_scheduler):
        self.model, self.opt, self.lr_scheduler = model, opt, lr_scheduler

    def train_step(self, x, y):
        self.opt.zero_grad()
        loss = F.mse_loss(self.model(x), y)
        loss.backward()
        self.opt.step()
        self.lr_scheduler.step({arg})
        return loss.detach()
"""


def test_scheduler_attribute_in_a_declared_training_step() -> None:
    assert _found(ATTR.format(arg="loss")) == [(16, "XLA350")]
    assert _found(ATTR.format(arg="")) == []
    assert _found(ATTR.format(arg="loss"), declared=False) == []  # no step proven without the declaration
