"""Source: https://github.com/Lightning-AI/pytorch-lightning/issues/7368

The usual patch embedding without im2col: a `Conv2d` whose kernel and stride equal the patch
size (the same linear map over each patch), flattened to tokens.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchViT(nn.Module):
    def __init__(self, patch=4, dim=16, n_classes=3):
        super().__init__()
        self.proj = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)
        self.block = nn.TransformerEncoderLayer(dim, 2, 32, batch_first=True, dropout=0.0)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, img):
        tokens = self.proj(img).flatten(2).transpose(1, 2)
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
