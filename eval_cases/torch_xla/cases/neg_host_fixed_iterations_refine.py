"""The fixed-point layer unrolled for a constant number of iterations (no tensor-valued loop condition);
the last residual is returned as a device tensor for monitoring.

Source: https://github.com/pytorch/xla/issues/2799 (without tf.while, a loop with a fixed trip count traces
one static graph).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class UnrolledFixedPoint(nn.Module):
    def __init__(self, dim=16, n_iter=6):
        super().__init__()
        self.lin = nn.Linear(dim, dim)
        self.n_iter = n_iter

    def forward(self, x):
        z = torch.zeros_like(x)
        residual = torch.zeros((), device=x.device)
        for _ in range(self.n_iter):
            z_next = torch.tanh(0.5 * self.lin(z) + x)
            residual = (z_next - z).norm() / (z.norm() + 1e-6)
            z = z_next
        return z, residual


def make_train_step(layer, head, opt):
    def train_step(x, y):
        opt.zero_grad()
        z, residual = layer(x)
        loss = F.cross_entropy(head(z), y)
        loss.backward()
        opt.step()
        return loss.detach(), residual.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 16, generator=g).to(device), torch.randint(0, 3, (4,), generator=g).to(device)


def ENTRY(device):
    layer, head = UnrolledFixedPoint().to(device), nn.Linear(16, 3).to(device)
    opt = torch.optim.Adam(list(layer.parameters()) + list(head.parameters()), lr=1e-3)
    return make_train_step(layer, head, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
