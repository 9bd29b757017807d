"""Source: https://github.com/PlayVoice/whisper-vits-svc/issues/16

The KL term of the VITS-style generator loss that the report suspected, on its own: elementwise
log-variance and squared-distance terms, masked by the frame mask and averaged with two sums.
Every op lowers, so the KL loss and its backward run entirely on the device.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def kl_loss(z_p, logs_q, m_p, logs_p, z_mask):
    kl = logs_p - logs_q - 0.5 + 0.5 * ((z_p - m_p) ** 2) * torch.exp(-2.0 * logs_p)
    return torch.sum(kl * z_mask) / torch.sum(z_mask)


class TinyPrior(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.post = nn.Conv1d(c, 2 * c, 1)
        self.flow = nn.Conv1d(c, c, 3, padding=1)

    def forward(self, z):
        m, logs = self.post(z).chunk(2, dim=1)
        z_p = z + self.flow(F.leaky_relu(z, 0.1))
        return z_p, m, logs.tanh()


def make_prior_step(prior, opt, c_kl=1.0):
    def train_step(z, logs_q, z_mask):
        opt.zero_grad()
        z_p, m_p, logs_p = prior(z)
        loss_kl = kl_loss(z_p, logs_q, m_p, logs_p, z_mask) * c_kl
        loss_kl.backward()
        opt.step()
        return loss_kl.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    z = torch.randn(2, 8, 10, generator=g)
    logs_q = 0.1 * torch.randn(2, 8, 10, generator=g)
    mask = (torch.arange(10)[None, None, :] < torch.tensor([10, 7])[:, None, None]).float()
    return z.to(device), logs_q.to(device), mask.to(device)


def ENTRY(device):
    prior = TinyPrior().to(device)
    return make_prior_step(prior, torch.optim.AdamW(prior.parameters(), lr=2e-4)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
