"""Source: https://github.com/pytorch/xla/issues/4875 ("Dynamic shape on CNN": a LeNet-style CNN fed with
inputs whose batch dimension comes from a data-dependent selection).

Semi-supervised CNN step that drops the unlabelled images (label -1) from the supervised loss by
boolean indexing of the batch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LeNet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 32)
        self.fc2 = nn.Linear(32, n_classes)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        return self.fc2(F.relu(self.fc1(torch.flatten(x, 1))))


def make_step(model, opt):
    def train_step(images, labels):
        labelled = labels >= 0
        opt.zero_grad()
        logits = model(images[labelled])  # XLA: shape
        loss = F.cross_entropy(logits, labels[labelled])
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed, n=8):
    g = torch.Generator().manual_seed(seed)
    images = torch.randn(n, 3, 32, 32, generator=g)
    labels = torch.randint(0, 10, (n,), generator=g)
    labels[torch.rand(n, generator=g) < 0.4] = -1
    labels[0] = 3
    return images.to(device), labels.to(device)


def ENTRY(device):
    model = LeNet().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
