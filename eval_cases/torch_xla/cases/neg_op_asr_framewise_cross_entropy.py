"""Source: https://github.com/pytorch/xla/issues/2844

The convolutional speech recogniser of the report trained on frame-aligned labels with a per-frame
cross-entropy (the alignment comes from a forced aligner), the usual way to keep the same acoustic
model on a TPU without the CTC loss; silence frames are ignored.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvASR(nn.Module):
    def __init__(self, n_mels=16, d=32, vocab=12):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(n_mels, d, 5, 1, 2), nn.ReLU(), nn.Conv1d(d, d, 5, 1, 2), nn.ReLU())
        self.out = nn.Linear(d, vocab)

    def forward(self, mels):
        return self.out(self.conv(mels).transpose(1, 2))


def make_train_step(model, opt):
    def train_step(mels, frame_labels):
        opt.zero_grad()
        logits = model(mels)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), frame_labels.reshape(-1), ignore_index=0)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    mels = torch.randn(2, 16, 20, generator=g)
    labels = torch.randint(0, 12, (2, 20), generator=g)
    return mels.to(device), labels.to(device)


def ENTRY(device):
    model = ConvASR().to(device)
    return make_train_step(model, torch.optim.Adam(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
