"""Source: https://github.com/pytorch/xla/issues/6948

The same single-device training with the fix from the report's thread: the step calls
`xm.mark_step()` right after `xm.optimizer_step(optimizer)`, so every step's graph is cut and
compiled once, and the running loss is accumulated as a device tensor instead of a Python float.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla.core.xla_model as xm


class TextClassifier(nn.Module):
    def __init__(self, vocab=100, d=16, classes=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.fc = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, classes))

    def forward(self, ids):
        return self.fc(self.emb(ids).mean(1))


class Trainer:
    def __init__(self, model, device):
        self.model = model
        self.opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        self.running_loss = torch.zeros((), device=device)

    def train_step(self, ids, labels):
        self.opt.zero_grad()
        loss = F.cross_entropy(self.model(ids), labels)
        loss.backward()
        xm.optimizer_step(self.opt)
        self.running_loss = self.running_loss + loss.detach()
        xm.mark_step()
        return loss.detach()


# --- oracle ---
EAGER = False
MARK_STEP = False  # the step syncs itself


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 100, (8, 12), generator=g).to(device), torch.randint(0, 4, (8,), generator=g).to(device)


def ENTRY(device):
    return Trainer(TextClassifier().to(device), device).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
