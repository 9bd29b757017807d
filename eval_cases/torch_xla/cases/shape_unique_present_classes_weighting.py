"""Source: https://github.com/pytorch/pytorch/issues/151722

A classification step that reweights the loss by the inverse frequency of the classes present in the
batch, found with `torch.unique(y, return_counts=True)`. The number of distinct labels is
data-dependent, which is why the report asks for a `maxcount` argument "to prevent a synchronization"
(as `torch.bincount` has `minlength`): the result's size is only known after the values are.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, d=12, n_classes=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 24), nn.ReLU(), nn.Linear(24, n_classes))

    def forward(self, x):
        return self.net(x)


def make_train_step(model, opt, n_classes=6):
    def train_step(x, y):
        opt.zero_grad()
        classes, counts = torch.unique(y, return_counts=True)  # XLA: shape
        weight = torch.zeros(n_classes, device=x.device)
        weight[classes] = y.numel() / (classes.numel() * counts.float())
        loss = F.cross_entropy(model(x), y, weight=weight)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 12, generator=g).to(device), torch.randint(0, 3 + seed, (8,), generator=g).to(device)


def ENTRY(device):
    model = Classifier().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
