"""Source: https://github.com/pytorch/pytorch/pull/17011

A classifier whose head pools the 8x8 feature map with `nn.AdaptiveAvgPool2d(3)` (a 3x3 "spatial
pyramid" cell) before the linear layer. The report sped up adaptive average pooling for its common case,
a 1x1 output, by computing it as a mean; an output size that does not divide the input has uneven,
overlapping windows and needs the general adaptive-pooling kernel, forward and backward.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PoolNet(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(3)
        self.fc = nn.Linear(8 * 3 * 3, n_classes)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.features(x)), 1))  # XLA: op


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
    return torch.randn(4, 3, 8, 8, generator=g).to(device), torch.randint(0, 5, (4,), generator=g).to(device)


def ENTRY(device):
    model = PoolNet().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
