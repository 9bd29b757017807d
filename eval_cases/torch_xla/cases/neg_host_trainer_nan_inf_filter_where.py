"""The Trainer-style inner loop with the non-finite loss filter kept on the device: the step loss or the
running average is chosen with `torch.where(torch.isfinite(tr_loss_step), ...)`, so the filter adds no
host read to the step.

Source: https://github.com/huggingface/transformers/pull/13896 ("Fix trainer logging_nan_inf_filter in torch_xla
mode": "`(torch.isnan(tr_loss_step) or torch.isinf(tr_loss_step))` will trigger compilation when running
torch_xla").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Args:
    logging_nan_inf_filter = True


class Classifier(nn.Module):
    def __init__(self, d=16, n=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.Linear(32, n))

    def forward(self, x):
        return self.net(x)


class TrainerLoop:
    def __init__(self, model, opt, device):
        self.model, self.opt, self.args = model, opt, Args()
        self.tr_loss = torch.zeros((), device=device)
        self.steps_since_log = 0

    def training_step(self, x, y):
        self.opt.zero_grad()
        tr_loss_step = F.cross_entropy(self.model(x), y)
        tr_loss_step.backward()
        self.opt.step()
        self.steps_since_log += 1
        if self.args.logging_nan_inf_filter:
            step = tr_loss_step.detach()
            self.tr_loss += torch.where(torch.isfinite(step), step, self.tr_loss / self.steps_since_log)
        else:
            self.tr_loss += tr_loss_step.detach()
        return self.tr_loss.clone()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 16, generator=g).to(device), torch.randint(0, 3, (8,), generator=g).to(device)


def ENTRY(device):
    model = Classifier().to(device)
    loop = TrainerLoop(model, torch.optim.AdamW(model.parameters(), lr=1e-3), device)
    return loop.training_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
