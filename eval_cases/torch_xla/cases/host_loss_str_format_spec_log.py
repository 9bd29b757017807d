"""A training step that writes a log line with `"step {} loss {:.4f}".format(step, loss)` where `loss` is
still the device tensor. A format spec on a tensor goes through `Tensor.__format__`, which calls `.item()`:
every logged step reads the loss back to the host in the middle of the step.

Source: https://github.com/pytorch/xla/issues/1657 ("RuntimeError Unimplemented thrown": after the sort fix the
model ran "incredibly slow"; the debug run showed "item() (or equivalent) calls" at a `__format__` frame
with 256 unique graphs).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab=48, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.rnn_like = nn.Linear(d, d)
        self.out = nn.Linear(d, vocab)

    def forward(self, ids):
        return self.out(torch.tanh(self.rnn_like(self.emb(ids))))


def make_train_step(model, opt, lines):
    def train_step(ids, targets):
        opt.zero_grad()
        logits = model(ids)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        loss.backward()
        opt.step()
        lines.append("step {} loss {:.4f}".format(len(lines), loss))  # XLA: host
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 48, (4, 9), generator=g).to(device), torch.randint(0, 48, (4, 9), generator=g).to(device)


def ENTRY(device):
    model = TinyLM().to(device)
    return make_train_step(model, torch.optim.Adam(model.parameters(), lr=1e-3), []), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
