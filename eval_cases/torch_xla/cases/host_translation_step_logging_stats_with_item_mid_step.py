"""Source: https://github.com/pytorch-tpu/fairseq/pull/21 ("Replace `log_step` with `progress_bar` printing": the review points out that if the logging code calls `item()` on ten different tensors in the middle of the model's graph, this issues ten separate graph executions, and asks for a step closure that receives the tensors and calls `item()` only after the step). Here a translation model's training step fills its logging dict with `.item()` of the loss, the NLL loss, the token count and the gradient norm before the optimizer step. (Small encoder-decoder translation model, fairseq-style logging.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyTranslator(nn.Module):
    def __init__(self, vocab=32, d=16):
        super().__init__()
        self.src_emb = nn.Embedding(vocab, d)
        self.tgt_emb = nn.Embedding(vocab, d)
        self.enc = nn.Linear(d, d)
        self.out = nn.Linear(2 * d, vocab)

    def forward(self, src, prev_tgt):
        ctx = torch.tanh(self.enc(self.src_emb(src))).mean(1, keepdim=True)
        dec = self.tgt_emb(prev_tgt)
        return self.out(torch.cat([dec, ctx.expand_as(dec)], dim=-1))


def make_train_step(model, opt, log, pad=0, eps=0.1):
    def train_step(src, prev_tgt, tgt):
        opt.zero_grad()
        lprobs = F.log_softmax(model(src, prev_tgt), dim=-1).view(-1, 32)
        target = tgt.view(-1)
        nll = F.nll_loss(lprobs, target, ignore_index=pad, reduction="sum")
        smooth = -(lprobs.sum(-1) * (target != pad)).sum()
        loss = (1 - eps) * nll + eps / 32 * smooth
        ntokens = (target != pad).sum()
        loss.backward()
        gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        log.append({"loss": loss.item(), "nll_loss": nll.item(),  # XLA: host
                    "ntokens": ntokens.item(), "gnorm": gnorm.item()})  # XLA: host
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(1, 32, (4, 7), generator=g)
    tgt = torch.randint(1, 32, (4, 6), generator=g)
    tgt[:, -1] = 0
    prev = torch.cat([torch.full((4, 1), 2), tgt[:, :-1]], dim=1)
    return src.to(device), prev.to(device), tgt.to(device)


def ENTRY(device):
    model = TinyTranslator().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.1), []), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
