"""Source: https://github.com/vllm-project/vllm/pull/16275

The vLLM-style sampler as the pull request left it: the temperatures are padded in the host tensor and
the padded slice is transferred as a whole, `self.temperature_cpu[:padded].to(device)`, so the
precompiled sampler sees a plain input of one of the padded sizes and no slice update is traced.
"""
import torch
import torch_xla

REQ_PADDINGS = (4, 8, 16)


class Sampler:
    def __init__(self, device, max_num_reqs=16):
        self.device = device
        self.temperature_cpu = torch.ones(max_num_reqs)

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
        temperature = self.temperature_cpu[:padded].to(self.device)
        logits = logits_cpu[:padded].to(self.device)
        return self._sample(logits, temperature)


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
