"""Source: https://github.com/vllm-project/vllm/pull/16726

A TPU model runner in the style of vLLM's: at start-up it precompiles the model for every token-count
padding (8, 16, 32), and each request batch is padded to the next padding by slicing a host buffer,
`self.input_ids_cpu[:padded]`. The buffer is sized with the configured `max_num_batched_tokens`, here
20, which is not a padding: a batch of more than 16 tokens asks for 32 and gets the 20 the buffer has,
a shape that was never precompiled (the pull request: "silently cause recompilations").
"""
import torch
import torch.nn as nn
import torch_xla


def get_token_paddings(min_tokens, max_tokens):
    paddings, n = [], min_tokens
    while n < max_tokens:
        paddings.append(n)
        n *= 2
    return paddings + [n]


class TinyLM(nn.Module):
    def __init__(self, vocab=40, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.mix = nn.Linear(d, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        return self.head(torch.tanh(self.mix(self.emb(ids))))


class ModelRunner:
    def __init__(self, model, device, max_num_batched_tokens=20):
        self.model = model
        self.device = device
        self.num_tokens_paddings = get_token_paddings(8, max_num_batched_tokens)
        self.input_ids_cpu = torch.zeros(max_num_batched_tokens, dtype=torch.long)  # XLA: recompile

    @torch.no_grad()
    def precompile(self):
        for n in self.num_tokens_paddings:
            out = self.model(torch.zeros(n, dtype=torch.long).to(self.device)).argmax(-1)
            if self.device.type == "xla":
                torch_xla.sync()
            del out

    @torch.no_grad()
    def execute(self, token_ids):
        n = len(token_ids)
        padded = next(p for p in self.num_tokens_paddings if p >= n)
        self.input_ids_cpu.zero_()
        self.input_ids_cpu[:n] = torch.tensor(token_ids)
        ids = self.input_ids_cpu[:padded].to(self.device)
        return self.model(ids).argmax(-1)


# --- oracle ---
_KEEP = [ModelRunner]


def _tokens(seed, n):
    g = torch.Generator().manual_seed(seed)
    return (torch.randint(1, 40, (n,), generator=g).tolist(),)


def ENTRY(device):
    runner = ModelRunner(TinyLM().to(device), device)
    runner.precompile()
    return runner.execute, _tokens(0, 5)


def ALT_ARGS(device):
    return [_tokens(1, 12), _tokens(2, 18), _tokens(3, 7)]
