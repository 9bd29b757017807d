"""Source: https://github.com/huggingface/trl/pull/2001 (OrpoTrainer on TPU: device-to-host transfers
per step removed; metrics gathered as tensors).

ORPO preference step whose metrics stay detached on the device and are read only by the logger
at the end of the run (the fix the TPU PR applied).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyPolicy(nn.Module):
    def __init__(self, vocab=32, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.proj = nn.Linear(d, vocab)

    def forward(self, ids):
        return self.proj(torch.tanh(self.emb(ids)))


def sequence_logps(logits, labels, mask):
    logp = torch.gather(logits.log_softmax(-1), 2, labels.unsqueeze(-1)).squeeze(-1)
    return (logp * mask).sum(-1) / mask.sum(-1)


class OrpoStep:
    def __init__(self, model, opt, beta=0.1):
        self.model, self.opt, self.beta = model, opt, beta
        self.stored_metrics = []

    def __call__(self, chosen, rejected, mask):
        self.opt.zero_grad()
        both = torch.cat([chosen, rejected], 0)
        logits = self.model(both)
        logps = sequence_logps(logits, both, torch.cat([mask, mask], 0))
        n = chosen.shape[0]
        chosen_logps, rejected_logps = logps[:n], logps[n:]
        nll = -chosen_logps.mean()
        log_odds = (chosen_logps - rejected_logps) - (
            torch.log1p(-torch.exp(chosen_logps)) - torch.log1p(-torch.exp(rejected_logps)))
        loss = nll - self.beta * F.logsigmoid(log_odds).mean()
        loss.backward()
        self.opt.step()
        self.stored_metrics.append(torch.stack([
            (self.beta * chosen_logps.detach()).mean(),
            (self.beta * rejected_logps.detach()).mean(),
            log_odds.detach().mean(),
        ]))
        return loss.detach()


# --- oracle ---
def _batch(device, seed, b=4, t=10):
    g = torch.Generator().manual_seed(seed)
    chosen = torch.randint(0, 32, (b, t), generator=g)
    rejected = torch.randint(0, 32, (b, t), generator=g)
    mask = torch.ones(b, t)
    return chosen.to(device), rejected.to(device), mask.to(device)


def ENTRY(device):
    model = TinyPolicy().to(device)
    return OrpoStep(model, torch.optim.AdamW(model.parameters(), lr=1e-3)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
