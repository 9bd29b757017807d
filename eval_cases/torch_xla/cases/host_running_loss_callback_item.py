"""An end-of-batch callback that updates a smoothed running loss with `loss.item()` after the optimizer
step, before the step's graph ran.

Source: Lightning-AI/pytorch-lightning issue #15884 (end-of-batch callbacks (progress bar, running loss)
access lazy tensors and trigger early evaluations).
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


class RunningLoss:
    def __init__(self):
        self.value = 0.0

    def on_batch_end(self, loss):
        self.value = 0.98 * self.value + 0.02 * loss.item()  # XLA: host


def make_train_step(model, opt, device):
    tracker = RunningLoss()

    def train_step(x, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        tracker.on_batch_end(loss)
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
