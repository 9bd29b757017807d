"""Source: https://github.com/huggingface/transformers/issues/16005

Evaluation of a causal LM example script on TPU with an accuracy metric: like the Trainer's
prediction loop, every evaluation batch appends its full `[batch, seq, vocab]` logits (and labels)
to the tensors gathered so far with `torch.cat`, to compute accuracy at the end. The gathered
tensor is longer after every batch, so each step traces a new shape (and the buffer keeps growing
in device memory, which is what the report ran into).
"""
import torch
import torch.nn as nn


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=50, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(12, d)
        self.mix = nn.Linear(d, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, input_ids):
        pos = torch.arange(input_ids.shape[1], device=input_ids.device)
        h = self.emb(input_ids) + self.pos(pos)
        h = h + torch.tanh(self.mix(h.cumsum(1) / (pos[:, None] + 1)))
        return self.head(h)


class PredictionLoop:
    def __init__(self, model):
        self.model = model.eval()
        self.preds_host = None
        self.labels_host = None

    @torch.no_grad()
    def prediction_step(self, input_ids, labels):
        logits = self.model(input_ids)
        if self.preds_host is None:
            self.preds_host, self.labels_host = logits, labels
        else:
            self.preds_host = torch.cat((self.preds_host, logits), dim=0)  # XLA: recompile
            self.labels_host = torch.cat((self.labels_host, labels), dim=0)
        return logits

    def accuracy(self):
        preds = self.preds_host[:, :-1].argmax(-1)
        labels = self.labels_host[:, 1:]
        mask = labels != -100
        return ((preds == labels) & mask).sum() / mask.sum()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 50, (4, 12), generator=g)
    return ids.to(device), ids.clone().to(device)


def ENTRY(device):
    return PredictionLoop(TinyCausalLM().to(device)).prediction_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
