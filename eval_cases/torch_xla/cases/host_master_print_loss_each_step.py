"""A multi-core TPU training function that reports the loss from the master ordinal on every step with
`xm.master_print(f"[{xr.global_ordinal()}] Loss={loss.item():.3f}")`. The `.item()` is evaluated before
`master_print` decides whether to print, so every step reads the loss back to the host in the middle
of the step.

Source: https://github.com/pytorch/xla/issues/2439 ("Training is not moving ahead after First Batch": a T5 training loop
on Kaggle/Colab TPUs printing the loss each step; the answer points at the print not being inside a
step closure).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla.core.xla_model as xm
import torch_xla.runtime as xr


class Seq2SeqHead(nn.Module):
    def __init__(self, vocab=40, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.out = nn.Linear(d, vocab)

    def forward(self, ids):
        return self.out(torch.tanh(self.emb(ids)))


def make_train_step(model, opt):
    def train_step(ids, labels):
        opt.zero_grad()
        logits = model(ids)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), labels.view(-1))
        loss.backward()
        xm.optimizer_step(opt)
        xm.master_print(f"[xla:{xr.global_ordinal()}], Loss={loss.item():.3f}")  # XLA: host
        return loss.detach()
    return train_step


# --- oracle ---
EAGER = False


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 40, (4, 10), generator=g).to(device), torch.randint(0, 40, (4, 10), generator=g).to(device)


def ENTRY(device):
    model = Seq2SeqHead().to(device)
    return make_train_step(model, torch.optim.AdamW(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
