"""Source: https://github.com/pytorch/xla/issues/898

Language-model fine-tuning that scores the target tokens with `log_softmax(...).gather(-1, ...)`
over a large output vocabulary (the report's `tensor.gather` made `loss.backward()` slow and crashed
at `vocab_size=29999` on an early torch_xla). The forward gather and its scatter-add backward have
XLA lowerings, so the step compiles once and runs on the device.
"""
import torch
import torch.nn as nn


class TokenScorer(nn.Module):
    def __init__(self, vocab=3000, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.mix = nn.Linear(d, d)
        self.out = nn.Linear(d, vocab)

    def forward(self, ids):
        h = self.emb(ids)
        steps = torch.arange(1, ids.shape[1] + 1, device=ids.device)[:, None]
        return self.out(h + torch.tanh(self.mix(h.cumsum(1) / steps)))


def make_train_step(model, opt):
    def train_step(ids, targets, mask):
        opt.zero_grad()
        logprobs = torch.log_softmax(model(ids), dim=-1)
        token_lp = logprobs.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
        loss = -(token_lp * mask).sum() / mask.sum()
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    seq = torch.randint(0, 3000, (4, 11), generator=g)
    mask = (torch.rand(4, 10, generator=g) > 0.2).float()
    return seq[:, :-1].contiguous().to(device), seq[:, 1:].contiguous().to(device), mask.to(device)


def ENTRY(device):
    model = TokenScorer().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
