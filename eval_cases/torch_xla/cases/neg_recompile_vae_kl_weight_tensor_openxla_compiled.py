"""Source: https://github.com/pytorch/pytorch/issues/149405

The usual way around the report's float guard: the KL-annealing weight is passed to the
`torch.compile(backend="openxla")` VAE as a 0-d tensor on the device, updated in place each step, so the
compiled graph sees the same input (a tensor of fixed shape) whatever its value.
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
    def __init__(self, model, compiled, device, warmup=1000):
        self.compiled = compiled
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.beta = torch.zeros((), device=device)
        self.increment = torch.full((), 1.0 / warmup, device=device)

    def train_step(self, x, eps):
        self.beta = torch.clamp(self.beta + self.increment, max=1.0)
        self.opt.zero_grad()
        loss = self.compiled(x, eps, self.beta)
        loss.backward()
        self.opt.step()
        return loss.detach()


# --- oracle ---
_KEEP = [AnnealedTrainer]


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 16, generator=g).to(device), torch.randn(8, 4, generator=g).to(device)


def ENTRY(device):
    model, compiled = build_model(device)
    return AnnealedTrainer(model, compiled, device).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
