"""Source: https://github.com/pytorch/torchtitan/pull/3436

The same local token dispatcher with the per-expert counts taken by `scatter_add_` of ones into a
zero vector of length `num_experts` (a fixed-size count, the form a static-shape backend keeps on
the device) instead of `bincount`/`histc`.

Written as a near miss; the oracle disagreed: the process aborts on the XLA device
(`F external/xla/xla/shape.h:848] Check failed: buffer != nullptr`, label `crash`). A probe of the
ops alone (`argsort`, the 3-d weight gather, `index_copy`) aborts at the out-of-place `index_copy` of
the sorted rows back into place, so the case is kept, renamed, as a failing case of that op.
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
        counts = torch.zeros(self.num_experts, device=x.device).scatter_add_(
            0, expert, torch.ones_like(weight))
        order = expert.argsort()
        xs, es = x[order], expert[order]
        h = torch.bmm(xs.unsqueeze(1), self.w_in[es]).squeeze(1).relu()
        ys = torch.bmm(h.unsqueeze(1), self.w_out[es]).squeeze(1)
        out = torch.empty_like(ys).index_copy(0, order, ys) * weight.unsqueeze(-1)  # XLA: op
        balance = self.num_experts * (counts / x.size(0) * scores.mean(0)).sum()
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
