"""Source: https://github.com/AI-Hypercomputer/torchprime/pull/266 (torch_xla trainer: tensorboard
metrics, `_log_to_tensorboard(step, loss, learning_rate)` called from the training loop).

Decoder-only trainer that hands `loss.item()` and the learning rate to its metrics logger on
every step (`logging_steps=1`).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyDecoder(nn.Module):
    def __init__(self, vocab=48, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.mix = nn.Linear(d, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        h = self.emb(ids)
        h = h + torch.cumsum(self.mix(h), dim=1) / torch.arange(1, ids.shape[1] + 1, device=ids.device)[None, :, None]
        return self.head(torch.relu(h))


class MemoryLogger:
    def __init__(self):
        self.rows = []

    def add_scalar(self, tag, value, step):
        self.rows.append((tag, value, step))


class Trainer:
    def __init__(self, model, opt, logging_steps=1):
        self.model, self.opt, self.logging_steps = model, opt, logging_steps
        self.writer = MemoryLogger()
        self.step = 0

    def _log(self, step, loss, learning_rate):
        self.writer.add_scalar("train/loss", loss, step)
        self.writer.add_scalar("train/learning_rate", learning_rate, step)

    def train_step(self, ids):
        self.opt.zero_grad()
        logits = self.model(ids[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), ids[:, 1:].reshape(-1))
        loss.backward()
        self.opt.step()
        self.step += 1
        if self.step % self.logging_steps == 0:
            self._log(self.step, loss.item(), self.opt.param_groups[0]["lr"])  # XLA: host
        return loss.detach()


# --- oracle ---
def _ids(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randint(0, 48, (4, 12), generator=g).to(device),)


def ENTRY(device):
    model = TinyDecoder().to(device)
    trainer = Trainer(model, torch.optim.AdamW(model.parameters(), lr=3e-4))
    return trainer.train_step, _ids(device, 0)


def ALT_ARGS(device):
    return [_ids(device, s) for s in (1, 2)]
