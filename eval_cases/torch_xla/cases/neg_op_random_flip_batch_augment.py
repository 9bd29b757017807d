"""On-device batch augmentation: per-sample horizontal flips chosen by a boolean vector and applied with
torch.where over x.flip(-1), plus brightness jitter, before a small CNN.

Source: https://github.com/pytorch/xla/issues/2405 (batch transforms on the TPU; elementwise flips and
scaling stay in the graph, unlike grid_sample).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def augment(x, flip, gain):
    x = torch.where(flip.view(-1, 1, 1, 1), x.flip(-1), x)
    return (x * gain.view(-1, 1, 1, 1)).clamp(-3.0, 3.0)


class SmallCNN(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                 nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                 nn.Linear(16, n_classes))

    def forward(self, x):
        return self.net(x)


def make_train_step(model, opt):
    def train_step(x, y, flip, gain):
        opt.zero_grad()
        loss = F.cross_entropy(model(augment(x, flip, gain)), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(4, 3, 8, 8, generator=g)
    y = torch.randint(0, 4, (4,), generator=g)
    flip = torch.rand(4, generator=g) < 0.5
    gain = 0.8 + 0.4 * torch.rand(4, generator=g)
    return tuple(t.to(device) for t in (x, y, flip, gain))


def ENTRY(device):
    model = SmallCNN().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
