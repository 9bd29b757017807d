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
    # preview: XLA450 and XLA453 run all but one path each behind --preview; their facts are still tested
    found = check_source(textwrap.dedent(src), "t.py", torch_xla=declared, preview=True).diagnostics
    return [(d.line, d.code) for d in found]


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


# review20: an argument whose length or shape bounds a `range` or slice is a sequence or an index tensor, not a
# Python int (`range(len(idx))`, `p[:idx.shape[0]]`); only the argument itself (or arithmetic on it) as a bound is
@pytest.mark.parametrize("line", [
    "for i in range(len(start)):\n        acc = acc + h[:, i]",
    "acc = acc[: start.shape[0]]",
    "for i in range(start.size(0)):\n        acc = acc + 1",
])
def test_a_length_or_shape_of_the_argument_as_a_bound_says_nothing(line: str) -> None:
    assert _found(STEP.format(line=line)) == []


# review20: a padded batch built on the CPU (`device="cpu"`) or only cast (`.to(torch.long)`) never reaches XLA
@pytest.mark.parametrize("size, tail", [
    ("seq_len = max(len(p) for p in prompts)\n        ids = torch.zeros(len(prompts), seq_len, device='cpu')",
     "return ids.tolist()"),
    ("seq_len = max(len(p) for p in prompts)\n        ids = torch.zeros(len(prompts), seq_len, "
     "device=torch.device('cpu'))", "return ids.tolist()"),
    ("seq_len = max(len(p) for p in prompts)", "ids = ids.to(torch.long)\n        return ids.tolist()"),
])
def test_a_batch_padded_on_the_cpu_is_not_claimed(size: str, tail: str) -> None:
    assert [f for f in _found(PREFILL.format(size=size, tail=tail)) if f[1] == "XLA450"] == []


def test_a_module_level_batch_builder_is_one_finding_of_xla453() -> None:
    """review20: a module-level function of a declared project that pads its prompts to the longest one was
    reported twice, by XLA453 (the max() line, a batch builder) and by XLA450's new form (the factory it sizes).
    XLA453 owns a batch builder; XLA450 keeps the step methods XLA453 does not read (PREFILL above)."""
    src = """
        import torch


        @torch.no_grad()
        def prefill(model, prompts, device):
            seq_len = max(len(p) for p in prompts)
            ids = torch.zeros(len(prompts), seq_len, dtype=torch.long)
            return model(ids.to(device)).argmax(-1)
        """
    assert _found(src) == [(7, "XLA453")]
