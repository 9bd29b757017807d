"""Source: https://github.com/huggingface/transformers/pull/11128

`DataCollatorWithPadding(pad_to_multiple_of=8)`, added for fp16 tensor cores, used on XLA as if
it fixed the shape: it only rounds the batch's longest length up to a multiple of 8, so batches
whose longest example falls in another bucket (8, 16, 24) still bring new graphs.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def collate_with_padding(features, pad_to_multiple_of=8, pad_id=0):
    max_length = max(len(f["input_ids"]) for f in features)
    if max_length % pad_to_multiple_of != 0:
        max_length = ((max_length // pad_to_multiple_of) + 1) * pad_to_multiple_of  # XLA: recompile
    ids = torch.full((len(features), max_length), pad_id, dtype=torch.long)
    mask = torch.zeros(len(features), max_length, dtype=torch.long)
    for i, f in enumerate(features):
        ids[i, : len(f["input_ids"])] = f["input_ids"]
        mask[i, : len(f["input_ids"])] = 1
    labels = torch.tensor([f["label"] for f in features])
    return ids, mask, labels


class SentenceClassifier(nn.Module):
    def __init__(self, vocab=50, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.head = nn.Linear(d, 3)

    def forward(self, ids, mask):
        m = mask.unsqueeze(-1).float()
        return self.head((self.emb(ids) * m).sum(1) / m.sum(1))


def train_step(model, opt, ids, mask, labels):
    opt.zero_grad()
    loss = F.cross_entropy(model(ids, mask), labels)
    loss.backward()
    opt.step()
    return loss.detach()


# --- oracle ---
import functools


def _args(device, seed, longest):
    g = torch.Generator().manual_seed(seed)
    lengths = [longest] + [int(n) for n in torch.randint(2, longest + 1, (3,), generator=g)]
    feats = [{"input_ids": torch.randint(1, 50, (n,), generator=g), "label": int(torch.randint(0, 3, (1,), generator=g))}
             for n in lengths]
    return tuple(t.to(device) for t in collate_with_padding(feats))


def ENTRY(device):
    model = SentenceClassifier().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return functools.partial(train_step, model, opt), _args(device, 0, 7)


def ALT_ARGS(device):
    return [_args(device, 1, 13), _args(device, 2, 6), _args(device, 3, 21)]
