"""Source: https://github.com/pytorch/xla/issues/1178 ("Training freezes at loss.backward()": a Colab TPU user whose step ran very slowly was told the losses had to be lowered, and wrote "you have not implemented MSELoss, so I am only using L1Loss and BCELoss"). No longer reproduces on torch_xla 2.9: `mse_loss`, `l1_loss` and `binary_cross_entropy` are lowered, forward and backward. Here a denoising autoencoder is trained on an MSE reconstruction loss plus an L1 sparsity penalty and a BCE loss on a clean/noisy discriminator head. (Denoising autoencoder for 64-dimensional sensor frames.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DenoisingAutoencoder(nn.Module):
    def __init__(self, dim=64, code=16):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, code))
        self.decoder = nn.Sequential(nn.Linear(code, 32), nn.ReLU(), nn.Linear(32, dim))
        self.noise_head = nn.Linear(code, 1)

    def forward(self, x):
        code = self.encoder(x)
        return self.decoder(code), code, torch.sigmoid(self.noise_head(code)).squeeze(-1)


def make_train_step(model, opt, sparsity=1e-3):
    def train_step(noisy, clean, is_noisy):
        opt.zero_grad()
        recon, code, p_noisy = model(noisy)
        loss = (F.mse_loss(recon, clean) + sparsity * F.l1_loss(code, torch.zeros_like(code))
                + 0.1 * F.binary_cross_entropy(p_noisy, is_noisy))
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    clean = torch.randn(16, 64, generator=g)
    is_noisy = (torch.rand(16, generator=g) > 0.5).float()
    noisy = clean + 0.3 * is_noisy[:, None] * torch.randn(16, 64, generator=g)
    return noisy.to(device), clean.to(device), is_noisy.to(device)


def ENTRY(device):
    model = DenoisingAutoencoder().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
