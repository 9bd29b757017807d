"""Source: https://github.com/Lightning-AI/litgpt/pull/823

The reviewer's suggestion in the PR: skip an expert when its routing mask is empty
(`if not mask.any(): continue`). The check is a data-dependent Python branch: every expert of
every step reads a boolean back from the device (the author declined it for that reason).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MoEFeedForward(nn.Module):
    def __init__(self, d=16, n_expert=4, k=1):
        super().__init__()
        self.k, self.n_expert = k, n_expert
        self.gate = nn.Linear(d, n_expert, bias=False)
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(d, 32), nn.SiLU(), nn.Linear(32, d)) for _ in range(n_expert))

    def forward(self, x):
        B, T, C = x.shape
        x = x.view(-1, C)
        probs, indices = torch.topk(self.gate(x).softmax(-1), self.k)
        y = torch.zeros_like(x)
        for i, expert in enumerate(self.experts):
            mask = indices == i
            if not mask.any():  # XLA: host
                continue
            w = (probs * mask).sum(-1, keepdim=True)
            y = y + w * expert(x)
        return y.view(B, T, C)


class Block(nn.Module):
    def __init__(self, vocab=40, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.moe = MoEFeedForward(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        h = self.emb(ids)
        return self.head(h + self.moe(h))


def train_step(model, opt, ids, targets):
    opt.zero_grad()
    loss = F.cross_entropy(model(ids).flatten(0, 1), targets.flatten())
    loss.backward()
    opt.step()
    return loss.detach()


# --- oracle ---
import functools


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 40, (2, 8), generator=g).to(device), torch.randint(0, 40, (2, 8), generator=g).to(device)


def ENTRY(device):
    model = Block().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    return functools.partial(train_step, model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
