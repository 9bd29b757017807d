"""A TPU training step that prints its seven scalar diagnostics (losses, accuracy, norms) every iteration
with `print(...)` of the tensors themselves. Printing a device tensor materialises it on the host, so
each step ends with several device-to-host reads before the step's graph was cut.

Source: https://github.com/pytorch/xla/issues/2231 ("Possibility to batch cpu tensor conversion?": a step
that takes 3 s while "printing a mere 7 scalar tensors takes 2.4 seconds"; the answer is step closures).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, d=24, n=5):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d, 48), nn.ReLU())
        self.head = nn.Linear(48, n)

    def forward(self, x):
        return self.head(self.body(x))


def make_train_step(model, opt, step_counter):
    def train_step(x, y):
        opt.zero_grad()
        logits = model(x)
        ce = F.cross_entropy(logits, y)
        reg = 1e-4 * sum(p.pow(2).sum() for p in model.parameters())
        loss = ce + reg
        loss.backward()
        opt.step()
        acc = (logits.argmax(-1) == y).float().mean()
        grad_norm = torch.norm(torch.stack([p.grad.norm() for p in model.parameters()]))
        w_norm = torch.norm(torch.stack([p.detach().norm() for p in model.parameters()]))
        conf = logits.softmax(-1).max(-1).values.mean()
        step_counter[0] += 1
        print(step_counter[0], loss, ce, reg, acc, grad_norm, w_norm, conf)  # XLA: host
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 24, generator=g).to(device), torch.randint(0, 5, (8,), generator=g).to(device)


def ENTRY(device):
    model = Classifier().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05), [0]), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
