"""Source: https://github.com/pytorch/xla/issues/6015

The Kaggle fine-tuning loop of the report prints the loss tensor after every step
(`step : 0 loss : tensor(7.9881, device='xla:0', grad_fn=<MseLossBackward0>)` in its log):
formatting an XLA tensor copies it to the host, so every step waits for its graph to run.
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


class FineTuner:
    def __init__(self, model, opt):
        self.model, self.opt, self.step = model, opt, 0

    def train_step(self, ids, attention_mask, target):
        self.opt.zero_grad()
        loss = F.mse_loss(self.model(ids, attention_mask), target)
        loss.backward()
        self.opt.step()
        print("step :", self.step, "loss :", loss)  # XLA: host
        self.step += 1
        return loss.detach()


# --- oracle ---
_KEEP = [FineTuner]


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(2, 50, (6, 16), generator=g)
    mask = torch.ones(6, 16)
    mask[:, 12:] = 0
    return ids.to(device), mask.to(device), (torch.rand(6, generator=g) * 4).to(device)


def ENTRY(device):
    model = TinyRobertaRegressor().to(device)
    return FineTuner(model, torch.optim.AdamW(model.parameters(), lr=1e-3)).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
