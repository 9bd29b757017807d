"""Written for torch-recall11 (with the rule change): the same random crop, but the offsets are drawn
on the XLA device and applied as an index (`index_select` of `offset + arange(th)`), so the slice
bounds never become Python ints and the graph stays the same from step to step.

Source: https://github.com/pytorch/vision/pull/2401 (torchvision draws crop offsets with
`torch.randint(...).item()`); the device-side index is the rewrite XLA450 suggests.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def crop_on_device(img, th, tw):
    h, w = img.shape[-2:]
    i = torch.randint(0, h - th + 1, (1,), device=img.device)
    j = torch.randint(0, w - tw + 1, (1,), device=img.device)
    rows = i + torch.arange(th, device=img.device)
    cols = j + torch.arange(tw, device=img.device)
    return img.index_select(-2, rows).index_select(-1, cols)


class SmallNet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.fc = nn.Linear(8, n_classes)

    def forward(self, x):
        return self.fc(F.relu(self.conv(x)).mean((2, 3)))


def make_train_step(model, opt):
    def train_step(img, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(crop_on_device(img, 12, 12)), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
COMPARE = False  # the offsets come from the device RNG: the CPU and XLA streams differ


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 16, 16, generator=g).to(device), torch.randint(0, 10, (4,), generator=g).to(device)


def ENTRY(device):
    torch.manual_seed(0)
    model = SmallNet().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
