"""XLA352 (preview): an adaptive pool whose output size may not divide its input's size, inside a torch_xla step."""

from __future__ import annotations

import ast

from xlacheck.analysis.torch_model import op_table, pool_table
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule
from xlacheck.rules.torch_op_without_lowering import (
    adaptive_output_sizes,
    adaptive_pools,
    always_falls_back,
    measured_pool,
    module_calls,
    reshaped_sides,
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


def usual_sides(table: dict) -> list[int]:
    """The input sides the pool table measured that feature maps usually have: powers of two and
    7 * 2^k (the maps of 224-pixel inputs)."""
    return [n for n in table.get("inputs", []) if n > 1 and not uncommon_divisor(n)]


def falls_back_on_usual_sides(leaf: str, m: int) -> bool | None:
    """Whether the pool table measured ``leaf`` to output side ``m`` falling back for every usual
    input side at least ``m`` it probed; None when the table has no row for that pool or size (a
    3-d pool, a size it did not probe)."""
    table = pool_table()
    rows = table.get("rows", {})
    seen = [rows.get(f"{leaf}:{n}->{m}", {}).get("status") for n in usual_sides(table) if n >= m]
    if not seen or any(s is None for s in seen):
        return None
    return all(s == "fallback" for s in seen)


def _guess(op: str, call: ast.Call) -> tuple[tuple[int | None, ...], str] | None:
    """(the output size, the aten op of the table's fallback probe) when the pool table measured this
    adaptive pool's literal output size falling back on every usual input side; None otherwise (and
    for pools the table did not measure: the 3-d ones)."""
    leaf = op.rsplit(".", 1)[-1]
    if leaf not in adaptive_pools() or op.startswith("Tensor.") or always_falls_back(leaf):
        return None  # (a pool that falls back at every output size is XLA351's: no guess about the input)
    sizes = adaptive_output_sizes(call)
    if sizes is None or not any(n is not None and n > 1 and falls_back_on_usual_sides(leaf, n) for n in sizes):
        return None
    if (sides := reshaped_sides(call, leaf)) is not None and measured_pool(leaf, sides, sizes) is not None:
        return None  # the input's size is known here: XLA351 reports what the pool table measured for it
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
    Flags adaptive pools (`F.adaptive_{avg,max}_pool{1,2}d` and the `nn.AdaptiveAvgPool2d`/
    `nn.AdaptiveMaxPool1d`/... modules of an `nn.Module` class whose forward runs in a torch_xla
    step) to a literal output size that `tools/generate_torch_pool_table.py` measured falling back
    for every usual input side. The pool table (xlacheck/data/torch_xla_pools.json) runs each pool
    forward and backward on the XLA device for input sides 1-16, 24, 28, 32, 56, 64 and output
    sides 1-10, 12, 14, 16 (756 probes): torch_xla 2.9 lowered exactly the pairs where the output
    side divides the input side, and fell back to `aten::_adaptive_avg_pool2d` /
    `aten::adaptive_max_pool2d` on the CPU for all others. The input's size is not known
    statically: the rule reports an output size that falls back on every power-of-two and 7 * 2^k
    side the table measured (2 ... 64, and 7, 14, 28, 56: the maps of power-of-two and 224-pixel
    inputs), which is every size with a prime factor other than 2 and 7 (3, 5, 6, 9, 10 ...). The
    3-d pools, which the table does not grid, are not guessed. The guess is
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
                            "(aten::_adaptive_avg_pool2d) unless 3 divides the input's height and width; "
                            "torch_xla fell back on every power-of-two and 7 * 2^k side from 2 to 64 that "
                            "xlacheck/data/torch_xla_pools.json measured (the input's size is "
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
                            "and 10 divides the input's width; torch_xla fell back on every power-of-two and 7 * 2^k "
                            "side from 2 to 64 that xlacheck/data/torch_xla_pools.json measured (the input's size is "
                            "not known here: check it, or pool to a size that divides it)"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        torch = ctx.torch
        if not torch.steps:
            return
        version = op_table()["torch_xla_version"]
        tail = ("torch_xla fell back on every power-of-two and 7 * 2^k side from 2 to 64 that "
                "xlacheck/data/torch_xla_pools.json measured (the input's size is not known here: check it, or pool "
                "to a size that divides it)")
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
