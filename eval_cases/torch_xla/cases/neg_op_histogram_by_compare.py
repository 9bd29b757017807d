"""neg_op_histogram_by_compare.

Source: pytorch/xla issue #5038: the histogram as comparisons with fixed edges (lowers).
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



def make_train_step(model, opt, device):
    def train_step(x, y):
        opt.zero_grad()
        edges = torch.linspace(-2.0, 2.0, 5, device=x.device)
        hist = ((x[..., None] >= edges[:-1]) & (x[..., None] < edges[1:])).sum((0, 1))
        loss = F.cross_entropy(model(x), y) + 1e-3 * hist.max()
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
    return [_batch(device, s) for s in (1, 2)]
