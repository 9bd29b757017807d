"""Source: https://github.com/vllm-project/vllm/pull/58064

Rotary embedding without the data-dependent growth check: the cos/sin table is built once for
`max_position_embeddings` at construction and each forward gathers rows by `position_ids`
(`F.embedding`), so no device value decides a Python branch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RotaryEmbedding(nn.Module):
    def __init__(self, dim=8, base=10000.0, max_position_embeddings=64):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        freqs = torch.arange(max_position_embeddings).float()[:, None] * inv_freq
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos(), persistent=False)
        self.register_buffer("sin_cached", emb.sin(), persistent=False)

    def forward(self, x, position_ids):
        return F.embedding(position_ids, self.cos_cached), F.embedding(position_ids, self.sin_cached)


def rotate_half(x):
    x1, x2 = x.chunk(2, -1)
    return torch.cat((-x2, x1), -1)


class RopeLM(nn.Module):
    def __init__(self, vocab=40, d=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.rope = RotaryEmbedding(d)
        self.q, self.k = nn.Linear(d, d), nn.Linear(d, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids, position_ids):
        x = self.emb(ids)
        cos, sin = self.rope(x, position_ids)
        q = self.q(x) * cos + rotate_half(self.q(x)) * sin
        k = self.k(x) * cos + rotate_half(self.k(x)) * sin
        att = (q @ k.transpose(1, 2)).softmax(-1)
        return self.head(att @ x)


def train_step(model, opt, ids, position_ids, labels):
    opt.zero_grad()
    loss = F.cross_entropy(model(ids, position_ids).flatten(0, 1), labels.flatten())
    loss.backward()
    opt.step()
    return loss.detach()


# --- oracle ---
import functools


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 40, (2, 8), generator=g)
    return ids.to(device), torch.arange(8).expand(2, 8).to(device), torch.randint(0, 40, (2, 8), generator=g).to(device)


def ENTRY(device):
    model = RopeLM().to(device)
    return functools.partial(train_step, model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
