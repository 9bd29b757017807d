"""Source: https://github.com/pytorch/pytorch/issues/1278 ("Embedding max_norm option slow": "If I
renormalize embedding matrices manually after each mini-batch update via
`self.emb_e.weight.data.renorm_(2, 0, 1)` then the renormalization is 20 times faster").

Knowledge-graph embedding step that keeps the entity/relation tables inside the unit ball by
renormalising the whole weight after the update (`weight.data.renorm_(2, 0, 1)`), instead of
`nn.Embedding(max_norm=1)` renormalising the looked-up rows in every forward.

Written as a negative (the report's fix of `max_norm`); the oracle measured `aten::renorm` falling back
to the CPU on torch_xla 2.9, so the fix is itself a fallback on XLA. Renamed to a positive after
labelling (the split follows the new name); the code is unchanged.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DistMult(nn.Module):
    def __init__(self, num_entities=40, num_relations=6, d=8):
        super().__init__()
        self.emb_e = nn.Embedding(num_entities, d, padding_idx=0)
        self.emb_rel = nn.Embedding(num_relations, d, padding_idx=0)

    def forward(self, e1, rel):
        h = self.emb_e(e1) * self.emb_rel(rel)
        return h @ self.emb_e.weight.t()


def make_step(model, opt):
    def train_step(e1, rel, e2):
        opt.zero_grad()
        loss = F.cross_entropy(model(e1, rel), e2)
        loss.backward()
        opt.step()
        with torch.no_grad():
            model.emb_e.weight.data.renorm_(2, 0, 1)  # XLA: op
            model.emb_rel.weight.data.renorm_(2, 0, 1)
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randint(1, 40, (8,), generator=g).to(device), torch.randint(1, 6, (8,), generator=g).to(device),
            torch.randint(1, 40, (8,), generator=g).to(device))


def ENTRY(device):
    model = DistMult().to(device)
    return make_step(model, torch.optim.Adagrad(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
