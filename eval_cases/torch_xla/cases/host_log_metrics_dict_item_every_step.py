"""Source: https://github.com/Lightning-AI/pytorch-lightning/issues/20995

Logging on every step (`on_step=True`): a metrics dict of device tensors is turned into Python
numbers with `{k: v.item() ...}` for the progress bar and logger each step, which forces the
host to wait for the device at every step.
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
    def __init__(self, model, opt):
        self.model, self.opt = model, opt
        self.history = []

    def training_step(self, img, mask):
        self.opt.zero_grad()
        logits = self.model(img)
        loss = F.cross_entropy(logits, mask)
        loss.backward()
        self.opt.step()
        pixel_acc = (logits.argmax(1) == mask).float().mean()
        metrics = {"loss": loss.detach(), "pixel_acc": pixel_acc}
        self.history.append({k: v.item() for k, v in metrics.items()})  # XLA: host
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
