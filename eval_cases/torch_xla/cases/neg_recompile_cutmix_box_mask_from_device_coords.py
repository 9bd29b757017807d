"""Source: https://github.com/pytorch/xla/issues/2461

The same CutMix training with the box applied as a mask: the box centre and size are drawn as
tensors, moved to the device, compared with coordinate grids, and the shuffled batch is pasted
with `torch.where`; the mixing ratio is the mask's mean. No Python int reaches a slice, so every
step traces the same graph whatever box was drawn.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def box_mask(size, lam, device):
    h, w = size[2], size[3]
    cut = torch.sqrt(1.0 - lam)
    cx, cy = torch.randint(w, (1,)).to(device), torch.randint(h, (1,)).to(device)
    half_w, half_h = (w * cut).floor() // 2, (h * cut).floor() // 2
    xs = torch.arange(w, device=device)
    ys = torch.arange(h, device=device)
    in_x = (xs >= (cx - half_w).clamp(0, w)) & (xs < (cx + half_w).clamp(0, w))
    in_y = (ys >= (cy - half_h).clamp(0, h)) & (ys < (cy + half_h).clamp(0, h))
    return (in_y[:, None] & in_x[None, :])[None, None]


class FlowerNet(nn.Module):
    def __init__(self, classes=5):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                                  nn.Conv2d(16, 16, 3, padding=1, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(16, classes)

    def forward(self, x):
        return self.fc(self.body(x).flatten(1))


class CutMixTrainer:
    def __init__(self, model, beta=1.0):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        self.beta = torch.distributions.Beta(beta, beta)

    def train_step(self, images, labels):
        lam = self.beta.sample().to(images.device)
        rand_index = torch.randperm(images.size(0)).to(images.device)
        mask = box_mask(images.size(), lam, images.device)
        images = torch.where(mask, images[rand_index], images)
        lam = 1.0 - mask.float().mean()
        self.opt.zero_grad()
        out = self.model(images)
        loss = F.cross_entropy(out, labels) * lam + F.cross_entropy(out, labels[rand_index]) * (1.0 - lam)
        loss.backward()
        self.opt.step()
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 16, 16, generator=g).to(device), torch.randint(0, 5, (4,), generator=g).to(device)


def ENTRY(device):
    return CutMixTrainer(FlowerNet().to(device)).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
