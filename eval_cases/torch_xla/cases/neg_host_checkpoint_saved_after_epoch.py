"""Source: https://github.com/pytorch/xla/issues/4482 ("How to save checkpoints in XLA": `xm.save(checkpoint,
path)` with model, optimizer and lr_scheduler state dicts).

Trainer whose step only trains; checkpoints (model, optimizer and scheduler state via `xm.save`)
are written by a separate method the epoch loop calls after its last step.
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla.core.xla_model as xm


class PointNetLite(nn.Module):
    def __init__(self, d_in=3, n_classes=4):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, 32))
        self.cls = nn.Linear(32, n_classes)

    def forward(self, pts):
        return self.cls(self.mlp(pts).max(dim=1).values)


class Trainer:
    def __init__(self, model, opt, sched, ckpt_dir):
        self.model, self.opt, self.sched, self.ckpt_dir = model, opt, sched, ckpt_dir
        self.active_chunk = 0

    def train_step(self, pts, labels):
        self.opt.zero_grad()
        loss = F.cross_entropy(self.model(pts), labels)
        loss.backward()
        xm.optimizer_step(self.opt)
        self.sched.step()
        return loss.detach()

    def save_checkpoint(self, epoch):
        checkpoint = {"lastEpoch": epoch, "activeChunk": self.active_chunk,
                      "model_state_dict": self.model.state_dict(),
                      "optimizer_state_dict": self.opt.state_dict(),
                      "lr_scheduler_state_dict": self.sched.state_dict()}
        xm.save(checkpoint, os.path.join(self.ckpt_dir, f"epoch{epoch}.pt"))


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(6, 20, 3, generator=g).to(device), torch.randint(0, 4, (6,), generator=g).to(device)


def ENTRY(device):
    model = PointNetLite().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=100, gamma=0.5)
    trainer = Trainer(model, opt, sched, tempfile.mkdtemp(prefix="ckpt_"))
    return trainer.train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
