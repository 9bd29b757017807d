"""XLA352 (preview): an adaptive pool whose output size may not divide its input's size, inside a torch_xla step."""

from __future__ import annotations

import ast

from xlacheck.analysis.torch_model import op_table
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule
from xlacheck.rules.torch_op_without_lowering import (
    adaptive_output_sizes,
    adaptive_pools,
    always_falls_back,
    module_calls,
)


def uncommon_divisor(n: int) -> bool:
    """An output size with a prime factor other than 2 and 7: no multiple of it is among the
    feature-map sizes of power-of-two inputs (64, 128, 256 ...) or of 224-pixel ones (112, 56, 28,
    14, 7). A guess about the input: AlexNet's 6x6 maps are a multiple of 6, 3, 2 and 1."""
    if n <= 1:
        return False
    for p in (2, 7):
        while n % p == 0:
            n //= p
    return n > 1


def _guess(op: str, call: ast.Call) -> tuple[tuple[int | None, ...], str] | None:
    """(the output size, the aten op of the table's fallback probe) when this adaptive pool's
    literal output size has an uncommon divisor; None otherwise."""
    leaf = op.rsplit(".", 1)[-1]
    if leaf not in adaptive_pools() or op.startswith("Tensor.") or always_falls_back(leaf):
        return None  # (a pool that falls back at every output size is XLA351's: no guess about the input)
    sizes = adaptive_output_sizes(call)
    if sizes is None or not any(n is not None and uncommon_divisor(n) for n in sizes):
        return None
    rows = op_table()["argument_dependent"].get("torch.nn.functional." + leaf, [])
    aten: list[str] = next((r.get("aten", []) for r in rows if r["status"] == "fallback"), [])
    return sizes, ", ".join(aten[:1])


def _condition(sizes: tuple[int | None, ...]) -> str:
    if len(sizes) == 2 and sizes[0] == sizes[1]:
        return f"{sizes[0]} divides the input's height and width"
    if len(sizes) == 3 and len(set(sizes)) == 1:
        return f"{sizes[0]} divides the input's depth, height and width"
    dims = {2: ("height", "width"), 3: ("depth", "height", "width")}.get(len(sizes), ("size",) * len(sizes))
    return " and ".join(f"{n} divides the input's {d}" for n, d in zip(sizes, dims) if n is not None and n > 1)


