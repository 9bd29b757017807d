"""What torch-reports20 added to the PyTorch rules, pinned on small programs with the near misses that stay
silent:

* XLA450: a step function's argument (a Python value handed in at each call) used as an integer index of a
  torch tensor, where the same function also uses it as a ``range`` or slice bound, where only a Python int
  goes (``h[:, start]`` next to ``for i in range(start + 1, end)``; pytorch/pytorch#114293). The recompile
  table measured ``int_index``: a new position is a new graph. Alone, such an argument may be an index tensor
  (a device gather) and stays silent; so does a bound used in another function.
"""

from __future__ import annotations

import textwrap

import pytest

from xlacheck.engine import check_source


def _found(src: str, declared: bool = True) -> list[tuple[int, str]]:
    return [(d.line, d.code) for d in check_source(textwrap.dedent(src), "t.py", torch_xla=declared).diagnostics]


STEP = """
import torch


def window(n):
    return list(range(n))


def train_step(model, opt, x, start, end):
    h = model(x)
    acc = h[:, start]
    {line}
    acc.sum().backward()
    opt.step()
    return acc
"""


@pytest.mark.parametrize("line, found", [
    ("for i in range(start + 1, end):\n        acc = acc + h[:, i]", [(11, "XLA450")]),
    ("acc = acc + h[:, start + 1:end].sum(1)", [(11, "XLA450"), (12, "XLA450")]),
    # the argument only indexes: it may be a device index tensor
    ("acc = acc * 2", []),
    # a range over another argument says nothing about `start`
    ("for i in range(end):\n        acc = acc + 1", []),
    # a bound in another function (same name) is not this function's use
    ("acc = acc + len(window(3))", []),
])
def test_step_argument_index_next_to_a_range_or_slice_bound(line: str, found: list) -> None:
    assert _found(STEP.format(line=line)) == found


def test_not_without_the_torch_xla_declaration() -> None:
    assert _found(STEP.format(line="for i in range(start + 1, end):\n        acc = acc + h[:, i]"),
                  declared=False) == []


PREFILL = """
import torch


class Server:
    def __init__(self, model, device, max_len=64):
        self.model, self.device, self.max_len = model, device, max_len

    @torch.no_grad()
    def prefill(self, prompts):
        {size}
        ids = torch.zeros(len(prompts), seq_len, dtype=torch.long)
        {tail}
"""


@pytest.mark.parametrize("size, tail, found", [
    ("seq_len = max(len(p) for p in prompts)", "return self.model(ids.to(self.device))", [(12, "XLA450")]),
    ("seq_len = max([len(p) for p in prompts])", "return self.model(ids.to(self.device))", [(12, "XLA450")]),
    ("seq_len = max(map(len, prompts))", "return self.model(ids.to(self.device))", [(12, "XLA450")]),
    # the server's fixed maximum (the report's fix), a bucket, a batch kept on the CPU, a length of something else
    ("seq_len = self.max_len", "return self.model(ids.to(self.device))", []),
    ("seq_len = (max(len(p) for p in prompts) + 7) // 8 * 8", "return self.model(ids.to(self.device))", []),
    ("seq_len = max(len(p) for p in prompts)", "return ids.tolist()", []),
    ("seq_len = max(len(p) for p in self.vocab)", "return self.model(ids.to(self.device))", []),
])
def test_size_padded_to_the_longest_item_of_a_list_argument(size: str, tail: str, found: list) -> None:
    assert [f for f in _found(PREFILL.format(size=size, tail=tail)) if f[1] == "XLA450"] == found
