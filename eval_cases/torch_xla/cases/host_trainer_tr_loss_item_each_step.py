"""Source: https://github.com/huggingface/transformers/pull/6802

A masked-LM fine-tuning loop written the way `Trainer.train` was before the pull request: the running
training loss is a Python float, `tr_loss += loss.item()`, updated after every optimizer step. The
pull request: "tensor.item() was being called every step. This must not be done for XLA:TPU tensors
as it's terrible for performance causing TPU<>CPU communication at each step."
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyMLM(nn.Module):
    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.enc = nn.TransformerEncoderLayer(dim, 4, 32, batch_first=True, dropout=0.0)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, ids):
        return self.lm_head(self.enc(self.emb(ids)))


class MiniTrainer:
    def __init__(self, model, opt, logging_steps=50):
        self.model = model
        self.opt = opt
        self.logging_steps = logging_steps
        self.tr_loss = 0.0
        self.global_step = 0

    def training_step(self, ids, labels):
        self.model.train()
        logits = self.model(ids)
        loss = F.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=-100)
        loss.backward()
        return loss

    def train_step(self, ids, labels):
        self.tr_loss += self.training_step(ids, labels).item()  # XLA: host
        self.opt.step()
        self.opt.zero_grad()
        self.global_step += 1
        if self.global_step % self.logging_steps == 0:
            print({"loss": self.tr_loss / self.global_step})


# --- oracle ---
_KEEP = [MiniTrainer]


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 50, (4, 12), generator=g)
    labels = torch.where(torch.rand(4, 12, generator=g) < 0.3, ids, torch.full_like(ids, -100))
    return ids.to(device), labels.to(device)


def ENTRY(device):
    model = TinyMLM().to(device)
    trainer = MiniTrainer(model, torch.optim.AdamW(model.parameters(), lr=1e-3))
    return trainer.train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]


COMPARE = False  # the step returns nothing to compare
