"""Source: https://github.com/pytorch/xla/pull/558

"Route scalar values to device data to achieve graph convergence": Python scalars used in tensor
arithmetic become device data, so a changing value does not change the graph, except the most
common scalars (0 and 1), which stay constants. The review asks: "Wouldn't caching the common
scalars create different graphs if we start with let's say 0 and then add various values?". A VAE
trainer anneals the KL weight linearly from 0 to 1 over `anneal_steps` updates and then keeps it at
1.0: the step on which the weight first reaches 1.0 traces a graph the earlier steps never did.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, d=16, z=4):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 2 * z))
        self.dec = nn.Sequential(nn.Linear(z, 32), nn.ReLU(), nn.Linear(32, d))

    def forward(self, x, eps):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        recon = self.dec(mu + eps * torch.exp(0.5 * logvar))
        kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=-1).mean()
        return F.mse_loss(recon, x), kl


class AnnealedVAETrainer:
    def __init__(self, model, anneal_steps=4):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.anneal_steps = anneal_steps
        self.step = 0

    def train_step(self, x, eps):
        beta = min(1.0, self.step / self.anneal_steps)
        self.opt.zero_grad()
        recon, kl = self.model(x, eps)
        loss = recon + beta * kl  # XLA: recompile
        loss.backward()
        self.opt.step()
        self.step += 1
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 16, generator=g).to(device), torch.randn(8, 4, generator=g).to(device)


def ENTRY(device):
    return AnnealedVAETrainer(VAE().to(device)).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
