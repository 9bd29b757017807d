"""The LLaMA decode loop rewritten for XLA: the current position lives in a device tensor
(`input_pos_tensor`), the input token is read with `tokens.index_select(1, input_pos_tensor)` and the new
token written with `index_copy_` at `output_pos_tensor`; the positions advance by adding 1 on the device,
so every decode step traces the same graph.

Source: https://github.com/pytorch-tpu/llama/pull/30 ("Llama 2 xla optimized": "Generation optimization" with
`input_pos_tensor`/`output_pos_tensor` and `index_select`).
"""
import torch
import torch.nn as nn


class TinyLlama(nn.Module):
    def __init__(self, vocab=64, d=16, max_len=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.out = nn.Linear(d, vocab)

    def forward(self, ids, input_pos):
        return self.out(torch.tanh(self.emb(ids) + self.pos(input_pos)))


class Decoder:
    def __init__(self, model, tokens, prompt_len, device):
        self.model = model
        self.tokens = tokens
        self.input_pos_tensor = torch.tensor([prompt_len - 1], device=device)
        self.output_pos_tensor = torch.tensor([prompt_len], device=device)

    @torch.no_grad()
    def decode_step(self):
        input_tokens = self.tokens.index_select(1, self.input_pos_tensor)
        logits = self.model(input_tokens, self.input_pos_tensor)
        next_token = logits[:, -1].argmax(-1)
        self.tokens.index_copy_(1, self.output_pos_tensor, next_token.unsqueeze(1))
        self.input_pos_tensor = self.input_pos_tensor + 1
        self.output_pos_tensor = self.output_pos_tensor + 1
        return next_token


# --- oracle ---
def ENTRY(device):
    g = torch.Generator().manual_seed(0)
    tokens = torch.zeros(2, 32, dtype=torch.long)
    tokens[:, :4] = torch.randint(0, 64, (2, 4), generator=g)
    return Decoder(TinyLlama().to(device), tokens.to(device), 4, device).decode_step, ()


REPEAT = 6
