"""Source: https://github.com/huggingface/pytorch-image-models/pull/2740 ("A few more mixup / cutmix /
bbox range fixups": timm's Mixup draws `lam` on the host with NumPy).

Image-classification step with Mixup whose mixing weight is a fresh Python float every step
(`lam = float(np.random.beta(alpha, alpha))`): torch_xla uploads such a scalar as device data, so a
new value does not change the graph (only 0 and +-1 are baked in, and Beta draws never hit them).
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallResNet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8, n_classes)

    def forward(self, x):
        return self.fc(F.relu(self.bn(self.conv(x))).mean((2, 3)))


def make_step(model, opt, alpha=0.4, seed=0, n_classes=10, smoothing=0.1):
    rng = np.random.default_rng(seed)

    def train_step(x, y):
        lam = float(rng.beta(alpha, alpha))
        x_mixed = x.mul(lam).add_(x.flip(0).mul_(1.0 - lam))
        off, on = smoothing / n_classes, 1.0 - smoothing + smoothing / n_classes
        y1 = torch.full((y.shape[0], n_classes), off, device=x.device).scatter_(1, y[:, None], on)
        target = y1 * lam + y1.flip(0) * (1.0 - lam)
        opt.zero_grad()
        loss = torch.sum(-target * F.log_softmax(model(x_mixed), dim=-1), dim=-1).mean()
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 16, 16, generator=g).to(device), torch.randint(0, 10, (4,), generator=g).to(device)


def ENTRY(device):
    model = SmallResNet().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
