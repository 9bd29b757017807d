"""Source: https://github.com/pytorch/xla/issues/4994

The AdamW fine-tuning of the report ("Different Graph generations" from `param.mul_(1 - lr *
weight_decay)`), with the linear decay stopping at 10% of the peak learning rate instead of 0:
the learning rate changes every step but never becomes 0.0, so it stays device data and all
steps after the warm-up share one graph.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, d=16, num_classes=4):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.Linear(32, num_classes))

    def forward(self, x):
        return self.body(x)


def linear_decay(total_steps):
    return lambda step: max(0.1, 1.0 - step / total_steps)


class Finetuner:
    def __init__(self, model, total_steps=4):
        self.model = model
        self.opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
        self.sched = torch.optim.lr_scheduler.LambdaLR(self.opt, linear_decay(total_steps))

    def train_step(self, x, y):
        self.opt.zero_grad()
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        self.opt.step()
        self.sched.step()
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 16, generator=g).to(device), torch.randint(0, 4, (8,), generator=g).to(device)


def ENTRY(device):
    return Finetuner(Classifier().to(device)).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
