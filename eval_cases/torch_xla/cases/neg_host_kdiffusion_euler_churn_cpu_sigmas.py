"""k-diffusion's Euler sampler with the schedule kept on the host: the Karras sigmas are built on
the CPU and stay there, so the churn test `s_tmin <= sigmas[i] <= s_tmax` compares CPU numbers and
only the denoiser's work runs on the XLA device, with the step's sigmas passed in as scalars.

Source: https://github.com/pytorch/xla/issues/6614 ("Slow compilation during diffusion sampling": k-diffusion's
`sample_euler`; here with the sigma schedule left on the CPU).
"""
import torch
import torch.nn as nn


def get_sigmas_karras(n, sigma_min, sigma_max, rho=7.0):
    ramp = torch.linspace(0, 1, n)
    min_inv_rho = sigma_min ** (1 / rho)
    max_inv_rho = sigma_max ** (1 / rho)
    sigmas = (max_inv_rho + ramp * (min_inv_rho - max_inv_rho)) ** rho
    return torch.cat([sigmas, sigmas.new_zeros([1])])


def to_d(x, sigma, denoised):
    return (x - denoised) / sigma


class Denoiser(nn.Module):
    def __init__(self, c=3):
        super().__init__()
        self.net = nn.Conv2d(c, c, 3, padding=1)

    def forward(self, x, sigma):
        c_in = 1 / (sigma ** 2 + 1) ** 0.5
        return x - sigma[:, None, None, None] * self.net(x * c_in[:, None, None, None])


class EulerSampler:
    def __init__(self, model, x, sigmas, s_churn=1.0, s_tmin=0.05, s_tmax=50.0, s_noise=1.0):
        self.model, self.x, self.sigmas = model, x, sigmas.tolist()
        self.s_churn, self.s_tmin, self.s_tmax, self.s_noise = s_churn, s_tmin, s_tmax, s_noise
        self.i = 0

    @torch.no_grad()
    def step(self):
        sigmas, i, x = self.sigmas, self.i % (len(self.sigmas) - 1), self.x
        gamma = min(self.s_churn / (len(sigmas) - 1), 2 ** 0.5 - 1) if self.s_tmin <= sigmas[i] <= self.s_tmax else 0.
        sigma_hat = sigmas[i] * (gamma + 1)
        if gamma > 0:
            eps = torch.randn_like(x) * self.s_noise
            x = x + eps * (sigma_hat ** 2 - sigmas[i] ** 2) ** 0.5
        s_in = x.new_ones([x.shape[0]]) * sigma_hat
        denoised = self.model(x, s_in)
        d = (x - denoised) / sigma_hat
        self.x = x + d * (sigmas[i + 1] - sigma_hat)
        self.i += 1
        return self.x


# --- oracle ---
COMPARE = False


def ENTRY(device):
    g = torch.Generator().manual_seed(0)
    x = (torch.randn(2, 3, 8, 8, generator=g) * 10.0).to(device)
    return EulerSampler(Denoiser().to(device), x, get_sigmas_karras(8, 0.03, 10.0)).step, ()


REPEAT = 5
