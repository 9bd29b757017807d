"""Multi-scale consistency training done without a per-step draw: every step runs the model on the same three
resized copies of the batch (`for s in (12, 16, 20)`), so every step traces the same graph.

Source: https://github.com/roboflow/rf-detr/pull/1436 (multi-scale training on XLA: one graph per scale; here
the scales are fixed and all run in every step, the near miss of a per-step random size).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyDetector(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.cls = nn.Linear(8, n_classes)

    def forward(self, imgs):
        return self.cls(self.body(imgs).mean((2, 3)))


def make_train_step(model, opt, scales=(12, 16, 20)):
    def train_step(imgs, y):
        opt.zero_grad()
        loss = 0.0
        for s in scales:
            resized = F.interpolate(imgs, size=(s, s), mode="bilinear", align_corners=False)
            loss = loss + F.cross_entropy(model(resized), y) / len(scales)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 16, 16, generator=g).to(device), torch.randint(0, 3, (4,), generator=g).to(device)


def ENTRY(device):
    model = TinyDetector().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
