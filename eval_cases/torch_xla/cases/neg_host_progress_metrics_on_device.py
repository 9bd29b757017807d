"""Training step that keeps its running loss and correct-count as device tensors in a metrics dict; the
caller reads them once per epoch (not done here), so no value leaves the device during the step.

Source: https://github.com/pytorch/xla/issues/1399 (printing every step forces transfers; the advice is
to throttle the report and keep the accumulation on the device).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, d=20, n_classes=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, n_classes))

    def forward(self, x):
        return self.net(x)


def make_train_step(model, opt, device):
    metrics = {"loss_sum": torch.zeros((), device=device), "correct": torch.zeros((), device=device)}

    def train_step(x, y):
        opt.zero_grad()
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        loss.backward()
        opt.step()
        metrics["loss_sum"] += loss.detach()
        metrics["correct"] += (logits.argmax(-1) == y).sum()
        return loss.detach(), metrics["loss_sum"].clone(), metrics["correct"].clone()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 20, generator=g).to(device), torch.randint(0, 4, (8,), generator=g).to(device)


def ENTRY(device):
    model = MLP().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt, device), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
