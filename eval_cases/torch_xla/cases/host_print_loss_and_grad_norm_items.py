"""A GPU-style training step that prints the loss and the gradient norm of every step,
`print("LOSS", loss.item())`-style: each `.item()` runs the pending graph and copies the scalar to
the host before the step is marked, so the graph is cut and part of it runs twice.

Source: https://github.com/pytorch/xla/pull/2770 ("Sync the tensors before an .item() call": `print("LOSS",
loss.item())` is "a very common use case"; the advice is to log less often or use step closures).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, d_in=20, hidden=32, n_classes=5):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, n_classes)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class Trainer:
    def __init__(self, model, optimizer, max_norm=1.0):
        self.model, self.optimizer, self.max_norm = model, optimizer, max_norm
        self.step_idx = 0

    def train_step(self, x, y):
        self.optimizer.zero_grad()
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)
        self.optimizer.step()
        self.step_idx += 1
        print(f"step {self.step_idx} LOSS {loss.item():.4f} grad_norm {grad_norm.item():.3f}")  # XLA: host
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 20, generator=g).to(device), torch.randint(0, 5, (8,), generator=g).to(device)


def ENTRY(device):
    model = MLP().to(device)
    trainer = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9))
    return trainer.train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
