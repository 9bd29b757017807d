"""Source: https://github.com/pytorch/xla/issues/6015

Fine-tuning a RoBERTa-style regressor on a Kaggle TPU: some rows of the batch carry no target
(marked -1), so the MSE loss is taken over the labelled rows selected with a boolean mask,
`pred[has_label]`. The profiler in the report: "Op(s) not lowered: aten::nonzero" and
"TransferFromServerTime too frequent" from the first steps.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyRobertaRegressor(nn.Module):
    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=1)
        self.enc = nn.Sequential(nn.Linear(dim, 32), nn.GELU(), nn.Linear(32, dim))
        self.head = nn.Linear(dim, 1)

    def forward(self, ids, attention_mask):
        h = self.emb(ids)
        h = h + self.enc(h)
        pooled = (h * attention_mask.unsqueeze(-1)).sum(1) / attention_mask.sum(1, keepdim=True)
        return self.head(pooled).squeeze(-1)


def make_train_step(model, opt):
    def train_step(ids, attention_mask, target):
        opt.zero_grad()
        pred = model(ids, attention_mask)
        has_label = target >= 0
        loss = F.mse_loss(pred[has_label], target[has_label])  # XLA: op
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(2, 50, (6, 16), generator=g)
    mask = torch.ones(6, 16)
    mask[:, 12:] = 0
    target = torch.rand(6, generator=g) * 4
    target[seed % 6] = -1.0
    return ids.to(device), mask.to(device), target.to(device)


def ENTRY(device):
    model = TinyRobertaRegressor().to(device)
    return make_train_step(model, torch.optim.AdamW(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
