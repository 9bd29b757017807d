"""Source: https://github.com/deepmodeling/deepmd-kit/pull/5519

The same potential trainer with the non-finite check deferred, as the PR does: the step records
`~torch.isfinite(total_norm)` in a device flag, and the flag is read once, in `check()`, outside
the training step. No step reads a value back from the device.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyPotential(nn.Module):
    def __init__(self, n_types=3, d=16):
        super().__init__()
        self.type_emb = nn.Embedding(n_types, d)
        self.fit = nn.Sequential(nn.Linear(d + 8, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, atom_types, descriptors):
        h = torch.cat([self.type_emb(atom_types), descriptors], dim=-1)
        return self.fit(h).squeeze(-1).sum(-1)


class Trainer:
    def __init__(self, model, device, max_norm=1.0):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.max_norm = max_norm
        self.saw_nonfinite = torch.zeros((), dtype=torch.bool, device=device)

    def train_step(self, atom_types, descriptors, energy):
        self.opt.zero_grad()
        loss = F.mse_loss(self.model(atom_types, descriptors), energy)
        loss.backward()
        total_norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)
        self.saw_nonfinite = self.saw_nonfinite | ~torch.isfinite(total_norm)
        self.opt.step()
        return loss.detach()

    def check(self):
        if bool(self.saw_nonfinite):
            raise FloatingPointError("non-finite gradient norm seen during the epoch")


# --- oracle ---
def _frames(device, seed):
    g = torch.Generator().manual_seed(seed)
    types = torch.randint(0, 3, (4, 6), generator=g)
    desc = torch.randn(4, 6, 8, generator=g)
    energy = torch.randn(4, generator=g)
    return types.to(device), desc.to(device), energy.to(device)


def ENTRY(device):
    return Trainer(TinyPotential().to(device), device).train_step, _frames(device, 0)


def ALT_ARGS(device):
    return [_frames(device, s) for s in (1, 2)]
