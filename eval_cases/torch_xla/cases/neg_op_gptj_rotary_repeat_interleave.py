"""GPT-J's rotary position embedding as first written in transformers: the per-position sin/cos
tables are widened to the head dimension with `torch.repeat_interleave(sin[None, :seq, None, :], 2, 3)`
inside every attention layer's forward. With an int `repeats` torch_xla 2.9 lowers it (the oracle: one
compile, no aten:: fallback); the report's `aten::repeat_interleave.Tensor` is the tensor-`repeats` form.

Source: https://github.com/pytorch/xla/issues/4821 ("Lower `aten::repeat_interleave.Tensor`": "This model is used in
GPTJ").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def fixed_pos_embedding(x, seq_dim=1, seq_len=None):
    dim = x.shape[-1]
    if seq_len is None:
        seq_len = x.shape[seq_dim]
    inv_freq = 1.0 / (10000 ** (torch.arange(0, dim, 2, device=x.device).float() / dim))
    sinusoid_inp = torch.einsum("i,j->ij", torch.arange(seq_len, device=x.device).float(), inv_freq)
    return torch.sin(sinusoid_inp), torch.cos(sinusoid_inp)


def rotate_every_two(x):
    x1 = x[:, :, :, ::2]
    x2 = x[:, :, :, 1::2]
    return torch.stack((-x2, x1), dim=-1).flatten(-2)


def apply_rotary_pos_emb(x, sincos, offset=0):
    sin, cos = map(lambda t: torch.repeat_interleave(t[None, offset: x.shape[1] + offset, None, :], 2, 3), sincos)
    return (x * cos) + (rotate_every_two(x) * sin)


class GPTJAttention(nn.Module):
    def __init__(self, d=32, heads=4, rotary_dim=8):
        super().__init__()
        self.heads, self.head_dim, self.rotary_dim = heads, d // heads, rotary_dim
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.out = nn.Linear(d, d, bias=False)

    def forward(self, h):
        b, t, d = h.shape
        q, k, v = self.qkv(h).view(b, t, 3, self.heads, self.head_dim).unbind(2)
        sincos = fixed_pos_embedding(k[:, :, :, : self.rotary_dim], 1, seq_len=t)
        q = torch.cat([apply_rotary_pos_emb(q[..., : self.rotary_dim], sincos), q[..., self.rotary_dim:]], -1)
        k = torch.cat([apply_rotary_pos_emb(k[..., : self.rotary_dim], sincos), k[..., self.rotary_dim:]], -1)
        att = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
        return self.out(att.transpose(1, 2).reshape(b, t, d))


def make_train_step(model, opt):
    def train_step(h, target):
        opt.zero_grad()
        loss = F.mse_loss(model(h), target)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 6, 32, generator=g).to(device), torch.randn(2, 6, 32, generator=g).to(device)


def ENTRY(device):
    model = GPTJAttention().to(device)
    return make_train_step(model, torch.optim.AdamW(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
