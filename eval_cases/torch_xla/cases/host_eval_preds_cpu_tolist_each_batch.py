"""Source: https://github.com/huggingface/accelerate/issues/1369

An evaluation loop that moves each batch's predictions and labels to the host right after the
forward (`preds.cpu().tolist()`) to extend Python lists for a metric library: every eval batch
waits for the device and copies back.
"""
import torch
import torch.nn as nn


class TokenTagger(nn.Module):
    def __init__(self, vocab=40, d=16, n_tags=6):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.rnn_like = nn.Linear(d, d)
        self.head = nn.Linear(d, n_tags)

    def forward(self, ids):
        return self.head(torch.tanh(self.rnn_like(self.emb(ids))))


class Evaluator:
    def __init__(self, model):
        self.model = model
        self.all_preds, self.all_labels = [], []

    @torch.no_grad()
    def eval_step(self, ids, labels):
        logits = self.model(ids)
        preds = torch.where(labels != -100, logits.argmax(-1), 0)
        labels = torch.where(labels != -100, labels, 0)
        self.all_preds.extend(preds.cpu().tolist())  # XLA: host
        self.all_labels.extend(labels.cpu().tolist())
        return preds


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, 6, (4, 9), generator=g)
    labels[:, 7:] = -100
    return torch.randint(0, 40, (4, 9), generator=g).to(device), labels.to(device)


def ENTRY(device):
    return Evaluator(TokenTagger().to(device)).eval_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
