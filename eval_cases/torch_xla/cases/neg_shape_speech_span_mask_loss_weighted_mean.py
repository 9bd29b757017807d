"""Source: https://github.com/pytorch/xla/issues/3125

The masked-frame objective of the report ("XLA spend too much time for compile graph", whose
metrics list `masked_select` among the traced ops), written without a data-dependent length: the
squared error is weighted by the frame mask and divided by the number of masked values, so the
loss sees tensors of the same shape in every step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FrameEncoder(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.mask_emb = nn.Parameter(torch.zeros(d))
        self.conv = nn.Conv1d(d, d, 3, padding=1)
        self.proj = nn.Linear(d, d)

    def forward(self, feats, mask):
        x = torch.where(mask[..., None], self.mask_emb.expand_as(feats), feats)
        x = F.gelu(self.conv(x.transpose(1, 2))).transpose(1, 2)
        return self.proj(x)


def span_mask(starts, span=3):
    grown = F.max_pool1d(F.pad(starts[:, None].float(), (span - 1, 0)), span, stride=1)
    return grown[:, 0] > 0


class MaskedFrameTrainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

    def train_step(self, feats, starts):
        mask = span_mask(starts)
        self.opt.zero_grad()
        pred = self.model(feats, mask)
        w = mask[..., None].float()
        loss = ((pred - feats).pow(2) * w).sum() / (w.sum() * pred.shape[-1]).clamp(min=1.0)
        loss.backward()
        self.opt.step()
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    feats = torch.randn(4, 20, 16, generator=g)
    starts = torch.rand(4, 20, generator=g) < 0.15
    return feats.to(device), starts.to(device)


def ENTRY(device):
    return MaskedFrameTrainer(FrameEncoder().to(device)).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
