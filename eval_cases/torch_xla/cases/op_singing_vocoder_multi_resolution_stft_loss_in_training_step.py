"""Source: https://github.com/voicepaw/so-vits-svc-fork/pull/302 ("feat(train): tpu support": the pull request adding TPU training to a singing-voice conversion model was left unmerged; asked whether it worked, the author answered that "important functions such as torch.stft were not TPU compatible"). Here a small waveform decoder is trained on a torch_xla device with a multi-resolution STFT magnitude loss computed with `torch.stft`, as VITS-style vocoders are. On torch_xla 2.9 (CPU) the training step raises on the XLA device, "RuntimeError: abs does not support automatic differentiation for outputs with complex dtype.", at the magnitude of the complex STFT (the `# XLA:` line; the annotation was on the `torch.stft` line before labelling); the same step runs eagerly on the CPU. (Neural vocoder trained with a multi-resolution STFT loss.)"""
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


def stft_magnitude(wave, n_fft, hop):
    window = torch.hann_window(n_fft, device=wave.device)
    spec = torch.stft(wave, n_fft, hop_length=hop, window=window, return_complex=True)
    return spec.abs().clamp_min(1e-5)  # XLA: op


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
