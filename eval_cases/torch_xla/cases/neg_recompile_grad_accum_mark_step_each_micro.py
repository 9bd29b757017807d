"""Source: https://github.com/modelscope/ms-swift/pull/1677 ("[TorchAcc] fix: add mark_step when GA is
greater than 1": "Before this PR, Torchacc compiled for each gradient_accumulation_steps. After this
PR, it will compile for each individual step").

Gradient accumulation that cuts the graph after every micro-batch (`xm.mark_step()` after each
backward): each micro-batch compiles to the same small graph whatever the window length, so the
shorter last window of the epoch reuses the compiled graphs.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla.core.xla_model as xm


class ViTTiny(nn.Module):
    def __init__(self, patch=4, d=16, n_classes=10):
        super().__init__()
        self.patch = nn.Conv2d(3, d, patch, stride=patch)
        self.mlp = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.head = nn.Linear(d, n_classes)

    def forward(self, img):
        tokens = self.patch(img).flatten(2).transpose(1, 2)
        return self.head((tokens + self.mlp(tokens)).mean(1))


def make_step(model, opt, accumulation_steps=4):
    def accumulate_and_step(micro_batches):
        for img, y in micro_batches:
            loss = F.cross_entropy(model(img), y) / accumulation_steps
            loss.backward()
            xm.mark_step()
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
