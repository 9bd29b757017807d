"""Source: https://github.com/pytorch/xla/pull/6951

The serving-time recommender of the pull request with the bags pooled by `mode="sum"` and no
`padding_idx`, `sparse` or `scale_grad_by_freq`: under `torch.no_grad()` this is the forward-only
embedding bag that the pull request lowered. Written as a near miss; torch_xla 2.9.0 on the CPU still
counts `aten::_embedding_bag` as a fallback at every call.
"""
import torch
import torch.nn as nn


class BagScorer(nn.Module):
    def __init__(self, n_feats=100, d=16):
        super().__init__()
        self.user = nn.EmbeddingBag(n_feats, d, mode="sum")  # XLA: op
        self.item = nn.EmbeddingBag(n_feats, d, mode="sum")  # XLA: op
        self.mlp = nn.Sequential(nn.Linear(2 * d, d), nn.ReLU(), nn.Linear(d, 1))

    def forward(self, user_feats, item_feats):
        u = self.user(user_feats) / user_feats.shape[1]
        v = self.item(item_feats) / item_feats.shape[1]
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
