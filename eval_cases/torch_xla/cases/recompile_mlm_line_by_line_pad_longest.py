"""Source: https://github.com/huggingface/transformers/issues/7962

`run_language_modeling` with a line-by-line dataset on TPU: each line is its own example and the
MLM collator pads a batch to its longest line before masking 15% of the tokens, so the sequence
length (and the graph) changes from batch to batch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, MASK, VOCAB = 0, 1, 60


def mlm_collate(lines, generator, mlm_probability=0.15):
    longest = max(len(t) for t in lines)  # XLA: recompile
    input_ids = torch.full((len(lines), longest), PAD, dtype=torch.long)
    for i, t in enumerate(lines):
        input_ids[i, : len(t)] = t
    labels = input_ids.clone()
    prob = torch.full(labels.shape, mlm_probability)
    prob.masked_fill_(input_ids == PAD, 0.0)
    masked = torch.bernoulli(prob, generator=generator).bool()
    labels[~masked] = -100
    input_ids[masked] = MASK
    return input_ids, labels


class TinyMLM(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d)
        self.enc = nn.TransformerEncoderLayer(d, 2, 32, batch_first=True, dropout=0.0)
        self.head = nn.Linear(d, VOCAB)

    def forward(self, ids):
        return self.head(self.enc(self.emb(ids), src_key_padding_mask=ids == PAD))


def train_step(model, opt, input_ids, labels):
    opt.zero_grad()
    loss = F.cross_entropy(model(input_ids).flatten(0, 1), labels.flatten(), ignore_index=-100)
    loss.backward()
    opt.step()
    return loss.detach()


# --- oracle ---
import functools


def _args(device, seed, longest):
    g = torch.Generator().manual_seed(seed)
    lengths = [longest] + [int(n) for n in torch.randint(3, longest + 1, (3,), generator=g)]
    lines = [torch.randint(2, VOCAB, (n,), generator=g) for n in lengths]
    ids, labels = mlm_collate(lines, g)
    labels[:, 0] = ids[:, 0]  # at least one target per batch
    return ids.to(device), labels.to(device)


def ENTRY(device):
    model = TinyMLM().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    return functools.partial(train_step, model, opt), _args(device, 0, 9)


def ALT_ARGS(device):
    return [_args(device, 1, 12), _args(device, 2, 7), _args(device, 3, 10)]
