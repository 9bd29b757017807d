"""Source: https://github.com/huggingface/transformers/pull/31129

A static KV cache updated with advanced-index assignment at a device `cache_position` tensor
(`k_cache[:, :, cache_position] = key_states`), the form the PR wanted to replace with
`index_copy_` for XLA. The position is a tensor, not a Python int; whether the assignment
recompiles is for the oracle to say (written as a near miss).
"""
import torch
import torch.nn as nn


class CachedAttention(nn.Module):
    def __init__(self, d=16, heads=2, max_cache_len=16):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))
        self.register_buffer("k_cache", torch.zeros(1, heads, max_cache_len, d // heads))
        self.register_buffer("v_cache", torch.zeros(1, heads, max_cache_len, d // heads))

    def forward(self, x, cache_position):
        B, T, _ = x.shape
        split = lambda t: t.view(B, T, self.h, self.dh).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        self.k_cache[:, :, cache_position] = k
        self.v_cache[:, :, cache_position] = v
        valid = torch.arange(self.k_cache.size(2), device=x.device) <= cache_position.max()
        att = (q @ self.k_cache.transpose(2, 3)) / self.dh ** 0.5
        att = att.masked_fill(~valid, float("-inf")).softmax(-1)
        return self.o((att @ self.v_cache).transpose(1, 2).reshape(B, T, -1))


class Decoder:
    def __init__(self, attn, emb, head, device):
        self.attn, self.emb, self.head = attn, emb, head
        self.token = torch.zeros(1, 1, dtype=torch.long, device=device)
        self.cache_position = torch.zeros(1, dtype=torch.long, device=device)

    @torch.no_grad()
    def step(self):
        h = self.attn(self.emb(self.token), self.cache_position)
        self.token = self.head(h).argmax(-1)
        self.cache_position = self.cache_position + 1
        return self.token


# --- oracle ---
def ENTRY(device):
    attn, emb, head = CachedAttention().to(device), nn.Embedding(32, 16).to(device), nn.Linear(16, 32).to(device)
    return Decoder(attn, emb, head, device).step, ()


REPEAT = 6
