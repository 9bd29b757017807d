"""Source: https://github.com/vllm-project/vllm/pull/7340

The same compiled TPU model runner, with the scheduled tokens padded to a fixed
`max_num_batched_tokens` (padding tokens get position 0 and are ignored): every call sees the
same shapes, so dynamo and XLA compile the model once. The index of the last real token is passed
as a device tensor.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

MAX_NUM_BATCHED_TOKENS = 32


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


def pad_scheduled_tokens(token_ids, max_tokens=MAX_NUM_BATCHED_TOKENS):
    n = token_ids.shape[0]
    padded = torch.zeros(max_tokens, dtype=token_ids.dtype)
    padded[:n] = token_ids
    positions = torch.zeros(max_tokens, dtype=torch.long)
    positions[:n] = torch.arange(n)
    return padded, positions, torch.tensor(n - 1)


class ModelRunner:
    def __init__(self, model, device):
        self.model = model.eval()
        self.compiled = torch.compile(model, backend="openxla") if device.type == "xla" else model

    @torch.no_grad()
    def execute_model(self, token_ids, positions, last_index):
        logits = self.compiled(token_ids, positions)
        return logits.index_select(0, last_index.view(1)).argmax(-1)


# --- oracle ---
def _scheduled(device, seed, num_tokens):
    g = torch.Generator().manual_seed(seed)
    ids, pos, last = pad_scheduled_tokens(torch.randint(0, 64, (num_tokens,), generator=g))
    return ids.to(device), pos.to(device), last.to(device)


def ENTRY(device):
    return ModelRunner(TinyDecoder().to(device), device).execute_model, _scheduled(device, 0, 12)


def ALT_ARGS(device):
    return [_scheduled(device, 1, 20), _scheduled(device, 2, 7), _scheduled(device, 3, 31)]
