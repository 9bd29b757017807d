"""XLA451: a DataLoader without ``drop_last=True`` feeding a torch_xla training loop."""

from __future__ import annotations

import ast
from collections.abc import Mapping

from xlacheck.analysis.torch_model import DEVICE_LOADERS, recompiles
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule


def _target_name(t: ast.expr) -> str | None:
    if isinstance(t, ast.Name):
        return t.id
    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
        return "self." + t.attr
    return None


def _names_in(e: ast.AST) -> set[str]:
    out: set[str] = set()
    for n in ast.walk(e):
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self":
            out.add("self." + n.attr)
    return out


def _draws_read(loop: ast.For) -> bool:
    """Whether the body reads what the loop draws before rebinding it. ``for i, (x, y) in
    enumerate(loader):`` draws ``x, y`` (``i`` is the count); a body whose top-level statements
    assign all of them anew before any read (lit-llama's finetune loops: ``x, y = get_batch(...)``)
    trains on other data, and the loader's batch shapes never reach the step."""
    target = loop.target
    if (isinstance(loop.iter, ast.Call) and isinstance(loop.iter.func, ast.Name) and loop.iter.func.id == "enumerate"
            and isinstance(target, ast.Tuple) and len(target.elts) == 2):
        target = target.elts[1]
    live = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    for stmt in loop.body:
        if any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in live for n in ast.walk(stmt)):
            return True
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            live -= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            if not live:
                return False
    return False


