"""Source: https://github.com/pytorch/xla/issues/3763 (`_adaptive_avg_pool2d` missing from the
lowerings: a counter `aten::_adaptive_avg_pool2d` in the metrics report of a vision model).

A spatial-pyramid head pools a 16x16 feature map to a 5x5 grid with nn.AdaptiveAvgPool2d before the
classifier; 5 does not divide 16.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SppNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.grid = nn.AdaptiveAvgPool2d((5, 5))  # XLA: op
        self.fc = nn.Linear(8 * 25, n_classes)

    def forward(self, img):
        return self.fc(self.grid(self.stem(img)).flatten(1))


def make_train_step(model, opt):
    def train_step(img, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(img), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 3, 16, 16, generator=g).to(device), torch.randint(0, 3, (2,), generator=g).to(device)


def ENTRY(device):
    model = SppNet().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
