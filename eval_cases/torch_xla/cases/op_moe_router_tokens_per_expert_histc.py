"""Source: https://github.com/tenstorrent/tt-xla/pull/5280

A token-choice top-k MoE router trained on an XLA device. The number of tokens sent to each
expert (for the load-balancing loss) is counted with `torch.histc` over the selected expert ids.
The pull request: "`torch.histc` has no XLA/TTNN lowering, so torch_xla routes it to a CPU
fallback", which forces the partial graph to materialise in the middle of the step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TopKRouterMoE(nn.Module):
    def __init__(self, dim=16, num_experts=4, top_k=2):
        super().__init__()
        self.num_experts, self.top_k = num_experts, top_k
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList(nn.Linear(dim, dim) for _ in range(num_experts))

    def forward(self, x):
        probs = F.softmax(self.gate(x), -1)
        top_p, top_i = probs.topk(self.top_k, -1)
        tokens_per_expert = torch.histc(  # XLA: op
            top_i.flatten().float(), bins=self.num_experts, min=0, max=self.num_experts - 1)
        frac = tokens_per_expert / top_i.numel()
        aux = self.num_experts * (frac * probs.mean(0)).sum()
        dense = torch.stack([e(x) for e in self.experts], 1)  # (T, E, D)
        weights = torch.zeros_like(probs).scatter(1, top_i, top_p)
        return (weights.unsqueeze(-1) * dense).sum(1), aux


def make_train_step(moe, head, opt):
    def train_step(x, y):
        opt.zero_grad()
        h, aux = moe(x)
        loss = F.mse_loss(head(h), y) + 0.01 * aux
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(12, 16, generator=g).to(device), torch.randn(12, 1, generator=g).to(device)


def ENTRY(device):
    moe, head = TopKRouterMoE().to(device), nn.Linear(16, 1).to(device)
    opt = torch.optim.SGD(list(moe.parameters()) + list(head.parameters()), lr=0.05)
    return make_train_step(moe, head, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
