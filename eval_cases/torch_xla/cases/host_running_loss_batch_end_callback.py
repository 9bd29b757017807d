"""A Lightning-style TPU training loop: after the optimizer step, end-of-batch callbacks run before the
next batch is loaded. One of them keeps a running loss for the progress bar with
`self.window.append(outputs["loss"].item())`, which reads the lazy loss back to the host before the step's
graph was cut, so the step executes early and the rest of it again at the next sync.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/15884 ("TPU performance issues and potential
fixes": end-of-batch callbacks such as "progress bar refreshing, logging, metrics tracking, running loss
updating ... could access lazy tensors' values and trigger early evaluations").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla.core.xla_model as xm


class RunningLoss:
    def __init__(self, window=20):
        self.window_size = window
        self.window = []

    def on_train_batch_end(self, outputs):
        self.window.append(outputs["loss"].item())  # XLA: host
        self.window = self.window[-self.window_size:]
        return sum(self.window) / len(self.window)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def make_fit_batch(model, opt, callbacks):
    def fit_batch(x, y):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        xm.optimizer_step(opt)
        outputs = {"loss": loss.detach()}
        for cb in callbacks:
            cb.on_train_batch_end(outputs)
        return outputs["loss"]
    return fit_batch


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(16, 32, generator=g).to(device), torch.randn(16, generator=g).to(device)


def ENTRY(device):
    model = Net().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    return make_fit_batch(model, opt, [RunningLoss()]), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
