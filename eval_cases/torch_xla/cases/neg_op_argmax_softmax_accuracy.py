"""Evaluation step of an intent classifier: softmax probabilities, argmax predictions and the batch
accuracy, all returned as device tensors.

Source: https://github.com/pytorch/xla/issues/2169 (argmax after softmax on an XLA tensor returned a
constant index on old builds; the ops themselves lower).
"""
import torch
import torch.nn as nn


class IntentClassifier(nn.Module):
    def __init__(self, vocab=40, dim=16, n_intents=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.enc = nn.Conv1d(dim, dim, 3, padding=1)
        self.out = nn.Linear(dim, n_intents)

    def forward(self, ids):
        h = torch.relu(self.enc(self.emb(ids).transpose(1, 2)))
        return self.out(h.amax(-1))


def make_eval_step(model):
    @torch.no_grad()
    def eval_step(ids, labels):
        model.eval()
        probs = torch.softmax(model(ids), dim=-1)
        pred = torch.argmax(probs, dim=-1)
        acc = (pred == labels).float().mean()
        return pred, probs.max(-1).values, acc
    return eval_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 40, (4, 6), generator=g).to(device), torch.randint(0, 5, (4,), generator=g).to(device)


def ENTRY(device):
    model = IntentClassifier().to(device)
    return make_eval_step(model), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
