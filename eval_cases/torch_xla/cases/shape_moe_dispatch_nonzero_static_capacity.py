"""Source: https://github.com/pytorch/pytorch/issues/62320

The statically shaped `nonzero` the report asks for, as it later landed (`torch.nonzero_static(input,
size=..., fill_value=...)`): a top-1 mixture-of-experts layer gives each expert a fixed capacity of
token slots, takes the first `capacity` routed tokens with `nonzero_static` and points unused slots
at an extra all-zero row. Written as a near miss and renamed after the oracle: torch_xla 2.9 has no
lowering for `aten::nonzero_static`, so every expert of every step runs it on the CPU.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Top1MoE(nn.Module):
    def __init__(self, d=16, num_experts=4, capacity=24):
        super().__init__()
        self.capacity = capacity
        self.router = nn.Linear(d, num_experts)
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.Linear(32, d))
                                     for _ in range(num_experts))

    def forward(self, x):
        n = x.shape[0]
        probs = self.router(x).softmax(-1)
        gate, expert_ids = probs.max(-1)
        x_pad = torch.cat([x, x.new_zeros(1, x.shape[1])])
        gate_pad = torch.cat([gate, gate.new_zeros(1)])
        out = x.new_zeros(n + 1, x.shape[1])
        for e, expert in enumerate(self.experts):
            idx = torch.nonzero_static(expert_ids == e, size=self.capacity, fill_value=n)  # XLA: shape
            idx = idx.squeeze(1)
            out = out.index_add(0, idx, expert(x_pad[idx]) * gate_pad[idx, None])
        return out[:n]


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
