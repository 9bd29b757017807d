"""op_scatter_reduce_graph_max_pool_include_self_false.

Source: https://github.com/pytorch/pytorch/pull/74607 (`include_self=False` was added so that
pytorch_scatter's `scatter(..., reduce="max")` can be written as
`torch.zeros(shape).scatter_reduce_(..., include_self=False)`); global max pooling of node
features per graph, as in https://github.com/pyg-team/pytorch_geometric/issues/1426.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphClassifier(nn.Module):
    def __init__(self, d_in=8, hidden=16, n_classes=3, n_graphs=4):
        super().__init__()
        self.n_graphs = n_graphs
        self.node = nn.Linear(d_in, hidden)
        self.out = nn.Linear(hidden, n_classes)

    def forward(self, x, batch):
        h = torch.relu(self.node(x))
        index = batch[:, None].expand_as(h)
        pooled = h.new_zeros(self.n_graphs, h.shape[1]).scatter_reduce(
            0, index, h, reduce="amax", include_self=False)  # XLA: op
        return self.out(pooled)


def make_train_step(model, opt):
    def train_step(x, batch, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(x, batch), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed, n=20):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g)
    batch = torch.tensor([0] * 5 + [1] * 6 + [2] * 4 + [3] * 5)
    return x.to(device), batch.to(device), torch.randint(0, 3, (4,), generator=g).to(device)


def ENTRY(device):
    model = GraphClassifier().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
