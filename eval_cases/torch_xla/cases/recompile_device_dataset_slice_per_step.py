"""Vocoder training that loads the whole waveform corpus onto the device once and cuts each step's
window out of it with Python-int offsets from the sampler: `snd_data[wo:wo + window]`.

Source: https://github.com/pytorch/xla/issues/1379 ("Successive frames growing, but why?": the batch is
filled from slices `data_source.snd_data[wo + dws[0]:wo + dws[1]]` of tensors holding all the training
data, with a different offset each step).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyVocoder(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.conv1 = nn.Conv1d(1, ch, 5, padding=2)
        self.conv2 = nn.Conv1d(ch, 1, 5, padding=2)

    def forward(self, wav):
        return self.conv2(torch.tanh(self.conv1(wav)))


def make_train_step(model, opt, snd_data, window=64):
    def train_step(wav_offsets):
        opt.zero_grad()
        batch = torch.stack([snd_data[wo:wo + window] for wo in wav_offsets])  # XLA: recompile
        pred = model(batch[:, None, :-1])
        loss = F.l1_loss(pred, batch[:, None, 1:])
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def ENTRY(device):
    g = torch.Generator().manual_seed(0)
    snd_data = torch.randn(4096, generator=g).to(device)
    model = TinyVocoder().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.01), snd_data), ([17, 901, 2048],)


def ALT_ARGS(device):
    return [([5, 333, 3000],), ([1200, 64, 777],)]
