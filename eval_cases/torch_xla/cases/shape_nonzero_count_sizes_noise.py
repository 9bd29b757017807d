"""Source: https://github.com/pytorch/xla/blob/master/docs/source/perf/recompilation.md (PyTorch/XLA
"Troubleshooting recompilations", 2.2: `b = torch.nonzero(a); s = a.size(0); c = torch.rand(s)`
"can be of any shape ... which causes more recompilations").

Sparse-feature augmentation that draws one noise value per nonzero feature: the count of a
`nonzero` result (`idx.size(0)`) becomes the size of `torch.rand`.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SparseScorer(nn.Module):
    def __init__(self, d=24):
        super().__init__()
        self.fc = nn.Linear(d, 1)

    def forward(self, x):
        return self.fc(x).squeeze(-1)


def make_step(model, opt, sigma=0.05):
    def train_step(x, y):
        flat = x.flatten()
        idx = torch.nonzero(flat).squeeze(-1)  # XLA: shape
        noise = torch.rand(idx.size(0), device=x.device) * sigma
        noisy = flat.index_add(0, idx, noise).view_as(x)
        opt.zero_grad()
        loss = F.mse_loss(model(noisy), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(4, 24, generator=g)
    x = x * (torch.rand(4, 24, generator=g) > 0.6)
    return x.to(device), torch.randn(4, generator=g).to(device)


def ENTRY(device):
    model = SparseScorer().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]


COMPARE = False  # the noise comes from the device RNG
