"""Source: https://github.com/huggingface/optimum-tpu/pull/98

A TPU text-generation server's prefill: the batch of prompts (Python token lists) is padded to the
length of its longest prompt, `max(len(p) for p in prompts)`, and run through the model to get the
first token. The report ("prefill should be done with max input size") found that using the sequence
length led to "useless graph compilations": every new longest length is a new input shape.
"""
import torch
import torch.nn as nn

PAD = 0


class TinyDecoder(nn.Module):
    def __init__(self, vocab=50, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.mix = nn.Linear(d, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids, mask):
        h = torch.tanh(self.mix(self.emb(ids))) * mask.unsqueeze(-1)
        return self.head(h.sum(1) / mask.sum(1, keepdim=True))


class Generator:
    def __init__(self, model, device):
        self.model = model
        self.device = device

    @torch.no_grad()
    def prefill(self, prompts):
        seq_len = max(len(p) for p in prompts)
        ids = torch.full((len(prompts), seq_len), PAD, dtype=torch.long)
        for i, p in enumerate(prompts):
            ids[i, :len(p)] = torch.tensor(p)
        ids = ids.to(self.device)  # XLA: recompile
        logits = self.model(ids, (ids != PAD).float())
        return logits.argmax(-1)


# --- oracle ---
def _prompts(seed, lengths):
    g = torch.Generator().manual_seed(seed)
    return ([torch.randint(1, 50, (n,), generator=g).tolist() for n in lengths],)


def ENTRY(device):
    gen = Generator(TinyDecoder().to(device), device)
    return gen.prefill, _prompts(0, (5, 3))


def ALT_ARGS(device):
    return [_prompts(1, (7, 4)), _prompts(2, (6, 6)), _prompts(3, (9, 2))]
