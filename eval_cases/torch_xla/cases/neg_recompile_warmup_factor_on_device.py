"""The warm-up factor computed on the device from a step-count tensor (`torch.clamp(step_t / warmup,
max=1.0)`): one graph for every step, the end of warm-up included.

Source: pytorch/xla issue #990 (hyperparameter scheduling without recompilation).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

class Classifier(nn.Module):
    def __init__(self, d_in=16, hidden=32, n_classes=4):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, n_classes)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def make_train_step(model, opt, device, warmup=4):
    step_t = torch.zeros((), device=device)

    def train_step(x, y):
        nonlocal step_t
        step_t = step_t + 1
        warm = torch.clamp(step_t / warmup, max=1.0)
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y) * warm
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed, b=8, d=16):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(b, d, generator=g).to(device), torch.randint(0, 4, (b,), generator=g).to(device)


def ENTRY(device):
    model = Classifier().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt, device), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3, 4)]
