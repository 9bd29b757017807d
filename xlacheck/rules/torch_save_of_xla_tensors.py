"""XLA551: ``torch.save`` of a model or tensors that live on the XLA device."""

from __future__ import annotations

import ast

from xlacheck.analysis.torch_model import XLA_DEVICE_CALLS
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule


class TorchSaveOfXlaTensors(ModuleRule):
    """
    ## What it does
    Flags `torch.save(x.state_dict(), ...)` (or of a module moved to the device) in a file
    that creates the XLA device and moves a module there, unless the saved value is moved to
    the CPU first (`.cpu()`, `xm._maybe_convert_to_cpu`).

    ## Why is this bad?
    `torch.save` of XLA tensors serializes device tensors: every process of a multi-core run
    writes the file, and loading it needs an XLA device (on a machine without one the load
    fails, or restores tensors on the wrong device). `xm.save` moves the data to the CPU and
    writes once, from the master ordinal.

    ## Example
    ```python
    model = Net().to(xm.xla_device())
    ...
    torch.save(model.state_dict(), "model.pt")
    ```

    ## Use instead
    ```python
    xm.save(model.state_dict(), "model.pt")
    ```

    ## Fix safety
    No automatic fix: `xm.save` writes from the master ordinal only, which changes what a
    per-process checkpoint scheme gets.
    """

    code = "XLA551"
    checks_test_files = False  # set-up rule: a test's set-up is a toy on purpose
    fix = None
    name = "torch-save-of-xla-tensors"
    severity = Severity.WARNING
    VALID = (
        Example("import torch\nimport torch_xla.core.xla_model as xm\ndef run(model):\n    device = xm.xla_device()\n"
                "    model = model.to(device)\n    xm.save(model.state_dict(), 'm.pt')\n"),
        Example("import torch\ndef run(model):\n    torch.save(model.state_dict(), 'm.pt')\n"),
        # the value saved is not the one moved: the move is in the other branch, the module use in
        # another function (Lightning's XLA strategy pickling a non-tensor for a broadcast)
        Example("import io\nimport torch\nimport torch_xla.core.xla_model as xm\n"
                "def broadcast(obj, device, is_tensor):\n    if is_tensor:\n        obj = obj.to(device)\n"
                "    else:\n        buffer = io.BytesIO()\n        torch.save(obj, buffer)\n    return obj\n"
                "def state(obj):\n    return obj.state_dict()\n"
                "def main(model):\n    model = model.to(xm.xla_device())\n    xm.save(model.state_dict(), 'm.pt')\n"),
    )
    INVALID = (
        Example("import torch\nimport torch_xla.core.xla_model as xm\ndef run(model):\n    device = xm.xla_device()\n"
                "    model = model.to(device)\n    torch.save(model.state_dict(), 'm.pt')\n",
                expected=(
                    (6, 5, 'torch.save of a model that lives on the XLA device: every process writes device tensors '
                           'that need an XLA device to load; use xm.save (CPU copy, master ordinal)'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        torch = ctx.torch
        if not torch.xla_file:
            return
        resolve = ctx.facts.aliases.resolve
        calls = [n for n in ast.walk(ctx.tree) if isinstance(n, ast.Call)]
        if not any(resolve(c.func) in XLA_DEVICE_CALLS for c in calls):
            return
        parents = {id(c): n for n in ast.walk(ctx.tree) for c in ast.iter_child_nodes(n)}
        module_names = torch.module_names
        moves = [(c.func.value.id, c) for c in calls if isinstance(c.func, ast.Attribute) and c.func.attr == "to"
                 and isinstance(c.func.value, ast.Name) and c.func.value.id in module_names]
        moves += [(t.id, n.value) for n in ast.walk(ctx.tree)
                  if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                  and isinstance(n.value.func, ast.Attribute) and n.value.func.attr == "to"
                  for t in n.targets if isinstance(t, ast.Name) and t.id in module_names]
        if not moves:
            return
        for c in calls:
            if resolve(c.func) != "torch.save" or not c.args:
                continue
            obj = c.args[0]
            if any(isinstance(n, ast.Call) and (isinstance(n.func, ast.Attribute) and n.func.attr == "cpu"
                                                or "convert_to_cpu" in ast.unparse(n.func)) for n in ast.walk(obj)):
                continue
            saved = {n.func.value.id for n in ast.walk(obj) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                     and n.func.attr == "state_dict" and isinstance(n.func.value, ast.Name)}
            if isinstance(obj, ast.Name):
                saved.add(obj.id)
            if any(name in saved and _reaches(move, c, parents) for name, move in moves):
                ctx.report(self, c, "torch.save of a model that lives on the XLA device: every process writes device "
                                    "tensors that need an XLA device to load; use xm.save (CPU copy, master ordinal)")


def _reaches(move: ast.AST, save: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """Whether a ``.to(device)`` can run before ``torch.save``: not when the two sit in different
    branches of one ``if`` (``if is_tensor: x = x.to(d)`` / ``else: torch.save(x, buf)``), nor when
    the move comes later in the same function with no loop around both. A move in another function
    counts (a model moved in ``main`` and saved by a helper)."""
    def chain(n: ast.AST) -> list[tuple[ast.AST, ast.AST]]:  # (ancestor, the child on the path), innermost first
        out = []
        while id(n) in parents:
            out.append((parents[id(n)], n))
            n = parents[id(n)]
        return out
    ours, theirs = chain(move), chain(save)
    their_child = {id(p): child for p, child in theirs}
    for p, child in ours:
        other = their_child.get(id(p))
        if other is None:
            continue
        if isinstance(p, ast.If) and child is not other:
            sides = ({id(s) for s in p.body}, {id(s) for s in p.orelse})
            if any(id(child) in side for side in sides) and any(id(other) in side for side in sides) \
                    and not any(id(child) in side and id(other) in side for side in sides):
                return False
        if isinstance(p, (ast.For, ast.While, ast.AsyncFor)):
            return True  # a loop around both: a later move reaches the next iteration's save
        if isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return getattr(move, "lineno", 0) < getattr(save, "lineno", 0)
    return True
