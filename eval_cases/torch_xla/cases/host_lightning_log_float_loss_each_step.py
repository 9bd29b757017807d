"""Source: https://github.com/Lightning-AI/pytorch-lightning/issues/20665

A LightningModule-style `training_step` that logs its loss and accuracy as Python floats every
step (`float(loss)` for a logger dict): each conversion reads the value back from the device
before the step's graph has run.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ImageClassifier(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.head = nn.Linear(8, n_classes)
        self.logged = []

    def forward(self, x):
        return self.head(F.relu(self.conv(x)).mean((2, 3)))

    def log(self, name, value):
        self.logged.append((name, value))

    def training_step(self, batch):
        sample, target = batch
        pred = self(sample)
        loss = F.cross_entropy(pred, target)
        acc = (pred.argmax(-1) == target).float().mean()
        self.log("train_loss", float(loss))  # XLA: host
        self.log("train_acc", float(acc))
        return loss


def make_step(module, opt):
    def step(sample, target):
        opt.zero_grad()
        loss = module.training_step((sample, target))
        loss.backward()
        opt.step()
        return loss.detach()
    return step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 8, 8, generator=g).to(device), torch.randint(0, 5, (4,), generator=g).to(device)


def ENTRY(device):
    module = ImageClassifier().to(device)
    opt = torch.optim.SGD(module.parameters(), lr=0.05)
    return make_step(module, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
