"""Source: https://github.com/pytorch/xla/issues/2120 (calling `.item()` at every step makes a
transformers training loop on TPU ~100x slower; the read is moved after `xm.mark_step()` and still
runs every step).

A training loop body that syncs with `xm.mark_step()` and then appends `loss.item()` to the running
history every step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla.core.xla_model as xm


class Regressor(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, x):
        return self.body(x).squeeze(-1)


def make_loop_body(model, opt, history):
    def loop_body(x, y):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        xm.mark_step()
        history.append(loss.item())  # XLA: host
        return loss.detach()
    return loop_body


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 16, generator=g).to(device), torch.randn(8, generator=g).to(device)


def ENTRY(device):
    model = Regressor().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    return make_loop_body(model, opt, []), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]

MARK_STEP = False  # the case syncs itself
