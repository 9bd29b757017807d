"""XLA351: a torch op that torch_xla does not lower (it runs on the CPU), inside a torch_xla step."""

from __future__ import annotations

import ast

from xlacheck.analysis.torch_model import TorchFacts, op_table
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule
from xlacheck.rules.torch_data_dependent_shape import data_dependent_ops

# Ops XLA250 reports (data-dependent shapes); not reported twice.
_SHAPE_OPS = frozenset({"nonzero", "argwhere", "masked_select", "unique", "unique_consecutive", "where",
                        "repeat_interleave"})


def _literal(node: ast.expr | None) -> object:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Tuple) and all(isinstance(e, ast.Constant) for e in node.elts):
        return tuple(e.value for e in node.elts)  # type: ignore[attr-defined]
    return _UNKNOWN


_UNKNOWN = object()


def _arg(call: ast.Call, position: int, name: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return call.args[position] if len(call.args) > position else None


def argument_dependent_verdict(op: str, call: ast.Call, method: bool) -> str | None:
    """'fallback' / 'lowered' for an argument-dependent op whose deciding arguments are literal
    in the call (read from the table's probes); None when the arguments are not known."""
    probes = op_table()["argument_dependent"]
    leaf = op.rsplit(".", 1)[-1]
    shift = 1 if method else 0  # a method call has no input argument
    if leaf == "multinomial" and "torch.multinomial" in probes:
        n = _literal(_arg(call, 1 - shift, "num_samples"))
        repl = _literal(_arg(call, 2 - shift, "replacement"))
        if not isinstance(n, int) or repl is _UNKNOWN and _arg(call, 2 - shift, "replacement") is not None:
            return None
        rows = probes["torch.multinomial"]
        for row in rows:
            w = row["when"]
            if w.get("num_samples") == min(n, 2) and bool(w.get("replacement", False)) == bool(repl if repl is not _UNKNOWN else False):
                return row["status"]
        return None
    if leaf == "interpolate" and "torch.nn.functional.interpolate" in probes:
        return _status_for_mode(probes["torch.nn.functional.interpolate"], _arg(call, 4, "mode"), "nearest")
    if leaf in ("adaptive_avg_pool2d", "adaptive_max_pool2d", "adaptive_avg_pool1d"):
        size = _literal(_arg(call, 1, "output_size"))
        if size in (1, (1, 1), (1,)):
            return "lowered"
        return None  # whether it divides the input size is not known statically
    if leaf == "embedding_bag" and "torch.nn.functional.embedding_bag" in probes:
        return _status_for_mode(probes["torch.nn.functional.embedding_bag"], _arg(call, 5, "mode"), "mean")
    return None


def _status_for_mode(rows: list[dict], mode_arg: ast.expr | None, default: str) -> str | None:
    """The probed status of the literal ``mode=`` (``default`` when absent); None when unknown."""
    mode = _literal(mode_arg)
    if mode is _UNKNOWN:
        return None
    mode = mode or default
    for row in rows:
        if row["when"].get("mode") == mode:
            return row["status"]
    return None


def fallback_verdict(op: str, call: ast.Call, torch: TorchFacts) -> tuple[str, str] | None:
    """(op, aten ops) when the table says this call falls back; None when it lowers or is unknown."""
    table = op_table()
    leaf = op.rsplit(".", 1)[-1]
    method = op.startswith("Tensor.")
    if leaf in _SHAPE_OPS:
        return None
    if leaf in ("multinomial", "interpolate", "adaptive_avg_pool2d", "adaptive_max_pool2d", "adaptive_avg_pool1d",
                "embedding_bag", "upsample"):
        verdict = argument_dependent_verdict(op, call, method)
        if verdict == "fallback":
            return op, "argument-dependent: falls back with these arguments"
        return None
    entry = table["ops"].get(op)
    if entry is None and method:
        entry = table["ops"].get("torch." + leaf)
    if entry is None or entry["status"] != "fallback" or op in data_dependent_ops():
        return None
    return op, ", ".join(entry.get("aten", []))


class TorchOpWithoutLowering(ModuleRule):
    """
    ## What it does
    Flags calls, inside a torch_xla step, of torch ops that torch_xla 2.9 does not lower to XLA,
    as measured by `tools/generate_torch_table.py` (an `aten::` counter of
    `torch_xla.debug.metrics` moved when the op ran on an XLA device): `torch.median`,
    `torch.histc`, `torch.bucketize`, `torch.isin`, `torch.linalg.det`, `bincount`, `ctc_loss`,
    `grid_sample` and others listed in docs/torch-op-table.md. Argument-dependent ops are
    flagged only when the deciding argument is a literal that the table says falls back:
    `torch.multinomial(p, 2)` (`(p, 1)` lowers), `F.interpolate(..., mode="bicubic")`,
    `F.embedding_bag(..., mode="mean")`. Method calls count only on proven torch tensors.

    ## Why is this bad?
    An op without a lowering runs on the CPU: its inputs are copied from the device, the op runs
    in ATen, the result is copied back, and the graph is split around it. On a TPU this costs a
    round trip per call and usually a recompilation of the surrounding graph.

    ## Example
    ```python
    nxt = torch.multinomial(probs, 2)[:, 1:]
    ```

    ## Use instead
    ```python
    # one sample per call lowers; or sample with the Gumbel-max trick
    nxt = torch.argmax(torch.log(probs) - torch.log(-torch.log(torch.rand_like(probs))), -1, keepdim=True)
    ```

    ## Fix safety
    No automatic fix: the lowered replacement (a different algorithm, a one-sample call, a
    masked computation) depends on the op.
    """

    code = "XLA351"
    fix = None
    name = "torch-op-without-lowering"
    severity = Severity.WARNING
    VALID = (
        Example("import torch\nimport torch_xla\ndef sample(model, ids, steps):\n    for _ in range(steps):\n"
                "        probs = torch.softmax(model(ids)[:, -1], -1)\n        nxt = torch.multinomial(probs, 1)\n"
                "        ids = torch.cat([ids, nxt], 1)\n        torch_xla.sync()\n    return ids\n"),
        Example("import torch\ndef stats(x):\n    return torch.median(x)\n"),
    )
    INVALID = (
        Example("import torch\nimport torch_xla\ndef sample(model, ids, steps):\n    for _ in range(steps):\n"
                "        probs = torch.softmax(model(ids)[:, -1], -1)\n        nxt = torch.multinomial(probs, 2)[:, 1:]\n"
                "        ids = torch.cat([ids, nxt], 1)\n        torch_xla.sync()\n    return ids\n",
                expected=(
                    (6, 15, '`torch.multinomial` has no XLA lowering in torch_xla 2.9.0 (argument-dependent: falls '
                            'back with these arguments): it runs on the CPU, with a transfer each way, inside the '
                            'step'),
                )),
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    for x, y in loader:\n"
                "        h = torch.relu(x)\n        loss = (h - torch.median(h)).abs().mean()\n        loss.backward()\n"
                "        opt.step()\n        torch_xla.sync()\n",
                expected=(
                    (6, 21, '`torch.median` has no XLA lowering in torch_xla 2.9.0 (aten::median): it runs on the '
                            'CPU, with a transfer each way, inside the step'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        torch = ctx.torch
        if not torch.steps:
            return
        for node in torch.nodes:
            if not isinstance(node, ast.Call):
                continue
            op = torch.call_ops.get(id(node))
            if op is None:
                continue
            verdict = fallback_verdict(op, node, torch)
            if verdict is None:
                continue
            name, aten = verdict
            shown = name.replace("Tensor.", "tensor.")
            ctx.report(self, node, f"`{shown}` has no XLA lowering in torch_xla {op_table()['torch_xla_version']} "
                                   f"({aten}): it runs on the CPU, with a transfer each way, inside the step")
