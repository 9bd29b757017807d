"""Source: https://github.com/pytorch/xla/issues/2024 ("Create checkpoint before the epoch ends": "As long
as you use the `xm.save()` API it should be OK").

Long-epoch training that writes a checkpoint every N steps with `xm.save`, N = 1 in this run, from
inside the step.
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla.core.xla_model as xm


class Tagger(nn.Module):
    def __init__(self, vocab=50, d=16, n_tags=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.rnn_like = nn.Conv1d(d, d, 3, padding=1)
        self.out = nn.Linear(d, n_tags)

    def forward(self, ids):
        h = self.emb(ids).transpose(1, 2)
        return self.out(torch.relu(self.rnn_like(h)).transpose(1, 2))


def make_step(model, opt, ckpt_dir, save_steps=1):
    state = {"step": 0}

    def train_step(ids, tags):
        opt.zero_grad()
        logits = model(ids)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tags.reshape(-1))
        loss.backward()
        xm.optimizer_step(opt)
        state["step"] += 1
        if state["step"] % save_steps == 0:
            xm.save({"model": model.state_dict(), "step": state["step"]},  # XLA: host
                    os.path.join(ckpt_dir, "checkpoint.pt"))
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 50, (4, 9), generator=g).to(device), torch.randint(0, 5, (4, 9), generator=g).to(device)


def ENTRY(device):
    model = Tagger().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.1), tempfile.mkdtemp(prefix="ckpt_")), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
