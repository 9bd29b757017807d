"""Source: https://github.com/pytorch/xla/issues/1188

The segmentation trainer saving as the API guide intends: `xm.save` (which moves the tensors to the
CPU) only every `save_every` optimizer steps - a checkpoint per few thousand steps - so the steps in
between never copy the weights to the host.
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla.core.xla_model as xm


class TinySegNet(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1))
        self.cls = nn.Conv2d(8, classes, 1)

    def forward(self, x):
        return self.cls(torch.relu(self.enc(x)))


class SegTrainer:
    def __init__(self, model, opt, ckpt_dir, save_every=2000):
        self.model, self.opt = model, opt
        self.path = os.path.join(ckpt_dir, "last.pt")
        self.save_every, self.step = save_every, 0

    def train_step(self, images, masks):
        self.opt.zero_grad()
        loss = F.cross_entropy(self.model(images), masks)
        loss.backward()
        self.opt.step()
        self.step += 1
        if self.step % self.save_every == 0:
            xm.save(self.model.state_dict(), self.path)
        return loss.detach()


# --- oracle ---
_KEEP = [SegTrainer]


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 3, 16, 16, generator=g).to(device), torch.randint(0, 3, (2, 16, 16), generator=g).to(device)


def ENTRY(device):
    model = TinySegNet().to(device)
    trainer = SegTrainer(model, torch.optim.SGD(model.parameters(), lr=0.05), tempfile.mkdtemp())
    return trainer.train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
