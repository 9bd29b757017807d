"""Source: https://github.com/pytorch/xla/issues/2241 ("torch STFT causes xla training to crash": `stft`
on audio inside the XLA training function).

Vocoder step trained with a multi-resolution STFT magnitude loss (`torch.stft` of the generated and
the target waveforms at three FFT sizes).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyVocoder(nn.Module):
    def __init__(self, n_mels=8, hop=16):
        super().__init__()
        self.up = nn.ConvTranspose1d(n_mels, 8, kernel_size=hop, stride=hop)
        self.out = nn.Conv1d(8, 1, kernel_size=7, padding=3)

    def forward(self, mel):
        return torch.tanh(self.out(F.leaky_relu(self.up(mel), 0.1))).squeeze(1)


def stft_mag(x, n_fft, hop, window):
    spec = torch.stft(x, n_fft, hop_length=hop, window=window, return_complex=True)  # XLA: op
    return spec.abs().clamp(min=1e-7)


def make_step(model, opt, resolutions=((64, 16), (128, 32), (32, 8))):
    def train_step(mel, wav):
        opt.zero_grad()
        fake = model(mel)
        loss = 0.0
        for n_fft, hop in resolutions:
            window = torch.hann_window(n_fft, device=wav.device)
            m_fake, m_real = stft_mag(fake, n_fft, hop, window), stft_mag(wav, n_fft, hop, window)
            loss = loss + (m_real - m_fake).norm() / m_real.norm() + F.l1_loss(m_fake.log(), m_real.log())
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 8, 16, generator=g).to(device), (torch.rand(2, 256, generator=g) * 2 - 1).to(device)


def ENTRY(device):
    model = TinyVocoder().to(device)
    return make_step(model, torch.optim.Adam(model.parameters(), lr=2e-4)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
