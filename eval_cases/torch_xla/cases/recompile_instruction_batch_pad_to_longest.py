"""Source: https://github.com/Lightning-AI/litgpt/pull/90

Instruction fine-tuning in the nanoGPT style: `get_batch` draws random examples and pads them to
the longest one in the batch, so every batch brings a new sequence length (and a new graph).
The PR proposed padding to `max_seq_length` when running on PyTorch/XLA.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab=64, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.mix = nn.Linear(d, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, idx):
        h = torch.tanh(self.mix(self.emb(idx)))
        return self.head(h.cumsum(1) / torch.arange(1, idx.size(1) + 1, device=idx.device)[None, :, None])


def get_batch(data, ix):
    input_ids = [data[i]["input_ids"] for i in ix]
    labels = [data[i]["labels"] for i in ix]
    max_len = max(len(s) for s in input_ids)  # XLA: recompile

    def pad_right(x, pad_id):
        return torch.cat((x, torch.full((max_len - len(x),), pad_id, dtype=x.dtype)))

    x = torch.stack([pad_right(x, pad_id=0) for x in input_ids])
    y = torch.stack([pad_right(x, pad_id=-1) for x in labels])
    return x, y


def train_step(model, opt, x, y):
    opt.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), y[:, 1:].reshape(-1), ignore_index=-1)
    loss.backward()
    opt.step()
    return loss.detach()


# --- oracle ---
import functools


def _data(seed, n=16):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n):
        n_tok = int(torch.randint(5, 20, (1,), generator=g))
        ids = torch.randint(1, 64, (n_tok,), generator=g)
        out.append({"input_ids": ids, "labels": ids.clone()})
    return out


def _args(device, seed, ix):
    x, y = get_batch(_data(seed), ix)
    return x.to(device), y.to(device)


def ENTRY(device):
    model = TinyLM().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return functools.partial(train_step, model, opt), _args(device, 0, [0, 1, 2, 3])


def ALT_ARGS(device):
    return [_args(device, 0, [4, 5, 6, 7]), _args(device, 0, [8, 9, 10, 11]), _args(device, 0, [12, 13, 14, 15])]
