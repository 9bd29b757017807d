"""Token dropout for a set encoder: each step keeps a random half of the tokens, selected with a
boolean index `tokens[keep]` where `keep = torch.rand(n) > 0.5`, and pools what is left.

Source: https://github.com/pytorch/pytorch/issues/14687 ("Advanced indexing slower than numpy":
`idx = torch.rand(1024) > 0.5; x[idx]`).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SetEncoder(nn.Module):
    def __init__(self, d=8, n_classes=3):
        super().__init__()
        self.phi = nn.Linear(d, 16)
        self.rho = nn.Linear(16, n_classes)

    def forward(self, tokens, p_keep=0.5):
        keep = torch.rand(tokens.shape[0], device=tokens.device) > p_keep
        kept = tokens[keep]  # XLA: shape
        return self.rho(torch.relu(self.phi(kept)).mean(0, keepdim=True))


def make_train_step(model, opt):
    def train_step(tokens, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(tokens), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
COMPARE = False


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(32, 8, generator=g).to(device), torch.randint(0, 3, (1,), generator=g).to(device)


def ENTRY(device):
    model = SetEncoder().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
