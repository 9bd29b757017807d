"""Source: https://github.com/Lightning-AI/pytorch-lightning/pull/17572

A small Lightning-style trainer: after each training step the metrics the module logged (loss and
accuracy) are stored by the logger connector, which on TPU converted them to CPU tensors
(`apply_to_collection(metrics, Tensor, lambda t: t.cpu())`). The pull request ("[TPU] Remove CPU
conversion of metrics", labelled performance) drops the per-step `.cpu()`.
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
    def __init__(self, module, opt):
        self.module, self.opt = module, opt
        self.callback_metrics = {}

    def run_step(self, x, y):
        self.opt.zero_grad()
        loss = self.module.training_step((x, y))
        loss.backward()
        self.opt.step()
        metrics = {k: v.detach() for k, v in self.module.logged.items()}
        self.callback_metrics.update({k: v.cpu() for k, v in metrics.items()})  # XLA: host
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
