"""A GPU-style batch augmentation run on the TPU: a random resized crop draws its box with Python's
`random` (`top`, `left`, `h`, `w`), slices `images[:, :, top:top + h, left:left + w]` and resizes back to
the training size with `F.interpolate`. The output shape is fixed, but the crop offsets and size are
Python ints baked into the traced graph, so each new box compiles again.

Source: https://github.com/kornia/kornia/issues/4658 ("RandomResizedCrop recompiles per sampled crop box": the
"sampled crop coordinates ... become Python values, triggering recompilation"; the fix keeps the draws in
tensors).
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


def random_resized_crop(images, size, rng, scale=(0.4, 1.0)):
    _, _, H, W = images.shape
    area = H * W * rng.uniform(*scale)
    h = min(H, max(2, int(round(area ** 0.5))))
    w = min(W, max(2, int(round(area / h))))
    top = rng.randint(0, H - h)
    left = rng.randint(0, W - w)
    crop = images[:, :, top:top + h, left:left + w]  # XLA: recompile
    return F.interpolate(crop, size=size, mode="bilinear", align_corners=False)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        return self.fc(F.relu(self.conv(x)).mean((2, 3)))


def make_train_step(model, opt, rng):
    def train_step(images, labels):
        opt.zero_grad()
        x = random_resized_crop(images, (16, 16), rng)
        loss = F.cross_entropy(model(x), labels)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---

def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(4, 3, 24, 24, generator=g).to(device), torch.randint(0, 10, (4,), generator=g).to(device)


def ENTRY(device):
    model = SmallCNN().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05), random.Random(0)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
