"""EfficientNet MBConv block (expand 1x1, depthwise 3x3, squeeze-excite, project) with SiLU activations.

Source: https://github.com/pytorch/xla/issues/2715 (EfficientNet extremely slow on TPU because
aten::silu_out was not lowered; SiLU was lowered afterwards).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MBConv(nn.Module):
    def __init__(self, c=16, expand=4, se_ratio=0.25):
        super().__init__()
        h = c * expand
        self.expand = nn.Sequential(nn.Conv2d(c, h, 1, bias=False), nn.BatchNorm2d(h), nn.SiLU())
        self.dw = nn.Sequential(nn.Conv2d(h, h, 3, padding=1, groups=h, bias=False), nn.BatchNorm2d(h), nn.SiLU())
        s = max(1, int(c * se_ratio))
        self.se = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(h, s, 1), nn.SiLU(), nn.Conv2d(s, h, 1), nn.Sigmoid())
        self.project = nn.Sequential(nn.Conv2d(h, c, 1, bias=False), nn.BatchNorm2d(c))

    def forward(self, x):
        h = self.dw(self.expand(x))
        return x + self.project(h * self.se(h))


class TinyEfficientNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.SiLU())
        self.block = MBConv()
        self.head = nn.Linear(16, n_classes)

    def forward(self, x):
        return self.head(self.block(self.stem(x)).mean((2, 3)))


def make_train_step(model, opt):
    def train_step(x, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y, label_smoothing=0.1)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 8, 8, generator=g).to(device), torch.randint(0, 4, (4,), generator=g).to(device)


def ENTRY(device):
    model = TinyEfficientNet().to(device)
    opt = torch.optim.RMSprop(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
