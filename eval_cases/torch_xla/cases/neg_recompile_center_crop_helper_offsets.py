"""Written for torch-recall6 (with the rule change): the same audio step with a helper that returns
a centred window computed from the (fixed) length only: the same ints every step, one graph.

Source: https://github.com/mosaicml/composer/pull/69 (helper-computed slice bounds); near miss whose bounds
are fixed.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def center_window(total, length):
    start = (total - length) // 2
    return start, start + length


class Tagger(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.conv = nn.Conv1d(1, 8, 5, padding=2)
        self.fc = nn.Linear(8, n_classes)

    def forward(self, wav):
        return self.fc(F.relu(self.conv(wav)).mean(-1))


def make_step(model, opt):
    def train_step(wav, y):
        beg, end = center_window(wav.shape[-1], 32)
        opt.zero_grad()
        loss = F.cross_entropy(model(wav[:, :, beg:end]), y)
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
