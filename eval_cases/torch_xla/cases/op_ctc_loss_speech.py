"""CTC loss for a speech model inside the training step: `F.ctc_loss` has no XLA lowering and runs on the
CPU forward and backward.

Source: pytorch/xla issue #2844 (CTCLoss is slow on TPU: `aten::_ctc_loss` and `aten::_ctc_loss_backward`
in the metrics report).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Acoustic(nn.Module):
    def __init__(self, d=8, n_tokens=6):
        super().__init__()
        self.proj = nn.Linear(d, n_tokens)

    def forward(self, feats):
        return self.proj(feats).log_softmax(-1)


def make_train_step(model, opt, device):
    def train_step(feats, targets, input_lengths, target_lengths):
        opt.zero_grad()
        log_probs = model(feats).transpose(0, 1)
        loss = F.ctc_loss(log_probs, targets, input_lengths, target_lengths)  # XLA: op
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    feats = torch.randn(2, 12, 8, generator=g)
    targets = torch.randint(1, 6, (2, 4), generator=g)
    return (feats.to(device), targets.to(device), torch.full((2,), 12, dtype=torch.long).to(device),
            torch.full((2,), 4, dtype=torch.long).to(device))


def ENTRY(device):
    model = Acoustic().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt, device), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
