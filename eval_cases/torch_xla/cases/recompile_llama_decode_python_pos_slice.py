"""The reference LLaMA generation loop run on an XLA device: each decode step feeds
`tokens[:, prev_pos:cur_pos]` to the model and writes the sampled token with `tokens[:, cur_pos] = next`,
where `prev_pos`/`cur_pos` are Python ints that advance every step. The slice keeps its shape (one
token), but its offset is a constant in the traced graph, so every position compiles a new graph.

Source: https://github.com/pytorch-tpu/llama/pull/30 ("Llama 2 xla optimized": the generation loop is rewritten to
feed `input_pos_tensor`/`output_pos_tensor` device tensors and `index_select` instead of Python-int slicing
so that decoding does not recompile per position).
"""
import torch
import torch.nn as nn


class TinyLlama(nn.Module):
    def __init__(self, vocab=64, d=16, max_len=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.out = nn.Linear(d, vocab)

    def forward(self, ids, start_pos):
        pos = torch.arange(start_pos, start_pos + ids.size(1), device=ids.device)
        return self.out(torch.tanh(self.emb(ids) + self.pos(pos)))


class Decoder:
    def __init__(self, model, tokens, prompt_len):
        self.model = model
        self.tokens = tokens
        self.cur_pos = prompt_len

    @torch.no_grad()
    def decode_step(self):
        prev_pos = self.cur_pos - 1
        logits = self.model(self.tokens[:, prev_pos:self.cur_pos], prev_pos)  # XLA: recompile
        next_token = logits[:, -1].argmax(-1)
        self.tokens[:, self.cur_pos] = next_token
        self.cur_pos += 1
        return next_token


# --- oracle ---
def ENTRY(device):
    g = torch.Generator().manual_seed(0)
    tokens = torch.zeros(2, 32, dtype=torch.long)
    tokens[:, :4] = torch.randint(0, 64, (2, 4), generator=g)
    return Decoder(TinyLlama().to(device), tokens.to(device), 4).decode_step, ()


REPEAT = 6
