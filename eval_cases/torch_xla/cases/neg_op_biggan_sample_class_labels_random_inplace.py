"""Source: https://github.com/pytorch/xla/issues/2603

BigGAN on TPU: every generator step samples a fresh latent and fresh class labels into persistent
device buffers, BigGAN-PyTorch's `Distribution.sample_()` - `normal_` for `z` and
`random_(0, num_categories)` for `y`. The report's metrics name `aten::random_` among the
operations routed back to the CPU on every iteration.

Written as a failing case; the oracle disagreed (label `ok`): torch_xla 2.9 lowers `random_(0, n)`.
Renamed, code unchanged.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CondGenerator(nn.Module):
    def __init__(self, z_dim=16, n_classes=10, out=48):
        super().__init__()
        self.embed = nn.Embedding(n_classes, z_dim)
        self.net = nn.Sequential(nn.Linear(2 * z_dim, 64), nn.ReLU(), nn.Linear(64, out))

    def forward(self, z, y):
        return torch.tanh(self.net(torch.cat([z, self.embed(y)], -1)))


class CondCritic(nn.Module):
    def __init__(self, n_classes=10, inp=48):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(inp, 64), nn.LeakyReLU(0.2))
        self.out = nn.Linear(64, 1)
        self.proj = nn.Embedding(n_classes, 64)

    def forward(self, x, y):
        h = self.body(x)
        return self.out(h).squeeze(-1) + (self.proj(y) * h).sum(-1)


class GANTrainer:
    def __init__(self, device, batch=8, z_dim=16, n_classes=10):
        self.G, self.D = CondGenerator(z_dim, n_classes).to(device), CondCritic(n_classes).to(device)
        self.opt_g = torch.optim.Adam(self.G.parameters(), 1e-4, betas=(0.0, 0.999))
        self.z_ = torch.zeros(batch, z_dim, device=device)
        self.y_ = torch.zeros(batch, dtype=torch.long, device=device)
        self.n_classes = n_classes

    def generator_step(self):
        self.z_.normal_()
        self.y_.random_(0, self.n_classes)
        self.opt_g.zero_grad()
        loss = -self.D(self.G(self.z_, self.y_), self.y_).mean()
        loss.backward()
        self.opt_g.step()
        return loss.detach()


# --- oracle ---
_KEEP = [GANTrainer]
COMPARE = False  # random sampling: the XLA and CPU RNG streams differ


def ENTRY(device):
    return GANTrainer(device).generator_step, ()
