"""Source: https://github.com/mosaicml/composer/pull/69 ("Add CutMix method"; the box-mask form of the
slice paste, with the box bounds kept as tensors).

Image-classification step with CutMix whose box is drawn on the device and pasted with a mask
built from `arange` comparisons (`torch.where(box, shuffled, x)`), so no Python int reaches a slice
and the graph is the same every step.
"""
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


def box_mask(h, w, lam, u, device):
    cut = torch.sqrt(1.0 - lam)
    ch, cw = (h * cut).floor(), (w * cut).floor()
    cy, cx = (u[0] * (h - 1)).floor(), (u[1] * (w - 1)).floor()
    y0, y1 = (cy - ch // 2).clamp(min=0), (cy + ch // 2).clamp(max=h)
    x0, x1 = (cx - cw // 2).clamp(min=0), (cx + cw // 2).clamp(max=w)
    rows = torch.arange(h, device=device)[:, None]
    cols = torch.arange(w, device=device)[None, :]
    return (rows >= y0) & (rows < y1) & (cols >= x0) & (cols < x1)


def make_step(model, opt):
    def train_step(x, y, lam, u):
        h, w = x.shape[2], x.shape[3]
        shuffled_idx = torch.arange(x.shape[0] - 1, -1, -1, device=x.device)
        box = box_mask(h, w, lam, u, x.device)
        x_cutmix = torch.where(box, x[shuffled_idx], x)
        area = box.float().mean()
        opt.zero_grad()
        logits = model(x_cutmix)
        loss = (1 - area) * F.cross_entropy(logits, y) + area * F.cross_entropy(logits, y[shuffled_idx])
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    lam = torch.distributions.Beta(1.0, 1.0).sample().clamp(0.05, 0.95)
    return (torch.randn(4, 3, 16, 16, generator=g).to(device), torch.randint(0, 10, (4,), generator=g).to(device),
            lam.to(device), torch.rand(2, generator=g).to(device))


def ENTRY(device):
    model = SmallResNet().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
