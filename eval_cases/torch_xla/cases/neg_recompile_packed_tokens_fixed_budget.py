"""The packed-sequence LM step with every packed stream padded to a fixed token budget (32) and the
padding excluded from the loss with ignore_index, so the step always sees [32] tokens.

Source: https://github.com/pytorch/xla/issues/6413 (inputs whose size varies with batch * length make a
new graph each time; a fixed budget keeps one).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

BUDGET = 32
PAD = 0


class PackedLM(nn.Module):
    def __init__(self, vocab=40, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mix = nn.Conv1d(dim, dim, 3, padding=1)
        self.out = nn.Linear(dim, vocab)

    def forward(self, flat_ids):
        h = self.emb(flat_ids).t()[None]
        return self.out(torch.relu(self.mix(h))[0].t())


def pack(docs):
    flat = torch.cat(docs)[:BUDGET]
    return torch.cat([flat, flat.new_full((BUDGET - flat.numel(),), PAD)])


def make_train_step(model, opt):
    def train_step(flat_ids):
        opt.zero_grad()
        logits = model(flat_ids[:-1])
        loss = F.cross_entropy(logits, flat_ids[1:], ignore_index=PAD)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed, lengths):
    g = torch.Generator().manual_seed(seed)
    return (pack([torch.randint(1, 40, (n,), generator=g) for n in lengths]).to(device),)


def ENTRY(device):
    model = PackedLM().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0, (7, 9))


def ALT_ARGS(device):
    return [_batch(device, 1, (5, 8)), _batch(device, 2, (10, 3)), _batch(device, 3, (6, 6))]
