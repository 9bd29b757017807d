"""Source: https://github.com/pytorch-tpu/fairseq/pull/32

The same translation step with the gradient normalisation kept on the device: each gradient is
divided by `sample_size.clamp(min=1)`, a tensor, so there is no Python comparison and no `float()` of
a device value inside the step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


class TinyMT(nn.Module):
    def __init__(self, vocab=32, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.proj = nn.Linear(d, vocab)

    def forward(self, src):
        return self.proj(torch.tanh(self.emb(src)))


def make_train_step(model, opt, world_size=1):
    def train_step(src, tgt):
        opt.zero_grad()
        logits = model(src)
        loss = F.cross_entropy(logits.view(-1, logits.shape[-1]), tgt.view(-1), ignore_index=PAD, reduction="sum")
        sample_size = tgt.ne(PAD).sum()
        loss.backward()
        scale = world_size / sample_size.clamp(min=1).float()
        for p in model.parameters():
            if p.grad is not None:
                p.grad.mul_(scale)
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(1, 32, (4, 6), generator=g)
    tgt = torch.randint(1, 32, (4, 6), generator=g)
    tgt[:, 4 + seed % 2:] = PAD
    return src.to(device), tgt.to(device)


def ENTRY(device):
    model = TinyMT().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
