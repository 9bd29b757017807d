"""Source: https://github.com/huggingface/transformers/pull/46675

The same greedy decoder with generation buffers of a fixed `max_length` (the static-cache
approach the generation docs point XLA users to): each step writes the new token into
`input_ids` at the current position with `scatter`, sets that position in the attention mask,
and advances a device-side position tensor. Every step has the same shapes and compiles once.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

MAX_LENGTH = 12


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=50, d=16, max_pos=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_pos, d)
        self.qkv = nn.Linear(d, 3 * d)
        self.mlp = nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.Linear(32, d))
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids, attention_mask):
        pos = (attention_mask.cumsum(-1) - 1).clamp(min=0)
        h = self.tok(input_ids) + self.pos(pos)
        q, k, v = self.qkv(h).unsqueeze(1).chunk(3, dim=-1)
        t = input_ids.shape[1]
        causal = torch.ones(t, t, dtype=torch.bool, device=h.device).tril()
        allowed = causal[None, None] & attention_mask[:, None, None, :].bool()
        allowed = allowed | torch.eye(t, dtype=torch.bool, device=h.device)[None, None]
        h = h + F.scaled_dot_product_attention(q, k, v, attn_mask=allowed).squeeze(1)
        return self.lm_head(h + self.mlp(h))


class GreedyGenerator:
    def __init__(self, model):
        self.model = model.eval()

    @torch.no_grad()
    def decode_step(self, input_ids, attention_mask, cur_pos):
        logits = self.model(input_ids, attention_mask)
        last = (cur_pos - 1).view(1, 1, 1).expand(input_ids.shape[0], 1, logits.shape[-1])
        next_token = logits.gather(1, last).squeeze(1).argmax(-1, keepdim=True)
        index = cur_pos.view(1, 1).expand(input_ids.shape[0], 1)
        input_ids = input_ids.scatter(1, index, next_token)
        attention_mask = attention_mask.scatter(1, index, torch.ones_like(next_token))
        return input_ids, attention_mask, cur_pos + 1


# --- oracle ---
def _prompt(device, extra):
    g = torch.Generator().manual_seed(0)
    n = 6 + extra
    ids = torch.zeros(2, MAX_LENGTH, dtype=torch.long)
    ids[:, :n] = torch.randint(0, 50, (2, n), generator=g)
    mask = torch.zeros(2, MAX_LENGTH, dtype=torch.long)
    mask[:, :n] = 1
    mask[1, :2] = 0
    return ids.to(device), mask.to(device), torch.tensor(n).to(device)


def ENTRY(device):
    return GreedyGenerator(TinyCausalLM().to(device)).decode_step, _prompt(device, 0)


def ALT_ARGS(device):
    return [_prompt(device, n) for n in (1, 2, 3)]
