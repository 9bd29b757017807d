"""XLA555: gradient accumulation whose optimizer update runs every n-th call of a step that syncs per call."""

from __future__ import annotations

import ast
from collections.abc import Callable

from xlacheck.analysis import walk
from xlacheck.analysis.scopes import own_nodes
from xlacheck.analysis.torch_model import (
    OPTIMIZER,
    SYNC_CALLS,
    TENSOR,
    Step,
    TorchFacts,
    _every_n_test,
    recompile_table,
    recompiles,
)
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_PROBE = "optimizer_step_every_n_calls"
_OPTIMIZER_STEP = "torch_xla.core.xla_model.optimizer_step"
# the message after the update call's text, as the INVALID examples pin it
_MSG = ("runs every n-th call while backward runs on every call and the graph is cut after each: the "
        "accumulating calls, the update call and the first call after zero_grad are different graphs, each "
        "compiled (torch_xla_recompile.json `optimizer_step_every_n_calls`: 5 compilations in 12 calls, the "
        "last at the second update); pass the n micro-batches to one step (one graph per update)")


def _optimizer_like(e: ast.expr, torch: TorchFacts) -> bool:
    """A proven optimizer, or a name/attribute the code calls an optimizer (``self.optimizer``, ``opt``)."""
    if torch.of(e) & OPTIMIZER:
        return True
    name = e.id if isinstance(e, ast.Name) else e.attr if isinstance(e, ast.Attribute) else ""
    return name.lower() in ("opt", "optim", "optimizer") or name.lower().endswith("optimizer")


def _update_call(c: ast.Call, torch: TorchFacts, resolve: Callable[[ast.expr], str | None]) -> bool:
    """``optimizer.step()``, ``scaler.step(optimizer)`` or ``xm.optimizer_step(optimizer)``."""
    if resolve(c.func) == _OPTIMIZER_STEP:
        return True
    if not (isinstance(c.func, ast.Attribute) and c.func.attr == "step"):
        return False
    return _optimizer_like(c.func.value, torch) or bool(c.args) and _optimizer_like(c.args[0], torch)


def _backward_call(c: ast.Call) -> bool:
    """``loss.backward()``, ``accelerator.backward(loss)``, ``scaler.scale(loss).backward()``."""
    return isinstance(c.func, ast.Attribute) and c.func.attr == "backward"


def _period_set_apart_on_xla(test: ast.expr, step: Step) -> bool:
    """The period of ``step % n == 0`` is a name the code sets under a test of the XLA/TPU
    distributed type (accelerate's examples: ``gradient_accumulation_steps = 1``, raised only
    ``if ... distributed_type != DistributedType.XLA``): on XLA the update runs every call."""
    periods = {n.id for b in walk(test) if isinstance(b, ast.BinOp) and isinstance(b.op, ast.Mod)
               for n in walk(b.right) if isinstance(n, ast.Name)}
    scope = step.owner if step.owner is not None else step.node
    for n in walk(scope):
        if not (isinstance(n, ast.If) and any(t in ast.unparse(n.test)
                                              for t in ("DistributedType.XLA", "DistributedType.TPU"))):
            continue
        for a in (a for s in n.body for a in walk(s)):
            targets = a.targets if isinstance(a, ast.Assign) else [a.target] if isinstance(a, ast.AugAssign) else []
            if any(isinstance(t, ast.Name) and t.id in periods for t in targets):
                return True
    return False


def _iterates_prepared_loader(step: Step, backwards: list[ast.Call]) -> bool:
    """The step is a loop over a loader that ``accelerator.prepare(...)`` returned, and it calls
    ``accelerator.backward(...)`` on the same object: on XLA, accelerate wraps a prepared loader in
    its ``MpDeviceLoaderWrapper`` (an ``MpDeviceLoader``), which syncs at every batch."""
    accelerators = {ast.unparse(c.func.value) for c in backwards  # type: ignore[attr-defined]
                    if c.args and "accelerator" in ast.unparse(c.func.value).lower()}  # type: ignore[attr-defined]
    loop = step.loop
    if not accelerators or not isinstance(loop, (ast.For, ast.AsyncFor)):
        return False
    it = loop.iter
    while isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in ("enumerate", "iter") \
            and it.args:
        it = it.args[0]
    if not isinstance(it, (ast.Name, ast.Attribute)):
        return False
    scope = step.owner if step.owner is not None else loop
    assigns = [n for n in walk(scope) if isinstance(n, ast.Assign)]
    prepared: set[str] = set()
    for n in assigns:
        if isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute) \
                and n.value.func.attr == "prepare" and ast.unparse(n.value.func.value) in accelerators:
            prepared.update(ast.unparse(e) for t in n.targets
                            for e in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]))
    grown = True
    while grown:  # `active = train_dataloader`, `active = accelerator.skip_first_batches(train_dataloader, n)`
        grown = False
        for n in assigns:
            v = n.value
            source = v if isinstance(v, (ast.Name, ast.Attribute)) else v.args[0] if (
                isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.args
                and ast.unparse(v.func.value) in accelerators) else None
            if source is not None and ast.unparse(source) in prepared:
                for t in n.targets:
                    if isinstance(t, (ast.Name, ast.Attribute)) and ast.unparse(t) not in prepared:
                        prepared.add(ast.unparse(t))
                        grown = True
    return ast.unparse(it) in prepared


