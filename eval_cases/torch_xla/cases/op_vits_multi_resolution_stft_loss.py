"""Source: https://github.com/PlayVoice/whisper-vits-svc/issues/16

Porting a VITS-style singing-voice generator to a Google TPU: the generator loss adds a
multi-resolution STFT loss to the KL and feature terms. The STFT spectrogram of the generated
and the reference waveform goes through `torch.stft` and the complex magnitude, at three
resolutions, at every training step; the report found the loss computation "extremely slow" on
the TPU ("it runs on the CPU").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def stft_magnitude(x, n_fft, hop, win):
    spec = torch.stft(x, n_fft, hop_length=hop, win_length=win, window=torch.hann_window(win, device=x.device),
                      return_complex=True)  # XLA: op
    return torch.sqrt(spec.real.pow(2) + spec.imag.pow(2) + 1e-7)


class MultiResolutionSTFTLoss(nn.Module):
    def __init__(self, resolutions=((32, 8, 32), (64, 16, 64), (16, 4, 16))):
        super().__init__()
        self.resolutions = resolutions

    def forward(self, y_hat, y):
        sc, mag = 0.0, 0.0
        for n_fft, hop, win in self.resolutions:
            m_hat, m = stft_magnitude(y_hat, n_fft, hop, win), stft_magnitude(y, n_fft, hop, win)
            sc = sc + torch.norm(m - m_hat, p="fro") / torch.norm(m, p="fro")
            mag = mag + F.l1_loss(torch.log(m_hat), torch.log(m))
        return (sc + mag) / len(self.resolutions)


def kl_loss(z_p, logs_q, m_p, logs_p, z_mask):
    kl = logs_p - logs_q - 0.5 + 0.5 * ((z_p - m_p) ** 2) * torch.exp(-2.0 * logs_p)
    return torch.sum(kl * z_mask) / torch.sum(z_mask)


class TinyGenerator(nn.Module):
    def __init__(self, c=8, up=16):
        super().__init__()
        self.post = nn.Conv1d(c, 2 * c, 1)
        self.up = nn.ConvTranspose1d(c, 4, up, stride=up)
        self.out = nn.Conv1d(4, 1, 7, padding=3)

    def forward(self, z):
        m, logs = self.post(z).chunk(2, dim=1)
        z_p = m + logs.tanh()
        return torch.tanh(self.out(F.leaky_relu(self.up(z_p), 0.1))).squeeze(1), z_p, m, logs


def make_generator_step(gen, opt, stft_loss, c_kl=1.0):
    def train_step(z, logs_q, wav, z_mask):
        opt.zero_grad()
        y_hat, z_p, m_p, logs_p = gen(z)
        loss_kl = kl_loss(z_p, logs_q, m_p, logs_p, z_mask) * c_kl
        loss_g = stft_loss(y_hat, wav) + loss_kl
        loss_g.backward()
        opt.step()
        return loss_g.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    z = torch.randn(2, 8, 10, generator=g)
    logs_q = 0.1 * torch.randn(2, 8, 10, generator=g)
    wav = 0.5 * torch.tanh(torch.randn(2, 160, generator=g))
    return z.to(device), logs_q.to(device), wav.to(device), torch.ones(2, 1, 10).to(device)


def ENTRY(device):
    gen = TinyGenerator().to(device)
    step = make_generator_step(gen, torch.optim.AdamW(gen.parameters(), lr=2e-4), MultiResolutionSTFTLoss())
    return step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
