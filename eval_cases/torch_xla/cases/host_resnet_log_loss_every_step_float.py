"""ResNet-style training step that hands the loss to a small metrics logger every step; the logger
keeps a running mean with `float(loss)`.

Source: https://github.com/pytorch/xla/issues/5188 ("Slow Device To Host Transfers": ResNet-50 on TPU
loses ~10% of its throughput to logging the loss; removing the per-step logging closes the gap).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1, self.bn1 = nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c)
        self.conv2, self.bn2 = nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        return F.relu(x + self.bn2(self.conv2(h)))


class TinyResNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.block = Block(8)
        self.fc = nn.Linear(8, n_classes)

    def forward(self, x):
        return self.fc(self.block(F.relu(self.stem(x))).mean((2, 3)))


class RunningMean:
    def __init__(self):
        self.total, self.count = 0.0, 0

    def update(self, value):
        self.total += float(value)  # XLA: host
        self.count += 1


def make_train_step(model, opt, meter):
    def train_step(img, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(img), y)
        loss.backward()
        opt.step()
        meter.update(loss.detach())
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 8, 8, generator=g).to(device), torch.randint(0, 4, (4,), generator=g).to(device)


def ENTRY(device):
    model = TinyResNet().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    return make_train_step(model, opt, RunningMean()), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
