"""Sentiment fine-tuning step with an auxiliary token-level loss computed only on real tokens, selected
with `logits.masked_select(mask)` from the attention mask.

Source: https://github.com/pytorch/xla/issues/2918 (BERT training on XLA 50x slower; aten::masked_select
in the metrics, removed in the later run).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SentimentModel(nn.Module):
    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.enc = nn.TransformerEncoderLayer(dim, nhead=2, dim_feedforward=32, dropout=0.0, batch_first=True)
        self.tok_head = nn.Linear(dim, 1)
        self.cls_head = nn.Linear(dim, 2)

    def forward(self, ids, attn):
        h = self.enc(self.emb(ids), src_key_padding_mask=~attn)
        return self.cls_head(h[:, 0]), self.tok_head(h).squeeze(-1)


def make_train_step(model, opt):
    def train_step(ids, attn, y, tok_y):
        opt.zero_grad()
        cls_logits, tok_logits = model(ids, attn)
        active = tok_logits.masked_select(attn)  # XLA: shape
        active_y = tok_y.masked_select(attn)
        loss = F.cross_entropy(cls_logits, y) + 0.1 * F.binary_cross_entropy_with_logits(active, active_y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, 50, (4, 8), generator=g)
    lengths = torch.randint(4, 9, (4,), generator=g)
    attn = torch.arange(8)[None, :] < lengths[:, None]
    y = torch.randint(0, 2, (4,), generator=g)
    tok_y = torch.rand(4, 8, generator=g).round()
    return tuple(t.to(device) for t in (ids, attn, y, tok_y))


def ENTRY(device):
    model = SentimentModel().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
