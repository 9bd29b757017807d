"""Training step that prints the step's loss and accuracy with `.item()` on every step for a progress line.

Source: https://github.com/pytorch/xla/issues/1399 ("Why does printing progress every step slow things
down?": reading the summary statistics exits the tensor world every step).
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


def make_train_step(model, opt):
    state = {"step": 0}

    def train_step(x, y):
        opt.zero_grad()
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        loss.backward()
        opt.step()
        state["step"] += 1
        acc = (logits.argmax(-1) == y).float().mean()
        print(f"step {state['step']:5d}  loss {loss.item():.4f}  acc {acc.item():.3f}")  # XLA: host
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 20, generator=g).to(device), torch.randint(0, 4, (8,), generator=g).to(device)


def ENTRY(device):
    model = MLP().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
