"""Spatial transformer network: a localisation net predicts an affine matrix, the input is resampled with
F.affine_grid + F.grid_sample before the classifier.

Source: https://github.com/pytorch/xla/issues/2405 (batch transforms built on grid_sample run slower on
TPU than on CPU: the sampler falls back).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class STNClassifier(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.loc = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                 nn.Linear(8, 6))
        nn.init.zeros_(self.loc[-1].weight)
        with torch.no_grad():
            self.loc[-1].bias.copy_(torch.tensor([1.0, 0, 0, 0, 1.0, 0]))
        self.cls = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 12 * 12, n_classes))

    def forward(self, x):
        theta = self.loc(x).view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        x = F.grid_sample(x, grid, align_corners=False)  # XLA: op
        return self.cls(x)


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
    return torch.randn(4, 1, 12, 12, generator=g).to(device), torch.randint(0, 4, (4,), generator=g).to(device)


def ENTRY(device):
    model = STNClassifier().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
