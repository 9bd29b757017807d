"""Truncated-BPTT language-model step: the LSTM state from the previous batch is carried over and detached
(`[s.detach() for s in state]`) before the next step; shapes never change.

Source: https://github.com/pytorch/xla/issues/2247 (PyTorch XLA slow on Colab; the training loop carries
and detaches the recurrent state each batch).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RNNLM(nn.Module):
    def __init__(self, vocab=40, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def init_state(self, b, device):
        return [torch.zeros(1, b, 16, device=device), torch.zeros(1, b, 16, device=device)]

    def forward(self, x, state):
        h, (hn, cn) = self.lstm(self.emb(x), tuple(state))
        return self.out(h), [hn, cn]


def make_train_step(model, opt, device, b=2):
    carry = {"state": model.init_state(b, device)}

    def train_step(x, y):
        opt.zero_grad()
        state = [s.detach() for s in carry["state"]]
        logits, carry["state"] = model(x, state)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    seq = torch.randint(0, 40, (2, 9), generator=g)
    return seq[:, :-1].to(device), seq[:, 1:].to(device)


def ENTRY(device):
    model = RNNLM().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    return make_train_step(model, opt, device), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
