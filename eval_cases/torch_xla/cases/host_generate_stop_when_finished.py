"""host_generate_stop_when_finished.

Source: huggingface/transformers issue #43086 (the decode loop syncs on `unfinished_sequences.max() == 0` every token) and #18661 (generate on TPU).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, d_in=16, hidden=32, n_classes=4):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, n_classes)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))



def make_decoder(model, device, steps=3):
    @torch.no_grad()
    def decode(h):
        finished = torch.zeros(h.shape[0], dtype=torch.bool, device=h.device)
        for _ in range(steps):
            logits = model(h)
            nxt = logits.argmax(-1)
            finished = finished | (nxt == 0)
            if finished.all():  # XLA: host
                break
            h = torch.tanh(h + logits)
        return h
    return decode


# --- oracle ---
def ENTRY(device):
    model = Classifier(d_in=4, n_classes=4).to(device)
    g = torch.Generator().manual_seed(0)
    ids = torch.randn(2, 4, generator=g).to(device)
    return make_decoder(model, device), (ids,)

COMPARE = False
