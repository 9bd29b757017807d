"""The LAMB optimizer step with the trust ratio chosen on the device: `torch.where(w_norm > 0,
torch.where(g_norm > 0, w_norm / g_norm, one), one)`, so the zero-norm guard stays in the graph and
nothing is read back to the host during the optimizer step.

Source: https://github.com/mosaicml/composer/pull/967 ("Implement LAMB and LARS optimizers": the trust ratio
is computed with nested `torch.where` over the weight and update norms).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import Optimizer


class Lamb(Optimizer):
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
                    state["exp_avg"] = torch.zeros_like(p)
                    state["exp_avg_sq"] = torch.zeros_like(p)
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                beta1, beta2 = group["betas"]
                exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                update = exp_avg / exp_avg_sq.sqrt().add(group["eps"])
                if group["weight_decay"] != 0:
                    update.add_(p, alpha=group["weight_decay"])
                w_norm = torch.linalg.vector_norm(p)
                g_norm = torch.linalg.vector_norm(update)
                one = torch.ones_like(w_norm)
                trust_ratio = torch.where(w_norm > 0, torch.where(g_norm > 0, w_norm / g_norm, one), one)
                p.add_(update * trust_ratio, alpha=-group["lr"])


class Classifier(nn.Module):
    def __init__(self, d=16, n=4):
        super().__init__()
        self.fc1 = nn.Linear(d, 32)
        self.fc2 = nn.Linear(32, n)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


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
    model = Classifier().to(device)
    return make_train_step(model, Lamb(model.parameters(), lr=1e-2, weight_decay=0.01)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
