"""Diffusion-style inference loop that calls the denoiser for several steps per call and prints the
output at the end, without any mark_step/torch_xla.sync() between calls.

Source: https://github.com/pytorch/xla/issues/7596 (print(tensor) takes a very long time; the fix was
adding xm.mark_step() before and after inference).
"""
import torch
import torch.nn as nn


class Denoiser(nn.Module):
    def __init__(self, c=3, hidden=8):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(c + 1, hidden, 3, padding=1), nn.SiLU(), nn.Conv2d(hidden, c, 3, padding=1))

    def forward(self, x, t):
        return self.net(torch.cat([x, t.expand(x.size(0), 1, *x.shape[2:])], 1))


def make_sample_step(model, n_steps=4):
    state = {}

    @torch.no_grad()
    def sample(x):  # XLA: loop
        for i in range(n_steps):
            t = torch.full((1, 1, 1, 1), 1.0 - i / n_steps, device=x.device)
            x = x - 0.25 * model(x, t)
        state["last"] = x
        print("sample mean", x.mean())
        return x
    return sample


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(1, 3, 8, 8, generator=g).to(device),)


def ENTRY(device):
    model = Denoiser().to(device).eval()
    return make_sample_step(model), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]

MARK_STEP = False  # the user's inference loop never syncs
