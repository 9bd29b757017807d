"""Source: https://github.com/vllm-project/vllm/pull/58064

Dynamic-NTK rotary embedding as wrapped by transformers' `dynamic_rope_update`: every forward
computes `seq_len = torch.max(position_ids) + 1` and branches on `seq_len > max_seq_len_cached`
in Python to grow the frequencies, a device value read back on each call.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DynamicRotaryEmbedding(nn.Module):
    def __init__(self, dim=8, base=10000.0, max_position_embeddings=16):
        super().__init__()
        self.dim, self.base = dim, base
        self.original_max_seq_len = max_position_embeddings
        self.max_seq_len_cached = max_position_embeddings
        self.register_buffer("inv_freq", 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim)), persistent=False)

    def _dynamic_frequency_update(self, position_ids):
        seq_len = torch.max(position_ids) + 1
        if seq_len > self.max_seq_len_cached:  # XLA: host
            base = self.base * ((seq_len / self.original_max_seq_len) ** (self.dim / (self.dim - 2)))
            self.inv_freq = 1.0 / (base ** (torch.arange(0, self.dim, 2, device=position_ids.device).float() / self.dim))
            self.max_seq_len_cached = seq_len

    def forward(self, x, position_ids):
        self._dynamic_frequency_update(position_ids)
        freqs = position_ids[..., None].float() * self.inv_freq
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos(), emb.sin()


def rotate_half(x):
    x1, x2 = x.chunk(2, -1)
    return torch.cat((-x2, x1), -1)


class RopeLM(nn.Module):
    def __init__(self, vocab=40, d=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.rope = DynamicRotaryEmbedding(d)
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
