"""Source: https://github.com/pytorch/xla/issues/5872 ("[Core ATen Opset] Lower aten_isnan": `torch.isnan` on an integer tensor failed on the XLA device with "Error while lowering: aten::isnan ... Operands to IsNan must be real-valued floating-point, but got S32", although PyTorch accepts integral inputs; fixed by pytorch/xla#6110, which casts to F32 first). No longer reproduces on torch_xla 2.9. Here a tabular model's batch sanitizer zeroes NaNs in every input tensor with `masked_fill(torch.isnan(t), 0)`, the integer visit counts included. (Tabular regression on float measurements and integer visit counts.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def sanitize(batch):
    return {name: t.masked_fill(torch.isnan(t), 0) for name, t in batch.items()}


class TabularRegressor(nn.Module):
    def __init__(self, n_float=6, n_count=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_float + n_count, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, measurements, visit_counts):
        counts = torch.log1p(visit_counts.float())
        return self.net(torch.cat([measurements, counts], dim=-1)).squeeze(-1)


def make_train_step(model, opt):
    def train_step(measurements, visit_counts, target):
        batch = sanitize({"measurements": measurements, "visit_counts": visit_counts})
        opt.zero_grad()
        loss = F.mse_loss(model(batch["measurements"], batch["visit_counts"]), target)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    meas = torch.randn(12, 6, generator=g)
    meas[3, 2] = float("nan")
    counts = torch.randint(0, 40, (12, 3), generator=g)
    return meas.to(device), counts.to(device), torch.randn(12, generator=g).to(device)


def ENTRY(device):
    model = TabularRegressor().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
