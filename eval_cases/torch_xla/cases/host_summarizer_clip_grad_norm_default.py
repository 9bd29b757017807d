"""Source: https://github.com/Lightning-AI/pytorch-lightning/issues/902

The same summarization fine-tuning with `clip_grad_norm_` at its defaults (no NaN/Inf check, the
clip coefficient computed with a clamp). Written as a near miss, renamed after the oracle: the
step still reads a value back once per step, from `nn.Transformer` itself. The decoder gets a
`tgt_mask` and no `is_causal` hint, so torch's `_detect_is_causal_mask` compares the mask with a
generated causal mask and turns the result into a Python bool (`bool((mask == causal).all())`),
a device-to-host read on XLA (torch_xla 2.9: 1 transfer per steady step; the `error_if_nonfinite`
variant has 3).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinySummarizer(nn.Module):
    def __init__(self, vocab=40, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.model = nn.Transformer(d, 2, 1, 1, 32, dropout=0.0, batch_first=True)
        self.out = nn.Linear(d, vocab)

    def forward(self, src, tgt_in):
        mask = nn.Transformer.generate_square_subsequent_mask(tgt_in.shape[1], device=src.device)
        return self.out(self.model(self.emb(src), self.emb(tgt_in), tgt_mask=mask))  # XLA: host


class SummarizationModule:
    def __init__(self, model, gradient_clip_val=1.0):
        self.model = model
        self.opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
        self.gradient_clip_val = gradient_clip_val

    def training_step(self, src, tgt):
        self.opt.zero_grad()
        logits = self.model(src, tgt[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt[:, 1:].reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.gradient_clip_val)
        self.opt.step()
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 40, (2, 12), generator=g).to(device), torch.randint(0, 40, (2, 6), generator=g).to(device)


def ENTRY(device):
    return SummarizationModule(TinySummarizer().to(device)).training_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
