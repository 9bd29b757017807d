"""Source: https://github.com/pytorch/xla/issues/3817

Fine-tuning a wav2vec2-style encoder on an XLA device. Its convolutional positional embedding wraps a
grouped `Conv1d` in `nn.utils.weight_norm(conv, name="weight", dim=2)`, as the model in the report's
tutorial does. The report's profiler output: "Op(s) not lowered: aten::_weight_norm_interface,
aten::_weight_norm_interface_backward".
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PositionalConvEmbedding(nn.Module):
    def __init__(self, dim=16, kernel=8, groups=4):
        super().__init__()
        conv = nn.Conv1d(dim, dim, kernel, padding=kernel // 2, groups=groups)
        self.conv = nn.utils.weight_norm(conv, name="weight", dim=2)  # XLA: op
        self.remove = 1 if kernel % 2 == 0 else 0

    def forward(self, h):
        x = self.conv(h.transpose(1, 2))
        if self.remove:
            x = x[:, :, :-self.remove]
        return h + F.gelu(x).transpose(1, 2)


class SpeechEncoder(nn.Module):
    def __init__(self, dim=16, n_tokens=12):
        super().__init__()
        self.feature = nn.Conv1d(1, dim, 10, stride=5)
        self.pos = PositionalConvEmbedding(dim)
        self.norm = nn.LayerNorm(dim)
        self.layer = nn.TransformerEncoderLayer(dim, 4, 32, batch_first=True, dropout=0.0)
        self.ctc_head = nn.Linear(dim, n_tokens)

    def forward(self, wave):
        h = self.feature(wave[:, None]).transpose(1, 2)
        return self.ctc_head(self.layer(self.norm(self.pos(h))))


def make_step(model, opt):
    def step(wave, frame_labels):
        opt.zero_grad()
        logits = model(wave)
        loss = F.cross_entropy(logits.flatten(0, 1), frame_labels.flatten())
        loss.backward()
        opt.step()
        return loss.detach()
    return step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    wave = torch.randn(2, 205, generator=g)
    return wave.to(device), torch.randint(0, 12, (2, 40), generator=g).to(device)


def ENTRY(device):
    model = SpeechEncoder().to(device)
    return make_step(model, torch.optim.AdamW(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
