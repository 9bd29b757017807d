"""Source: https://github.com/CarperAI/trlx/pull/315

The same reward scoring with every generated sample padded to the global `seq_length` of the
config (the length before the PR), so each eval batch has the same shape and the scoring step
compiles once; padding positions are masked out of attention and pooling.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD_ID = 0
SEQ_LENGTH = 16


def collate_samples(samples, seq_length=SEQ_LENGTH):
    tokens = torch.stack([F.pad(s[:seq_length], (0, seq_length - min(len(s), seq_length)), value=PAD_ID)
                          for s in samples])
    return tokens, (tokens != PAD_ID).long()


class TinyRewardModel(nn.Module):
    def __init__(self, vocab=50, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=PAD_ID)
        self.enc = nn.TransformerEncoderLayer(d, 2, 32, dropout=0.0, batch_first=True)
        self.value = nn.Linear(d, 1)

    @torch.no_grad()
    def forward(self, tokens, attention_mask):
        h = self.enc(self.emb(tokens), src_key_padding_mask=attention_mask == 0)
        last = attention_mask.sum(1) - 1
        pooled = h.gather(1, last.view(-1, 1, 1).expand(-1, 1, h.shape[-1])).squeeze(1)
        return self.value(pooled).squeeze(-1)


# --- oracle ---
def _eval_batch(device, seed, lengths):
    g = torch.Generator().manual_seed(seed)
    tokens, mask = collate_samples([torch.randint(1, 50, (n,), generator=g) for n in lengths])
    return tokens.to(device), mask.to(device)


def ENTRY(device):
    return TinyRewardModel().to(device).eval(), _eval_batch(device, 0, (9, 6, 11))


def ALT_ARGS(device):
    return [_eval_batch(device, s, n) for s, n in ((1, (5, 13, 7)), (2, (8, 4, 6)), (3, (15, 10, 12)))]
