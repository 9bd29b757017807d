"""Source: https://github.com/vllm-project/vllm/pull/16275

A vLLM-style TPU sampler whose per-request temperatures live in a preallocated device tensor. The
sampler is precompiled for every request-count padding, but each batch copies its temperatures into
the device tensor with a slice assignment, `self.temperature_tpu[:padded] = cpu[:padded]`. The pull
request removed this "subtle compilation": the slice bound is a Python int, and the copy adds a
different slice-update to the graph of each step.
"""
import torch
import torch_xla

REQ_PADDINGS = (4, 8, 16)


class Sampler:
    def __init__(self, device, max_num_reqs=16):
        self.device = device
        self.temperature_cpu = torch.ones(max_num_reqs)
        self.temperature_tpu = torch.ones(max_num_reqs).to(device)

    @staticmethod
    def _sample(logits, temperature):
        return torch.argmax(torch.log_softmax(logits / temperature[:, None], dim=-1), dim=-1)

    @torch.no_grad()
    def precompile(self, vocab):
        for n in REQ_PADDINGS:
            out = self._sample(torch.zeros(n, vocab).to(self.device), torch.ones(n).to(self.device))
            if self.device.type == "xla":
                torch_xla.sync()
            del out

    @torch.no_grad()
    def sample(self, logits_cpu, temperatures):
        n = len(temperatures)
        padded = next(p for p in REQ_PADDINGS if p >= n)
        self.temperature_cpu[:n] = torch.tensor(temperatures)
        self.temperature_cpu[n:padded] = 1.0
        self.temperature_tpu[:padded] = self.temperature_cpu[:padded].to(self.device)  # XLA: recompile
        logits = logits_cpu[:padded].to(self.device)
        return self._sample(logits, self.temperature_tpu[:padded])


# --- oracle ---
_KEEP = [Sampler]


def _reqs(seed, n):
    g = torch.Generator().manual_seed(seed)
    logits = torch.zeros(16, 24)
    logits[:n] = torch.randn(n, 24, generator=g)
    return logits, (0.5 + torch.rand(n, generator=g)).tolist()


def ENTRY(device):
    sampler = Sampler(device)
    sampler.precompile(24)
    return sampler.sample, _reqs(0, 3)


def ALT_ARGS(device):
    return [_reqs(1, 6), _reqs(2, 11), _reqs(3, 2)]
