"""Source: https://github.com/pytorch/xla/issues/7635

A ResNet-style training epoch written like `examples/train_resnet_base.py`: the loop has no explicit
`mark_step`/`torch_xla.sync()` because `MpDeviceLoader` cuts the graph at every batch it hands out (the
maintainer's answer), and the loss is logged through `xm.add_step_closure`, which runs after the step.
Written as a near miss; torch_xla 2.9.0 disagreed: the closures run at the loader's own sync, inside the
epoch, and their `.item()` reads count as device-to-host transfers during the user's code (host_sync).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader, TensorDataset


class SmallResNet(nn.Module):
    def __init__(self, ch=8, n_classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, ch, 3, padding=1)
        self.block = nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.BatchNorm2d(ch), nn.ReLU(),
                                   nn.Conv2d(ch, ch, 3, padding=1), nn.BatchNorm2d(ch))
        self.fc = nn.Linear(ch, n_classes)

    def forward(self, x):
        h = F.relu(self.stem(x))
        h = F.relu(h + self.block(h))
        return self.fc(h.mean((2, 3)))


def _log(step, loss):
    print(f"step {step} loss {loss.item():.4f}")


def train_epoch(model, opt, images, labels, device):
    loader = pl.MpDeviceLoader(DataLoader(TensorDataset(images, labels), batch_size=4), device)
    losses = []
    for step, (x, y) in enumerate(loader):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        if step % 2 == 0:
            xm.add_step_closure(_log, args=(step, loss.detach()))  # XLA: loop
        losses.append(loss.detach())
    return losses


# --- oracle ---
EAGER = False  # MpDeviceLoader needs an XLA device


def _batch(seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 3, 8, 8, generator=g), torch.randint(0, 10, (8,), generator=g)


def ENTRY(device):
    model = SmallResNet().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    return (lambda x, y: train_epoch(model, opt, x, y, device)), _batch(0)


def ALT_ARGS(device):
    return [_batch(s) for s in (1, 2)]
