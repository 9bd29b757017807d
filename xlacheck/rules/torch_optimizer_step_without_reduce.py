"""XLA552: ``optimizer.step()`` in a multi-process torch_xla run that never reduces the gradients."""

from __future__ import annotations

import ast

from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_SPAWN = frozenset({"torch_xla.distributed.xla_multiprocessing.spawn", "torch_xla.launch"})
# Calls that reduce gradients, or wrappers/sharding schemes that do it (or make it unnecessary).
_REDUCERS = frozenset({"torch_xla.core.xla_model.optimizer_step", "torch_xla.core.xla_model.reduce_gradients",
                       "torch_xla.core.xla_model.all_reduce"})
_WRAPPER_WORDS = ("DistributedDataParallel", "FullyShardedDataParallel", "FSDP", "DDP", "mark_sharding",
                  "ZeroRedundancyOptimizer", "Accelerator", "SpmdFullyShardedDataParallel")


class TorchOptimizerStepWithoutReduce(ModuleRule):
    """
    ## What it does
    Flags `optimizer.step()` inside a torch_xla training loop of a file that starts one process
    per device (`xmp.spawn(fn, ...)`, `torch_xla.launch(fn)`) when nothing in the file reduces the
    gradients across processes: no `xm.optimizer_step`, `xm.reduce_gradients` or `xm.all_reduce`,
    and no wrapper that does it (DDP, FSDP, SPMD sharding, ZeRO, accelerate's `Accelerator`). An
    optimizer the file gets from another library's function (NxD's `initialize_parallel_optimizer`)
    may reduce in its own `step()`: it is not flagged.

    ## Why is this bad?
    Each process then trains its own copy of the model on its shard of the data: the replicas
    drift apart and the run silently trains N different models. `xm.optimizer_step(optimizer)`
    all-reduces the gradients before the update.

    ## Example
    ```python
    def _mp_fn(index):
        ...
        for x, y in pl.MpDeviceLoader(loader, device):
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()

    xmp.spawn(_mp_fn)
    ```

    ## Use instead
    ```python
            xm.optimizer_step(optimizer)
    ```

    ## Fix safety
    No automatic fix: a project may reduce the gradients in code this file does not show.
    """

    code = "XLA552"
    checks_test_files = False  # set-up rule: a test's set-up is a toy on purpose
    fix = None
    name = "torch-optimizer-step-without-reduce"
    severity = Severity.WRONG_RESULT
    VALID = (
        Example("import torch_xla\nimport torch_xla.core.xla_model as xm\n"
                "import torch_xla.distributed.parallel_loader as pl\n"
                "def _mp_fn(index, model, loader, optimizer, device):\n"
                "    for x, y in pl.MpDeviceLoader(loader, device):\n        loss = model(x).sum()\n"
                "        loss.backward()\n        xm.optimizer_step(optimizer)\n"
                "if __name__ == '__main__':\n    torch_xla.launch(_mp_fn)\n"),
        # an optimizer another library builds (NxD's ZeRO-1 wrapper) reduces the gradients in its own step()
        Example("import torch\nimport torch_xla\nimport neuronx_distributed as nxd\n"
                "import torch_xla.distributed.parallel_loader as pl\n"
                "def _mp_fn(index, model, loader, device):\n"
                "    optimizer = nxd.initialize_parallel_optimizer(model.parameters(), torch.optim.AdamW)\n"
                "    for x, y in pl.MpDeviceLoader(loader, device):\n        loss = model(x).sum()\n"
                "        loss.backward()\n        optimizer.step()\n"
                "if __name__ == '__main__':\n    torch_xla.launch(_mp_fn)\n"),
    )
    INVALID = (
        Example("import torch_xla\nimport torch_xla.core.xla_model as xm\n"
                "import torch_xla.distributed.parallel_loader as pl\n"
                "def _mp_fn(index, model, loader, optimizer, device):\n"
                "    for x, y in pl.MpDeviceLoader(loader, device):\n        loss = model(x).sum()\n"
                "        loss.backward()\n        optimizer.step()\n"
                "if __name__ == '__main__':\n    torch_xla.launch(_mp_fn)\n",
                expected=(
                    (8, 9, 'optimizer.step() in a multi-process torch_xla run that never reduces the gradients: each '
                           'process updates its own replica; use xm.optimizer_step(optimizer)'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        torch = ctx.torch
        if not torch.xla_file or not torch.loops:
            return
        resolve = ctx.facts.aliases.resolve
        calls = [n for n in ast.walk(ctx.tree) if isinstance(n, ast.Call)]
        if not any(resolve(c.func) in _SPAWN for c in calls):
            return
        if any(resolve(c.func) in _REDUCERS for c in calls):
            return
        for n in ast.walk(ctx.tree):
            text = n.id if isinstance(n, ast.Name) else n.attr if isinstance(n, ast.Attribute) else None
            if text is not None and any(w in text for w in _WRAPPER_WORDS):
                return
        # an optimizer the file builds with a call outside torch.optim (``nxd.initialize_parallel_optimizer``,
        # a library's wrapper) may reduce the gradients in its own step(): unknown is not a plain optimizer
        built_elsewhere = {t.id for n in ast.walk(ctx.tree)
                           if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                           and "." in (name := resolve(n.value.func) or "") and name.split(".")[0] != "torch"
                           for t in n.targets if isinstance(t, ast.Name)}
        for loop, _owner, _why in torch.loops:
            for c in ast.walk(loop):
                if (isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "step"
                        and isinstance(c.func.value, ast.Name) and "opt" in c.func.value.id.lower() and not c.args
                        and c.func.value.id not in built_elsewhere):
                    ctx.report(self, c, "optimizer.step() in a multi-process torch_xla run that never reduces the "
                                        "gradients: each process updates its own replica; use xm.optimizer_step(optimizer)")
