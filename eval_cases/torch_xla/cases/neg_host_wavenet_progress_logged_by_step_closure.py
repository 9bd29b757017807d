"""Source: https://github.com/pytorch/xla/issues/1412

The same WaveNet-style autoencoder with the per-step progress report handed to
`xm.add_step_closure`: the loss terms stay device tensors inside the step, and the closure turns
them into floats after the step's graph has run, so the traced step reads nothing back.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla.core.xla_model as xm


class CausalConv(nn.Conv1d):
    def __init__(self, cin, cout, k, dilation):
        super().__init__(cin, cout, k, dilation=dilation)
        self.left = (k - 1) * dilation

    def forward(self, x):
        return super().forward(F.pad(x, (self.left, 0)))


class TinyWaveNet(nn.Module):
    def __init__(self, q=32, ch=16, cond=8):
        super().__init__()
        self.embed = nn.Embedding(q, ch)
        self.encoder = nn.Sequential(nn.Conv1d(ch, cond, 3, padding=1), nn.Tanh())
        self.layers = nn.ModuleList([CausalConv(ch, 2 * ch, 2, d) for d in (1, 2, 4)])
        self.cond_proj = nn.ModuleList([nn.Conv1d(cond, 2 * ch, 1) for _ in range(3)])
        self.out = nn.Conv1d(ch, q, 1)

    def forward(self, wav):
        h = self.embed(wav).transpose(1, 2)
        z = self.encoder(h)
        for conv, proj in zip(self.layers, self.cond_proj):
            a, b = (conv(h) + proj(z)).chunk(2, dim=1)
            h = h + torch.tanh(a) * torch.sigmoid(b)
        return self.out(h), z


class Trainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.step_no = 0
        self.progress = []

    def _report(self, step_no, terms):
        self.progress.append((step_no, *terms.tolist()))

    def train_step(self, wav):
        self.opt.zero_grad()
        logits, z = self.model(wav[:, :-1])
        rec = F.cross_entropy(logits, wav[:, 1:])
        reg = 1e-3 * z.pow(2).mean()
        loss = rec + reg
        loss.backward()
        self.opt.step()
        self.step_no += 1
        xm.add_step_closure(self._report, args=(self.step_no, torch.stack([rec, reg, loss]).detach()))
        return loss.detach()


# --- oracle ---
EAGER = False


def _wav(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randint(0, 32, (2, 25), generator=g).to(device),)


def ENTRY(device):
    return Trainer(TinyWaveNet().to(device)).train_step, _wav(device, 0)


def ALT_ARGS(device):
    return [_wav(device, s) for s in (1, 2)]
