"""Source: https://github.com/vllm-project/vllm/issues/16282

The decode step following the RFC's rule: the positions are prepared as a CPU tensor and transferred
with `cpu_tensor.to(device)`, which "only triggers CPU to TPU transfers and avoids compilation"; the
traced graph takes them as an input of a fixed shape.
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
        positions = torch.arange(start, start + ids.shape[1])[None, :].expand(ids.shape[0], -1).contiguous()
        return self.model(ids, positions.to(self.device)).argmax(-1)


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
