"""Source: https://github.com/pytorch/xla/issues/3817

A near miss of the report's `weight_norm` fallback: a small TTS duration predictor normalizes its
projection layers with `nn.utils.weight_norm(layer, dim=None)`, one scalar gain over the whole weight
(the original Salimans and Kingma form). The fused `_weight_norm_interface` kernel the report saw
is only taken for the first or last dimension; a whole-tensor norm composes lowered ops.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import weight_norm


class DurationPredictor(nn.Module):
    def __init__(self, dim=16, hidden=32):
        super().__init__()
        self.emb = nn.Embedding(40, dim)
        self.fc1 = weight_norm(nn.Linear(dim, hidden), dim=None)
        self.fc2 = weight_norm(nn.Linear(hidden, hidden), dim=None)
        self.out = nn.Linear(hidden, 1)

    def forward(self, phonemes):
        h = F.relu(self.fc1(self.emb(phonemes)))
        h = F.relu(self.fc2(h))
        return self.out(h).squeeze(-1)


def make_step(model, opt):
    def step(phonemes, log_durations):
        opt.zero_grad()
        loss = F.mse_loss(model(phonemes), log_durations)
        loss.backward()
        opt.step()
        return loss.detach()
    return step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 40, (4, 12), generator=g).to(device), torch.rand(4, 12, generator=g).to(device)


def ENTRY(device):
    model = DurationPredictor().to(device)
    return make_step(model, torch.optim.Adam(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
