"""XLA550: a training loop on an XLA device that never syncs."""

from __future__ import annotations

import ast

from xlacheck.analysis.torch_model import SYNC_CALLS
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_COMPILE = frozenset({"torch_xla.compile", "torch_xla.step", "torch.compile"})


class TorchLoopWithoutSync(ModuleRule):
    """
    ## What it does
    Flags a training loop (a `.backward()` and an optimizer step) in a function that creates
    the XLA device (`torch_xla.device()`, `xm.xla_device()`) when nothing in the loop syncs:
    no `torch_xla.sync()`, `xm.mark_step()` or `xm.optimizer_step()`, no `MpDeviceLoader`,
    no `with torch_xla.step()`, and no same-file function called in the loop that does one.

    ## Why is this bad?
    torch_xla records operations lazily. Without a sync at each step the pending graph grows
    with every iteration: each step compiles a larger graph (or the graph is cut at random
    places by value reads), memory grows, and training crawls (pytorch/xla #1178).

    ## Example
    ```python
    device = torch_xla.device()
    for x, y in loader:
        loss = F.cross_entropy(model(x.to(device)), y.to(device))
        loss.backward()
        opt.step()
    ```

    ## Use instead
    ```python
    for x, y in pl.MpDeviceLoader(loader, device):  # syncs at every step
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        xm.optimizer_step(opt)
    ```

    ## Fix safety
    No automatic fix: where the step ends is the user's choice (gradient accumulation).
    """

    code = "XLA550"
    checks_test_files = False  # set-up rule: a test's set-up is a toy on purpose
    fix = None
    name = "torch-loop-without-sync"
    severity = Severity.WARNING
    VALID = (
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    device = torch_xla.device()\n"
                "    for x, y in loader:\n        loss = model(x.to(device)).sum()\n        loss.backward()\n"
                "        opt.step()\n        torch_xla.sync()\n"),
    )
    INVALID = (
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    device = torch_xla.device()\n"
                "    for x, y in loader:\n        loss = model(x.to(device)).sum()\n        loss.backward()\n"
                "        opt.step()\n",
                expected=(
                    (5, 5, 'this training loop runs on the XLA device but never syncs (no '
                           'torch_xla.sync()/xm.mark_step()/xm.optimizer_step(), no MpDeviceLoader): the lazy graph '
                           'grows and recompiles every step'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        torch = ctx.torch
        if not torch.xla_file:
            return
        resolve = ctx.facts.aliases.resolve
        syncing = self._syncing_functions(ctx)
        for loop, _owner, why in torch.loops:
            if why != "a training loop on the XLA device":
                continue
            synced = False
            for n in ast.walk(loop):
                if isinstance(n, ast.Call):
                    name = resolve(n.func)
                    if name in SYNC_CALLS or name in _COMPILE or (isinstance(n.func, ast.Name) and n.func.id in syncing) \
                            or isinstance(n.func, ast.Attribute) and n.func.attr in syncing:
                        synced = True
                        break
                    if isinstance(n.func, ast.Attribute) and n.func.attr in ("prepare", "backward") and isinstance(
                            n.func.value, ast.Name) and "accelerator" in n.func.value.id:
                        synced = True  # accelerate wraps loaders in MpDeviceLoader on XLA
                        break
            if not synced:
                ctx.report(self, loop, "this training loop runs on the XLA device but never syncs "
                                       "(no torch_xla.sync()/xm.mark_step()/xm.optimizer_step(), no MpDeviceLoader): "
                                       "the lazy graph grows and recompiles every step")

    @staticmethod
    def _syncing_functions(ctx: ModuleContext) -> set[str]:
        resolve = ctx.facts.aliases.resolve
        out: set[str] = set()
        for f in ctx.facts.functions:
            if isinstance(f.node, ast.Lambda):
                continue
            if any(isinstance(n, ast.Call) and resolve(n.func) in SYNC_CALLS | _COMPILE for n in ast.walk(f.node)):
                out.add(f.name)
            for dec in f.node.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                if resolve(target) in _COMPILE:
                    out.add(f.name)
        return out
