"""Source: https://github.com/pytorch/xla/pull/558

The annealed VAE of the report's question (a KL weight that starts at 0 and ends at 1.0, where the
common scalars 0 and 1 would be graph constants), with the weight handed to the graph as a tensor:
`torch.tensor(beta)` is built on the host and moved to the device every step. Written as a near
miss and renamed after the oracle: with torch_xla 2.9 the 0-d tensor moved to the device behaves
like the Python scalar, and the step on which the weight reaches 1.0 compiles a new graph.
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
    def __init__(self, model, device, anneal_steps=4):
        self.model = model
        self.device = device
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.anneal_steps = anneal_steps
        self.step = 0

    def train_step(self, x, eps):
        beta = torch.tensor(min(1.0, self.step / self.anneal_steps)).to(self.device)  # XLA: recompile
        self.opt.zero_grad()
        recon, kl = self.model(x, eps)
        loss = recon + beta * kl
        loss.backward()
        self.opt.step()
        self.step += 1
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 16, generator=g).to(device), torch.randn(8, 4, generator=g).to(device)


def ENTRY(device):
    return AnnealedVAETrainer(VAE().to(device), device).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