class TorchAdaptivePoolSizeMayNotDivide(ModuleRule):
    """
    ## What it does
    Flags adaptive pools (`F.adaptive_{avg,max}_pool{1,2,3}d`, every pool the op table probes at
    several output sizes, and the `nn.AdaptiveAvgPool2d`/`nn.AdaptiveMaxPool1d`/... modules of
    an `nn.Module` class whose forward runs in a torch_xla step) whose literal output size has a
    prime factor other than 2 and 7 (3, 5, 6, 9, 10 ...). torch_xla 2.9 lowers an adaptive pool
    only where the output size divides the input's size (the table's probes: 9->3 lowers, 8->3
    falls back to `aten::_adaptive_avg_pool2d` on the CPU). The input's size is not known
    statically: the rule guesses that the feature map comes from a power-of-two or 224-pixel
    input (64, 32, 16 ... or 56, 28, 14, 7), which no such output size divides. The guess is
    false for other inputs (AlexNet's `AdaptiveAvgPool2d((6, 6))` on its 6x6 maps lowers), so the
    rule is behind `--preview`. Output size 1 (global pooling) lowers and is never flagged;
    XLA351 reports what the table decides from the arguments alone (`F.adaptive_max_pool3d`, which
    fell back at every output size probed, is XLA351's, not guessed here).

    ## Why is this bad?
    Where the output size does not divide the input, the pool runs on the CPU: its input is
    copied from the device, the op runs in ATen, the result is copied back, and the graph is split
    around it, at every step (and for its backward too in training).

    ## Example
    ```python
    self.pool = nn.AdaptiveAvgPool2d((3, 3))  # on 16x16 maps: 16 is no multiple of 3
    ```

    ## Use instead
    ```python
    self.pool = nn.AdaptiveAvgPool2d((4, 4))  # 4 divides 16: lowered (or size the input to a multiple of 3)
    ```

    ## Fix safety
    No automatic fix: another output size changes the model (the layer after the pool expects
    its size), and whether the input is a multiple of the output size is not known statically.
    """

    code = "XLA352"
    fix = None
    name = "torch-adaptive-pool-size-may-not-divide"
    severity = Severity.WARNING
    preview = True  # a guess about the input's size: false for inputs the output size divides
    VALID = (
        Example("import torch\nimport torch_xla\nimport torch.nn.functional as F\n"
                "def train(model, loader, opt):\n    for x, y in loader:\n"
                "        h = F.adaptive_avg_pool2d(model(x), (4, 4)).flatten(1)\n"
                "        F.cross_entropy(h, y).backward()\n        opt.step()\n        torch_xla.sync()\n"),
        Example("import torch\nimport torch_xla\nimport torch.nn.functional as F\n"
                "def train(model, loader, opt):\n    for x, y in loader:\n"
                "        h = F.adaptive_avg_pool2d(model(x), 1).flatten(1)\n"
                "        F.cross_entropy(h, y).backward()\n        opt.step()\n        torch_xla.sync()\n"),
    )
    INVALID = (
        Example("import torch\nimport torch_xla\nimport torch.nn.functional as F\n"
                "def train(model, loader, opt):\n    for x, y in loader:\n"
                "        h = F.adaptive_avg_pool2d(model(x), (3, 3)).flatten(1)\n"
                "        F.cross_entropy(h, y).backward()\n        opt.step()\n        torch_xla.sync()\n",
                expected=(
                    (6, 13, "`F.adaptive_avg_pool2d` to (3, 3) falls back to the CPU in torch_xla 2.9.0 "
                            "(aten::_adaptive_avg_pool2d) unless 3 divides the input's height and width; the maps of "
                            "power-of-two and 224-pixel inputs have no prime factor but 2 and 7 (the input's size is "
                            "not known here: check it, or pool to a size that divides it)"),
                )),
        Example("import torch\nimport torch.nn as nn\nimport torch_xla\n\n"
                "class Head(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                "        self.pool = nn.AdaptiveMaxPool2d((5, 10))\n\n    def forward(self, x):\n"
                "        return self.pool(x).flatten(1)\n\n"
                "def evaluate(model, loader):\n    for x in loader:\n        model(x)\n        torch_xla.sync()\n",
                expected=(
                    (8, 21, "`nn.AdaptiveMaxPool2d((5, 10))` runs `F.adaptive_max_pool2d`, which falls back to the "
                            "CPU in torch_xla 2.9.0 (aten::adaptive_max_pool2d) unless 5 divides the input's height "
                            "and 10 divides the input's width; the maps of power-of-two and 224-pixel inputs have no "
                            "prime factor but 2 and 7 (the input's size is not known here: check it, or pool to a "
                            "size that divides it)"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        torch = ctx.torch
        if not torch.steps:
            return
        version = op_table()["torch_xla_version"]
        tail = ("the maps of power-of-two and 224-pixel inputs have no prime factor but 2 and 7 (the input's size "
                "is not known here: check it, or pool to a size that divides it)")
        for node in torch.nodes:
            op = torch.call_ops.get(id(node)) if isinstance(node, ast.Call) else None
            guess = _guess(op, node) if op is not None and isinstance(node, ast.Call) else None
            if guess is not None:
                sizes, aten = guess
                shown = op.replace("torch.nn.functional.", "F.") if op else ""
                ctx.report(self, node, f"`{shown}` to {_size(sizes)} falls back to the CPU in torch_xla {version} "
                                       f"({aten}) unless {_condition(sizes)}; {tail}")
        for ctor, module, functional in module_calls(ctx):
            op = op_table()["modules"][f"torch.{module}"]["function"]
            guess = _guess(op, functional)
            if guess is not None:
                sizes, aten = guess
                shown = op.replace("torch.nn.functional.", "F.")
                ctx.report(self, ctor, f"`{module}({_size(sizes)})` runs `{shown}`, which falls back to the CPU in "
                                       f"torch_xla {version} ({aten}) unless {_condition(sizes)}; {tail}")


def _size(sizes: tuple[int | None, ...]) -> str:
    return str(sizes[0]) if len(sizes) == 1 else f"({', '.join(map(str, sizes))})"
