"""Source: https://github.com/huggingface/optimum-tpu/pull/4

The pull request's static KV cache: keys and values are written into a cache allocated once at the
maximum length with `index_copy_` at the current position, held as a device tensor and advanced on
the device; attention masks the positions not written yet. Every decoding step has the same shapes.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

MAX_LEN = 16


class DecoderLayer(nn.Module):
    def __init__(self, vocab=32, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, vocab)
        self.dim = dim

    def forward(self, token, cache_k, cache_v, pos):
        q, k, v = self.qkv(self.emb(token)).chunk(3, dim=-1)
        cache_k.index_copy_(1, pos, k)
        cache_v.index_copy_(1, pos, v)
        scores = q @ cache_k.transpose(1, 2) / self.dim ** 0.5
        visible = torch.arange(MAX_LEN, device=token.device) <= pos
        attn = torch.softmax(scores.masked_fill(~visible, float("-inf")), dim=-1)
        return self.out(attn @ cache_v)


class Generator:
    def __init__(self, model, batch, device):
        self.model = model.eval()
        self.cache_k = torch.zeros(batch, MAX_LEN, model.dim, device=device)
        self.cache_v = torch.zeros(batch, MAX_LEN, model.dim, device=device)
        self.pos = torch.zeros(1, dtype=torch.long, device=device)

    @torch.no_grad()
    def decode_step(self, token):
        logits = self.model(token, self.cache_k, self.cache_v, self.pos)
        self.pos = self.pos + 1
        return logits.argmax(-1)


# --- oracle ---
_KEEP = [Generator]


def _token(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randint(0, 32, (2, 1), generator=g).to(device),)


def ENTRY(device):
    return Generator(DecoderLayer().to(device), 2, device).decode_step, _token(device, 0)


def ALT_ARGS(device):
    return [_token(device, s) for s in (1, 2)]
