"""Source: https://github.com/Lightning-AI/pytorch-lightning/pull/17572

The logger connector after the pull request: the logged metrics are detached and kept on the
device; they are turned into Python numbers only when the progress bar or a logger reads them, every
`log_every_n_steps` steps.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LitClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5))
        self.logged = {}

    def log(self, name, value):
        self.logged[name] = value

    def training_step(self, batch):
        x, y = batch
        logits = self.net(x)
        loss = F.cross_entropy(logits, y)
        self.log("train_loss", loss)
        self.log("train_acc", (logits.argmax(-1) == y).float().mean())
        return loss


class LoopWithLoggerConnector:
    def __init__(self, module, opt, log_every_n_steps=50):
        self.module, self.opt = module, opt
        self.log_every_n_steps = log_every_n_steps
        self.callback_metrics = {}
        self.global_step = 0

    def run_step(self, x, y):
        self.opt.zero_grad()
        loss = self.module.training_step((x, y))
        loss.backward()
        self.opt.step()
        self.global_step += 1
        self.callback_metrics.update({k: v.detach() for k, v in self.module.logged.items()})
        if self.global_step % self.log_every_n_steps == 0:
            print({k: float(v) for k, v in self.callback_metrics.items()})
        return loss.detach()


# --- oracle ---
_KEEP = [LoopWithLoggerConnector]


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 20, generator=g).to(device), torch.randint(0, 5, (8,), generator=g).to(device)


def ENTRY(device):
    module = LitClassifier().to(device)
    return LoopWithLoggerConnector(module, torch.optim.SGD(module.parameters(), lr=0.1)).run_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
