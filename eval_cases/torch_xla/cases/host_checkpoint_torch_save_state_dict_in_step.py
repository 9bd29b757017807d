"""Source: https://github.com/pytorch/xla/issues/2364

A training step that checkpoints the model and the optimizer with plain `torch.save(model.state_dict(),
...)` from the training loop, as the reporter's `save_model` did on the TPU. Serialising XLA tensors
copies every parameter and optimizer buffer to the host at that point of the step (the maintainers
point to moving them to the CPU or `xm.save`).
"""
import io

import torch
import torch.nn as nn
import torch.nn.functional as F


class Tagger(nn.Module):
    def __init__(self, vocab=40, d=16, n_tags=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.conv = nn.Conv1d(d, d, 3, padding=1)
        self.out = nn.Linear(d, n_tags)

    def forward(self, ids):
        return self.out(torch.relu(self.conv(self.emb(ids).transpose(1, 2))).transpose(1, 2))


class CheckpointingTrainer:
    def __init__(self, model, opt):
        self.model = model
        self.opt = opt
        self.checkpoints = []

    def save_model(self):
        buf_model, buf_opt = io.BytesIO(), io.BytesIO()
        torch.save(self.model.state_dict(), buf_model)  # XLA: host
        torch.save(self.opt.state_dict(), buf_opt)  # XLA: host
        self.checkpoints = [buf_model.getvalue(), buf_opt.getvalue()]

    def train_step(self, ids, tags):
        self.opt.zero_grad()
        logits = self.model(ids)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tags.reshape(-1))
        loss.backward()
        self.opt.step()
        self.save_model()
        return loss.detach()


# --- oracle ---
_KEEP = [CheckpointingTrainer]


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 40, (2, 6), generator=g).to(device), torch.randint(0, 5, (2, 6), generator=g).to(device)


def ENTRY(device):
    model = Tagger().to(device)
    trainer = CheckpointingTrainer(model, torch.optim.Adam(model.parameters(), lr=1e-3))
    return trainer.train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
