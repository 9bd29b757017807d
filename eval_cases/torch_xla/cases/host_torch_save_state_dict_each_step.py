"""Source: https://github.com/aws-neuron/aws-neuron-sdk/issues/1315 ("[torch-xla 2.9] torch.save() on XLA
model state_dict hangs or produces corrupt checkpoints"; workaround: `torch_xla.sync()` and move the
state dict to the CPU first).

Fine-tuning step that checkpoints the model with `torch.save(model.state_dict(), ...)` at the end
of every step while the parameters live on the XLA device.
"""
import io

import torch
import torch.nn as nn
import torch.nn.functional as F


class SentimentHead(nn.Module):
    def __init__(self, vocab=64, d=16, n_classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.cls = nn.Linear(d, n_classes)

    def forward(self, ids):
        return self.cls(self.emb(ids).mean(1))


class CheckpointingTrainer:
    def __init__(self, model, opt, save_every=1):
        self.model, self.opt, self.save_every = model, opt, save_every
        self.step = 0
        self.last_checkpoint = None

    def train_step(self, ids, labels):
        self.opt.zero_grad()
        loss = F.cross_entropy(self.model(ids), labels)
        loss.backward()
        self.opt.step()
        self.step += 1
        if self.step % self.save_every == 0:
            buf = io.BytesIO()
            torch.save(self.model.state_dict(), buf)  # XLA: host
            self.last_checkpoint = buf.getvalue()
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 64, (8, 10), generator=g).to(device), torch.randint(0, 3, (8,), generator=g).to(device)


def ENTRY(device):
    model = SentimentHead().to(device)
    trainer = CheckpointingTrainer(model, torch.optim.SGD(model.parameters(), lr=0.1))
    return trainer.train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
