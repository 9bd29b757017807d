"""An auxiliary-loss weight decayed linearly to 0 (`max(0.0, 1 - step / total)`): when it reaches 0.0,
a constant torch_xla bakes into the graph, the step compiles again.

Source: pytorch/xla issue #990 (scheduled hyperparameters in the training loop); issue #3604.
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


def make_train_step(model, opt, device, total=4):
    step = 0

    def train_step(x, y):
        nonlocal step
        step += 1
        aux_weight = max(0.0, 1 - step / total)  # XLA: recompile
        opt.zero_grad()
        logits = model(x)
        aux = logits.pow(2).mean()
        loss = F.cross_entropy(logits, y) + aux_weight * aux
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
