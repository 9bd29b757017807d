"""Image-to-image generator whose forward was left with a debugging `print(out)` of the output tensor.

Source: https://github.com/pytorch/xla/issues/7596 ("Print(tensor) takes a very long time!": printing
an XLA tensor materialises it, and the whole pending graph with it).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, c=8, z_dim=4):
        super().__init__()
        self.inp = nn.Conv2d(3 + z_dim, c, 3, padding=1)
        self.out = nn.Conv2d(c, 3, 3, padding=1)

    def forward(self, img, latent):
        z = latent[:, :, None, None].expand(-1, -1, img.size(2), img.size(3))
        out = torch.tanh(self.out(F.relu(self.inp(torch.cat([img, z], 1)))))
        print("generator output", out[0, 0, 0])  # XLA: host
        return out


def make_train_step(model, opt):
    def train_step(img, latent, target):
        opt.zero_grad()
        loss = F.l1_loss(model(img, latent), target)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(2, 3, 8, 8, generator=g).to(device), torch.randn(2, 4, generator=g).to(device),
            torch.rand(2, 3, 8, 8, generator=g).to(device))


def ENTRY(device):
    model = Generator().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=2e-4)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
