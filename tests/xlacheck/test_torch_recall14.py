"""What torch-recall14 added to the PyTorch adapter and its rules, pinned on small programs with the near miss
that stays silent:

* ZERO_D: a full reduction (no ``dim``) of a proven tensor, its elementwise methods and its arithmetic with
  Python numbers are 0-d; with LONG (``argmax()``, ``.sum()`` of a mask, ``.long()``) a 0-d integer tensor,
  which torch reads back as a Python int when it indexes a tensor (XLA350; host table
  ``Tensor.__getitem__(index)``);
* XLA454: a Python list kept across steps, appended a device tensor every step and joined whole;
* XLA452: a number drawn per step from literals that include 0 or ±1.
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from xlacheck.analysis.contexts import analyze_module
from xlacheck.analysis.torch_model import LONG, TENSOR, ZERO_D, build_torch_facts
from xlacheck.engine import check_source


def _found(src: str) -> list[tuple[int, str]]:
    return [(d.line, d.code) for d in check_source(textwrap.dedent(src), "t.py", torch_xla=True).diagnostics]


LOOP = """
import torch
import torch_xla


def train(model, loader, opt, log):
    for x, y in loader:
        scores = model(x).logits
        log.append({index})
        scores.sum().backward()
        opt.step()
        torch_xla.sync()
"""


@pytest.mark.parametrize("index", ["scores[scores.sum(-1).argmax()]", "scores[:, torch.argmax(scores)]",
                                   "scores[(scores > 0).sum() - 1]", "scores[scores.abs().sum().long() + 2]",
                                   "scores[-scores.argmax()]"])
def test_zero_d_integer_index_reads_the_host(index: str) -> None:
    assert _found(LOOP.format(index=index)) == [(9, "XLA350")]


@pytest.mark.parametrize("index", ["scores[scores.argmax(-1)]", "scores[torch.argmax(scores, dim=1)]",
                                   "scores[scores.argmax().view(1)]", "scores[scores.sum().long() * scores[0].long()]",
                                   "scores[:, 3]"])
def test_index_with_a_dimension_or_a_python_int_stays_on_the_device(index: str) -> None:
    assert _found(LOOP.format(index=index)) == []


def test_zero_d_flags_of_the_adapter() -> None:
    src = textwrap.dedent(LOOP.format(index="scores")) + textwrap.dedent("""
    def probe(model, loader, opt):
        for x, y in loader:
            s = model(x).logits
            a = s.sum()
            b = s.argmax()
            c = (s > 0).sum()
            d = a / 2
            e = s.sum(0)
            s.sum().backward()
            opt.step()
            torch_xla.sync()
    """)
    tree = ast.parse(src)
    facts = build_torch_facts(tree, analyze_module(tree, "t.py", None), declared=True)
    flags = {n.targets[0].id: facts.of(n.value) for n in ast.walk(tree)
             if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name) and n.targets[0].id in "abcde"}
    assert flags["a"] & (TENSOR | ZERO_D | LONG) == TENSOR | ZERO_D
    assert flags["b"] & (ZERO_D | LONG) == ZERO_D | LONG
    assert flags["c"] & (ZERO_D | LONG) == ZERO_D | LONG
    assert flags["d"] & (ZERO_D | LONG) == ZERO_D
    assert not flags["e"] & ZERO_D


MODEL = """
import collections
import torch
import torch.nn as nn
import torch_xla

{setup}


class Net(nn.Module):
    def forward(self, x):
        h = torch.relu(x)
        {grow}
        return h * torch.stack({joined}).mean()
"""


@pytest.mark.parametrize(("setup", "grow", "joined", "hit"), [
    ("HIST = []", "HIST.append(h.mean())", "HIST", True),
    ("HIST = list()", "HIST.append(h.mean())", "list(HIST)", True),
    ("HIST = collections.deque(maxlen=3)", "HIST.append(h.mean())", "list(HIST)", False),
    ("HIST = []", "HIST.append(h.mean()); HIST.pop(0)", "HIST", False),
    ("HIST = []", "HIST.append(h.mean())", "HIST[-3:]", False),
    ("HIST = [1.0]", "HIST.append(h.mean())", "HIST", False),
    ("HIST = []", "HIST.append(h.mean().cpu())", "HIST", False),
])
def test_module_level_list_grown_and_stacked_every_step(setup: str, grow: str, joined: str, hit: bool) -> None:
    found = _found(MODEL.format(setup=setup, grow=grow, joined=joined))
    assert ((14, "XLA454") in found) is hit, found


def test_list_bound_before_the_step_loop_grows_across_iterations() -> None:
    src = """
    import torch
    import torch_xla


    def evaluate(model, loader):
        preds = []
        for x, y in loader:
            preds.append(model(x).logits.argmax(-1))
            seen = torch.cat(preds)
            torch_xla.sync()
        return torch.cat(preds)
    """
    assert _found(src) == [(10, "XLA454")]
    fresh = src.replace("        for x, y in loader:\n", "        for x, y in loader:\n            preds = []\n")
    assert _found(fresh) == []


@pytest.mark.parametrize(("values", "hit"), [("[0.5, 0.7, 0.0]", True), ("[0.5, 1.0]", True), ("[0.5, 0.7]", False),
                                             ("[0.0]", False)])
def test_number_drawn_from_values_with_zero_or_one(values: str, hit: bool) -> None:
    src = f"""
    import random
    import torch
    import torch_xla


    def train(model, loader, opt):
        for x, y in loader:
            w = random.choice({values})
            loss = torch.relu(model(x).logits).sum() * w
            loss.backward()
            opt.step()
            torch_xla.sync()
    """
    assert (_found(src) == [(9, "XLA452")]) is hit
