"""Source: https://github.com/huggingface/transformers/issues/31126 ("Request for Static Cache Support for XLA Compiler in Transformers": on XLA, `StaticCache.update` writing the new keys and values with `k_out[:, :, cache_position] = key_states` was reported to recompile at every generation step; the proposed fix, transformers#31118/#31129 and then #31857, writes them with `index_copy_`). Written as the positive and renamed after the oracle: on torch_xla 2.9 the advanced-index write at a device-tensor `cache_position` compiles once and does not recompile over five decode positions. A decoder layer keeps a preallocated key/value cache, writes each step's keys and values into it by index assignment and attends over the whole cache with a position mask. (Single-layer decoder generating one token per step with a static KV cache.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class StaticKVCache:
    def __init__(self, batch, heads, max_len, head_dim, device):
        self.keys = torch.zeros(batch, heads, max_len, head_dim, device=device)
        self.values = torch.zeros(batch, heads, max_len, head_dim, device=device)

    def update(self, key_states, value_states, cache_position):
        self.keys[:, :, cache_position] = key_states
        self.values[:, :, cache_position] = value_states
        return self.keys, self.values


class DecoderLayer(nn.Module):
    def __init__(self, dim=32, heads=4, max_len=16):
        super().__init__()
        self.heads, self.head_dim, self.max_len = heads, dim // heads, max_len
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, hidden, cache, cache_position):
        b, t, d = hidden.shape
        q, k, v = self.qkv(hidden).view(b, t, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        keys, values = cache.update(k, v, cache_position)
        positions = torch.arange(self.max_len, device=hidden.device)
        visible = positions[None, :] <= cache_position[:, None]
        attn = F.scaled_dot_product_attention(q, keys, values, attn_mask=visible[None, None])
        return self.out(attn.transpose(1, 2).reshape(b, t, d))


def make_decode_step(layer, cache):
    @torch.no_grad()
    def decode_step(hidden, cache_position):
        return layer(hidden, cache, cache_position)
    return decode_step


# --- oracle ---
def _token(device, position):
    g = torch.Generator().manual_seed(position)
    return torch.randn(1, 1, 32, generator=g).to(device), torch.tensor([position]).to(device)


def ENTRY(device):
    layer = DecoderLayer().to(device)
    cache = StaticKVCache(1, 4, 16, 8, device)
    return make_decode_step(layer, cache), _token(device, 0)


def ALT_ARGS(device):
    return [_token(device, p) for p in (1, 2, 3, 4)]
