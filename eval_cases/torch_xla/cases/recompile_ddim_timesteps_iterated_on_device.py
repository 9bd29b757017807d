"""Source: https://github.com/huggingface/diffusers/pull/11501

A DDIM sampling step whose schedule lives on the XLA device: the pipeline picks `t =
timesteps[i]` with the Python step index and the scheduler indexes `alphas_cumprod` with it, so
each denoising step slices the schedule at a new constant offset and compiles again (the PR keeps
the timesteps on the CPU for XLA). Labelled `host_sync` by the oracle: indexing
`alphas_cumprod` with the 0-d device timestep also reads it back (`_local_scalar_dense`) every
step, on top of the steady compiles (12 over 4 steady steps).
"""
import torch
import torch.nn as nn


class TinyUNet(nn.Module):
    def __init__(self, c=3, d=8):
        super().__init__()
        self.t_emb = nn.Linear(1, d)
        self.inp = nn.Conv2d(c, d, 3, padding=1)
        self.out = nn.Conv2d(d, c, 3, padding=1)

    def forward(self, x, t):
        h = self.inp(x) + self.t_emb(t.float().view(-1, 1) / 1000.0)[:, :, None, None]
        return self.out(torch.nn.functional.silu(h))


class DDIMSampler:
    def __init__(self, unet, device, num_train_timesteps=1000, num_inference_steps=8):
        betas = torch.linspace(1e-4, 0.02, num_train_timesteps)
        self.alphas_cumprod = torch.cumprod(1.0 - betas, 0).to(device)
        step = num_train_timesteps // num_inference_steps
        self.timesteps = (torch.arange(num_inference_steps) * step).flip(0).to(device)
        self.step_ratio = step
        self.unet = unet
        self.i = 0

    @torch.no_grad()
    def step(self, latents):
        t = self.timesteps[self.i]  # XLA: recompile
        eps = self.unet(latents, t.expand(latents.size(0)))
        alpha_t = self.alphas_cumprod[t]
        prev_t = t - self.step_ratio
        alpha_prev = torch.where(prev_t >= 0, self.alphas_cumprod[prev_t.clamp(min=0)], torch.ones_like(alpha_t))
        x0 = (latents - (1 - alpha_t).sqrt() * eps) / alpha_t.sqrt()
        self.i += 1
        return alpha_prev.sqrt() * x0 + (1 - alpha_prev).sqrt() * eps


# --- oracle ---
def ENTRY(device):
    sampler = DDIMSampler(TinyUNet().to(device), device)
    g = torch.Generator().manual_seed(0)
    return sampler.step, (torch.randn(1, 3, 8, 8, generator=g).to(device),)


REPEAT = 6
