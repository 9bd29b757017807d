"""Fine-tuning with `clip_grad_norm_(..., error_if_nonfinite=True)` so that a NaN/Inf gradient
norm raises instead of silently corrupting the weights: the check is a Python `if` on the device
norm (`if error_if_nonfinite and torch.logical_or(total_norm.isnan(), total_norm.isinf())`), which
reads the norm on the host in every step.

Source: https://github.com/pytorch/pytorch/pull/53843 ("Raise error in clip_grad_norm_ if norm is non-finite";
the follow-up pytorch/pytorch#61042 notes that "a single synchronization occurs when using
error_if_nonfinite=True").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TextClassifier(nn.Module):
    def __init__(self, vocab=64, d=16, n_labels=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.head = nn.Sequential(nn.Linear(d, d), nn.Tanh(), nn.Linear(d, n_labels))

    def forward(self, ids):
        return self.head(self.emb(ids).mean(1))


class FineTuner:
    def __init__(self, model, optimizer, max_grad_norm=1.0):
        self.model, self.optimizer, self.max_grad_norm = model, optimizer, max_grad_norm

    def training_step(self, ids, labels):
        self.optimizer.zero_grad()
        loss = F.cross_entropy(self.model(ids), labels)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm,  # XLA: host
                                       error_if_nonfinite=True)
        self.optimizer.step()
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 64, (6, 10), generator=g).to(device), torch.randint(0, 3, (6,), generator=g).to(device)


def ENTRY(device):
    model = TextClassifier().to(device)
    return FineTuner(model, torch.optim.AdamW(model.parameters(), lr=1e-3)).training_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
