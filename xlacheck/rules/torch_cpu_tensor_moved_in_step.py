"""XLA553: a tensor built on the CPU and moved to the XLA device inside a torch_xla step."""

from __future__ import annotations

import ast

from xlacheck.analysis.torch_model import (
    DEVICE,
    FACTORIES_DETERMINISTIC,
    FACTORIES_RANDOM,
    TENSOR,
    XLA_DEVICE_CALLS,
    TorchFacts,
    factory_takes_device,
)
from xlacheck.diagnostics import Applicability, Edit, Fix, Location, Severity
from xlacheck.rules.base import INLINE, Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Factories that take ``device=`` (one table for XLA553 and XLA554: ``torch_model``).
_DETERMINISTIC = FACTORIES_DETERMINISTIC
_RANDOM = FACTORIES_RANDOM
# Host data: ``torch.tensor([...])``; only literal data is flagged (built once, it never changes).
_DATA = frozenset({"tensor", "as_tensor"})

_MESSAGE = ("`torch.{op}(...)` builds the tensor on the CPU and `.to(...)` copies it to the XLA device at every "
            "step (a host-to-device transfer each step); ")


def _literal(node: ast.expr) -> bool:
    """Numbers, booleans and nested lists/tuples of them (``-1`` included)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float, bool, complex))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _literal(node.operand)
    if isinstance(node, (ast.List, ast.Tuple)):
        return all(_literal(e) for e in node.elts)
    return False


def _device_arg(call: ast.Call, torch: TorchFacts, ctx: ModuleContext) -> ast.expr | None:
    """The device of ``x.to(device)`` / ``x.to(device=...)``, when it is one: an XLA device object,
    ``torch_xla.device()``, ``t.device`` of a tensor, or a name that says it holds a device."""
    if len(call.args) == 1 and not call.keywords:
        dev = call.args[0]
    elif not call.args and len(call.keywords) == 1 and call.keywords[0].arg == "device":
        dev = call.keywords[0].value
    else:
        return None
    if torch.of(dev) & DEVICE or isinstance(dev, ast.Call) and ctx.facts.aliases.resolve(dev.func) in XLA_DEVICE_CALLS:
        return dev
    if isinstance(dev, ast.Attribute) and dev.attr == "device" and (torch.of(dev.value) & TENSOR or
                                                                    isinstance(dev.value, ast.Name)):
        return dev
    if isinstance(dev, ast.Name) and dev.id in ("device", "dev", "xla_device", "xla_dev", "tpu_device"):
        return dev
    if isinstance(dev, ast.Attribute) and dev.attr in ("device", "xla_device") and isinstance(dev.value, ast.Name):
        return dev  # self.device, accelerator.device, args.device
    return None


class TorchCpuTensorMovedInStep(ModuleRule):
    """
    ## What it does
    Flags, inside a torch_xla step, a tensor factory called without `device=` whose result is
    moved to the device right away: `torch.zeros(n).to(device)`, `torch.arange(n).to(x.device)`,
    `torch.ones(b, d).to(xm.xla_device())`, `torch.tensor([1.0, 2.0]).to(device)` (literal data).

    ## Why is this bad?
    torch_xla builds a factory called with `device=` as an op of the traced graph (an iota, a
    broadcast constant): no data leaves the host. Built on the CPU, the tensor is real host
    memory, and `.to(device)` uploads it at every step, a host-to-device transfer that the
    step waits for. Measured with torch_xla 2.9 on PJRT CPU (`TransferToDeviceTime` per steady
    step): `torch.ones(4, 8).to(dev)` in the loop adds one transfer every step;
    `torch.ones(4, 8, device=dev)` adds none, with equal results.

    ## Example
    ```python
    for x, y in loader:
        pos = torch.arange(x.shape[1]).to(device)
        bias = torch.tensor([0.5, 2.0]).to(device)
    ```

    ## Use instead
    ```python
    weights = torch.tensor([0.5, 2.0], device=device)  # once, before the loop
    for x, y in loader:
        pos = torch.arange(x.shape[1], device=device)
    ```

    ## Fix safety
    For deterministic factories (`zeros`, `ones`, `full`, `empty`, `arange`, `eye`,
    `linspace`, `logspace`) the fix passes `device=` and drops `.to(...)`: the same values,
    dtype and device (safe; proven by running both versions on torch_xla in the tests). For
    random factories (`rand`, `randn`, `randint`, ...) the same fix is unsafe: the device draws
    from its own generator, so the values change. Literal `torch.tensor([...])` data has no
    automatic fix: it belongs before the loop (or in a module buffer).
    """

    code = "XLA553"
    preview = True
    checks_test_files = False  # set-up rule: a test's set-up is a toy on purpose
    fix = INLINE  # check_module builds the fix from the call it flags
    name = "torch-cpu-tensor-moved-in-step"
    severity = Severity.WARNING
    VALID = (
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    device = torch_xla.device()\n"
                "    for x, y in loader:\n        pos = torch.arange(x.shape[1], device=device)\n"
                "        loss = model(x.to(device), pos).sum()\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n"),
        Example("import torch\ndef train(model, loader, opt, device):\n    for x, y in loader:\n"
                "        pos = torch.arange(x.shape[1]).to(device)\n        loss = model(x, pos).sum()\n"
                "        loss.backward()\n        opt.step()\n"),
        # noise built on the CPU by a helper that only the set-up of a declared @torch.no_grad() pipeline
        # calls, once per call before its denoising loop: not a move in every step
        Example("import torch\ndef initial_noise(shape, device):\n    return torch.randn(shape).to(device)\n"
                "class Pipeline:\n    @torch.no_grad()\n    def __call__(self, shape, steps):\n"
                "        latents = initial_noise(shape, self.device)\n"
                "        for t in self.scheduler.timesteps[:steps]:\n            latents = self.unet(latents, t)\n"
                "        return latents\n", torch_xla=True),
    )
    INVALID = (
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    device = torch_xla.device()\n"
                "    for x, y in loader:\n        pos = torch.arange(x.shape[1]).to(device)\n"
                "        loss = model(x.to(device), pos).sum()\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n",
                fixed="import torch\nimport torch_xla\ndef train(model, loader, opt):\n"
                      "    device = torch_xla.device()\n    for x, y in loader:\n        pos = torch.arange(x.shape[1], device=device)\n"
                      "        loss = model(x.to(device), pos).sum()\n        loss.backward()\n        opt.step()\n"
                      "        torch_xla.sync()\n",
                expected=(
                    (6, 15, '`torch.arange(...)` builds the tensor on the CPU and `.to(...)` copies it to the XLA '
                            'device at every step (a host-to-device transfer each step); pass `device=` to the '
                            'factory instead: the graph builds it on the device'),
                )),
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    device = torch_xla.device()\n"
                "    for x, y in loader:\n        w = torch.tensor([0.5, 2.0]).to(device)\n"
                "        loss = (model(x.to(device)) * w).sum()\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n",
                expected=(
                    (6, 13, '`torch.tensor(...)` builds the tensor on the CPU and `.to(...)` copies it to the XLA '
                            'device at every step (a host-to-device transfer each step); its data never changes: '
                            'create it once on the device before the step (or as a module buffer)'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        torch = ctx.torch
        if not torch.steps:
            return
        resolve = ctx.facts.aliases.resolve
        for node in torch.nodes:
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "to"
                    and isinstance(node.func.value, ast.Call)):
                continue
            inner = node.func.value
            name = resolve(inner.func) or ""
            if not name.startswith("torch.") or name.count(".") != 1:
                continue
            op = name.split(".", 1)[1]
            if op not in _DETERMINISTIC | _RANDOM | _DATA or any(kw.arg in ("device", None) for kw in inner.keywords):
                continue
            if any(isinstance(a, ast.Starred) for a in inner.args):
                continue
            if id(torch.stmt_of.get(id(node))) in torch.setup:
                continue  # set-up before a declared no_grad function's work loop: once per call, not per step
            if op not in _DATA and not factory_takes_device(op, inner):
                continue  # (``torch.normal(mean, std)``: no ``device=`` to pass)
            dev = _device_arg(node, torch, ctx)
            if dev is None:
                continue
            if op in _DATA:
                if not inner.args or not _literal(inner.args[0]):
                    continue  # host data (a list built in the step): it has to travel anyway
                ctx.report(self, node, _MESSAGE.format(op=op) + "its data never changes: create it once on the "
                                                               "device before the step (or as a module buffer)")
                continue
            ctx.report(self, node, _MESSAGE.format(op=op) + "pass `device=` to the factory instead: the graph builds "
                                                           "it on the device", fix=_fix(node, inner, dev, op))


def _fix(outer: ast.Call, inner: ast.Call, dev: ast.expr, op: str) -> Fix | None:
    """``torch.f(a, b).to(dev)`` -> ``torch.f(a, b, device=dev)``: one edit inserts the keyword before
    the factory's closing parenthesis, one removes ``.to(dev)``."""
    if inner.end_lineno is None or inner.end_col_offset is None or outer.end_lineno is None \
            or outer.end_col_offset is None:
        return None
    close = Location(inner.end_lineno, inner.end_col_offset - 1)
    sep = ", " if inner.args or inner.keywords else ""
    insert = Edit(close, close, f"{sep}device={ast.unparse(dev)}")
    drop = Edit(Location(inner.end_lineno, inner.end_col_offset), Location(outer.end_lineno, outer.end_col_offset), "")
    safety = Applicability.UNSAFE if op in _RANDOM else Applicability.SAFE
    what = "draws from the device's generator: other values" if op in _RANDOM else "same values"
    return Fix(f"Build it on the device: torch.{op}(..., device=...) ({what})", (insert, drop), safety)
