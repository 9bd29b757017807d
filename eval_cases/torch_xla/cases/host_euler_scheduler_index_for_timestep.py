"""A diffusers-style Euler discrete scheduler: each `step(model_output, timestep, sample)` looks up
the position of `timestep` in the schedule with `(self.timesteps == timestep).nonzero().item()` and
then indexes `self.sigmas` with it. The schedule lives on the device, so every denoising step reads
a data-dependent index back to the host before it can go on.

Source: https://github.com/huggingface/diffusers/issues/4334 ("[SDXL 1.0] Slow compilation caused by torch.nonzero
in scheduling_euler_discrete.py": on an XLA device "the model is recompiling the graph for each iteration"
because of the `nonzero` calls that find the step index).
"""
import torch
import torch.nn as nn


class EulerDiscreteScheduler:
    def __init__(self, num_train_timesteps=100, num_inference_steps=10, device="cpu"):
        betas = torch.linspace(1e-4, 2e-2, num_train_timesteps)
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        timesteps = torch.linspace(num_train_timesteps - 1, 0, num_inference_steps).round().long()
        sigmas = ((1 - alphas_cumprod) / alphas_cumprod) ** 0.5
        sigmas = torch.cat([sigmas[timesteps], torch.zeros(1)])
        self.timesteps = timesteps.to(device)
        self.sigmas = sigmas.to(device)

    def step(self, model_output, timestep, sample):
        step_index = (self.timesteps == timestep).nonzero().item()  # XLA: host
        sigma = self.sigmas[step_index]
        sigma_next = self.sigmas[step_index + 1]
        pred_original = sample - sigma * model_output
        derivative = (sample - pred_original) / sigma
        return sample + derivative * (sigma_next - sigma)


class TinyUNet(nn.Module):
    def __init__(self, c=4):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1)
        self.t_emb = nn.Embedding(100, c)

    def forward(self, x, t):
        return self.conv(x) + self.t_emb(t)[:, :, None, None]


class Denoiser:
    def __init__(self, unet, scheduler, latents):
        self.unet, self.scheduler, self.latents, self.i = unet, scheduler, latents, 0

    @torch.no_grad()
    def step(self):
        t = self.scheduler.timesteps[self.i % len(self.scheduler.timesteps)]
        noise_pred = self.unet(self.latents, t.expand(self.latents.size(0)))
        self.latents = self.scheduler.step(noise_pred, t, self.latents)
        self.i += 1
        return self.latents


# --- oracle ---
def ENTRY(device):
    g = torch.Generator().manual_seed(0)
    latents = torch.randn(1, 4, 8, 8, generator=g).to(device)
    unet = TinyUNet().to(device)
    return Denoiser(unet, EulerDiscreteScheduler(device=device), latents).step, ()


REPEAT = 5
