"""Source: https://github.com/vllm-project/vllm/issues/14581

"[TPU]: Improve the token_num padding logic": the TPU model runner pads the number of scheduled
tokens to a power of two and the issue proposes CUDA-graph-like steps of 8 instead. A small
runner that pads `num_tokens` to the next multiple of 8 and slices its persistent host buffers to
that length before moving them to the device: every padded length the scheduler has not produced
before is a new input shape, so a step that reaches a new bucket compiles a new graph unless all
buckets were compiled in a warm-up.
"""
import torch
import torch.nn as nn

MAX_NUM_TOKENS = 32


class TinyDecoder(nn.Module):
    def __init__(self, vocab=64, d=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(MAX_NUM_TOKENS, d)
        self.mlp = nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.Linear(32, d))
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, ids, positions):
        h = self.tok(ids) + self.pos(positions)
        return self.lm_head(h + self.mlp(h))


def padded_token_len(num_tokens, multiple=8):
    return (num_tokens + multiple - 1) // multiple * multiple


class ModelRunner:
    def __init__(self, model, device):
        self.model = model.eval()
        self.device = device
        self.input_ids_cpu = torch.zeros(MAX_NUM_TOKENS, dtype=torch.long)
        self.positions_cpu = torch.zeros(MAX_NUM_TOKENS, dtype=torch.long)

    @torch.no_grad()
    def execute_model(self, token_ids, positions):
        n = len(token_ids)
        self.input_ids_cpu[:n] = torch.tensor(token_ids)
        self.positions_cpu[:n] = torch.tensor(positions)
        padded = padded_token_len(n)
        ids = self.input_ids_cpu[:padded].to(self.device)  # XLA: recompile
        pos = self.positions_cpu[:padded].to(self.device)
        return self.model(ids, pos)


# --- oracle ---
def _step(n, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, 64, (n,), generator=g).tolist(), list(range(n))


def ENTRY(device):
    return ModelRunner(TinyDecoder().to(device), device).execute_model, _step(5, 0)


def ALT_ARGS(device):
    return [_step(13, 1), _step(20, 2)]
