"""LARS-style trust ratio kept on the device (`torch.where` on the norms): no host read.

Source: pytorch/xla issue #2511 (LARS/LAMB on TPU).
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


def make_train_step(model, opt, device, eta=0.001):
    def train_step(x, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        with torch.no_grad():
            for p in model.parameters():
                w_norm, g_norm = p.norm(), p.grad.norm()
                ok = (w_norm > 0) & (g_norm > 0)
                trust = torch.where(ok, eta * w_norm / g_norm.clamp(min=1e-12), torch.ones_like(w_norm))
                p.grad.mul_(trust)
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
    return [_batch(device, s) for s in (1, 2, 3)]
