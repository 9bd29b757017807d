"""Written for torch-recall6 (with the rule change): a GAN-style step that logs both losses as
tensors with `SummaryWriter.add_scalars` every step.

Source: https://github.com/pytorch/pytorch/issues/35188 ("Summary generation for tensorboard is very slow"
with tensor values); the `add_scalars` form.
"""
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.tensorboard import SummaryWriter


class Critic(nn.Module):
    def __init__(self, d=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def make_step(model, opt, log_dir):
    writer = SummaryWriter(log_dir)
    state = {"step": 0}

    def train_step(real, fake):
        opt.zero_grad()
        loss_real = F.softplus(-model(real)).mean()
        loss_fake = F.softplus(model(fake)).mean()
        loss = loss_real + loss_fake
        loss.backward()
        opt.step()
        writer.add_scalars("critic", {"real": loss_real, "fake": loss_fake}, state["step"])  # XLA: host
        state["step"] += 1
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 6, generator=g).to(device), torch.randn(8, 6, generator=g).to(device)


def ENTRY(device):
    model = Critic().to(device)
    step = make_step(model, torch.optim.Adam(model.parameters(), lr=1e-3), tempfile.mkdtemp(prefix="tb_"))
    return step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
