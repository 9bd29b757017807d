"""The memory-saving chunked LM loss over the whole fixed 64-token buffer (the padding tokens are part of
the stream): the chunk count is `math.ceil(64 / 8)`, a constant, so the unrolled loop is one graph.

Source: https://github.com/pytorch/xla/pull/1059 (a near miss of the API_GUIDE pitfall: a loop with the
same number of iterations on every step compiles once).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla
from torch.utils.data import DataLoader

CHUNK = 8
BUFFER = 64


class TinyLM(nn.Module):
    def __init__(self, vocab=40, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, vocab)


def train(model, opt, dataset, device):
    loader = DataLoader(dataset, batch_size=4, drop_last=True)
    for flat_ids, lengths in loader:
        flat_ids = flat_ids.to(device)
        opt.zero_grad()
        h = torch.tanh(model.emb(flat_ids[:-1]))
        n_chunks = math.ceil(BUFFER / CHUNK)
        loss = h.new_zeros(())
        for i in range(n_chunks):
            part = h[i * CHUNK:(i + 1) * CHUNK]
            loss = loss + F.cross_entropy(model.out(part), flat_ids[1:][i * CHUNK:(i + 1) * CHUNK], reduction="sum")
        loss.backward()
        opt.step()
        torch_xla.sync()


# --- oracle ---
def _args(device, seed, lengths):
    g = torch.Generator().manual_seed(seed)
    flat = torch.randint(1, 40, (65,), generator=g)  # a fixed 64 + 1 token buffer, real tokens first
    return flat.to(device), torch.tensor(lengths)


def ENTRY(device):
    model = TinyLM().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def step(flat_ids, lengths):
        opt.zero_grad()
        h = torch.tanh(model.emb(flat_ids[:-1]))
        n_chunks = math.ceil(BUFFER / CHUNK)
        loss = h.new_zeros(())
        for i in range(n_chunks):
            part = h[i * CHUNK:(i + 1) * CHUNK]
            loss = loss + F.cross_entropy(model.out(part), flat_ids[1:][i * CHUNK:(i + 1) * CHUNK], reduction="sum")
        loss.backward()
        opt.step()
        return loss.detach()
    return step, _args(device, 0, (10, 6, 8, 4))


def ALT_ARGS(device):
    return [_args(device, 1, (12, 9, 8, 10)), _args(device, 2, (3, 4, 2, 5)), _args(device, 3, (16, 16, 16, 15))]
