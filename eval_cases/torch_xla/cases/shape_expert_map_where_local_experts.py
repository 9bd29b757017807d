"""Source: https://github.com/vllm-project/vllm/pull/37582

Expert parallelism on one rank of a TPU MoE layer: the `expert_map` (global expert id -> local
id, -1 if another rank owns it) lives on the device and the forward recovers the local expert ids
with one-argument `torch.where(expert_map >= 0)`, a data-dependent size (the PR builds these on the
CPU at init for XLA).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EPMoE(nn.Module):
    def __init__(self, d=16, n_global=8, rank=1, world=2, top_k=2):
        super().__init__()
        self.top_k = top_k
        local = n_global // world
        expert_map = torch.full((n_global,), -1, dtype=torch.long)
        expert_map[rank * local:(rank + 1) * local] = torch.arange(local)
        self.register_buffer("expert_map", expert_map)
        self.gate = nn.Linear(d, n_global, bias=False)
        self.w = nn.Parameter(torch.randn(local, d, d) * 0.1)

    def forward(self, x):
        probs, topk_ids = torch.topk(self.gate(x).softmax(-1), self.top_k)
        local_global_ids = torch.where(self.expert_map >= 0)[0]  # XLA: shape
        weights = (topk_ids.unsqueeze(-1) == local_global_ids).float() * probs.unsqueeze(-1)  # (N, k, L)
        per_expert = torch.einsum("nd,lde->nle", x, self.w)
        return torch.einsum("nkl,nle->ne", weights, per_expert)


@torch.no_grad()
def moe_forward(layer, x):
    return x + layer(x)


# --- oracle ---
import functools


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(12, 16, generator=g).to(device),)


def ENTRY(device):
    return functools.partial(moe_forward, EPMoE().to(device)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
