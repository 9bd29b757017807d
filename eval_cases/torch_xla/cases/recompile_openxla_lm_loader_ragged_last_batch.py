"""Source: https://github.com/saforem2/ezpz/pull/190

A compiled language-model trainer whose text loader keeps the default `drop_last=False`: the
dataset holds 10 samples and the batch size is 4, so the last batch of every epoch has 2 rows.
The compiled forward meets a new batch size at the epoch boundary and compiles again ("tensor 'x'
size mismatch: expected 2, actual 1" in the PR's recompile log); the fix is `drop_last=True`.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

NUM_SAMPLES, SEQ_LEN = 10, 12


class PackedText(Dataset):
    def __init__(self, tokens):
        self.tokens = tokens

    def __len__(self):
        return NUM_SAMPLES

    def __getitem__(self, i):
        row = self.tokens[i]
        return row[:-1], row[1:]


def build_loader(dataset, batch_size=4):
    return DataLoader(dataset, batch_size=batch_size, shuffle=False)  # XLA: recompile


class TinyLM(nn.Module):
    def __init__(self, vocab=64, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.block = nn.TransformerEncoderLayer(d, 2, 32, dropout=0.0, batch_first=True, norm_first=True)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, x):
        mask = nn.Transformer.generate_square_subsequent_mask(x.shape[1], device=x.device)
        return self.head(self.block(self.emb(x), src_mask=mask, is_causal=True))


class Trainer:
    def __init__(self, model, device):
        self.model = model
        self.forward = torch.compile(model, backend="openxla", dynamic=False) if device.type == "xla" else model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.05)

    def train_step(self, x, y):
        self.opt.zero_grad()
        logits = self.forward(x)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        loss.backward()
        self.opt.step()
        return loss.detach()


# --- oracle ---
def _epoch(device):
    tokens = torch.randint(0, 64, (NUM_SAMPLES, SEQ_LEN + 1), generator=torch.Generator().manual_seed(0))
    return [(x.to(device), y.to(device)) for x, y in build_loader(PackedText(tokens))]


def ENTRY(device):
    return Trainer(TinyLM().to(device), device).train_step, _epoch(device)[0]


def ALT_ARGS(device):
    return _epoch(device)[1:]
