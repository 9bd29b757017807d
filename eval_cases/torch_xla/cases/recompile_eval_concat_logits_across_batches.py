"""Source: https://github.com/huggingface/transformers/issues/10418

A Trainer-style evaluation loop that keeps every batch's logits and labels on the device by
concatenating them onto the running `preds_host` (`nested_concat`): the accumulated tensor grows
by one batch per step, so each eval step has a graph of a new size.
"""
import torch
import torch.nn as nn


class NLIClassifier(nn.Module):
    def __init__(self, vocab=50, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.head = nn.Linear(d, 3)

    def forward(self, ids):
        return self.head(torch.tanh(self.emb(ids).mean(1)))


class EvalLoop:
    def __init__(self, model):
        self.model = model
        self.preds_host = None
        self.labels_host = None

    @torch.no_grad()
    def prediction_step(self, ids, labels):
        logits = self.model(ids)
        if self.preds_host is None:
            self.preds_host, self.labels_host = logits, labels
        else:
            self.preds_host = torch.cat((self.preds_host, logits), dim=0)  # XLA: recompile
            self.labels_host = torch.cat((self.labels_host, labels), dim=0)
        return (self.preds_host.argmax(-1) == self.labels_host).float().mean()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 50, (4, 10), generator=g).to(device), torch.randint(0, 3, (4,), generator=g).to(device)


def ENTRY(device):
    return EvalLoop(NLIClassifier().to(device)).prediction_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
