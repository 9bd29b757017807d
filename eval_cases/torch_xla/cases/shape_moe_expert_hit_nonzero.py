"""Source: https://github.com/huggingface/transformers/pull/40114

A Mixtral-style sparse MoE block (decoder-layer forward at inference): the loop visits only the
experts that received tokens, `expert_hit = (expert_mask.sum(...) > 0).nonzero()`, and each
expert's tokens come from `torch.where`; both have data-dependent sizes (the PR replaces the
`nonzero` with a static `range(num_experts)` loop for torch.export).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SparseMoeBlock(nn.Module):
    def __init__(self, hidden_dim=16, ffn_dim=32, num_experts=4, top_k=2):
        super().__init__()
        self.num_experts, self.top_k = num_experts, top_k
        self.gate = nn.Linear(hidden_dim, num_experts, bias=False)
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(hidden_dim, ffn_dim), nn.SiLU(), nn.Linear(ffn_dim, hidden_dim))
                                     for _ in range(num_experts))

    def forward(self, hidden_states):
        batch_size, sequence_length, hidden_dim = hidden_states.shape
        hidden_states = hidden_states.view(-1, hidden_dim)
        routing_weights = F.softmax(self.gate(hidden_states), dim=1, dtype=torch.float)
        routing_weights, selected_experts = torch.topk(routing_weights, self.top_k, dim=-1)
        routing_weights /= routing_weights.sum(dim=-1, keepdim=True)
        final = torch.zeros_like(hidden_states)
        expert_mask = F.one_hot(selected_experts, num_classes=self.num_experts).permute(2, 1, 0)
        expert_hit = torch.greater(expert_mask.sum(dim=(-1, -2)), 0).nonzero()  # XLA: shape
        for expert_idx in expert_hit:
            expert_layer = self.experts[expert_idx]
            idx, top_x = torch.where(expert_mask[expert_idx].squeeze(0))
            current_state = hidden_states[None, top_x].reshape(-1, hidden_dim)
            current = expert_layer(current_state) * routing_weights[top_x, idx, None]
            final.index_add_(0, top_x, current.to(hidden_states.dtype))
        return final.reshape(batch_size, sequence_length, hidden_dim)


@torch.no_grad()
def moe_layer_forward(block, norm, hidden_states):
    return hidden_states + block(norm(hidden_states))


# --- oracle ---
import functools


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(2, 6, 16, generator=g).to(device),)


def ENTRY(device):
    block, norm = SparseMoeBlock().to(device), nn.LayerNorm(16).to(device)
    return functools.partial(moe_layer_forward, block, norm), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
