"""XLA250: an op whose output shape depends on tensor values, inside a torch_xla step."""

from __future__ import annotations

import ast

from xlacheck.analysis.torch_model import BOOL, STRUCT, op_table
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Rewrites with a static shape, by op (the message names the one that fits).
_REWRITE = {
    "nonzero": "the mask itself and compute with it (`x * mask`, `torch.where(mask, x, 0)`, `masked_fill`)",
    "argwhere": "the mask itself and compute with it (`x * mask`, `torch.where(mask, x, 0)`)",
    "masked_select": "`torch.where(mask, x, 0)` (or `x * mask`) and reduce with the mask's sum",
    "unique": "a fixed-size encoding (`F.one_hot(x, num_classes).amax(0)`) or `torch.bincount`-free counting",
    "unique_consecutive": "a fixed-size encoding with a mask of run starts",
    "where": "three-argument `torch.where(cond, x, y)`",
    "repeat_interleave": "an integer `repeats` (static) or a gather from a fixed-size index",
    "getitem": "`masked_fill(~mask, 0)`, `torch.where(mask, x, 0)`, or a loss with `ignore_index`",
    "setitem": "`x = x.masked_fill(mask, value)` or `torch.where(mask, value, x)`",
}


def _leaf(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def data_dependent_ops() -> frozenset[str]:
    """Ops the generated table saw change their output shape with the input values (and that fall back)."""
    return frozenset(n for n, e in op_table()["ops"].items() if e.get("data_dependent_shape"))


class TorchDataDependentShape(ModuleRule):
    """
    ## What it does
    Flags ops whose output shape depends on tensor values inside a torch_xla step: boolean-mask
    indexing `x[mask]` and assignment `x[mask] = v` (with `mask` proven a bool tensor),
    `nonzero`, `argwhere`, `masked_select`, one-argument `torch.where`, `unique`,
    `repeat_interleave` with tensor `repeats`. The set comes from the generated table
    (`xlacheck/data/torch_xla_ops.json`, docs/torch-op-table.md): ops whose output shape moved
    between two inputs of the same shape, and the argument-dependent probes.

    ## Why is this bad?
    XLA compiles static shapes. torch_xla runs these ops on the CPU (`aten::nonzero`,
    `aten::masked_select`, `aten::_unique2` ... fall back), copies the inputs to the host and
    the result back, and the graph after them is compiled again whenever the number of
    selected elements changes: nearly every step.

    ## Example
    ```python
    loss = F.cross_entropy(logits[labels != -100], labels[labels != -100])
    ```

    ## Use instead
    ```python
    loss = F.cross_entropy(logits, labels, ignore_index=-100)
    # or: per = F.cross_entropy(logits, labels.clamp(min=0), reduction="none")
    #     loss = (per * mask).sum() / mask.sum()
    ```

    ## Fix safety
    No automatic fix: the rewrite depends on what consumes the selection (a reduction, a loss,
    an assignment).
    """

    code = "XLA250"
    fix = None
    name = "torch-data-dependent-shape"
    severity = Severity.RECOMPILE
    VALID = (
        Example("import torch\nimport torch_xla\nimport torch.nn.functional as F\n"
                "def train(model, loader, opt):\n    device = torch_xla.device()\n    for x, y in loader:\n"
                "        x, y = x.to(device), y.to(device)\n        logits = model(x)\n"
                "        loss = F.cross_entropy(logits, y, ignore_index=-100)\n        loss.backward()\n"
                "        opt.step()\n        torch_xla.sync()\n"),
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    for x, idx in loader:\n"
                "        h = torch.relu(x)\n        loss = torch.where(h > 0, h, 0.0)[idx].sum()\n        loss.backward()\n"
                "        opt.step()\n        torch_xla.sync()\n"),
    )
    INVALID = (
        Example("import torch\nimport torch_xla\nimport torch_xla.distributed.parallel_loader as pl\n"
                "import torch.nn.functional as F\ndef train(model, loader, opt, device):\n"
                "    for batch in pl.MpDeviceLoader(loader, device):\n        logits = model(batch['x'])\n"
                "        y = batch['labels']\n        keep = y != -100\n"
                "        loss = F.cross_entropy(logits[keep], y[keep])\n        loss.backward()\n        opt.step()\n",
                expected=(
                    (10, 32, '`x[mask]` with a boolean tensor mask has a data-dependent shape: torch_xla runs it on '
                             'the CPU (aten::nonzero) and recompiles when the count changes; use `masked_fill(~mask, '
                             '0)`, `torch.where(mask, x, 0)`, or a loss with `ignore_index`'),
                    (10, 46, '`x[mask]` with a boolean tensor mask has a data-dependent shape: torch_xla runs it on '
                             'the CPU (aten::nonzero) and recompiles when the count changes; use `masked_fill(~mask, '
                             '0)`, `torch.where(mask, x, 0)`, or a loss with `ignore_index`'),
                )),
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    for x, y in loader:\n"
                "        pos = torch.nonzero(y > 0)\n        loss = torch.relu(x).sum() + pos.float().sum()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n",
                expected=(
                    (5, 15, '`torch.nonzero` has a data-dependent output shape: torch_xla runs it on the CPU and '
                            'recompiles when the size changes; use the mask itself and compute with it (`x * mask`, '
                            '`torch.where(mask, x, 0)`, `masked_fill`)'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        torch = ctx.torch
        if not torch.steps:
            return
        dd = data_dependent_ops()
        for node in torch.nodes:
            if isinstance(node, ast.Subscript) and (torch.tensor(node.value) or torch.of(node.value) & STRUCT):
                # (a model output or batch indexed by a bool tensor must be a tensor: a structure would raise)
                index = node.slice
                if torch.of(index) & BOOL and torch.tensor(index):
                    kind = "setitem" if isinstance(node.ctx, ast.Store) else "getitem"
                    what = "`x[mask] = v`" if kind == "setitem" else "`x[mask]`"
                    ctx.report(self, node, f"{what} with a boolean tensor mask has a data-dependent shape: torch_xla "
                                           f"runs it on the CPU (aten::nonzero) and recompiles when the count changes; "
                                           f"use {_REWRITE[kind]}")
                continue
            if not isinstance(node, ast.Call):
                continue
            op = torch.call_ops.get(id(node))
            if op is None:
                continue
            leaf = _leaf(op)
            method = op.startswith("Tensor.")
            table_name = op if op in op_table()["ops"] else ("Tensor." + leaf if method else op)
            hit = False
            if leaf == "where":
                hit = not method and len(node.args) == 1 and not node.keywords
            elif leaf == "repeat_interleave":
                repeats = node.args[0] if method and node.args else node.args[1] if len(node.args) > 1 else None
                for kw in node.keywords:
                    if kw.arg == "repeats":
                        repeats = kw.value
                one_arg_form = not method and len(node.args) == 1 and not node.keywords  # repeat_interleave(counts)
                hit = (repeats is not None and torch.tensor(repeats)) or (one_arg_form and torch.tensor(node.args[0]))
            elif leaf in _REWRITE and (table_name in dd or f"torch.{leaf}" in dd):
                hit = True  # nonzero(as_tuple=True) too: every output's length is the count
            if hit:
                ctx.report(self, node, f"`{op.replace('Tensor.', 'tensor.')}` has a data-dependent output shape: "
                                       f"torch_xla runs it on the CPU and recompiles when the size changes; "
                                       f"use {_REWRITE.get(leaf, 'a fixed-size, masked computation')}")
