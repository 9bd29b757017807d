"""Source: https://github.com/pytorch/xla/issues/2364

The tagger's training step keeping the weights to checkpoint on the device: after each update the
parameters are copied into a device-resident snapshot (`copy_` into cloned tensors), and the caller
serialises the snapshot once, after training, instead of calling `torch.save` inside the step.
"""
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


class SnapshotTrainer:
    def __init__(self, model, opt):
        self.model = model
        self.opt = opt
        self.snapshot = {k: v.detach().clone() for k, v in model.state_dict().items()}

    def train_step(self, ids, tags):
        self.opt.zero_grad()
        logits = self.model(ids)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tags.reshape(-1))
        loss.backward()
        self.opt.step()
        with torch.no_grad():
            for k, v in self.model.state_dict().items():
                self.snapshot[k].copy_(v)
        return loss.detach()


# --- oracle ---
_KEEP = [SnapshotTrainer]


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 40, (2, 6), generator=g).to(device), torch.randint(0, 5, (2, 6), generator=g).to(device)


def ENTRY(device):
    model = Tagger().to(device)
    trainer = SnapshotTrainer(model, torch.optim.Adam(model.parameters(), lr=1e-3))
    return trainer.train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
