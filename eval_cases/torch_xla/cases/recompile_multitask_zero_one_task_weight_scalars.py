"""Source: https://github.com/pytorch/xla/issues/5955

The fix suggested in the thread ("would you be able to pad so that the shape is not dynamic?"): the
loader yields every key at every step, with zero-weight placeholders for the task that has no data
in that batch, meant to build the same graph at every step.

Written as a near miss; the oracle disagreed (label `recompile`, 2 compiles in the steady steps): the task
weights are 0-d tensors holding 0.0 or 1.0, and each new (w_match, w_geo) pair compiled a new graph,
the special scalars 0 and 1 being traced as constants. Renamed, code unchanged.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiTaskNet(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, 32))
        self.match_head = nn.Linear(32, 1)
        self.geo_head = nn.Linear(64, 3)


def make_train_step(net, opt, device):
    def train_step(batch):
        opt.zero_grad()
        a, c, d = batch["a"].to(device), batch["c"].to(device), batch["d"].to(device)
        w_match, w_geo = batch["w_match"].to(device), batch["w_geo"].to(device)  # XLA: recompile
        match = F.binary_cross_entropy_with_logits(
            net.match_head(net.trunk(a)).squeeze(-1), batch["a_label"].to(device))
        geo = F.mse_loss(net.geo_head(torch.cat([net.trunk(c), net.trunk(d)], -1)), batch["geo"].to(device))
        loss = w_match * match + w_geo * geo
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(seed, has_match, has_geo):
    g = torch.Generator().manual_seed(seed)
    return {"a": torch.randn(8, 16, generator=g), "a_label": (torch.rand(8, generator=g) > 0.5).float(),
            "c": torch.randn(8, 16, generator=g), "d": torch.randn(8, 16, generator=g),
            "geo": torch.randn(8, 3, generator=g),
            "w_match": torch.tensor(float(has_match)), "w_geo": torch.tensor(float(has_geo))}


def ENTRY(device):
    net = MultiTaskNet().to(device)
    return make_train_step(net, torch.optim.SGD(net.parameters(), lr=0.05), device), (_batch(0, True, False),)


def ALT_ARGS(device):
    return [(_batch(1, False, True),), (_batch(2, True, False),), (_batch(3, True, True),)]
