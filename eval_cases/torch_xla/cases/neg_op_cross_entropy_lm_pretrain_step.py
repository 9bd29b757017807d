"""A LLaMA-style pretraining step as in lit-llama's `pretrain` script: logits over the vocabulary,
`torch.nn.functional.cross_entropy(logits.view(-1, V), targets.view(-1), ignore_index=-1)`, backward
and AdamW. The report saw `cross_entropy` among the unlowered ops on TPU; with a current torch_xla
the loss and its backward are lowered.

Source: https://github.com/Lightning-AI/lit-llama/issues/102 ("TPU": "cross_entropy() is not currently
supported by PT XLA and therefore runs into the Unlowered Ops warning").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLlama(nn.Module):
    def __init__(self, vocab=64, d=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.norm = nn.RMSNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 32, bias=False), nn.SiLU(), nn.Linear(32, d, bias=False))
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        x = self.wte(idx)
        x = x + self.mlp(self.norm(x))
        return self.lm_head(self.norm(x))


def make_train_step(model, optimizer):
    def train_step(input_ids, targets):
        logits = model(input_ids)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    data = torch.randint(0, 64, (2, 13), generator=g)
    targets = data[:, 1:].clone()
    targets[:, -2:] = -1
    return data[:, :-1].to(device), targets.to(device)


def ENTRY(device):
    model = TinyLlama().to(device)
    return make_train_step(model, torch.optim.AdamW(model.parameters(), lr=3e-4)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
