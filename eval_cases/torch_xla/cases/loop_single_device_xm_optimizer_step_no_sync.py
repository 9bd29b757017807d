"""Source: https://github.com/pytorch/xla/issues/6948

Single-device training on a TPU that steps the optimizer with `xm.optimizer_step(optimizer)` and
never calls `xm.mark_step()`: with one device and the default `barrier=False`, nothing cuts the
lazy graph at the end of the step, so each step's graph is appended to the previous ones and the
running-loss `.item()` compiles and runs an ever larger graph (the report: out-of-memory errors
"despite using modest model and batch sizes", gone once `mark_step` was added).
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
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        self.running_loss = 0.0

    def train_step(self, ids, labels):
        self.opt.zero_grad()
        loss = F.cross_entropy(self.model(ids), labels)
        loss.backward()
        xm.optimizer_step(self.opt)  # XLA: loop
        self.running_loss += loss.item()
        return loss.detach()


# --- oracle ---
EAGER = False
MARK_STEP = False  # the user's loop has no barrier


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 100, (8, 12), generator=g).to(device), torch.randint(0, 4, (8,), generator=g).to(device)


def ENTRY(device):
    return Trainer(TextClassifier().to(device)).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
