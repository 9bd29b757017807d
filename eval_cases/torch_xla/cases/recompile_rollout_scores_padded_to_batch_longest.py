"""Source: https://github.com/CarperAI/trlx/pull/315

Evaluation of an RL fine-tuned policy: the generated samples of each eval batch are padded "to
batch elements' max_length instead of global seq_length" before the reward model scores them on
the device. The generated lengths differ from batch to batch, so the scoring step sees a new
sequence length almost every batch and is compiled again each time.
"""
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence

PAD_ID = 0


def collate_samples(samples):
    tokens = pad_sequence(samples, batch_first=True, padding_value=PAD_ID)  # XLA: recompile
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
