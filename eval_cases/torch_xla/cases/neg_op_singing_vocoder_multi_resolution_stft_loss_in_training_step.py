"""Source: https://github.com/voicepaw/so-vits-svc-fork/pull/302 ("feat(train): tpu support": TPU training was not merged because "important functions such as torch.stft were not TPU compatible"). The fix used here, as trainable-STFT libraries do it: the short-time Fourier transform is a strided `conv1d` of the waveform with fixed Hann-windowed cosine and sine bases, built once, so the loss uses only convolutions and elementwise ops. (Neural vocoder trained with a multi-resolution STFT loss.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Decoder(nn.Module):
    def __init__(self, mel=8, hop=16):
        super().__init__()
        self.pre = nn.Conv1d(mel, 16, 3, padding=1)
        self.up = nn.ConvTranspose1d(16, 8, hop, stride=hop)
        self.post = nn.Conv1d(8, 1, 7, padding=3)

    def forward(self, mel):
        return torch.tanh(self.post(F.leaky_relu(self.up(F.leaky_relu(self.pre(mel)))))).squeeze(1)


def fourier_basis(n_fft, device):
    n = torch.arange(n_fft, device=device, dtype=torch.float32)
    k = torch.arange(n_fft // 2 + 1, device=device, dtype=torch.float32)
    window = torch.hann_window(n_fft, device=device)
    angle = 2 * torch.pi * k[:, None] * n[None, :] / n_fft
    return (torch.cos(angle) * window)[:, None, :], (-torch.sin(angle) * window)[:, None, :]


def stft_magnitude(wave, n_fft, hop):
    cos_basis, sin_basis = fourier_basis(n_fft, wave.device)
    x = F.pad(wave[:, None, :], (n_fft // 2, n_fft // 2))
    real, imag = F.conv1d(x, cos_basis, stride=hop), F.conv1d(x, sin_basis, stride=hop)
    return torch.sqrt(real ** 2 + imag ** 2).clamp_min(1e-5)


def multi_resolution_stft_loss(pred, target, resolutions=((64, 16), (128, 32))):
    loss = 0.0
    for n_fft, hop in resolutions:
        p, t = stft_magnitude(pred, n_fft, hop), stft_magnitude(target, n_fft, hop)
        loss = loss + (t - p).norm() / t.norm() + F.l1_loss(p.log(), t.log())
    return loss


def make_train_step(model, opt):
    def train_step(mel, wave):
        opt.zero_grad()
        loss = multi_resolution_stft_loss(model(mel), wave)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    mel = torch.randn(2, 8, 32, generator=g)
    wave = torch.tanh(torch.randn(2, 512, generator=g))
    return mel.to(device), wave.to(device)


def ENTRY(device):
    model = Decoder().to(device)
    return make_train_step(model, torch.optim.Adam(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
