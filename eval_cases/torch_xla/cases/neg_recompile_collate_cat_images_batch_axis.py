"""An image classifier whose `collate_fn` concatenates per-example images along dim 0 after giving each
one a batch axis (`unsqueeze(0)`), with drop_last=True: every batch is [8, 3, 16, 16], one graph.

Source: https://github.com/pytorch/xla/issues/1509 (a near miss of it: concatenation over the examples of a
batch is fine when every example has the same shape; only varying lengths recompiled).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


class SmallCNN(nn.Module):
    def __init__(self, classes=4):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.head = nn.Linear(8, classes)

    def forward(self, x):
        return self.head(torch.relu(self.conv(x)).mean((2, 3)))


def collate(batch):
    images = torch.cat([ex["image"].unsqueeze(0) for ex in batch])
    labels = torch.tensor([ex["label"] for ex in batch])
    return images, labels


def train_step(model, opt, images, labels):
    opt.zero_grad()
    loss = F.cross_entropy(model(images), labels)
    loss.backward()
    opt.step()
    return loss.detach()


def train(model, opt, dataset, device):
    loader = DataLoader(dataset, batch_size=8, shuffle=True, collate_fn=collate, drop_last=True)
    for images, labels in loader:
        train_step(model, opt, images.to(device), labels.to(device))


# --- oracle ---
import functools


def _args(device, seed):
    g = torch.Generator().manual_seed(seed)
    batch = [{"image": torch.rand(3, 16, 16, generator=g), "label": int(torch.randint(0, 4, (), generator=g))}
             for _ in range(8)]
    images, labels = collate(batch)
    return images.to(device), labels.to(device)


def ENTRY(device):
    model = SmallCNN().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return functools.partial(train_step, model, opt), _args(device, 0)


def ALT_ARGS(device):
    return [_args(device, 1), _args(device, 2), _args(device, 3)]
