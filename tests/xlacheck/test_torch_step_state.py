"""State that outlives a torch_xla step (issue 12, second pass): Python counters and device tensors
kept on ``self``, tensors grown across steps, padding to a batch's longest in a declared project, and
the value model's reach (tuples from torch ops, dicts of tensors, reads every n-th step).

Each snippet is written here (not copied from a case); findings are pinned by code and line.
"""

from __future__ import annotations

import textwrap

import pytest

from xlacheck.engine import check_source


def _found(src: str, *, declared: bool = True) -> list[tuple[str, int]]:
    # preview: XLA450 and XLA453 run all but one path each behind --preview; their facts are still tested
    diags = check_source(textwrap.dedent(src), "t.py", torch_xla=declared, preview=True).diagnostics
    return [(d.code, d.line) for d in diags]


SAMPLER = """
import torch

class Sampler:
    def __init__(self, device, n=10):
        self.table = {table}
        self.pos = 0

    def advance(self):
        self.pos += 1

    @torch.no_grad()
    def scale(self, x):
        w = self.table[self.pos]
        self.advance()
        return x * w
"""


def test_a_device_tensor_indexed_by_a_step_counter_recompiles() -> None:
    found = _found(SAMPLER.format(table="torch.linspace(1.0, 0.0, n).to(device)"))
    assert ("XLA450", 14) in found


@pytest.mark.parametrize("table", [
    "torch.linspace(1.0, 0.0, n)",  # kept on the CPU: indexing it costs the device nothing
    'torch.linspace(1.0, 0.0, n).to("cpu")',
    "[1.0] * n",  # a Python list
])
def test_a_table_not_on_the_device_is_not_flagged(table: str) -> None:
    assert not [c for c, _ in _found(SAMPLER.format(table=table)) if c == "XLA450"]


def test_a_tensor_accumulator_is_not_a_python_counter() -> None:
    src = """
    import torch

    class Meter:
        def __init__(self, device, n=10):
            self.buf = torch.zeros(n, device=device)
            self.total = torch.zeros((), device=device)

        @torch.no_grad()
        def step(self, x):
            self.total += x.sum()
            return self.buf[self.total.long()]
    """
    assert not [c for c, _ in _found(src) if c == "XLA450"]


def test_a_counter_reached_through_a_parameter_method() -> None:
    # `walker.shift_by_position(...)`: one same-file class has that method, so the call is resolved
    src = """
    import torch

    class Walker:
        def __init__(self, device):
            self.offsets = torch.arange(16, device=device)
            self.t = 0

        def shift_by_position(self, x):
            self.t += 1
            return x + self.offsets[self.t]

    def make(walker):
        @torch.no_grad()
        def run(x):
            return walker.shift_by_position(torch.tanh(x))
        return run
    """
    assert ("XLA450", 11) in _found(src)


def test_common_method_names_are_not_resolved_through_an_unknown_receiver() -> None:
    src = """
    import torch

    class Walker:
        def __init__(self, device):
            self.offsets = torch.arange(16, device=device)
            self.t = 0

        def update(self, x):
            self.t += 1
            return x + self.offsets[self.t]

    def make(walker):
        @torch.no_grad()
        def run(x):
            return walker.update(torch.tanh(x))
        return run
    """
    assert _found(src) == []


GROW = """
import torch

class Collector:
    def __init__(self, model):
        self.model = model
        self.kept = None

    @torch.no_grad()
    def step(self, x):
        out = self.model(x)
        {body}
        return out
"""


def test_an_attribute_grown_every_step() -> None:
    assert _found(GROW.format(body="self.kept = torch.cat([self.kept, out], dim=0)")) == [("XLA454", 12)]


@pytest.mark.parametrize("body", [
    "kept = torch.cat([out, out], dim=0)",  # a local: the same shape at every call
    "self.kept = torch.cat([out, out], dim=0)",  # not onto itself
    "self.kept = out; self.kept = torch.cat([self.kept, out], dim=0)",  # reset in the step: a fixed shape
])
def test_no_growth_across_steps(body: str) -> None:
    assert [c for c, _ in _found(GROW.format(body=body)) if c == "XLA454"] == []


