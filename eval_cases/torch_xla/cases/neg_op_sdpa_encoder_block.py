"""Source: https://github.com/pytorch/xla/issues/8746 ("a HUGE performance degradation in SDPA
(scale_dot_product_attention) in xla 2.6.0 on TPU": SDPA vs a standard attention on the same inputs).

Transformer encoder block whose attention is `F.scaled_dot_product_attention` with a key-padding
mask: on XLA the op decomposes into lowered matmul/softmax ops (slower than a hand-written
attention in the report, but no CPU fallback).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EncoderBlock(nn.Module):
    def __init__(self, d=16, heads=2):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.norm1 = nn.LayerNorm(d)
        self.norm2 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, key_padding):
        b, t, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        attn_mask = key_padding[:, None, None, :]
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
        return x + self.ff(self.norm2(x))


def make_step(block, head, opt):
    def train_step(x, key_padding, y):
        opt.zero_grad()
        h = block(x, key_padding)
        loss = F.mse_loss(head(h[:, 0]), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    keep = torch.ones(4, 10, dtype=torch.bool)
    keep[:, 7:] = torch.rand(4, 3, generator=g) > 0.5
    return torch.randn(4, 10, 16, generator=g).to(device), keep.to(device), torch.randn(4, 1, generator=g).to(device)


def ENTRY(device):
    block, head = EncoderBlock().to(device), nn.Linear(16, 1).to(device)
    opt = torch.optim.AdamW(list(block.parameters()) + list(head.parameters()), lr=1e-3)
    return make_step(block, head, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
