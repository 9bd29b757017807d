"""The Euler discrete scheduler after diffusers added a step counter: `step()` reads the sigmas at
`self._step_index`, a Python int that the scheduler increments itself, so nothing is read back from
the device to find the position in the schedule. The schedule itself stays on the CPU and each
step's sigmas enter the device graph as scalars.

Source: https://github.com/huggingface/diffusers/pull/4347 ("add a step_index counter": a global `step_index`
counter replaces the `(self.timesteps == timestep).nonzero()` lookup; the
schedule is kept on the CPU as the XLA pipelines do).
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
        self.timesteps = timesteps
        self.sigmas = sigmas
        self.num_inference_steps = num_inference_steps
        self._step_index = 0

    def step(self, model_output, timestep, sample):
        sigma = float(self.sigmas[self._step_index])
        sigma_next = float(self.sigmas[self._step_index + 1])
        pred_original = sample - sigma * model_output
        derivative = (sample - pred_original) / sigma
        self._step_index = (self._step_index + 1) % self.num_inference_steps
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
        t_in = t.expand(self.latents.size(0)).to(self.latents.device)
        noise_pred = self.unet(self.latents, t_in)
        self.latents = self.scheduler.step(noise_pred, t, self.latents)
        self.i += 1
        return self.latents


# --- oracle ---
def ENTRY(device):
    g = torch.Generator().manual_seed(0)
    latents = torch.randn(1, 4, 8, 8, generator=g).to(device)
    unet = TinyUNet().to(device)
    return Denoiser(unet, EulerDiscreteScheduler(), latents).step, ()


REPEAT = 5
