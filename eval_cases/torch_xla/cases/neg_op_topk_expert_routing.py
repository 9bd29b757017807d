"""Mixture-of-experts layer with top-2 routing: torch.topk on the router logits (constant k), dense
dispatch through a one-hot combine matrix, plus a load-balancing auxiliary loss.

Source: https://github.com/pytorch/xla/issues/5904 ([Core ATen Opset] Lower aten_topk; topk with a
constant k is lowered).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Top2MoE(nn.Module):
    def __init__(self, dim=16, n_experts=4, hidden=32):
        super().__init__()
        self.router = nn.Linear(dim, n_experts)
        self.w1 = nn.Parameter(torch.randn(n_experts, dim, hidden) * 0.1)
        self.w2 = nn.Parameter(torch.randn(n_experts, hidden, dim) * 0.1)
        self.n = n_experts

    def forward(self, x):
        probs = self.router(x).softmax(-1)
        top_p, top_i = torch.topk(probs, 2, dim=-1)
        combine = (F.one_hot(top_i, self.n).to(x.dtype) * (top_p / top_p.sum(-1, keepdim=True)).unsqueeze(-1)).sum(-2)
        h = torch.einsum("td,edh->teh", x, self.w1).relu()
        y = torch.einsum("teh,ehd->ted", h, self.w2)
        out = (y * combine.unsqueeze(-1)).sum(1)
        aux = self.n * (probs.mean(0) * combine.gt(0).to(x.dtype).mean(0)).sum()
        return out, aux


def make_train_step(moe, head, opt):
    def train_step(x, y):
        opt.zero_grad()
        h, aux = moe(x)
        loss = F.cross_entropy(head(h), y) + 0.01 * aux
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 16, generator=g).to(device), torch.randint(0, 3, (8,), generator=g).to(device)


def ENTRY(device):
    moe, head = Top2MoE().to(device), nn.Linear(16, 3).to(device)
    opt = torch.optim.Adam(list(moe.parameters()) + list(head.parameters()), lr=1e-3)
    return make_train_step(moe, head, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
