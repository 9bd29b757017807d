"""Source: https://github.com/facebookresearch/fairseq/issues/2622

BART denoising pre-training on TPU with on-the-fly text infilling: every sample has a fixed
`tokens_per_sample`, but each masked span (Poisson lengths) is replaced by a single `<mask>`, so
the noised source is shorter by a different amount each time, and the collator pads the sources
only to the longest of the batch. The source length changes from batch to batch, which is why the
report kept seeing "XLA compilation detected" at each update even with fixed-size blocks.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD_ID, BOS_ID, MASK_ID = 0, 1, 2
TOKENS_PER_SAMPLE = 16


def text_infill(tokens, g, mask_ratio=0.3, poisson_lambda=3.0):
    out, i, masked, budget = [], 0, 0, int(round(len(tokens) * mask_ratio))
    while i < len(tokens):
        if masked < budget and torch.rand((), generator=g).item() < mask_ratio:
            span = max(1, int(torch.poisson(torch.tensor(poisson_lambda), generator=g).item()))
            out.append(MASK_ID)
            i += span
            masked += span
        else:
            out.append(tokens[i])
            i += 1
    return out


def collate_denoising(samples, g):
    sources = [text_infill(s, g) for s in samples]
    longest = max(len(s) for s in sources)
    src = torch.full((len(samples), longest), PAD_ID, dtype=torch.long)  # XLA: recompile
    for i, s in enumerate(sources):
        src[i, :len(s)] = torch.tensor(s)
    tgt = torch.tensor(samples)
    prev = torch.cat([torch.full((len(samples), 1), BOS_ID), tgt[:, :-1]], dim=1)
    return src, prev, tgt


class TinyBart(nn.Module):
    def __init__(self, vocab=48, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=PAD_ID)
        self.enc = nn.TransformerEncoderLayer(d, 2, 32, dropout=0.0, batch_first=True)
        self.dec = nn.TransformerDecoderLayer(d, 2, 32, dropout=0.0, batch_first=True)
        self.out = nn.Linear(d, vocab)

    def forward(self, src, prev):
        memory = self.enc(self.emb(src), src_key_padding_mask=src == PAD_ID)
        t = prev.shape[1]
        causal = torch.triu(torch.full((t, t), float("-inf"), device=src.device), 1)
        h = self.dec(self.emb(prev), memory, tgt_mask=causal, memory_key_padding_mask=src == PAD_ID)
        return self.out(h)


def make_train_step(model, opt):
    def train_step(src, prev, tgt):
        opt.zero_grad()
        logits = model(src, prev)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt.reshape(-1))
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    samples = torch.randint(3, 48, (2, TOKENS_PER_SAMPLE), generator=g).tolist()
    return tuple(t.to(device) for t in collate_denoising(samples, g))


def ENTRY(device):
    model = TinyBart().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3, 4)]
