"""Source: https://github.com/pytorch/xla/issues/4839

A skip-gram trainer with negative sampling: in every step the negatives are drawn from the
unigram^0.75 distribution with `torch.multinomial(noise, num_negatives, replacement=True)`, several
draws per row. The report asks for a lowering of `aten::multinomial`; written as a failing case
and renamed after the oracle: torch_xla 2.9 lowers `multinomial` with `replacement=True` (only
draws without replacement of more than one sample fall back), so this step stays on the device.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SkipGram(nn.Module):
    def __init__(self, vocab=60, d=16):
        super().__init__()
        self.inp = nn.Embedding(vocab, d)
        self.out = nn.Embedding(vocab, d)

    def forward(self, center, context, negatives):
        c = self.inp(center)
        pos = (c * self.out(context)).sum(-1)
        neg = torch.bmm(self.out(negatives), c.unsqueeze(-1)).squeeze(-1)
        return -(F.logsigmoid(pos) + F.logsigmoid(-neg).sum(-1)).mean()


class Trainer:
    def __init__(self, model, counts, num_negatives=5):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)
        self.noise = counts.float().pow(0.75)
        self.num_negatives = num_negatives

    def train_step(self, center, context):
        noise = self.noise.expand(center.shape[0], -1)
        negatives = torch.multinomial(noise, self.num_negatives, replacement=True)
        self.opt.zero_grad()
        loss = self.model(center, context, negatives)
        loss.backward()
        self.opt.step()
        return loss.detach()


# --- oracle ---
COMPARE = False  # device and CPU random streams differ


def _pairs(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 60, (16,), generator=g).to(device), torch.randint(0, 60, (16,), generator=g).to(device)


def ENTRY(device):
    counts = torch.randint(1, 100, (60,), generator=torch.Generator().manual_seed(7)).to(device)
    return Trainer(SkipGram().to(device), counts).train_step, _pairs(device, 0)


def ALT_ARGS(device):
    return [_pairs(device, s) for s in (1, 2)]
