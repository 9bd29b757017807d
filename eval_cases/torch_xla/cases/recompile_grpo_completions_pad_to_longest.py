"""Source: https://github.com/huggingface/trl/pull/5180

A GRPO policy update on an XLA backend: after the rollout, the prompt and completion ids of the group
are padded to the longest completion (`pad_sequence`) before the loss. The pull request added
`pad_to_multiple_of` "to reduce the number of different input_ids shapes during training,
minimizing recompilation for backends with static shape computation such as Neuron".
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence


class TinyPolicy(nn.Module):
    def __init__(self, vocab=30, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mix = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        h = self.emb(ids)
        h = h + torch.tanh(self.mix(h.cumsum(1) / torch.arange(1, ids.size(1) + 1, device=ids.device)[:, None]))
        return self.head(h)


def make_update(policy, opt, device, pad_id=0):
    def update(prompt_ids, completions, advantages):
        completion_ids = pad_sequence(completions, batch_first=True, padding_value=pad_id)  # XLA: recompile
        mask = pad_sequence([torch.ones(len(c)) for c in completions], batch_first=True)
        ids = torch.cat([prompt_ids, completion_ids], 1).to(device)
        mask, adv = mask.to(device), advantages.to(device)
        opt.zero_grad()
        logits = policy(ids)[:, prompt_ids.size(1) - 1:-1]
        logp = torch.log_softmax(logits, -1).gather(-1, ids[:, prompt_ids.size(1):, None]).squeeze(-1)
        loss = -((logp * adv[:, None]) * mask).sum() / mask.sum()
        loss.backward()
        opt.step()
        return loss.detach()
    return update


# --- oracle ---
def _group(seed, lengths):
    g = torch.Generator().manual_seed(seed)
    prompt = torch.randint(1, 30, (1, 6), generator=g).repeat(len(lengths), 1)
    completions = [torch.randint(1, 30, (n,), generator=g) for n in lengths]
    return prompt, completions, torch.randn(len(lengths), generator=g)


def ENTRY(device):
    policy = TinyPolicy().to(device)
    return make_update(policy, torch.optim.Adam(policy.parameters(), lr=1e-3), device), _group(0, (5, 9, 7, 3))


def ALT_ARGS(device):
    return [_group(1, (4, 12, 6, 8)), _group(2, (10, 2, 5, 5))]
