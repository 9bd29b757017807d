"""Source: https://github.com/huggingface/transformers/issues/7962

The fix used by the language-modeling examples: concatenate the tokenized lines and cut them
into blocks of `block_size` (`group_texts`), so every MLM batch has the same shape whatever the
line lengths.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, MASK, VOCAB = 0, 1, 60


def group_texts(lines, block_size=8):
    concatenated = torch.cat(lines)
    total = (len(concatenated) // block_size) * block_size
    return concatenated[:total].view(-1, block_size)


def mlm_collate(blocks, generator, mlm_probability=0.15):
    input_ids = blocks.clone()
    labels = input_ids.clone()
    masked = torch.bernoulli(torch.full(labels.shape, mlm_probability), generator=generator).bool()
    masked[:, 0] = True
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
        return self.head(self.enc(self.emb(ids)))


def train_step(model, opt, input_ids, labels):
    opt.zero_grad()
    loss = F.cross_entropy(model(input_ids).flatten(0, 1), labels.flatten(), ignore_index=-100)
    loss.backward()
    opt.step()
    return loss.detach()


# --- oracle ---
import functools


def _args(device, seed):
    g = torch.Generator().manual_seed(seed)
    lines = [torch.randint(2, VOCAB, (int(n),), generator=g) for n in torch.randint(3, 13, (12,), generator=g)]
    blocks = group_texts(lines)[:4]
    ids, labels = mlm_collate(blocks, g)
    return ids.to(device), labels.to(device)


def ENTRY(device):
    model = TinyMLM().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    return functools.partial(train_step, model, opt), _args(device, 0)


def ALT_ARGS(device):
    return [_args(device, s) for s in (1, 2, 3)]
