"""Random time shift done with a device-side index: the shift drawn per step is uploaded as a 0-d tensor and
the circular shift is a gather with `(arange(T) - shift) % T`, so the graph does not change with the shift.

Source: https://pytorch.org/docs/stable/generated/torch.roll.html (the op the gather replaces);
https://github.com/pytorch/xla/blob/master/docs/source/learn/troubleshoot.md (keep changing values on the device).
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class KWS(nn.Module):
    def __init__(self, n_words=6):
        super().__init__()
        self.conv = nn.Conv1d(1, 8, 9, stride=4)
        self.fc = nn.Linear(8, n_words)

    def forward(self, wav):
        return self.fc(torch.relu(self.conv(wav)).mean(-1))


def make_train_step(model, opt, max_shift=40):
    rng = random.Random(3)

    def train_step(wav, y):
        shift = torch.tensor(rng.randint(-max_shift, max_shift), device=wav.device)
        t = wav.shape[-1]
        idx = (torch.arange(t, device=wav.device) - shift) % t
        wav = wav.index_select(-1, idx)
        opt.zero_grad()
        loss = F.cross_entropy(model(wav), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 1, 400, generator=g).to(device), torch.randint(0, 6, (4,), generator=g).to(device)


def ENTRY(device):
    model = KWS().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
