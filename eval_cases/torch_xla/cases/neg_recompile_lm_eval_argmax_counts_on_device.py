"""Source: https://github.com/huggingface/transformers/issues/16005

The same causal LM evaluation with the documented remedy, `preprocess_logits_for_metrics`:
each batch reduces its logits to argmax predictions at once and adds the number of correct and
counted tokens to two device scalars, so every batch traces the same graph and nothing grows.
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


def preprocess_logits_for_metrics(logits, labels):
    return logits.argmax(dim=-1)


class PredictionLoop:
    def __init__(self, model, device):
        self.model = model.eval()
        self.correct = torch.zeros((), dtype=torch.long, device=device)
        self.counted = torch.zeros((), dtype=torch.long, device=device)

    @torch.no_grad()
    def prediction_step(self, input_ids, labels):
        logits = self.model(input_ids)
        preds = preprocess_logits_for_metrics(logits, labels)[:, :-1]
        targets = labels[:, 1:]
        mask = targets != -100
        self.correct = self.correct + ((preds == targets) & mask).sum()
        self.counted = self.counted + mask.sum()
        return logits

    def accuracy(self):
        return self.correct / self.counted


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 50, (4, 12), generator=g)
    return ids.to(device), ids.clone().to(device)


def ENTRY(device):
    return PredictionLoop(TinyCausalLM().to(device), device).prediction_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
