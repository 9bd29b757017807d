"""The same sentiment step with the token-level loss computed on every position and averaged with the
attention mask as weights (reduction="none" * mask / mask.sum()).

Source: https://github.com/pytorch/xla/issues/2918 (aten::masked_select in a BERT loss; the masked
weighted mean has a static shape).
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
        w = attn.to(tok_logits.dtype)
        tok_loss = (F.binary_cross_entropy_with_logits(tok_logits, tok_y, reduction="none") * w).sum() / w.sum()
        loss = F.cross_entropy(cls_logits, y) + 0.1 * tok_loss
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
