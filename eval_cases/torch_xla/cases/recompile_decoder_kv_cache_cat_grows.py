"""Source: https://github.com/huggingface/optimum-tpu/pull/4

Token-by-token decoding on an XLA device with a dynamic KV cache: each step concatenates the new key
and value onto the cache (`torch.cat([past_k, k], dim=1)`), so the attention inputs grow by one
position per token and every token is a new graph. The pull request added a static KV cache "to
better take advantage of Pytorch/XLA graphs".
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DecoderLayer(nn.Module):
    def __init__(self, vocab=32, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, vocab)
        self.dim = dim

    def forward(self, token, past_k, past_v):
        q, k, v = self.qkv(self.emb(token)).chunk(3, dim=-1)
        k = torch.cat([past_k, k], dim=1)  # XLA: recompile
        v = torch.cat([past_v, v], dim=1)  # XLA: recompile
        attn = torch.softmax(q @ k.transpose(1, 2) / self.dim ** 0.5, dim=-1)
        return self.out(attn @ v), k, v


class Generator:
    def __init__(self, model, batch, device):
        self.model = model.eval()
        self.past_k = torch.zeros(batch, 1, model.dim, device=device)
        self.past_v = torch.zeros(batch, 1, model.dim, device=device)

    @torch.no_grad()
    def decode_step(self, token):
        logits, self.past_k, self.past_v = self.model(token, self.past_k, self.past_v)
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
