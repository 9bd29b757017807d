"""Source: https://github.com/Lightning-AI/pytorch-lightning/issues/1986

The fix from the report (a larger `row_log_interval`): metrics are converted to Python numbers
only every `log_every_n_steps` steps; in the steps measured here (fewer than the interval) nothing
is read back.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SegNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.enc = nn.Conv2d(3, 8, 3, padding=1)
        self.dec = nn.Conv2d(8, n_classes, 1)

    def forward(self, x):
        return self.dec(F.relu(self.enc(x)))


class Trainer:
    def __init__(self, model, opt, log_every_n_steps=50):
        self.model, self.opt = model, opt
        self.log_every_n_steps = log_every_n_steps
        self.global_step = 0
        self.history = []

    def training_step(self, img, mask):
        self.opt.zero_grad()
        logits = self.model(img)
        loss = F.cross_entropy(logits, mask)
        loss.backward()
        self.opt.step()
        self.global_step += 1
        if self.global_step % self.log_every_n_steps == 0:
            pixel_acc = (logits.argmax(1) == mask).float().mean()
            self.history.append({"loss": loss.item(), "pixel_acc": pixel_acc.item()})
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 3, 8, 8, generator=g).to(device), torch.randint(0, 4, (2, 8, 8), generator=g).to(device)


def ENTRY(device):
    model = SegNet().to(device)
    return Trainer(model, torch.optim.SGD(model.parameters(), lr=0.1)).training_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
