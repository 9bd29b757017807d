"""Source: https://github.com/pytorch/xla/issues/3593 ("OOM when running Gradient Accumulation": the
loop calls `optimizer.step(); xm.mark_step()` only every `accumulate_grad_batches` batches).

Gradient accumulation written as one optimizer step over a window of micro-batches with no sync
between them: the window's forward/backward passes form one graph, and the shorter last window of
the epoch (2 micro-batches instead of 4) is a different graph.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ViTTiny(nn.Module):
    def __init__(self, patch=4, d=16, n_classes=10):
        super().__init__()
        self.patch = nn.Conv2d(3, d, patch, stride=patch)
        self.mlp = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.head = nn.Linear(d, n_classes)

    def forward(self, img):
        tokens = self.patch(img).flatten(2).transpose(1, 2)
        return self.head((tokens + self.mlp(tokens)).mean(1))


def make_step(model, opt):
    def accumulate_and_step(micro_batches):
        for img, y in micro_batches:  # XLA: recompile
            loss = F.cross_entropy(model(img), y) / len(micro_batches)
            loss.backward()
        opt.step()
        opt.zero_grad()
        return loss.detach()
    return accumulate_and_step


# --- oracle ---
def _window(device, seed, k=4):
    g = torch.Generator().manual_seed(seed)
    return ([(torch.randn(2, 3, 8, 8, generator=g).to(device), torch.randint(0, 10, (2,), generator=g).to(device))
             for _ in range(k)],)


def ENTRY(device):
    model = ViTTiny().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _window(device, 0)


def ALT_ARGS(device):
    return [_window(device, 1), _window(device, 2, k=2)]
