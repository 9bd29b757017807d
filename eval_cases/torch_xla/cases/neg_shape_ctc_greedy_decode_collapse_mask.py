"""Source: https://github.com/pytorch/xla/issues/2229 ("Loop gets stuck in criterion function"; a
static-shape greedy decode for the CTC model of the report).

Evaluation step of a CTC speech model that greedy-decodes with fixed shapes: a frame counts when
it differs from the previous frame and is not blank, so the decoded length is a masked sum and the
tokens stay in a padded (B, T) tensor.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SpeechEncoder(nn.Module):
    def __init__(self, n_mels=16, hidden=24, n_tokens=12):
        super().__init__()
        self.conv = nn.Conv1d(n_mels, hidden, 3, padding=1)
        self.out = nn.Linear(hidden, n_tokens)

    def forward(self, specs):
        h = F.gelu(self.conv(specs)).transpose(1, 2)
        return F.log_softmax(self.out(h), dim=-1)


def make_eval_step(model, blank=0):
    @torch.no_grad()
    def eval_step(specs):
        best = model(specs).argmax(-1)
        prev = F.pad(best, (1, 0), value=-1)[:, :-1]
        emit = (best != prev) & (best != blank)
        tokens = torch.where(emit, best, torch.full_like(best, -1))
        return emit.sum(-1), tokens
    return eval_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(3, 16, 20, generator=g).to(device),)


def ENTRY(device):
    model = SpeechEncoder().to(device).eval()
    return make_eval_step(model), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
