"""Segmentation training step with a leftover debugging line that peeks at one logit with
`logits.cpu()[0, 0]` and keeps it in a list for later inspection.

Source: https://github.com/pytorch/xla/issues/1572 (debugging tips: inspecting an XLA tensor with
`logits.cpu()[0, 0]` inside the model stalls while the graph compiles and runs).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

peeks = []


class TinySeg(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.cls = nn.Conv2d(8, n_classes, 1)

    def forward(self, x):
        return self.cls(self.enc(x))


def make_train_step(model, opt):
    def train_step(img, mask):
        opt.zero_grad()
        logits = model(img)
        peeks.append(logits.cpu()[0, 0])  # XLA: host
        loss = F.cross_entropy(logits, mask)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 3, 8, 8, generator=g).to(device), torch.randint(0, 3, (2, 8, 8), generator=g).to(device)


def ENTRY(device):
    model = TinySeg().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
