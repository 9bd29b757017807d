"""Source: https://github.com/pytorch/pytorch/issues/1032

The same clipped training step with the returned total norm logged through
`xm.add_step_closure`: the closure receives the device tensor and converts it after the step's graph
has run, so the step itself reads nothing back.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla.core.xla_model as xm


class CharLM(nn.Module):
    def __init__(self, vocab=20, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.mix = nn.Linear(d, d)
        self.out = nn.Linear(d, vocab)

    def forward(self, ids):
        h = self.emb(ids)
        h = torch.tanh(self.mix(h) + h.cumsum(1) / (1 + torch.arange(h.shape[1], device=h.device)[:, None]))
        return self.out(h)


def make_train_step(model, opt, history, max_norm=1.0):
    def _log(norm):
        history.append(norm.item())

    def train_step(ids, nxt):
        opt.zero_grad()
        logits = model(ids)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), nxt.reshape(-1))
        loss.backward()
        total_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        xm.add_step_closure(_log, args=(total_norm,))
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
EAGER = False


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    seq = torch.randint(0, 20, (4, 9), generator=g)
    return seq[:, :-1].contiguous().to(device), seq[:, 1:].contiguous().to(device)


def ENTRY(device):
    model = CharLM().to(device)
    return make_train_step(model, torch.optim.Adam(model.parameters(), lr=1e-3), []), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