class TorchOptimizerStepEveryNCalls(ModuleRule):
    """
    ## What it does
    Flags gradient accumulation written as `if step % n == 0: optimizer.step()` in torch_xla
    step code whose backward runs on every call, when the graph is cut after every micro-batch:
    the step is a function (its caller syncs once per call, as a training loop over an
    `MpDeviceLoader` does), or a loop that iterates an `MpDeviceLoader` (accelerate's prepared
    loaders are one on XLA: a loop over a loader from `accelerator.prepare(...)`, or from
    `accelerator.skip_first_batches(...)` of one, that calls `accelerator.backward(loss)`) or
    syncs (`torch_xla.sync()`, `xm.mark_step()`) outside the every-n-th branch. A loop that
    syncs only inside that branch traces the whole window as one graph and is not flagged, and
    neither is a period the code sets under a test of the XLA distributed type (accelerate's
    examples raise `gradient_accumulation_steps` above 1 only
    `if ... distributed_type != DistributedType.XLA`). Behind `--preview`: the period is often a
    setting that is 1 on XLA, which a linter cannot see.

    ## Why is this bad?
    With a sync per micro-batch, the calls that only accumulate and the call that also runs the
    optimizer update are different graphs, and the first micro-batch after `zero_grad()`
    (gradients `None` again) is another: torch_xla compiles each of them, the last one at the
    second update (a stateful optimizer's first update differs from the later ones). Measured on
    torch_xla 2.9 (`torch_xla_recompile.json`, probe `optimizer_step_every_n_calls`, AdamW,
    an update at calls 4, 8 and 12): 5 compilations in 12 calls, new ones at calls 4, 5 and 8
    after the two of the first calls. Each is a full compilation of the training step: minutes
    for a large model on a TPU.

    ## Example
    ```python
    for step, (x, y) in enumerate(pl.MpDeviceLoader(loader, device)):
        loss = loss_fn(model(x), y) / accum
        loss.backward()
        if (step + 1) % accum == 0:
            optimizer.step()
            optimizer.zero_grad()
    ```

    ## Use instead
    ```python
    def train_step(micro_batches):  # always `accum` micro-batches: one graph per update
        for x, y in micro_batches:
            (loss_fn(model(x), y) / accum).backward()
        optimizer.step()
        optimizer.zero_grad()
    ```

    ## Fix safety
    No automatic fix: regrouping the micro-batches changes the loop and the loader.
    """

    code = "XLA555"
    checks_test_files = False  # set-up rule: a test's set-up is a toy on purpose
    fix = None
    # on real code (accelerate's examples) its 9 first findings were all false: those examples set the
    # period to 1 on XLA; the rule now skips that, and found nothing else to judge in 8 corpora
    preview = True
    name = "torch-optimizer-step-every-n-calls"
    severity = Severity.WARNING
    VALID = (
        # the update runs on every call: one graph
        Example("import torch_xla\nimport torch_xla.core.xla_model as xm\n"
                "def train(model, opt, loader, device):\n"
                "    for x, y in loader:\n        loss = model(x.to(device), y.to(device))\n        loss.backward()\n"
                "        opt.step()\n        opt.zero_grad()\n        torch_xla.sync()\n"),
        # a plain loader and a sync only in the update branch: the window is one graph
        Example("import torch_xla.core.xla_model as xm\n"
                "def train(model, opt, loader, device, accum):\n"
                "    for i, (x, y) in enumerate(loader):\n        loss = model(x.to(device), y.to(device)) / accum\n"
                "        loss.backward()\n        if (i + 1) % accum == 0:\n            opt.step()\n"
                "            xm.mark_step()\n            opt.zero_grad()\n"),
        # a log every n steps, not the update
        Example("import torch_xla\n"
                "def train(model, opt, loader, device):\n"
                "    for i, (x, y) in enumerate(loader):\n        loss = model(x.to(device), y.to(device))\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n"
                "        if i % 10 == 0:\n            print(i)\n"),
    )
    INVALID = (
        Example("import torch_xla\nimport torch_xla.distributed.parallel_loader as pl\n"
                "def train(model, opt, loader, device, accum):\n"
                "    for step, (x, y) in enumerate(pl.MpDeviceLoader(loader, device)):\n"
                "        loss = model(x, y) / accum\n        loss.backward()\n"
                "        if (step + 1) % accum == 0:\n            opt.step()\n            opt.zero_grad()\n",
                expected=((8, 13, '`opt.step()` ' + _MSG),)),
        Example("import torch\n"
                "class Trainer:\n    def __init__(self, model, n):\n"
                "        self.model, self.n, self.step = model, n, 0\n"
                "        self.optimizer = torch.optim.AdamW(model.parameters())\n"
                "    def train_step(self, x, y):\n        self.step += 1\n"
                "        loss = torch.nn.functional.cross_entropy(self.model(x), y) / self.n\n"
                "        loss.backward()\n        if self.step % self.n == 0:\n"
                "            self.optimizer.step()\n            self.optimizer.zero_grad()\n"
                "        return loss.detach()\n",
                torch_xla=True, expected=((11, 13, '`self.optimizer.step()` ' + _MSG),)),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        torch = ctx.torch
        if not torch.steps or not recompiles(_PROBE):
            return
        resolve = ctx.facts.aliases.resolve
        row = recompile_table().get("probes", {}).get(_PROBE, {})
        n_compiles = sum(row.get("warm", [])) + sum(row.get("later", []))
        n_calls = len(row.get("warm", [])) + len(row.get("later", []))
        seen: set[int] = set()
        for step in torch.steps:
            for update in self._accumulation_updates(step, torch, resolve):
                if id(update) in seen:
                    continue
                seen.add(id(update))
                opt = ast.unparse(update.func.value) if isinstance(update.func, ast.Attribute) else "optimizer"
                ctx.report(self, update,
                           f"`{opt}.step()` runs every n-th call while backward runs on every call and the graph "
                           f"is cut after each: the accumulating calls, the update call and the first call after "
                           f"zero_grad are different graphs, each compiled (torch_xla_recompile.json "
                           f"`{_PROBE}`: {n_compiles} compilations in {n_calls} calls, the last at the second "
                           f"update); pass the n micro-batches to one step (one graph per update)")

    @staticmethod
    def _accumulation_updates(step: Step, torch: TorchFacts,
                              resolve: Callable[[ast.expr], str | None]) -> list[ast.Call]:
        nodes = list(own_nodes(step.node))  # the step body, not functions or classes defined in it

        def is_tensor(e: ast.expr) -> bool:
            return bool(torch.of(e) & TENSOR)

        every_n = [n for n in nodes if isinstance(n, ast.If) and _every_n_test(n.test, is_tensor)]
        if not every_n:
            return []
        inside = {id(x) for i in every_n for s in i.body + i.orelse for x in walk(s)}
        calls = [n for n in nodes if isinstance(n, ast.Call)]
        outside = [c for c in calls if id(c) not in inside]
        if not any(_backward_call(c) for c in outside):
            return []
        per_call_sync = step.loop is None or step.why.startswith(("iterates an MpDeviceLoader", "an accelerate")) \
            or any(resolve(c.func) in SYNC_CALLS for c in outside) \
            or _iterates_prepared_loader(step, [c for c in outside if _backward_call(c)])
        if not per_call_sync:
            return []  # the window is one graph, cut in the update branch
        out: list[ast.Call] = []
        for branch in every_n:
            if branch.orelse:
                continue  # `else:` work on the other calls: not the plain accumulation shape
            if _period_set_apart_on_xla(branch.test, step):
                continue
            body_calls = [c for s in branch.body for c in walk(s) if isinstance(c, ast.Call)]
            if any(_backward_call(c) for c in body_calls):
                continue
            first_backward = min(c.lineno for c in outside if _backward_call(c))
            if first_backward > branch.lineno:
                continue  # the backward comes after the update in the iteration: not accumulation
            out.extend(c for c in body_calls if _update_call(c, torch, resolve))
        return out
