"""neg_op_multinomial_one_sample.

Source: huggingface/transformers issue #18661: one sample per row lowers (xla::multinomial).
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



def make_decoder(model, device, steps=2):
    @torch.no_grad()
    def decode(h):
        for _ in range(steps):
            probs = torch.softmax(model(h), -1)
            one = torch.multinomial(probs, 1)
            h = torch.tanh(h + one.float())
        return h
    return decode


# --- oracle ---
def ENTRY(device):
    model = Classifier(d_in=4, n_classes=4).to(device)
    g = torch.Generator().manual_seed(0)
    ids = torch.randn(2, 4, generator=g).to(device)
    return make_decoder(model, device), (ids,)

COMPARE = False
