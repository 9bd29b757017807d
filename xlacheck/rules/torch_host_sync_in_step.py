"""XLA350: a torch tensor's value read on the host inside a torch_xla step."""

from __future__ import annotations

import ast

from xlacheck.analysis.torch_model import STRUCT, TENSOR, TorchFacts
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

_READ_METHODS = {"item": "`.item()`", "tolist": "`.tolist()`", "numpy": "`.numpy()`", "cpu": "`.cpu()`"}
_BUILTINS = frozenset({"float", "int", "bool"})
_FIX = ("keep the value on the device (return or accumulate the tensor), read it after `torch_xla.sync()`, "
        "or log it from `xm.add_step_closure(fn, args=(t,))`")


def host_reads(torch: TorchFacts) -> list[tuple[ast.AST, str]]:
    """Every proven host read in step code: (node, what). Shared with XLA450, which needs the
    values these reads produce."""
    out: list[tuple[ast.AST, str]] = []
    printed: set[int] = set()  # f-strings already reported through their print()
    for node in torch.nodes:
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr in _READ_METHODS and not node.args:
                recv = torch.of(f.value)
                if recv & TENSOR or (f.attr == "item" and recv & STRUCT):
                    out.append((node, _READ_METHODS[f.attr]))
            elif isinstance(f, ast.Name) and f.id in _BUILTINS and len(node.args) == 1 and torch.tensor(node.args[0]):
                out.append((node, f"`{f.id}(tensor)`"))
            elif isinstance(f, ast.Name) and f.id == "print" and any(_shows_tensor(a, torch) for a in node.args):
                out.append((node, "`print(tensor)`"))
                printed.update(id(a) for a in node.args)
        elif isinstance(node, ast.JoinedStr) and id(node) not in printed and _shows_tensor(node, torch) \
                and not isinstance(torch.stmt_of.get(id(node)), (ast.Raise, ast.Assert)):  # (error paths: no cost)
            out.append((node, "an f-string of a tensor"))  # formatting reads the value (Tensor.__format__)
        elif isinstance(node, (ast.If, ast.While, ast.Assert, ast.IfExp)) and torch.tensor(node.test):
            kind = {ast.If: "`if tensor:`", ast.While: "`while tensor:`", ast.Assert: "`assert tensor`",
                    ast.IfExp: "`a if tensor else b`"}[type(node)]
            out.append((node.test, kind))
        elif isinstance(node, ast.BoolOp):
            for v in node.values[:-1]:
                if torch.tensor(v):
                    out.append((v, "`and`/`or` on a tensor"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and torch.tensor(node.operand):
            out.append((node.operand, "`not tensor`"))
    return out


def _shows_tensor(arg: ast.expr, torch: TorchFacts) -> bool:
    if torch.tensor(arg):
        return True
    if isinstance(arg, ast.JoinedStr):
        return any(isinstance(v, ast.FormattedValue) and torch.tensor(v.value) for v in arg.values)
    return False


class TorchHostSyncInStep(ModuleRule):
    """
    ## What it does
    Flags reading a torch tensor's value on the host inside a torch_xla step: `.item()`,
    `.tolist()`, `.numpy()`, `.cpu()`, `float(t)`/`int(t)`/`bool(t)`, `print(t)`, and a tensor
    used as a Python truth value (`if t:`, `while t:`, `assert t`, `not t`, `t and x`). Only
    values proven to be torch tensors count (results of torch ops and tensor methods, model
    outputs, batches from a `DataLoader`), and only code proven to run in a torch_xla step (see
    `docs/torch.md`). A read after `torch_xla.sync()`/`xm.mark_step()` in the same iteration
    is not flagged: the graph already ran.

    ## Why is this bad?
    torch_xla records operations lazily and runs them as one graph at the step's sync. A value
    read inside the step forces the pending graph to compile and run now, copies the result to
    the host and cuts the step in two graphs; every step then waits on the device twice, and
    the cut graph may be compiled anew when the code around it changes.

    ## Example
    ```python
    for x, y in pl.MpDeviceLoader(loader, device):
        loss = F.cross_entropy(model(x), y)
        losses.append(loss.item())
        loss.backward()
        xm.optimizer_step(opt)
    ```

    ## Use instead
    ```python
    for x, y in pl.MpDeviceLoader(loader, device):
        loss = F.cross_entropy(model(x), y)
        xm.add_step_closure(lambda l: losses.append(l.item()), args=(loss,))
        loss.backward()
        xm.optimizer_step(opt)
    ```

    ## Fix safety
    No automatic fix: whether the value is needed now (a branch on it) or only logged decides
    the rewrite (keep it on the device, `xm.add_step_closure`, or log every N steps).
    """

    code = "XLA350"
    fix = None
    name = "torch-host-sync-in-step"
    severity = Severity.WARNING
    VALID = (
        Example("import torch\nimport torch_xla\nimport torch_xla.core.xla_model as xm\n"
                "def train(model, loader, opt, losses):\n    device = torch_xla.device()\n"
                "    for x, y in loader:\n        x, y = x.to(device), y.to(device)\n"
                "        loss = torch.nn.functional.cross_entropy(model(x), y)\n        loss.backward()\n"
                "        xm.optimizer_step(opt)\n        torch_xla.sync()\n        losses.append(loss.item())\n"),
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt, log):\n"
                "    for x, y in loader:\n        loss = torch.nn.functional.cross_entropy(model(x), y)\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n        log(loss)\n"),
    )
    INVALID = (
        Example("import torch\nimport torch_xla\nimport torch_xla.core.xla_model as xm\n"
                "def train(model, loader, opt, losses):\n    device = torch_xla.device()\n"
                "    for x, y in loader:\n        x, y = x.to(device), y.to(device)\n"
                "        loss = torch.nn.functional.cross_entropy(model(x), y)\n        losses.append(loss.item())\n"
                "        loss.backward()\n        xm.optimizer_step(opt)\n        xm.mark_step()\n",
                expected=(
                    (9, 23, '`.item()` reads a torch tensor on the host inside a torch_xla step (a loop that calls '
                            'xm.optimizer_step): the pending graph runs and is cut here; keep the value on the '
                            'device (return or accumulate the tensor), read it after `torch_xla.sync()`, or log it '
                            'from `xm.add_step_closure(fn, args=(t,))`'),
                )),
        Example("import torch\nimport torch_xla\nimport torch_xla.distributed.parallel_loader as pl\n"
                "def train(model, loader, opt, device):\n    for x, y in pl.MpDeviceLoader(loader, device):\n"
                "        logits = model(x)\n        loss = torch.nn.functional.cross_entropy(logits, y)\n"
                "        if torch.isnan(loss):\n            continue\n        loss.backward()\n        opt.step()\n",
                expected=(
                    (8, 12, '`if tensor:` reads a torch tensor on the host inside a torch_xla step (iterates an '
                            'MpDeviceLoader): the pending graph runs and is cut here; keep the value on the device '
                            '(return or accumulate the tensor), read it after `torch_xla.sync()`, or log it from '
                            '`xm.add_step_closure(fn, args=(t,))`'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        torch = ctx.torch
        if not torch.steps:
            return
        for node, what in host_reads(torch):
            stmt = torch.stmt_of.get(id(node))
            if stmt is not None and (id(stmt) in torch.after_sync or id(stmt) in torch.periodic):
                continue  # after the step's own sync, or every n-th step only
            step = torch.in_step(node)
            where = step.why if step is not None else "a torch_xla step"
            ctx.report(self, node, f"{what} reads a torch tensor on the host inside a torch_xla step ({where}): "
                                   f"the pending graph runs and is cut here; {_FIX}")
