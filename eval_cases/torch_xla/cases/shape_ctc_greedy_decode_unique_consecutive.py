"""Source: https://github.com/pytorch/xla/issues/2229 ("Loop gets stuck in criterion function": a
spectrogram RNN trained with CTC on TPU through `xm.optimizer_step`).

Evaluation step of a CTC speech model that greedy-decodes each utterance with
`torch.unique_consecutive` (collapse repeats) and drops the blanks by boolean indexing, to count
the decoded tokens.
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
        lengths = []
        for seq in best:
            collapsed = torch.unique_consecutive(seq)  # XLA: shape
            lengths.append((collapsed[collapsed != blank]).shape[0])
        return torch.tensor(lengths)
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
