"""Gradient accumulation written as in accelerate's NLP example: every call runs one micro-batch's
forward and backward, and the optimizer steps only when `step % gradient_accumulation_steps == 0`.
The loader syncs after each micro-batch, so the micro-batches that accumulate and the one that also
runs the optimizer update are different graphs.

Source: https://github.com/huggingface/accelerate/pull/479 ("Rm gradient accumulation on TPU":
`if step % gradient_accumulation_steps == 0: optimizer.step()` in examples/complete_nlp_example.py,
removed on TPU because of "a major bug within it apparently on the xla side").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PairClassifier(nn.Module):
    def __init__(self, vocab=50, d=16, n_labels=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.enc = nn.Linear(d, d)
        self.head = nn.Linear(d, n_labels)

    def forward(self, input_ids):
        return self.head(torch.tanh(self.enc(self.emb(input_ids))).mean(1))


class Trainer:
    def __init__(self, model, optimizer, gradient_accumulation_steps=4):
        self.model, self.optimizer = model, optimizer
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self.step = 0

    def train_step(self, input_ids, labels):
        self.step += 1
        loss = F.cross_entropy(self.model(input_ids), labels)
        loss = loss / self.gradient_accumulation_steps
        loss.backward()
        if self.step % self.gradient_accumulation_steps == 0:  # XLA: recompile
            self.optimizer.step()
            self.optimizer.zero_grad()
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 50, (4, 12), generator=g).to(device), torch.randint(0, 2, (4,), generator=g).to(device)


def ENTRY(device):
    model = PairClassifier().to(device)
    trainer = Trainer(model, torch.optim.AdamW(model.parameters(), lr=1e-3))
    return trainer.train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
