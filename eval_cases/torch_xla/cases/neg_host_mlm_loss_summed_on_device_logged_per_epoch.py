"""Source: https://github.com/pytorch-tpu/examples/pull/12

The same masked-LM trainer with the loss kept on the device: every step adds the detached loss to
a device accumulator, and the Python number is read once, in `end_epoch()`, after the loop. No
step reads a value back from the device.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

MASK_ID, PAD_ID = 3, 1


class TinyMaskedLM(nn.Module):
    def __init__(self, vocab=48, d=16, max_len=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, d, padding_idx=PAD_ID)
        self.pos = nn.Embedding(max_len, d)
        self.layer = nn.TransformerEncoderLayer(d, 2, 32, dropout=0.0, batch_first=True)
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, tokens):
        pos = torch.arange(tokens.shape[1], device=tokens.device)
        return self.lm_head(self.layer(self.tok(tokens) + self.pos(pos)))


class MaskedLMTrainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.opt = torch.optim.AdamW(model.parameters(), lr=lr)
        self.num_updates = 0
        self.loss_sum = None

    def train_step(self, tokens, targets):
        self.opt.zero_grad()
        logits = self.model(tokens)
        loss = F.cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1), ignore_index=-100)
        loss.backward()
        self.opt.step()
        self.num_updates += 1
        self.loss_sum = loss.detach() if self.loss_sum is None else self.loss_sum + loss.detach()
        return loss.detach()

    def end_epoch(self):
        return self.loss_sum.item() / max(self.num_updates, 1)


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(4, 48, (4, 16), generator=g)
    masked = torch.rand(4, 16, generator=g) < 0.15
    targets = torch.where(masked, tokens, torch.full_like(tokens, -100))
    tokens = torch.where(masked, torch.full_like(tokens, MASK_ID), tokens)
    return tokens.to(device), targets.to(device)


def ENTRY(device):
    return MaskedLMTrainer(TinyMaskedLM().to(device)).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
