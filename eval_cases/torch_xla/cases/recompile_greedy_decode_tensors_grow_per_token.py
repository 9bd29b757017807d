"""Source: https://github.com/huggingface/transformers/pull/46675

Greedy generation on an XLA device with the growing generation tensors kept on the device: each
decoding step appends the new token to `input_ids` and a 1 to `attention_mask`, so both tensors
are one column longer at every step. "The compiler retraces the graph whenever these tensors
change shape on the accelerator" - every generated token compiles a new graph.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


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
    def decode_step(self, input_ids, attention_mask):
        logits = self.model(input_ids, attention_mask)
        next_token = logits[:, -1].argmax(-1, keepdim=True)
        input_ids = torch.cat([input_ids, next_token], dim=-1)  # XLA: recompile
        attention_mask = torch.cat([attention_mask, torch.ones_like(next_token)], dim=-1)
        return input_ids, attention_mask


# --- oracle ---
def _prompt(device, extra):
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(0, 50, (2, 6 + extra), generator=g)
    mask = torch.ones_like(ids)
    mask[1, :2] = 0
    return ids.to(device), mask.to(device)


def ENTRY(device):
    return GreedyGenerator(TinyCausalLM().to(device)).decode_step, _prompt(device, 0)


def ALT_ARGS(device):
    return [_prompt(device, n) for n in (1, 2, 3)]
