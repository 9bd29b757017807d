"""Source: https://github.com/pytorch/xla/pull/1279

The pull request added `drop_last=True` to the loaders of the test scripts because "without
drop_last, loaders produce a batch of different size in last step" (469 MNIST batches, the last of
96 rows instead of 128). An evaluation pass of a small MNIST classifier on an XLA device whose test
loader keeps the short last batch: the eval graph is compiled again for it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class MNISTNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, stride=2, padding=1)
        self.fc = nn.Linear(8 * 7 * 7, 10)

    def forward(self, x):
        return self.fc(F.relu(self.conv(x)).flatten(1))


def test_loader(images, labels):
    return DataLoader(TensorDataset(images, labels), batch_size=16)  # XLA: recompile


class Evaluator:
    def __init__(self, model):
        self.model = model.eval()

    @torch.no_grad()
    def eval_batch(self, data, target):
        output = self.model(data)
        pred = output.argmax(1)
        return pred.eq(target).sum(), F.cross_entropy(output, target, reduction="sum")


# --- oracle ---
_KEEP = [Evaluator]


def _batches(seed):
    g = torch.Generator().manual_seed(seed)
    return list(test_loader(torch.randn(44, 1, 14, 14, generator=g), torch.randint(0, 10, (44,), generator=g)))


def ENTRY(device):
    ev = Evaluator(MNISTNet().to(device))
    data, target = _batches(0)[0]
    return ev.eval_batch, (data.to(device), target.to(device))


def ALT_ARGS(device):
    return [(d.to(device), t.to(device)) for d, t in _batches(1)]
