"""Source: https://github.com/pytorch/xla/issues/5955

A training loop whose data loader does not yield the same structure every iteration: most steps
carry the matching inputs (`a`), one step in the cycle carries the geometry inputs (`c`, `d`), and
the loss is built only from the keys present. The reporter saw the `.to(device)` of the new keys
take over a minute; the maintainers' answer: "recompilation occurs since the structure of the input
changes" - each structure is a different graph.
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
        loss = 0.0
        if "a" in batch:  # XLA: recompile
            a = batch["a"].to(device)
            loss = loss + F.binary_cross_entropy_with_logits(
                net.match_head(net.trunk(a)).squeeze(-1), batch["a_label"].to(device))
        if "c" in batch:
            c, d = batch["c"].to(device), batch["d"].to(device)
            geo = net.geo_head(torch.cat([net.trunk(c), net.trunk(d)], -1))
            loss = loss + F.mse_loss(geo, batch["geo"].to(device))
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _match(seed):
    g = torch.Generator().manual_seed(seed)
    return {"a": torch.randn(8, 16, generator=g), "a_label": (torch.rand(8, generator=g) > 0.5).float()}


def _geometry(seed):
    g = torch.Generator().manual_seed(seed)
    return {"c": torch.randn(8, 16, generator=g), "d": torch.randn(8, 16, generator=g),
            "geo": torch.randn(8, 3, generator=g)}


def _both(seed):
    return {**_match(seed), **_geometry(seed + 100)}


def ENTRY(device):
    net = MultiTaskNet().to(device)
    return make_train_step(net, torch.optim.SGD(net.parameters(), lr=0.05), device), (_match(0),)


def ALT_ARGS(device):
    return [(_geometry(1),), (_match(2),), (_both(3),)]
