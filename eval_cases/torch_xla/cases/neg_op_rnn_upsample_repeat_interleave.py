"""A WaveRNN-style conditioning network (its autoregressive part reduced to a causal convolution) that upsamples frame features to sample rate with
`torch.repeat_interleave(cond, hop, dim=1)` before the autoregressive layer. The request to lower
`repeat_interleave` for torch_xla was for exactly this use, with a scalar `repeats`, which torch_xla 2.9
lowers (the oracle: one compile, no aten:: fallback).

Source: https://github.com/pytorch/xla/issues/2400 ("Lowering repeat_interleave.": the reporter uses scalar `repeats`;
the maintainer gives the `reshape([len, 1]).expand([len, repeat]).reshape([len * repeat])` workaround).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConditionedRNN(nn.Module):
    def __init__(self, n_mels=8, hidden=16, hop=4):
        super().__init__()
        self.hop = hop
        self.cond = nn.Conv1d(n_mels, hidden, 3, padding=1)
        self.rnn = nn.Conv1d(hidden + 1, hidden, 3, padding=2)
        self.out = nn.Linear(hidden, 1)

    def forward(self, mels, prev_samples):
        cond = self.cond(mels).transpose(1, 2)  # (B, frames, H)
        cond = torch.repeat_interleave(cond, self.hop, dim=1)
        h = self.rnn(torch.cat([cond, prev_samples.unsqueeze(-1)], dim=-1).transpose(1, 2))[..., :-2].transpose(1, 2)
        return self.out(h).squeeze(-1)


def make_train_step(model, opt):
    def train_step(mels, prev_samples, target):
        opt.zero_grad()
        loss = F.l1_loss(model(mels, prev_samples), target)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    mels = torch.randn(2, 8, 5, generator=g)
    prev = torch.randn(2, 20, generator=g)
    return mels.to(device), prev.to(device), torch.randn(2, 20, generator=g).to(device)


def ENTRY(device):
    model = ConditionedRNN().to(device)
    return make_train_step(model, torch.optim.Adam(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
