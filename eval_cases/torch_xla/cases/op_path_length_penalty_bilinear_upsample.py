"""StyleGAN2-style path-length regularizer: the generator upsamples with bilinear interpolation, and
the penalty takes `torch.autograd.grad((img * noise).sum(), w, create_graph=True)` and backpropagates
through it (double backward through the upsampling).

Source: https://github.com/pytorch/xla/issues/2702 ("torch.autograd.grad slow on tpu": calc_pl_lengths
for StyleGAN; the metrics showed aten::upsample_bilinear2d and its backward running on the CPU in
torch_xla 1.7).

Written as a negative; the oracle measured aten::upsample_bilinear2d_backward falling back in the penalty's
double backward, so it was renamed after labelling; the code is unchanged.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyGenerator(nn.Module):
    def __init__(self, w_dim=8, ch=4):
        super().__init__()
        self.ch = ch
        self.const = nn.Linear(w_dim, ch * 4 * 4)
        self.conv = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, w):
        x = self.const(w).view(-1, self.ch, 4, 4)
        x = F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)
        return self.conv(F.leaky_relu(x, 0.2))


def make_pl_step(gen, opt, pl_decay=0.01):
    state = {"pl_mean": torch.zeros((), device=next(gen.parameters()).device)}

    def pl_step(w):
        opt.zero_grad()
        w = w.detach().requires_grad_(True)
        img = gen(w)
        noise = torch.randn_like(img) / (img.shape[2] * img.shape[3]) ** 0.5
        (grad,) = torch.autograd.grad((img * noise).sum(), w, create_graph=True)
        pl_lengths = grad.square().sum(1).sqrt()
        pl_mean = state["pl_mean"] + pl_decay * (pl_lengths.mean().detach() - state["pl_mean"])
        loss = (pl_lengths - pl_mean).square().mean()
        loss.backward()
        opt.step()
        state["pl_mean"] = pl_mean
        return loss.detach()
    return pl_step


# --- oracle ---
COMPARE = False


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(4, 8, generator=g).to(device),)


def ENTRY(device):
    gen = TinyGenerator().to(device)
    return make_pl_step(gen, torch.optim.Adam(gen.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
