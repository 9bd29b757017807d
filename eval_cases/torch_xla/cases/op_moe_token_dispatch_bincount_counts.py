"""Source: https://github.com/pytorch/torchtitan/pull/3436

A local token dispatcher for a MoE layer: tokens are sorted by their expert id and the per-expert
counts are taken with `torch.bincount(..., minlength=num_experts)`, the swap from `histc` the pull
request lands in the router and the dispatcher's reorderer. The counts feed the load-balancing
term; `bincount` has a value-dependent output size and runs through the CPU fallback of torch_xla.
The oracle's label is `crash`: the process aborts at the out-of-place `index_copy` that puts the sorted
rows back (`Check failed: buffer != nullptr`, the same abort as op_moe_token_dispatch_unsort_index_copy).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LocalDispatchMoE(nn.Module):
    def __init__(self, dim=16, num_experts=4):
        super().__init__()
        self.num_experts = num_experts
        self.router = nn.Linear(dim, num_experts, bias=False)
        self.w_in = nn.Parameter(torch.randn(num_experts, dim, 32) * 0.1)
        self.w_out = nn.Parameter(torch.randn(num_experts, 32, dim) * 0.1)

    def forward(self, x):
        scores = F.softmax(self.router(x), -1)
        weight, expert = scores.max(-1)
        counts = torch.bincount(expert, minlength=self.num_experts)  # XLA: op
        order = expert.argsort()
        xs, es = x[order], expert[order]
        h = torch.bmm(xs.unsqueeze(1), self.w_in[es]).squeeze(1).relu()
        ys = torch.bmm(h.unsqueeze(1), self.w_out[es]).squeeze(1)
        out = torch.empty_like(ys).index_copy(0, order, ys) * weight.unsqueeze(-1)  # XLA: op
        balance = self.num_experts * (counts.float() / x.size(0) * scores.mean(0)).sum()
        return out, balance


def make_train_step(moe, opt):
    def train_step(x, target):
        opt.zero_grad()
        out, balance = moe(x)
        loss = F.mse_loss(out, target) + 0.01 * balance
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(16, 16, generator=g).to(device), torch.randn(16, 16, generator=g).to(device)


def ENTRY(device):
    moe = LocalDispatchMoE().to(device)
    return make_train_step(moe, torch.optim.SGD(moe.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
