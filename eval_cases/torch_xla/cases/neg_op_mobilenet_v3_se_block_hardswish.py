"""Source: https://github.com/pytorch/xla/issues/3492

Training a MobileNetV3-style classifier on TPU: the inverted-residual blocks use `nn.Hardswish`
activations and a squeeze-excitation gate with `nn.Hardsigmoid`. The report asked for a lowering of
`aten::hardswish_` and `aten::hardswish_backward` (CPU fallbacks on torch_xla 1.11); the lowering
was added, so the forward and backward of these activations stay on the device.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SqueezeExcite(nn.Module):
    def __init__(self, c, r=4):
        super().__init__()
        self.fc1 = nn.Conv2d(c, c // r, 1)
        self.fc2 = nn.Conv2d(c // r, c, 1)
        self.gate = nn.Hardsigmoid(inplace=True)

    def forward(self, x):
        s = F.adaptive_avg_pool2d(x, 1)
        return x * self.gate(self.fc2(F.relu(self.fc1(s))))


class InvertedResidual(nn.Module):
    def __init__(self, c, expand=2):
        super().__init__()
        h = c * expand
        self.block = nn.Sequential(
            nn.Conv2d(c, h, 1, bias=False), nn.BatchNorm2d(h), nn.Hardswish(inplace=True),
            nn.Conv2d(h, h, 3, padding=1, groups=h, bias=False), nn.BatchNorm2d(h), nn.Hardswish(inplace=True),
            SqueezeExcite(h), nn.Conv2d(h, c, 1, bias=False), nn.BatchNorm2d(c))

    def forward(self, x):
        return x + self.block(x)


class TinyMobileNetV3(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(8),
                                  nn.Hardswish(inplace=True))
        self.blocks = nn.Sequential(InvertedResidual(8), InvertedResidual(8))
        self.head = nn.Sequential(nn.Linear(8, 32), nn.Hardswish(inplace=True), nn.Linear(32, classes))

    def forward(self, x):
        return self.head(F.adaptive_avg_pool2d(self.blocks(self.stem(x)), 1).flatten(1))


def make_train_step(model, opt):
    def train_step(images, labels):
        opt.zero_grad()
        loss = F.cross_entropy(model(images), labels)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 16, 16, generator=g).to(device), torch.randint(0, 10, (4,), generator=g).to(device)


def ENTRY(device):
    model = TinyMobileNetV3().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
