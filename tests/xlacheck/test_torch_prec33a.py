"""Facts of the thirty-third session's torch precision lane (issue 12, XLA350), each with snippets written here.

- torch's MPS queries (``torch.backends.mps.is_available()``/``is_built()``, ``torch.mps.is_available()``) are False
  wherever torch_xla runs: torch_xla ships Linux wheels only, and torch's Linux builds have no MPS (measured on
  torch 2.9.0 here). A branch they open never runs on the XLA device (tortoise-tts' ``MelSpectrogram.forward``).
- A name a declared ``@torch.no_grad()`` method binds to a bound method of its own object (``sample_fn =
  self.ddpm_sample if ... else self.ddim_sample``) hands the work to that method when called, as
  ``getattr(type(self), name)`` does: what runs before the call is set-up, once per call (naturalspeech2's
  ``generate_mask_from_repeats``).
- ``t.numpy()`` raises on an XLA tensor (the host table's Tensor-method sweep, torch_xla 2.9: "can't convert xla:0
  device type tensor to numpy"): code that calls it and runs holds a CPU tensor there, so it reads no XLA value
  (lightning-flash's IceVision adapter).
"""

from __future__ import annotations

import sys
import textwrap

import pytest

from xlacheck.analysis.torch_model import MPS_QUERIES
from xlacheck.engine import check_source


def _found(src: str) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in check_source(textwrap.dedent(src), "t.py", torch_xla=True).diagnostics]


MEL = """
import torch
from torch import nn


class Mel(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        inp = self.proj(x)
        if {test}:
            inp = inp.cpu()
        return inp * 2
"""


@pytest.mark.parametrize("query", sorted(MPS_QUERIES))
def test_an_mps_query_shuts_its_branch_on_xla(query: str) -> None:
    assert _found(MEL.format(test=f"{query}()")) == []
    assert _found(MEL.format(test=f"not {query}()")) == [("XLA350", 14)]


def test_other_device_queries_decide_nothing() -> None:
    # CUDA's may be True on an XLA:GPU host; an MPS query with an argument is not the probe's form
    assert _found(MEL.format(test="torch.cuda.is_available()")) == [("XLA350", 14)]
    assert _found(MEL.format(test="torch.backends.mps.is_available(x)")) == [("XLA350", 14)]


@pytest.mark.skipif(sys.platform != "linux", reason="torch_xla ships Linux wheels only: the fact is Linux torch's")
def test_the_mps_queries_are_false_on_linux_torch() -> None:
    # the fact MPS_QUERIES rests on: where torch_xla installs (Linux), torch answers False to all three
    torch = pytest.importorskip("torch")
    assert not torch.backends.mps.is_available()
    assert not torch.backends.mps.is_built()
    assert not torch.mps.is_available()


SAMPLER = """
import torch
from torch import nn


def mask_from(repeats):
    n = repeats.sum(-1).amax().item()
    return torch.arange(n, device=repeats.device)[None] < repeats.sum(-1)[..., None]


class Sampler(nn.Module):
    def __init__(self, net, use_ddim=False):
        super().__init__()
        self.net, self.use_ddim = net, use_ddim

    def ddpm(self, x, cond):
        for _ in range(10):
            x = self.net(x, cond)
        return x

    def ddim(self, x, cond):
        for _ in range(4):
            x = self.net(x, cond)
        return x

    @torch.no_grad()
    def sample(self, x, durations):
        {bind}
        cond = mask_from(durations).float()
        return sample_fn(x, cond)
"""


@pytest.mark.parametrize("bind", ["sample_fn = self.ddpm if not self.use_ddim else self.ddim",
                                  "sample_fn = self.ddpm"])
def test_a_bound_method_name_hands_the_work_on(bind: str) -> None:
    assert _found(SAMPLER.format(bind=bind)) == []


@pytest.mark.parametrize("bind", [
    "sample_fn = self.ddpm if not self.use_ddim else self.net",  # a submodule, not a method of the class
    "sample_fn = self.ddpm\n        sample_fn = self.ddim if self.use_ddim else sample_fn",  # bound twice
])
def test_other_bindings_hand_nothing_on(bind: str) -> None:
    assert ("XLA350", 7) in _found(SAMPLER.format(bind=bind))


ADAPTER = """
import torch
from torch import nn


class Adapter(nn.Module):
    def __init__(self, transform):
        super().__init__()
        self.transform = transform

    def forward(self, sample):
        image = sample["input"]
        if isinstance(image, torch.Tensor):
            image = image.permute(1, 2, 0).{read}
        return self.transform(image)
"""


def test_the_host_table_says_numpy_raises_on_xla() -> None:
    from xlacheck.rules.torch_host_sync_in_step import _raising_methods

    assert _raising_methods() == frozenset({"numpy"})


def test_numpy_of_a_tensor_reads_no_xla_value() -> None:
    # t.numpy() raises on an XLA tensor: where the code runs the tensor is on the CPU; .cpu() is still a read
    assert _found(ADAPTER.format(read="numpy()")) == []
    assert _found(ADAPTER.format(read="cpu().numpy()")) == [("XLA350", 14)]
    assert _found(ADAPTER.format(read="tolist()")) == [("XLA350", 14)]


def test_numpy_after_a_move_proves_the_move_went_to_the_cpu() -> None:
    # `forces.to(self.cpu_device).numpy()` works only if the move went to the CPU: that move is the read
    assert _found(ADAPTER.format(read="to(self.cpu_device).numpy()")) == [("XLA350", 14)]
    assert _found(ADAPTER.format(read="to(self.cpu_device).float().numpy()")) == [("XLA350", 14)]


def test_numpy_with_force_copies_an_xla_tensor() -> None:
    # the host table swept numpy() without arguments; numpy(force=True) returns an XLA tensor's values
    assert _found(ADAPTER.format(read="numpy(force=True)")) == [("XLA350", 14)]


def test_a_dtype_only_move_is_no_move_to_the_cpu() -> None:
    # .to(torch.float16) keeps the device: the .numpy() after it raises on XLA as .half().numpy() does
    assert _found(ADAPTER.format(read="to(torch.float16).numpy()")) == []
    assert _found(ADAPTER.format(read="to('cpu').numpy()")) == [("XLA350", 14)]


BOUND = '''
import torch
from torch import nn


class Sampler(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def decode(self, x):
        for _ in range(10):
            x = self.net(x)
        return x

    def post(self, x):
        return x * 2

    @torch.no_grad()
    def sample(self, x):
        fn = self.{method}
        n = x.sum().item()
        return fn(x[:, :int(n)])
'''


def test_a_name_bound_to_a_method_that_does_not_loop_hands_no_work_on() -> None:
    # `fn = self.post` runs no decode loop: what comes before its call is not the set-up of a work loop
    assert [c for c, _ in _found(BOUND.format(method="post"))] == ["XLA350"]
    assert _found(BOUND.format(method="decode")) == []
