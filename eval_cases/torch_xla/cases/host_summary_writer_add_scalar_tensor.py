"""Source: https://github.com/pytorch/pytorch/issues/35188 ("Summary generation for tensorboard is very
slow": `tb.add_scalar('loss', loss, global_step=self.train_step)` with a tensor `loss`).

Step that logs the loss tensor itself to TensorBoard with `SummaryWriter.add_scalar` on every
step; the writer converts the value to a Python float (`Summary.Value(simple_value=float(loss))`).
"""
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.tensorboard import SummaryWriter


class Regressor(nn.Module):
    def __init__(self, d=10):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


class Runner:
    def __init__(self, model, opt, log_dir):
        self.model, self.opt = model, opt
        self.tb = SummaryWriter(log_dir)
        self.train_step = 0

    def step(self, x, y):
        self.opt.zero_grad()
        loss = F.smooth_l1_loss(self.model(x), y)
        loss.backward()
        self.opt.step()
        self.tb.add_scalar("loss", loss, global_step=self.train_step)  # XLA: host
        self.train_step += 1
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(16, 10, generator=g).to(device), torch.randn(16, generator=g).to(device)


def ENTRY(device):
    model = Regressor().to(device)
    runner = Runner(model, torch.optim.Adam(model.parameters(), lr=1e-3), tempfile.mkdtemp(prefix="tb_"))
    return runner.step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
