"""Written for torch-recall6 (with the rule change): a step that logs the learning rate (a Python
float from the scheduler) with `SummaryWriter.add_scalar` every step, and keeps the loss on the device.

Source: https://github.com/pytorch/pytorch/issues/35188 (TensorBoard logging in the step); near miss logging a
Python float.
"""
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.tensorboard import SummaryWriter


class Regressor(nn.Module):
    def __init__(self, d=10):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 16), nn.GELU(), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


class Runner:
    def __init__(self, model, opt, log_dir):
        self.model, self.opt = model, opt
        self.sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.9)
        self.tb = SummaryWriter(log_dir)
        self.global_step = 0

    def step(self, x, y):
        self.opt.zero_grad()
        loss = F.mse_loss(self.model(x), y)
        loss.backward()
        self.opt.step()
        self.tb.add_scalar("lr", self.sched.get_last_lr()[0], self.global_step)
        self.sched.step()
        self.global_step += 1
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(16, 10, generator=g).to(device), torch.randn(16, generator=g).to(device)


def ENTRY(device):
    model = Regressor().to(device)
    runner = Runner(model, torch.optim.SGD(model.parameters(), lr=0.1), tempfile.mkdtemp(prefix="tb_"))
    return runner.step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
