"""Values that are no per-step device value (issue 12, precision, session 14), each fact with its near miss:

* a number an ``nn.Module`` fixes when it is built (``self.num_classes = num_classes`` in ``__init__`` from an
  ``int`` parameter, a literal or a config attribute, assigned nowhere else) is a static size: arithmetic of it
  and of a tensor's static shape is the same at every step of one input shape (measured with torch_xla 2.9 on
  the CPU: a ``view``/slice/factory size computed from ``x.shape`` compiles once per input shape, then every
  step of that shape hits the cache: 3 steps of one shape, 1 compilation; a second shape, 1 more);
* ``x.shape[2:]`` is a tuple of static sizes, so ``torch.tensor(x.shape[2:])`` is a CPU tensor, and so is
  ``torch.stack`` of a comprehension of them (Wan's ``grid_sizes``);
* a factory told ``device="cpu"`` builds on the CPU even in a file that sets a default device elsewhere, and
  ``with torch.device("cpu"):`` sets no device other than the CPU; ``device=t.device`` of a CPU tensor builds
  there too;
* a cache kept on ``self`` and rebuilt only when it is missing, too small (``need > self.table.shape[0]``, a table
  that grows by doubling) or no longer the static size needed (``b * self.n != self.buf.size(0)``, ``b`` from a
  shape) is set-up: a few sizes, each once (``_Builder._lazy_inits``);
* tokenizer ids that are only measured, compared with ``torch.equal`` or decoded on the host are no graph input
  (XLA401).

The snippets are written here (not copied from a case); findings are pinned by code and line."""

from __future__ import annotations

import textwrap

from xlacheck.engine import check_source


def _codes(src: str, path: str = "lib.py") -> list[tuple[str, int]]:
    # preview: XLA401 and XLA553 are behind --preview (below 90% true on real code); their facts are still tested
    found = check_source(textwrap.dedent(src), path, torch_xla=True, preview=True).diagnostics
    return sorted((d.code, d.line) for d in found)


DETECT = """
import torch
import torch.nn as nn


class Detect(nn.Module):
    def __init__(self, num_classes: int, priors):
        super().__init__()
        self.num_classes = num_classes
        self.priors = priors

    def forward(self, x):
        b, c, h, w = x.shape
        attrs = self.num_classes + 5
        per_cell = int(torch.div(c, attrs, rounding_mode="floor"))
        return x.view(b, per_cell, attrs, h, w).sum()
"""


def test_a_number_fixed_at_construction_is_a_static_size() -> None:
    assert _codes(DETECT) == []


def test_the_same_attribute_counted_up_in_forward_is_no_static_size() -> None:
    counted = DETECT.replace("        b, c, h, w = x.shape\n",
                             "        b, c, h, w = x.shape\n        self.num_classes += 1\n")
    assert _codes(counted) != []


def test_an_unannotated_parameter_without_a_number_default_is_no_static_size() -> None:
    # (the parameter may be a tensor: torch.div of it is a device op whose value int() reads)
    assert _codes(DETECT.replace("num_classes: int", "num_classes")) == [("XLA350", 15), ("XLA450", 16)]


GRID = """
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.patch = nn.Conv3d(4, 8, 2)

    def forward(self, x):
        x = [self.patch(u.unsqueeze(0)) for u in x]
        grid = torch.stack([torch.tensor(u.shape[2:], dtype=torch.long) for u in x])
        out = []
        for u, v in zip(x, grid.tolist()):
            out.append(u.flatten()[: v[0] * v[1] * v[2]])
        return out
"""


def test_a_tensor_of_static_shapes_is_on_the_cpu() -> None:
    assert _codes(GRID) == []


def test_the_same_stack_of_device_values_is_read_on_the_host() -> None:
    device = GRID.replace("torch.tensor(u.shape[2:], dtype=torch.long)", "u.sum(dim=(2, 3, 4)).long()")
    assert ("XLA350", 15) in _codes(device)


ROPE = """
import torch
import torch.nn as nn


class Rope(nn.Module):
    def __init__(self):
        super().__init__()
        self.table = None

    @staticmethod
    def precompute(dims, ends, theta: float = 10000.0):
        with torch.device("cpu"):
            out = []
            for d, e in zip(dims, ends):
                freqs = 1.0 / (theta ** (torch.arange(0, d, 2, dtype=torch.float64, device="cpu") / d))
                t = torch.arange(e, device=freqs.device, dtype=torch.float64)
                freqs = torch.outer(t, freqs).float()
                out.append(torch.polar(torch.ones_like(freqs), freqs))
            return out

    def forward(self, ids):
        if self.table is None:
            self.table = self.precompute([4], [8])
        return ids
"""


def test_factories_told_the_cpu_build_there_under_a_cpu_default_device() -> None:
    assert _codes(ROPE) == []


