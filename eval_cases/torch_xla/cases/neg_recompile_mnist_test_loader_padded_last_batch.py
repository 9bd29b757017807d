"""Source: https://github.com/pytorch/xla/pull/1279

A near miss of the pull request's short last batch, for evaluation where dropping rows would change
the accuracy: the test collate pads every batch to the full batch size and carries a 0/1 weight per
row, so the last batch has the same shape and the padded rows count for nothing.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

BATCH = 16


class MNISTNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, stride=2, padding=1)
        self.fc = nn.Linear(8 * 7 * 7, 10)

    def forward(self, x):
        return self.fc(F.relu(self.conv(x)).flatten(1))


def padded_collate(rows):
    data = torch.stack([r[0] for r in rows])
    target = torch.stack([r[1] for r in rows])
    weight = torch.ones(len(rows))
    pad = BATCH - len(rows)
    if pad:
        data = torch.cat([data, data.new_zeros(pad, *data.shape[1:])])
        target = torch.cat([target, target.new_zeros(pad)])
        weight = torch.cat([weight, weight.new_zeros(pad)])
    return data, target, weight


def test_loader(images, labels):
    return DataLoader(TensorDataset(images, labels), batch_size=BATCH, collate_fn=padded_collate)


class Evaluator:
    def __init__(self, model):
        self.model = model.eval()

    @torch.no_grad()
    def eval_batch(self, data, target, weight):
        output = self.model(data)
        correct = (output.argmax(1).eq(target).float() * weight).sum()
        return correct, (F.cross_entropy(output, target, reduction="none") * weight).sum()


# --- oracle ---
_KEEP = [Evaluator]


def _batches(seed):
    g = torch.Generator().manual_seed(seed)
    return list(test_loader(torch.randn(44, 1, 14, 14, generator=g), torch.randint(0, 10, (44,), generator=g)))


def ENTRY(device):
    ev = Evaluator(MNISTNet().to(device))
    return ev.eval_batch, tuple(t.to(device) for t in _batches(0)[0])


def ALT_ARGS(device):
    return [tuple(t.to(device) for t in b) for b in _batches(1)]
