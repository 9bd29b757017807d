"""Source: https://github.com/vllm-project/vllm/pull/7340

A TPU serving worker runs the model through `torch.compile(backend="openxla")` on the flattened
tokens of the scheduled requests. The number of tokens changes with every scheduling step, so the
input has a new shape each time: dynamo traces again and XLA compiles a new graph per token count
(the PR marks the token dimension dynamic and pads to a few sizes to cut the compilation time).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyDecoder(nn.Module):
    def __init__(self, vocab=64, d=16, max_pos=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_pos, d)
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.norm = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, token_ids, positions):
        h = self.embed(token_ids) + self.pos(positions)
        q, k, v = self.qkv(h).unsqueeze(0).chunk(3, dim=-1)
        h = h + self.o(F.scaled_dot_product_attention(q, k, v, is_causal=True).squeeze(0))
        h = h + self.mlp(self.norm(h))
        return self.lm_head(h)


class ModelRunner:
    def __init__(self, model, device):
        self.model = model.eval()
        self.compiled = torch.compile(model, backend="openxla") if device.type == "xla" else model

    @torch.no_grad()
    def execute_model(self, token_ids, positions):
        logits = self.compiled(token_ids, positions)  # XLA: recompile
        return logits[-1].argmax(-1)


# --- oracle ---
def _scheduled(device, seed, num_tokens):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 64, (num_tokens,), generator=g)
    return ids.to(device), torch.arange(num_tokens).to(device)


def ENTRY(device):
    return ModelRunner(TinyDecoder().to(device), device).execute_model, _scheduled(device, 0, 12)


def ALT_ARGS(device):
    return [_scheduled(device, 1, 20), _scheduled(device, 2, 7), _scheduled(device, 3, 31)]