def test_the_same_code_under_another_default_device_is_a_device_op() -> None:
    # (with torch.device(d) of another device, a factory without device= builds there: the op falls back)
    other = ROPE.replace('device="cpu"))', 'device="cpu")) + torch.zeros(1)') \
        .replace('with torch.device("cpu"):', 'with torch.device("meta"):') \
        .replace("t = torch.arange(e, device=freqs.device,", "t = torch.arange(e,") \
        .replace("        if self.table is None:\n            self.table", "        self.table")
    # (built at every forward, not once as a cache: a lazy init is set-up, which XLA351 leaves alone too)
    assert _codes(other) == [("XLA351", 19)]


CACHE = """
import torch
import torch.nn as nn


class Rope(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.register_buffer("freqs", torch.ones(dim), persistent=False)
        self.register_buffer("table", torch.zeros(16, dim), persistent=False)

    def forward(self, pos):
        need = int(pos.max().item()) + 1
        if need > self.table.shape[0]:
            n = max(need, self.table.shape[0] * 2)
            t = torch.arange(n, device=pos.device)
            self.register_buffer("table", torch.outer(t, self.freqs), persistent=False)
        return self.table[pos]
"""


def test_a_table_rebuilt_only_for_a_larger_size_is_no_size_per_step() -> None:
    # (the .item() read stays: it runs at every step)
    assert _codes(CACHE) == [("XLA350", 13)]


def test_the_same_size_without_the_cache_is_one_per_step() -> None:
    uncached = CACHE.replace('self.register_buffer("table", torch.outer(t, self.freqs), persistent=False)',
                             "return torch.outer(t, self.freqs)")
    assert _codes(uncached) == [("XLA350", 13), ("XLA450", 16)]


TRUNCATION = """
import torch
import torch_xla


def encode(tokenizer, text_encoder, prompts, device):
    for prompt in prompts:
        ids = tokenizer(prompt, padding="max_length", max_length=77, truncation=True, return_tensors="pt").input_ids
        untruncated = tokenizer(prompt, padding="longest", return_tensors="pt").input_ids
        if untruncated.shape[-1] >= ids.shape[-1] and not torch.equal(ids, untruncated):
            print(tokenizer.batch_decode(untruncated[:, 76:-1]))
        yield text_encoder(ids.to(device))
"""


def test_ids_padded_to_the_longest_only_to_warn_on_the_host_are_no_input_shape() -> None:
    assert _codes(TRUNCATION) == []


def test_the_same_ids_handed_to_the_model_are_an_input_shape() -> None:
    fed = TRUNCATION.replace("text_encoder(ids.to(device))", "text_encoder(untruncated.to(device))")
    assert _codes(fed) == [("XLA401", 9)]


BUFFER = """
import torch
import torch.nn as nn


class Graph(nn.Module):
    def __init__(self, n: int, d: int):
        super().__init__()
        self.n = n
        self.d = d
        self.buf = None
        self.fc = nn.Linear(d, d)

    def forward(self, x):
        b = x.size(0)
        if self.buf is None or b * self.n != self.buf.size(0):
            self.buf = torch.zeros(self.n * b, self.d).to(x.device)
        return self.fc(self.buf).sum() + x.sum()
"""


def test_a_buffer_reallocated_when_the_batch_size_changes_is_set_up() -> None:
    assert _codes(BUFFER) == []


def test_the_same_buffer_sized_by_a_value_read_from_a_tensor_is_rebuilt_per_step() -> None:
    read = BUFFER.replace("b = x.size(0)", "b = int(x.sum().item())")
    assert _codes(read) == [("XLA350", 15), ("XLA450", 17), ("XLA553", 17)]


EXPERTS = """
import torch
import torch.nn as nn


class Experts(nn.Module):
    def __init__(self, n: int, d: int):
        super().__init__()
        self.w = nn.Parameter(torch.empty(n, d, d))
        self.grouped = False

    def _per_expert(self, x: torch.Tensor, counts: torch.Tensor) -> torch.Tensor:
        parts = torch.split(x, split_size_or_sections=counts.tolist(), dim=0)
        out = []
        for i, part in enumerate(parts):
            out.append(torch.matmul(part, self.w[i]))
        return torch.cat(out, dim=0)

    @torch.inference_mode(mode=False)
    def forward(self, x: torch.Tensor, counts: torch.Tensor) -> torch.Tensor:
        if not self.grouped:
            return self._per_expert(x, counts)
        for i in range(2):
            x = torch.matmul(x, self.w[i])
        return x
"""


def test_split_sizes_read_per_call_before_a_loop_stay_a_size_per_step() -> None:
    # (the set-up before a declared function's work loop runs once per call: a value new at every call is new at
    # every step; only a cache kept on self is built once per size)
    assert ("XLA450", 13) in _codes(EXPERTS)


def test_a_grown_table_with_an_elif_is_still_set_up() -> None:
    # (Kandinsky 5's RoPE: `elif self.table.device != pos.device:` moves it; the growth branch still runs once a size)
    moved = CACHE.replace("        return self.table[pos]\n",
                          "        elif self.table.device != pos.device:\n"
                          "            self.table = self.table.to(pos.device)\n"
                          "        return self.table[pos]\n")
    assert _codes(moved) == [("XLA350", 13)]