def test_a_closure_dict_item_grown_through_a_local_alias() -> None:
    src = """
    import torch

    def make(model, start):
        cache = {"seq": start}

        @torch.no_grad()
        def step():
            seq = cache["seq"]
            nxt = model(seq)[:, -1:].argmax(-1)
            cache["seq"] = torch.cat([seq, nxt], dim=1)
            return nxt
        return step
    """
    assert ("XLA454", 11) in _found(src)


def test_a_tensor_kept_on_the_cpu_is_host_bookkeeping() -> None:
    src = """
    import torch

    class Slot:
        def __init__(self, ids):
            self.tokens = ids.cpu()

        @torch.no_grad()
        def add(self, model, x):
            tok = model(x).argmax(-1)
            self.tokens = torch.cat([self.tokens, torch.tensor([1])])
            return tok
    """
    assert [c for c, _ in _found(src) if c == "XLA454"] == []


def test_a_dict_passed_in_is_not_state() -> None:
    src = """
    import torch

    @torch.no_grad()
    def step(model, batch):
        batch["ids"] = torch.cat([batch["ids"], model(batch["ids"]).argmax(-1)], dim=1)
        return batch
    """
    assert [c for c, _ in _found(src) if c == "XLA454"] == []


def test_an_xla_loop_that_grows_a_name_defined_before_it() -> None:
    src = """
    import torch
    import torch_xla

    def evaluate(model, loader):
        seen = torch.zeros(0, 4, device=torch_xla.device())
        for x in loader:
            seen = torch.cat([seen, model(x)])
            torch_xla.sync()
        return seen
    """
    assert _found(src, declared=False) == [("XLA454", 8)]


READ = """
import torch
import torch.nn.functional as F

class Loop:
    def __init__(self, model, optimizer):
        self.model, self.optimizer = model, optimizer
        self.n = 0
        self.log = []

    def train_step(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        self.n += 1
        {read}
        return loss.detach()
"""


def test_self_optimizer_step_makes_a_training_step_and_a_read_in_it_is_found() -> None:
    assert _found(READ.format(read="self.log.append(loss.item())")) == [("XLA350", 16)]


@pytest.mark.parametrize("read", [
    "if self.n % 100 == 0:\n            self.log.append(loss.item())",
    "if self.n > 0 and self.n % 100 == 0:\n            self.log.append(loss.item())",
])
def test_a_read_every_n_steps_is_the_documented_pattern(read: str) -> None:
    assert _found(READ.format(read=read)) == []


def test_a_dict_of_tensors_read_in_a_comprehension() -> None:
    read = 'stats = {"loss": loss.detach(), "half": loss.detach() / 2}\n        ' \
           'self.log.append({k: v.item() for k, v in stats.items()})'
    assert _found(READ.format(read=read)) == [("XLA350", 17)]


def test_a_dict_that_is_not_all_tensors_is_not_read() -> None:
    read = 'stats = {"loss": loss.detach(), "name": "run"}\n        ' \
           'self.log.append({k: v.item() for k, v in stats.items()})'
    assert _found(READ.format(read=read)) == []


def test_tuples_from_torch_ops_hold_tensors() -> None:
    src = """
    import torch
    import torch.nn as nn

    class Router(nn.Module):
        def __init__(self):
            super().__init__()
            self.gate = nn.Linear(8, 4)

        def forward(self, x):
            weights, chosen = torch.topk(self.gate(x), 2)
            if (chosen == 0).any():
                x = x * 2
            return x, weights
    """
    assert _found(src) == [("XLA350", 12)]
    assert _found(src, declared=False) == []


PAD = """
import torch
import torch.nn.functional as F

def make_batch(seqs, pad_id=0):
    longest = max(len(s) for s in seqs){round}
    out = torch.full((len(seqs), longest), pad_id, dtype=torch.long)
    for i, s in enumerate(seqs):
        out[i, :len(s)] = s
    return out

def train_step(model, opt, ids, y):
    loss = F.cross_entropy(model(ids), y)
    loss.backward()
    opt.step()
    return loss.detach()
"""


def test_padding_to_the_longest_in_a_declared_project() -> None:
    assert _found(PAD.format(round="")) == [("XLA453", 6)]
    assert _found(PAD.format(round=""), declared=False) == []


def test_padding_rounded_to_a_multiple_is_not_flagged() -> None:
    assert _found(PAD.format(round="\n    longest = (longest + 63) // 64 * 64")) == []
