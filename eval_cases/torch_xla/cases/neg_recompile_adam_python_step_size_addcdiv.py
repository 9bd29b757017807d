"""The transformers `AdamW` optimizer (v4.6) stepping on an XLA device: the bias-corrected step size is
a Python float computed from the step count, `step_size = lr * math.sqrt(1 - beta2 ** step) / (1 - beta1 ** step)`,
and is passed as `p.data.addcdiv_(exp_avg, denom, value=-step_size)`. The value changes on every step,
but torch_xla sends such scalars to the device as data, so the step's graph is the same each time.

Source: https://github.com/pytorch/xla/issues/4213 ("Seeing a roughly 25% slow down with torch-xla=1.13 because of the
addcdiv_ and addcmul_ ops": the scalars of `addcmul_(grad, grad, value=1.0 - beta2)` and
`addcdiv_(exp_avg, denom, value=-step_size)` are transferred to the device).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import Optimizer


class AdamW(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-6, weight_decay=0.0):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p)
                    state["exp_avg_sq"] = torch.zeros_like(p)
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                beta1, beta2 = group["betas"]
                state["step"] += 1
                exp_avg.mul_(beta1).add_(grad, alpha=1.0 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1.0 - beta2)
                denom = exp_avg_sq.sqrt().add_(group["eps"])
                step_size = group["lr"]
                bias_correction1 = 1.0 - beta1 ** state["step"]
                bias_correction2 = 1.0 - beta2 ** state["step"]
                step_size = step_size * math.sqrt(bias_correction2) / bias_correction1
                p.addcdiv_(exp_avg, denom, value=-step_size)
                if group["weight_decay"] > 0.0:
                    p.add_(p, alpha=-group["lr"] * group["weight_decay"])


def make_train_step(model, opt):
    def train_step(x, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 16, generator=g).to(device), torch.randint(0, 4, (8,), generator=g).to(device)


def ENTRY(device):
    model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 4)).to(device)
    return make_train_step(model, AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
