"""Source: https://github.com/tenstorrent/tt-xla/issues/5264 (`torch.histc` has no XLA lowering and falls back to the CPU mid-step; the fix in pull request #5280 decomposes it into `one_hot` + `sum`). The fix used here is that decomposition: the per-expert token counts are `F.one_hot(top_i, n_experts).sum(0)`. (Top-1 mixture-of-experts feed-forward layer with a load-balancing loss.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MoELayer(nn.Module):
    def __init__(self, d=16, n_experts=4):
        super().__init__()
        self.n_experts = n_experts
        self.router = nn.Linear(d, n_experts)
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.Linear(32, d)) for _ in range(n_experts))

    def forward(self, x):
        probs = F.softmax(self.router(x), dim=-1)
        top_p, top_i = probs.max(dim=-1)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            out = out + (top_i == e).unsqueeze(-1) * top_p.unsqueeze(-1) * expert(x)
        counts = F.one_hot(top_i, self.n_experts).float().sum(dim=0)
        fraction = counts / x.shape[0]
        aux = self.n_experts * torch.sum(fraction * probs.mean(dim=0))
        return out, aux


def make_train_step(model, head, opt):
    def train_step(tokens, targets):
        opt.zero_grad()
        hidden, aux = model(tokens)
        loss = F.mse_loss(head(hidden), targets) + 0.01 * aux
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(32, 16, generator=g).to(device), torch.randn(32, 1, generator=g).to(device)


def ENTRY(device):
    model, head = MoELayer().to(device), nn.Linear(16, 1).to(device)
    opt = torch.optim.SGD(list(model.parameters()) + list(head.parameters()), lr=0.05)
    return make_train_step(model, head, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
