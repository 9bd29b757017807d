"""Source: https://github.com/pytorch/xla/issues/1330

"Mixed precision training": a GPT-2 fine-tuning script on TPU moved to bfloat16 fails with
"_th_equal not supported on CPUType for BFloat16"; the maintainer explains that one op the script
uses is not lowered, so PyTorch/XLA "takes data from device" and runs it on the CPU. A bfloat16
causal-LM trainer checks each batch with `torch.equal(labels, input_ids)` to decide whether the
labels still need shifting: the answer is a Python bool, read back from the device in every step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=64, d=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.mix = nn.Sequential(nn.Linear(d, 64), nn.GELU(), nn.Linear(64, d))
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, ids):
        h = self.tok(ids)
        return self.lm_head(h + self.mix(h))


class BF16Finetuner:
    def __init__(self, model):
        self.model = model.to(torch.bfloat16)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def train_step(self, input_ids, labels):
        self.opt.zero_grad()
        logits = self.model(input_ids)
        if torch.equal(labels, input_ids):  # XLA: host
            logits, labels = logits[:, :-1], labels[:, 1:]
        loss = F.cross_entropy(logits.float().reshape(-1, logits.shape[-1]), labels.reshape(-1))
        loss.backward()
        self.opt.step()
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    ids = torch.randint(0, 64, (4, 12), generator=torch.Generator().manual_seed(seed))
    return ids.to(device), ids.clone().to(device)


def ENTRY(device):
    return BF16Finetuner(TinyCausalLM().to(device)).train_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
