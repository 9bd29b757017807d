"""Written for torch-recall6 (with the rule change): an audio step that crops a random window with
offsets drawn on the host by a helper (`pick_window` returns `rng.randrange` results), then slices
the batch at those Python ints.

Source: https://github.com/mosaicml/composer/pull/69 (a helper, `rand_bbox`, returns host-drawn box bounds
that slice the batch); a 1-D window variant.
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


def pick_window(total, length, rng):
    start = rng.randrange(0, total - length)
    return start, start + length


class Tagger(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.conv = nn.Conv1d(1, 8, 5, padding=2)
        self.fc = nn.Linear(8, n_classes)

    def forward(self, wav):
        return self.fc(F.relu(self.conv(wav)).mean(-1))


def make_step(model, opt, seed=0):
    rng = random.Random(seed)

    def train_step(wav, y):
        beg, end = pick_window(wav.shape[-1], 32, rng)
        opt.zero_grad()
        loss = F.cross_entropy(model(wav[:, :, beg:end]), y)  # XLA: recompile
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 1, 64, generator=g).to(device), torch.randint(0, 4, (4,), generator=g).to(device)


def ENTRY(device):
    model = Tagger().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