class TorchDataLoaderWithoutDropLast(ModuleRule):
    """
    ## What it does
    Flags `torch.utils.data.DataLoader(...)` without `drop_last=True` (and without a
    `batch_sampler`; a `torch.utils.data.BatchSampler(...)` built in the call is flagged when it
    does not pass `drop_last=True`) when the loader, directly or through `MpDeviceLoader`/`ParallelLoader`,
    is iterated by a training loop proven to run on an XLA device (a file that imports
    torch_xla, or any torch file under the `--torch-xla` declaration; see docs/torch.md). Loaders
    built with `**kwargs` are skipped (the flag may be inside), and so are loaders handed to
    accelerate's `accelerator.prepare(...)` (on several TPU processes its `BatchSamplerShard`
    completes the last batch from the start of the data, `even_batches=True`). Only loops that
    train (a backward pass in the loop or in the step function it calls) count: an evaluation
    loop compiles the smaller last batch's shape once, a cost worth no finding. Whether the last
    batch is smaller depends on the data set's length, which the code does not show (a 60,000-example
    data set in batches of 32 has none), so the rule is behind `--preview`.

    ## Why is this bad?
    Unless the dataset size is a multiple of the batch size, the last batch of every epoch is
    smaller. Its new shape is a new graph: torch_xla compiles the whole training step once more
    (and again for evaluation), a full compilation for one batch. The graph cache serves it in later
    epochs (measured on torch_xla 2.9, PJRT CPU: 10 examples, batch 4, 4 epochs give 2 compilations,
    both in the first epoch), so the cost is one extra compile per distinct remainder, and a second
    resident executable.

    ## Example
    ```python
    loader = DataLoader(ds, batch_size=32, shuffle=True)
    for x, y in pl.MpDeviceLoader(loader, device):
        ...
    ```

    ## Use instead
    ```python
    loader = DataLoader(ds, batch_size=32, shuffle=True, drop_last=True)
    # for evaluation, pad the last batch to the full size and mask the padding
    ```

    ## Fix safety
    No automatic fix: dropping the last batch drops examples, which is wrong for evaluation.
    """

    code = "XLA451"
    fix = None
    name = "torch-dataloader-without-drop-last"
    severity = Severity.RECOMPILE
    # Behind --preview: on real code nobody tuned on (torch-real7: fairseq, timm, composer, trl,
    # accelerate src, pytorch/examples, transformers' Trainer) 4 of its 5 findings were true; the fifth
    # loader's data set (MNIST, 60,000 examples) divides its batch size (32), which no static check sees.
    preview = True
    VALID = (
        Example("import torch\nimport torch_xla\nimport torch_xla.distributed.parallel_loader as pl\n"
                "from torch.utils.data import DataLoader\ndef train(ds, model, opt, device):\n"
                "    loader = DataLoader(ds, batch_size=32, shuffle=True, drop_last=True)\n"
                "    for x, y in pl.MpDeviceLoader(loader, device):\n        loss = model(x).sum()\n"
                "        loss.backward()\n        opt.step()\n"),
    )
    INVALID = (
        Example("import torch\nimport torch_xla\nimport torch_xla.distributed.parallel_loader as pl\n"
                "from torch.utils.data import DataLoader\ndef train(ds, model, opt, device):\n"
                "    loader = DataLoader(ds, batch_size=32, shuffle=True)\n"
                "    for x, y in pl.MpDeviceLoader(loader, device):\n        loss = model(x).sum()\n"
                "        loss.backward()\n        opt.step()\n",
                expected=(
                    (6, 14, 'this DataLoader keeps a smaller last batch (drop_last is not True) and feeds a '
                            "torch_xla training loop: the last batch's smaller shape compiles the whole step once more "
                            '(torch_xla caches it for later epochs); pass drop_last=True (pad and mask for evaluation)'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        torch = ctx.torch
        if not (torch.xla_file or torch.declared) or not torch.steps or not recompiles("batch_dim"):
            return
        resolve = ctx.facts.aliases.resolve
        prepared = _prepared_by_accelerate(ctx)
        for call in loaders_feeding_steps(ctx, training_only=True):
            if id(call) in prepared:
                continue
            keywords = {kw.arg for kw in call.keywords}
            if None in keywords or any(isinstance(a, ast.Starred) for a in call.args):
                continue
            sampler = next((kw.value for kw in call.keywords if kw.arg == "batch_sampler"), None)
            if sampler is not None:
                # a torch BatchSampler built here keeps the smaller last batch unless drop_last is true;
                # any other batch sampler (a custom class, a name) may yield fixed-size batches
                if isinstance(sampler, ast.Call) and resolve(sampler.func) == "torch.utils.data.BatchSampler" \
                        and not any(isinstance(a, ast.Starred) for a in sampler.args) \
                        and None not in {kw.arg for kw in sampler.keywords}:
                    drop = next((kw.value for kw in sampler.keywords if kw.arg == "drop_last"),
                                sampler.args[2] if len(sampler.args) > 2 else None)
                    if drop is None or isinstance(drop, ast.Constant) and drop.value is False:
                        ctx.report(self, sampler, "this BatchSampler keeps a smaller last batch (drop_last is not "
                                                  "True) and its DataLoader feeds a torch_xla training loop: the last "
                                                  "batch's smaller shape compiles the whole step once more (torch_xla "
                                                  "caches it for later epochs); pass drop_last=True (pad and mask "
                                                  "for evaluation)")
                continue
            drop = next((kw.value for kw in call.keywords if kw.arg == "drop_last"), None)
            if drop is not None and not (isinstance(drop, ast.Constant) and drop.value is False):
                continue
            if len(call.args) > 1 and isinstance(call.args[1], ast.Constant) and call.args[1].value is None:
                continue  # batch_size=None: no batching
            for kw in call.keywords:
                if kw.arg == "batch_size" and isinstance(kw.value, ast.Constant) and kw.value.value in (None, 1):
                    break
            else:
                ctx.report(self, call, "this DataLoader keeps a smaller last batch (drop_last is not True) and "
                                       "feeds a torch_xla training loop: the last batch's smaller shape compiles "
                                       "the whole step once more (torch_xla caches it for later epochs); pass "
                                       "drop_last=True (pad and mask for evaluation)")


def _prepared_by_accelerate(ctx: ModuleContext) -> set[int]:
    """ids of ``DataLoader(...)`` calls whose loader goes through ``accelerator.prepare(...)`` in a file
    that imports accelerate: with several processes (a TPU's cores) accelerate's ``BatchSamplerShard``
    completes the last batch from the start of the data (``even_batches=True``), so every batch has
    the same size; a single process keeps the smaller one, which this file cannot tell."""
    if not any(v.split(".", 1)[0] == "accelerate" for v in ctx.facts.aliases.names.values()):
        return set()
    handed: set[str] = set()
    for c in ast.walk(ctx.tree):
        if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "prepare":
            for a in c.args:
                handed |= _names_in(a)
    out: set[int] = set()
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call) \
                and (name := _target_name(node.targets[0])) is not None and name in handed:
            out.add(id(node.value))
    return out


def _trains(node: ast.AST, step_bodies: Mapping[str, ast.AST]) -> bool:
    """The loop (or a same-file step function it calls) runs a backward pass: ``loss.backward()``,
    ``accelerator.backward(loss)``, ``xm.optimizer_step(opt)``."""
    for c in ast.walk(node):
        if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr in ("backward",
                                                                                           "optimizer_step"):
            return True
        if isinstance(c, ast.Call):
            callee = c.func.id if isinstance(c.func, ast.Name) else (
                c.func.attr if isinstance(c.func, ast.Attribute) else None)
            body = step_bodies.get(callee or "")
            if body is not None and body is not node and _trains(body, {}):
                return True
    return False


def loaders_feeding_steps(ctx: ModuleContext, training_only: bool = False) -> list[ast.Call]:
    """``DataLoader(...)`` calls assigned to a name (or ``self.`` attribute) that a torch_xla training
    loop iterates, directly or through ``MpDeviceLoader``/``ParallelLoader``, or that a loop iterates
    to pass what it draws to a same-file step function (``for batch in loader: train_step(batch)``).
    ``training_only``: only loops that run a backward pass (an evaluation loop over a loader with a
    smaller last batch compiles that shape once; a training loop is where it matters)."""
    resolve = ctx.facts.aliases.resolve
    loaders: list[tuple[ast.Call, str]] = []
    wrapped: dict[str, str] = {}  # device loader name -> the loader it wraps
    for node in ast.walk(ctx.tree):
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Call) or len(node.targets) != 1:
            continue
        name = _target_name(node.targets[0])
        if name is None:
            continue
        called = resolve(node.value.func)
        if called == "torch.utils.data.DataLoader":
            loaders.append((node.value, name))
        elif called in DEVICE_LOADERS and node.value.args:
            for inner in _names_in(node.value.args[0]):
                wrapped[name] = inner
    # loops that are steps, and loops that hand what they draw to a same-file step function
    step_functions = {s.node.name for s in ctx.torch.steps
                      if isinstance(s.node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    loops = [loop for loop, _owner, _why in ctx.torch.loops if isinstance(loop, ast.For)]
    if step_functions:
        for loop in ast.walk(ctx.tree):
            if not isinstance(loop, ast.For):
                continue
            drawn = _names_in(loop.target)
            for c in ast.walk(loop):
                if not isinstance(c, ast.Call):
                    continue
                callee = c.func.id if isinstance(c.func, ast.Name) else (
                    c.func.attr if isinstance(c.func, ast.Attribute) else None)
                if callee in step_functions and any(_names_in(a) & drawn for a in c.args):
                    loops.append(loop)
                    break
    if training_only:
        bodies = {s.node.name: s.node for s in ctx.torch.steps
                  if isinstance(s.node, (ast.FunctionDef, ast.AsyncFunctionDef))}
        loops = [loop for loop in loops if _trains(loop, bodies)]
    owner_of: dict[int, ast.AST] = {}  # id(DataLoader call) -> the function that builds it
    for f in ast.walk(ctx.tree):
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for n in ast.walk(f):
                owner_of[id(n)] = f  # (inner functions come later in the walk and win)
    loops = [loop for loop in loops if _draws_read(loop)]
    out = []
    for call, name in loaders:
        aliases = {name} | {w for w, inner in wrapped.items() if inner == name}
        # a function that builds the loader and iterates it decides by its own loops (an evaluation
        # function's `loader` is not the training function's `loader`); else any loop of the file
        owner = owner_of.get(id(call))
        own = [loop for loop in ast.walk(owner) if isinstance(loop, ast.For) and _names_in(loop.iter) & aliases] \
            if owner is not None else []
        if own:
            own_ids = {id(loop) for loop in own}
            if any(id(loop) in own_ids for loop in loops):
                out.append(call)
        elif any(_names_in(loop.iter) & aliases for loop in loops):
            out.append(call)
    return out
