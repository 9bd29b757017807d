"""Source: https://github.com/pytorch/xla/pull/6951

Scoring candidates with a bag-of-features recommender at serving time, under `torch.no_grad()`. The
user and item features are pooled with `nn.EmbeddingBag(mode="mean")`. The pull request lowered only
the forward-only embedding bag, and falls back to the CPU when `mode == 1` (mean), when
`scale_grad_by_freq` or `sparse` is set, or when a `padding_idx` is given.
"""
import torch
import torch.nn as nn


class BagScorer(nn.Module):
    def __init__(self, n_feats=100, d=16):
        super().__init__()
        self.user = nn.EmbeddingBag(n_feats, d, mode="mean")  # XLA: op
        self.item = nn.EmbeddingBag(n_feats, d, mode="mean")  # XLA: op
        self.mlp = nn.Sequential(nn.Linear(2 * d, d), nn.ReLU(), nn.Linear(d, 1))

    def forward(self, user_feats, item_feats):
        u = self.user(user_feats)
        v = self.item(item_feats)
        return self.mlp(torch.cat([u, v], dim=-1)).squeeze(-1)


def make_score(model):
    @torch.no_grad()
    def score(user_feats, item_feats):
        return torch.sigmoid(model(user_feats, item_feats))
    return score


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 100, (8, 5), generator=g).to(device), torch.randint(0, 100, (8, 3), generator=g).to(device)


def ENTRY(device):
    model = BagScorer().to(device).eval()
    return make_score(model), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
