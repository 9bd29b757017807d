"""Source: https://github.com/pytorch/xla/issues/2844

A small convolutional speech recogniser trained with `nn.CTCLoss` on log-mel frames, the setting of the
report ("Backprop of CTCLoss is calculated slowly"): the metrics showed `aten::_ctc_loss` and
`aten::_ctc_loss_backward`.
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
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)

    def train_step(mels, targets, input_lengths, target_lengths):
        opt.zero_grad()
        log_probs = F.log_softmax(model(mels), dim=-1).transpose(0, 1)
        loss = ctc(log_probs, targets, input_lengths, target_lengths)  # XLA: op
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    mels = torch.randn(2, 16, 20, generator=g)
    targets = torch.randint(1, 12, (2, 6), generator=g)
    return (mels.to(device), targets.to(device), torch.full((2,), 20, dtype=torch.long).to(device),
            torch.full((2,), 6, dtype=torch.long).to(device))


def ENTRY(device):
    model = ConvASR().to(device)
    return make_train_step(model, torch.optim.Adam(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
