"""recompile_targets_row_count (the oracle labels it host_sync: the int() read; no steady recompile was measured for the zeros(n_pos, 4) target, whose sum torch_xla computes without the shape mattering).

Source: roboflow/rf-detr PR #1450 (XLA compiles per shape; the loss is shaped by the ground-truth box count, so pad targets to a fixed row count).
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
        n_pos = int((y > 0).sum())  # XLA: host
        targets = torch.zeros(n_pos, 4, device=x.device)  # XLA: recompile
        loss = F.cross_entropy(model(x), y) + targets.sum()
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
