"""Source: https://github.com/pytorch/pytorch/issues/62320

"Support JAX-style statically shaped nonzero to avoid host-device synchronization": `nonzero` must
fetch the number of non-zero elements from the device before it can allocate its output, which
"stalls the pipeline" and truncates the lazy-tensor graph. A top-1 mixture-of-experts layer trained
on an XLA device finds the tokens routed to each expert with `(expert_ids == e).nonzero()`, so
every expert of every step asks the device how many tokens it got.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Top1MoE(nn.Module):
    def __init__(self, d=16, num_experts=4):
        super().__init__()
        self.router = nn.Linear(d, num_experts)
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.Linear(32, d))
                                     for _ in range(num_experts))

    def forward(self, x):
        probs = self.router(x).softmax(-1)
        gate, expert_ids = probs.max(-1)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            idx = (expert_ids == e).nonzero(as_tuple=True)[0]  # XLA: shape
            out = out.index_add(0, idx, expert(x[idx]) * gate[idx, None])
        return out


class Trainer:
    def __init__(self, model):
        self.model = model
        self.head = nn.Linear(16, 1).to(next(model.parameters()).device)
        self.opt = torch.optim.SGD(list(model.parameters()) + list(self.head.parameters()), lr=0.05)

    def train_step(self, x, y):
        self.opt.zero_grad()
        loss = F.mse_loss(self.head(x + self.model(x)).squeeze(-1), y)
        loss.backward()
        self.opt.step()
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(24, 16, generator=g).to(device), torch.randn(24, generator=g).to(device)


def ENTRY(device):
    return Trainer(Top1MoE().to(device)).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
