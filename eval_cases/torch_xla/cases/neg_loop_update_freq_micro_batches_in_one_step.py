"""Source: https://github.com/pytorch/xla/issues/1367

"Fairseq-TPU gradient accumulation does not save memory": with `--update-freq=8` the trainer runs
8 forward passes and their backward passes between two barriers, so all micro-batches end up in one
graph. A translation-style trainer whose step loops over `update_freq` micro-batches of fixed shape
and then updates once: the graph is large, but it is the same graph in every step, so after the
warm-up nothing compiles and nothing is read back.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinySeq2Seq(nn.Module):
    def __init__(self, vocab=48, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.enc = nn.Linear(d, d)
        self.dec = nn.Linear(2 * d, d)
        self.out = nn.Linear(d, vocab)

    def forward(self, src, prev):
        memory = torch.tanh(self.enc(self.emb(src))).mean(1, keepdim=True)
        h = self.dec(torch.cat([self.emb(prev), memory.expand(-1, prev.shape[1], -1)], -1))
        return self.out(torch.tanh(h))


class Trainer:
    def __init__(self, model, update_freq=4):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.update_freq = update_freq

    def train_step(self, src, prev, tgt):
        self.opt.zero_grad()
        total = 0.0
        for s, p, t in zip(src.chunk(self.update_freq), prev.chunk(self.update_freq), tgt.chunk(self.update_freq)):
            logits = self.model(s, p)
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), t.reshape(-1)) / self.update_freq
            loss.backward()
            total = total + loss.detach()
        self.opt.step()
        return total


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(0, 48, (16, 10), generator=g)
    tgt = torch.randint(0, 48, (16, 8), generator=g)
    prev = torch.cat([torch.zeros(16, 1, dtype=torch.long), tgt[:, :-1]], 1)
    return src.to(device), prev.to(device), tgt.to(device)


def ENTRY(device):
    return Trainer(TinySeq2Seq().to(device)).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
