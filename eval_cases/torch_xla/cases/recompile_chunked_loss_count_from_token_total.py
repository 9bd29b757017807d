"""A memory-saving LM loss computed over the batch's real tokens in chunks of 8: the chunk count,
`math.ceil(total / 8)` with the total read from the CPU lengths of each batch, sets the trip count of a
Python loop over torch ops, and torch_xla unrolls it into a new graph for each count.

Source: https://github.com/pytorch/xla/pull/1059 (API_GUIDE pitfalls: "Loops with a different number of
iterations between steps ... require recompilations").
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla
from torch.utils.data import DataLoader

CHUNK = 8


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
        total = sum(lengths.tolist())
        n_chunks = math.ceil(total / CHUNK)
        loss = h.new_zeros(())
        for i in range(n_chunks):  # XLA: recompile
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
        n_chunks = math.ceil(sum(lengths.tolist()) / CHUNK)
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
