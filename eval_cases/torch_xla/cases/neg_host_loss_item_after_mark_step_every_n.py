"""Source: https://github.com/pytorch/xla/issues/1777 (the maintainers: calling `loss.item()` at every
step is not advised; read it every N steps).

A training loop body that syncs with `xm.mark_step()` and reads `loss.item()` only on every 100th step
(the steps the oracle runs never reach it).
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


def make_loop_body(model, opt, history, log_every=100):
    state = {"step": 0}

    def loop_body(x, y):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        xm.mark_step()
        state["step"] += 1
        if state["step"] % log_every == 0:
            history.append(loss.item())
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
