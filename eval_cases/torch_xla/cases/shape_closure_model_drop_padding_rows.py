"""Written for torch-recall6 (with the rule change): a closure step that drops padding rows
(`lengths > 0`) from the batch by boolean indexing before the model.

Source: https://github.com/pytorch/xla/issues/4875 ("Dynamic shape on CNN": rows selected by a data-dependent
mask before the model).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, d=12, n_classes=3):
        super().__init__()
        self.fc = nn.Linear(d, n_classes)

    def forward(self, feats):
        return self.fc(feats)


def make_step(model, opt):
    def train_step(feats, lengths, y):
        keep = lengths > 0
        opt.zero_grad()
        loss = F.cross_entropy(model(feats[keep]), y[keep])  # XLA: shape
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(0, 3, (8,), generator=g)
    lengths[0] = 1
    return (torch.randn(8, 12, generator=g).to(device), lengths.to(device),
            torch.randint(0, 3, (8,), generator=g).to(device))


def ENTRY(device):
    model = Encoder().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
