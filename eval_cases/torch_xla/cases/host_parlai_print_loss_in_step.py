"""Dialogue-model training step that prints the computed loss before `backward()` while debugging a
slow TPU run with accelerate.

Source: https://github.com/huggingface/accelerate/issues/283 ("Training gets stuck at loss.backward()
using TPU": the step prints "the computed loss is" with the loss tensor, then calls
accelerator.backward(loss)).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Seq2Seq(nn.Module):
    def __init__(self, vocab=50, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.enc = nn.Conv1d(d, d, 3, padding=1)  # (a GRU fails the oracle's eager phase once a device exists)
        self.out = nn.Linear(d, vocab)

    def forward(self, ids):
        h = torch.tanh(self.enc(self.emb(ids).transpose(1, 2))).transpose(1, 2)
        return self.out(h)


def make_train_step(model, opt):
    def train_step(ids, labels):
        opt.zero_grad()
        logits = model(ids)
        loss = F.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=-100)
        print("the computed loss is", loss)  # XLA: host
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, 50, (4, 6), generator=g)
    return ids.to(device), ids.roll(-1, 1).to(device)


def ENTRY(device):
    model = Seq2Seq().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
