"""Source: https://github.com/vllm-project/vllm/issues/16282

A decode step of a small language model that prepares its inputs on the TPU: the positions of the new
tokens are built with `torch.arange(start, start + n, device=self.device)` from the Python position
counter. The RFC's first rule is to "avoid TPU operations when preparing the model and sampler inputs"
(`torch.ones(...)`, `tensor[:index]` on the device), because the Python ints become constants of the
traced graph and each new position compiles again.
"""
import torch
import torch.nn as nn


class TinyDecoder(nn.Module):
    def __init__(self, vocab=40, d=16, max_pos=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_pos, d)
        self.mix = nn.Linear(d, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids, positions):
        return self.head(torch.tanh(self.mix(self.tok(ids) + self.pos(positions))))


class DecodeRunner:
    def __init__(self, model, device):
        self.model = model
        self.device = device

    @torch.no_grad()
    def step(self, ids, start):
        positions = torch.arange(start, start + ids.shape[1], device=self.device)  # XLA: recompile
        positions = positions[None, :].expand(ids.shape[0], -1)
        return self.model(ids, positions).argmax(-1)


# --- oracle ---
_KEEP = [DecodeRunner]


def _batch(device, seed, start):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(1, 40, (2, 4), generator=g).to(device), start


def ENTRY(device):
    runner = DecodeRunner(TinyDecoder().to(device), device)
    return runner.step, _batch(device, 0, 0)


def ALT_ARGS(device):
    return [_batch(device, s, 4 * s) for s in (1, 2, 3)]
