"""Source: https://github.com/Lightning-AI/litgpt/pull/794

The same Llama-style pre-training with the loader built with `drop_last=True`, as the PR does:
the leftover samples that do not fill a micro-batch are dropped, so every batch of the epoch has
the shape `[micro_batch_size, block_size]` and the step compiles once.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

BLOCK_SIZE = 12


class TokenBlocks(Dataset):
    def __init__(self, data, block_size=BLOCK_SIZE):
        self.data, self.block_size = data, block_size

    def __len__(self):
        return (len(self.data) - 1) // self.block_size

    def __getitem__(self, i):
        chunk = self.data[i * self.block_size: (i + 1) * self.block_size + 1]
        return chunk[:-1], chunk[1:]


def make_train_loader(dataset, micro_batch_size, seed=0):
    g = torch.Generator().manual_seed(seed)
    return DataLoader(dataset, batch_size=micro_batch_size, shuffle=True, generator=g, drop_last=True)


class RMSNorm(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.weight


class TinyLlama(nn.Module):
    def __init__(self, vocab=64, d=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.norm1, self.norm2 = RMSNorm(d), RMSNorm(d)
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.proj = nn.Linear(d, d, bias=False)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d, bias=False), nn.SiLU(), nn.Linear(4 * d, d, bias=False))
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        x = self.wte(idx)
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        x = x + self.proj(F.scaled_dot_product_attention(q, k, v, is_causal=True))
        x = x + self.mlp(self.norm2(x))
        return self.lm_head(x)


def make_train_step(model, opt):
    def train_step(input_ids, targets):
        opt.zero_grad()
        logits = model(input_ids)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _steps(device):
    data = torch.randint(0, 64, (11 * BLOCK_SIZE + 1,), generator=torch.Generator().manual_seed(0))
    batches = list(make_train_loader(TokenBlocks(data), micro_batch_size=4))
    return [(x.to(device), y.to(device)) for x, y in batches]


def ENTRY(device):
    model = TinyLlama().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _steps(device)[0]


def ALT_ARGS(device):
    return _steps(device)[1:]
