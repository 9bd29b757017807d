"""Source: https://github.com/pytorch/pytorch/issues/149405

"[torch.compile] Recompiles due to Python float object": a function compiled with `torch.compile`
takes a Python float and is recompiled when the float changes (the guard `L['y'] == 1.5` fails for
2.5). A VAE trained on an XLA device through `torch.compile(backend="openxla")`, whose forward takes
the KL-annealing weight `beta` as a Python float that grows every step. Written as a failing case and
renamed after the oracle: with torch 2.9.0 and torch_xla 2.9.0 no steady step compiles (dynamo passes
the float to the graph as a value, not as a guarded constant).
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, d=16, z=4):
        super().__init__()
        self.enc = nn.Linear(d, 2 * z)
        self.dec = nn.Sequential(nn.Linear(z, 32), nn.ReLU(), nn.Linear(32, d))

    def forward(self, x, eps, beta):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        zs = mu + eps * torch.exp(0.5 * logvar)
        recon = F.mse_loss(self.dec(zs), x, reduction="sum") / x.size(0)
        kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)
        return recon + beta * kl


def build_model(device):
    model = VAE().to(device)
    compiled = torch.compile(model, backend="openxla") if device.type == "xla" else model
    return model, compiled


class AnnealedTrainer:
    def __init__(self, model, compiled, warmup=1000):
        self.compiled = compiled
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.warmup = warmup
        self.step_num = 0

    def train_step(self, x, eps):
        self.step_num += 1
        beta = min(1.0, self.step_num / self.warmup)
        self.opt.zero_grad()
        loss = self.compiled(x, eps, beta)
        loss.backward()
        self.opt.step()
        return loss.detach()


# --- oracle ---
_KEEP = [AnnealedTrainer]


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 16, generator=g).to(device), torch.randn(8, 4, generator=g).to(device)


def ENTRY(device):
    trainer = AnnealedTrainer(*build_model(device))
    return trainer.train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
