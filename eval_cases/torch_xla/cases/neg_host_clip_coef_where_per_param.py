"""Source: https://github.com/Lightning-AI/pytorch-lightning/issues/2766

Gradient-norm clipping written the TPU-friendly way Lightning used: the total norm is reduced on the
device, `clip_coef = max_norm / (total_norm + eps)`, and every gradient is multiplied by
`torch.where(clip_coef < 1, clip_coef, one)` inside a per-parameter loop (the loop the report found
slow, not a host read: nothing leaves the device).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 6, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(6, n_classes)

    def forward(self, x):
        return self.fc(torch.flatten(self.body(x), 1))


def clip_grad_norm_tpu(parameters, max_norm, eps=1e-6):
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = torch.sqrt(sum((g.detach() ** 2).sum() for g in grads))
    clip_coef = max_norm / (total_norm + eps)
    one = torch.tensor(1.0, device=total_norm.device)
    for g in grads:
        g.detach().mul_(torch.where(clip_coef < 1, clip_coef, one))
    return total_norm


def make_train_step(model, opt, max_norm=0.25):
    def train_step(x, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        clip_grad_norm_tpu(list(model.parameters()), max_norm)
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 1, 8, 8, generator=g).to(device), torch.randint(0, 4, (4,), generator=g).to(device)


def ENTRY(device):
    model = ConvNet().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
