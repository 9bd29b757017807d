"""Source: https://github.com/Lightning-AI/pytorch-lightning/issues/7368

A ViT-style patch embedding that cuts patches with `F.unfold` (im2col) before a linear
projection; the Lightning TPU report's profile named `aten::im2col` and its backward as ops
without an XLA lowering.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchViT(nn.Module):
    def __init__(self, patch=4, dim=16, n_classes=3):
        super().__init__()
        self.patch = patch
        self.proj = nn.Linear(3 * patch * patch, dim)
        self.block = nn.TransformerEncoderLayer(dim, 2, 32, batch_first=True, dropout=0.0)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, img):
        patches = F.unfold(img, kernel_size=self.patch, stride=self.patch)  # XLA: op
        tokens = self.proj(patches.transpose(1, 2))
        return self.head(self.block(tokens).mean(1))


def train_step(model, opt, img, y):
    opt.zero_grad()
    loss = F.cross_entropy(model(img), y)
    loss.backward()
    opt.step()
    return loss.detach()


# --- oracle ---
import functools


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 3, 16, 16, generator=g).to(device), torch.randint(0, 3, (2,), generator=g).to(device)


def ENTRY(device):
    model = PatchViT().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    return functools.partial(train_step, model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
