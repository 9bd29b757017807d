"""Source: https://github.com/pytorch/xla/issues/2346

The fairseq-style translation batches with the `--num-batch-buckets` remedy the maintainer pointed to:
each batch is padded up to the smallest bucket boundary that holds its longest sentence, so all the
batches of this run (sentences of at most 16 tokens) share one shape.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 1
BUCKETS = (16, 32, 64)


def collate_tokens(values, pad_idx):
    longest = max(len(v) for v in values)
    size = next(b for b in BUCKETS if b >= longest)
    res = torch.full((len(values), size), pad_idx, dtype=torch.long)
    for i, v in enumerate(values):
        res[i, :len(v)] = torch.tensor(v)
    return res


class TinyTranslator(nn.Module):
    def __init__(self, vocab=40, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=PAD)
        self.enc = nn.TransformerEncoderLayer(d, 2, 32, batch_first=True, dropout=0.0)
        self.dec = nn.TransformerDecoderLayer(d, 2, 32, batch_first=True, dropout=0.0)
        self.out = nn.Linear(d, vocab)

    def forward(self, src, prev):
        memory = self.enc(self.emb(src), src_key_padding_mask=src == PAD)
        return self.out(self.dec(self.emb(prev), memory, memory_key_padding_mask=src == PAD))


def make_train_step(model, opt, device):
    def train_step(src_sents, tgt_sents):
        src = collate_tokens(src_sents, PAD).to(device)
        tgt = collate_tokens(tgt_sents, PAD).to(device)
        opt.zero_grad()
        logits = model(src, tgt[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt[:, 1:].reshape(-1), ignore_index=PAD)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(seed, src_lens, tgt_lens):
    g = torch.Generator().manual_seed(seed)
    src = [torch.randint(2, 40, (n,), generator=g).tolist() for n in src_lens]
    tgt = [torch.randint(2, 40, (n,), generator=g).tolist() for n in tgt_lens]
    return src, tgt


def ENTRY(device):
    model = TinyTranslator().to(device)
    return make_train_step(model, torch.optim.Adam(model.parameters(), lr=1e-3), device), _batch(0, (6, 9), (7, 8))


def ALT_ARGS(device):
    return [_batch(1, (11, 4), (12, 5)), _batch(2, (5, 5), (6, 4)), _batch(3, (14, 10), (13, 9))]
