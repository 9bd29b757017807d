"""XLA452: a per-step Python scalar clamped to 0 or 1 meets a tensor in a torch_xla step."""

from __future__ import annotations

import ast
from collections.abc import Callable

from xlacheck.analysis.scopes import own_nodes
from xlacheck.analysis.torch_model import Step, TorchFacts
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# min(bound, x) clamps from above, max(bound, x) from below: the bounds torch_xla bakes into the graph.
_BOUNDS = {"min": (1, -1), "max": (0, -1)}
_ARITH = (ast.Mult, ast.Add, ast.Sub, ast.Div, ast.Pow)


def _number(node: ast.expr) -> float | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return -inner if inner is not None else None
    return None


def _names(node: ast.AST) -> set[str]:
    out = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    out |= {"self." + n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
            and n.value.id == "self"}
    return out


def _counters(step: Step, tree: ast.Module, incremented: set[str]) -> set[str]:
    """Names whose value changes from step to step: the step loop's targets (``for i, batch in
    enumerate(loader)``) and those of loops around it, names (and ``self.`` attributes) the file
    increments (``global_step += 1``), and a step function's parameters."""
    out = set(incremented)
    if step.loop is not None:
        owner = step.owner if step.owner is not None else tree
        for loop in ast.walk(owner):
            if isinstance(loop, (ast.For, ast.AsyncFor)) and (loop is step.node or _within(step.node, loop)):
                out |= {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    if isinstance(step.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        args = step.node.args
        out |= {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs if a.arg != "self"}
    return out


def _within(inner: ast.AST, outer: ast.AST) -> bool:
    return (getattr(outer, "lineno", 0) <= getattr(inner, "lineno", 0)
            and getattr(inner, "end_lineno", 0) <= (getattr(outer, "end_lineno", 0) or 0))


def _clamp(node: ast.expr | None, counters: set[str]) -> tuple[float, ast.Call] | None:
    """``min(1.0, step / warmup)`` / ``max(0.0, 1 - step / total)``: the bound it reaches and the call."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _BOUNDS
            and len(node.args) == 2 and not node.keywords):
        return None
    a, b = node.args
    bound, other = (_number(a), b) if _number(a) is not None else (_number(b), a)
    if bound is None or _number(other) is not None or bound not in _BOUNDS[node.func.id]:
        return None
    if not _names(other) & counters:
        return None
    return bound, node


_CHOICES = frozenset({"random.choice", "numpy.random.choice", "np.random.choice"})


def _drawn(node: ast.expr | None, resolve: Callable[[ast.expr], str | None]) -> tuple[float, ast.Call] | None:
    """``random.choice([0.5, 0.7, 0.0])`` (also ``rng.choice`` on a generator object): a number drawn anew at
    each step from literals, two or more, some of them 0 or ±1: the special value it reaches and the call."""
    if not (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords
            and isinstance(node.args[0], (ast.List, ast.Tuple))):
        return None
    name = resolve(node.func)
    if not (name in _CHOICES or name is None and isinstance(node.func, ast.Attribute) and node.func.attr == "choice"):
        return None
    values = [_number(e) for e in node.args[0].elts]
    numbers = [v for v in values if v is not None]
    if len(numbers) < len(values) or len(set(numbers)) < 2:
        return None
    special = [v for v in numbers if v in (0.0, 1.0, -1.0)]
    return (special[0], node) if special else None


_LAMBDA_LR = frozenset({"torch.optim.lr_scheduler.LambdaLR"})


def _decays_to_zero(fn: ast.AST | None) -> ast.Call | None:
    """A ``LambdaLR`` factor that decays to exactly 0 (``lambda s: max(0.0, 1 - s / total)``, or a ``def``
    that returns such a clamp of its first parameter, the HF ``get_linear_schedule_with_warmup`` form):
    the clamp call."""
    if isinstance(fn, ast.Lambda):
        params, returns = fn.args.posonlyargs + fn.args.args, [fn.body]
    elif isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        params = fn.args.posonlyargs + fn.args.args
        returns = [n.value for n in own_nodes(fn) if isinstance(n, ast.Return) and n.value is not None]
    else:
        return None
    if params and params[0].arg == "self":
        params = params[1:]
    if not params:
        return None
    for value in returns:
        hit = _clamp(value, {params[0].arg})
        if hit is not None and hit[0] == 0:
            return hit[1]
    return None


def _zero_lr_schedules(ctx: ModuleContext, torch: TorchFacts) -> list[tuple[ast.Call, ast.Call]]:
    """``sched = LambdaLR(opt, f)`` whose factor ``f`` decays to 0 and whose ``sched.step()`` runs in a
    torch_xla step: the clamp in ``f`` and the ``step()`` call. One walk of the module."""
    functions: dict[str, list[ast.AST]] = {}
    made: dict[str, ast.Call] = {}  # target source -> clamp
    assigns: list[tuple[ast.Assign, ast.Call]] = []
    for n in ast.walk(ctx.tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions.setdefault(n.name, []).append(n)
        elif (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.value, ast.Call)
              and ctx.facts.aliases.resolve(n.value.func) in _LAMBDA_LR):
            assigns.append((n, n.value))
    for n, call in assigns:
        fn: ast.AST | None = call.args[1] if len(call.args) > 1 else next(
            (k.value for k in call.keywords if k.arg == "lr_lambda"), None)
        factory = isinstance(fn, ast.Call)  # ``LambdaLR(opt, linear_decay(total))``: the lambda it returns
        if isinstance(fn, ast.Call):
            fn = fn.func
        if isinstance(fn, (ast.Name, ast.Attribute)):
            name = fn.id if isinstance(fn, ast.Name) else fn.attr
            defs = functions.get(name, [])
            fn = defs[0] if len(defs) == 1 else None
        if factory:
            fn = next((r.value for r in own_nodes(fn) if isinstance(r, ast.Return) and isinstance(r.value, ast.Lambda)),
                      None) if fn is not None else None
        clamp = _decays_to_zero(fn)
        if clamp is not None:
            made[ast.unparse(n.targets[0])] = clamp
    out: list[tuple[ast.Call, ast.Call]] = []
    if made:
        for node in torch.nodes:
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "step"
                    and not node.args and torch.in_step(node) is not None):
                clamp = made.pop(ast.unparse(node.func.value), None)
                if clamp is not None:
                    out.append((clamp, node))
    return out


class TorchScheduleScalarSpecialValue(ModuleRule):
    """
    ## What it does
    Flags, inside a torch_xla step, a Python number that follows the step count and is clamped
    to 0 or ±1 (`min(1.0, step / warmup)`, `max(0.0, 1 - step / total)`), where it meets a
    torch tensor in arithmetic (`loss * scale`, `aux_weight * aux_loss`); also a number drawn per
    step from two or more literals, 0 or ±1 among them (`random.choice([0.5, 0.7, 0.0])`,
    `rng.choice(...)`). Also a `LambdaLR` whose factor decays to exactly 0 (`lambda s: max(0.0,
    1 - s / total)`, a `def` returning such a clamp of its step argument, or a factory returning
    that lambda) when the scheduler's `step()` runs in a torch_xla step: the learning rate the
    optimizer then reads is 0.0.

    ## Why is this bad?
    torch_xla passes a Python float to the graph as device data, so a new value each step does
    not recompile, except 0 and ±1: those are baked into the graph as constants. A clamped
    schedule sits at the bound for many steps: when it gets there, the step compiles once more
    (a warm-up factor reaching 1.0 at the end of warm-up; a decay reaching 0). Measured with
    torch_xla 2.9 on PJRT CPU (CompileTime): `loss * s` for s = 0.3, 0.4, 0.5 compiles once;
    s = 1.0, 0.0 and -1.0 compile once each more. The cost is one compilation per bound per
    process (minutes on a TPU for a large model), not one per step.
    The optimizers read the learning rate as a Python float in their update (`alpha=-lr`,
    `1 - lr * weight_decay`, `value=-step_size`): measured the same way, SGD (with and without
    momentum), Adam, AdamW, RMSprop and Adagrad each compile once more on the first step with
    lr 0.0 and reuse that graph later (`tools/measure_torch_zero_lr.py`).

    ## Example
    ```python
    for step, batch in enumerate(loader):
        warm = min(1.0, step / warmup_steps)
        loss = model(**batch).loss * warm
    ```

    ## Use instead
    ```python
    step_t = torch.zeros((), device=device)
    for batch in loader:
        warm = torch.clamp(step_t / warmup_steps, max=1.0)  # on the device: one graph
        loss = model(**batch).loss * warm
        step_t += 1
    ```

    ## Fix safety
    No automatic fix: moving the schedule to the device changes where the counter lives and
    which code reads it.
    """

    code = "XLA452"
    fix = None
    name = "torch-schedule-scalar-special-value"
    severity = Severity.RECOMPILE
    VALID = (
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n"
                "    for step, (x, y) in enumerate(loader):\n        warm = 0.5 + step / 1000\n"
                "        loss = torch.relu(model(x)).sum() * warm\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n"),
        Example("import random\nimport torch\nimport torch_xla\ndef train(model, loader, opt):\n"
                "    for x, y in loader:\n        scale = random.choice([0.5, 0.75])\n"
                "        loss = torch.relu(model(x)).sum() * scale\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n"),
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n"
                "    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: max(0.1, 1 - s / 100))\n"
                "    for x, y in loader:\n        loss = torch.relu(model(x)).sum()\n        loss.backward()\n"
                "        opt.step()\n        sched.step()\n        torch_xla.sync()\n"),
    )
    INVALID = (
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n"
                "    for step, (x, y) in enumerate(loader):\n        warm = min(1.0, step / 100)\n"
                "        loss = torch.relu(model(x)).sum() * warm\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n",
                expected=(
                    (5, 16, 'a per-step Python number clamped to 1 meets a tensor (line 6): torch_xla bakes 0 and ±1 '
                            'into the graph as constants, so the step compiles once more when the schedule reaches '
                            'the bound; compute the schedule on the device (a step-count tensor and torch.clamp)'),
                )),
        Example("import random\nimport torch\nimport torch_xla\nRNG = random.Random(0)\n"
                "def train(model, loader, opt):\n    for x, y in loader:\n        keep = RNG.choice([0.5, 0.7, 0.0])\n"
                "        loss = torch.relu(model(x)).sum() * keep\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n",
                expected=(
                    (7, 16, 'a Python number drawn per step from values that include 0 meets a tensor (line 8): '
                            'torch_xla bakes 0 and ±1 into the graph as constants, so the step compiles once more '
                            'for that value; draw it on the device (`torch.tensor(values, device=...)'
                            '[torch.randint(...)]`) or leave the special value out'),
                )),
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n"
                "    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: max(0.0, 1 - s / 100))\n"
                "    for x, y in loader:\n        loss = torch.relu(model(x)).sum()\n        loss.backward()\n"
                "        opt.step()\n        sched.step()\n        torch_xla.sync()\n",
                expected=(
                    (4, 62, "a LambdaLR factor clamped to 0 is stepped in a torch_xla step (line 9): when it reaches "
                            "0 the optimizer's learning rate is 0.0, a value torch_xla bakes into the update graph as "
                            "a constant, so that step compiles once more; end the decay at a small positive floor "
                            "(`max(1e-3, ...)`) or stop before the last factor"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        torch = ctx.torch
        if not torch.steps:
            return
        incremented: set[str] = set()
        for n in ast.walk(ctx.tree):
            if isinstance(n, ast.AugAssign) and isinstance(n.op, (ast.Add, ast.Sub)):
                incremented |= _names(n.target)
        counters_of: dict[int, set[str]] = {}
        bound_names: dict[tuple[int, str], tuple[float, ast.Call]] = {}  # (id(step), name) -> clamp
        for node in torch.nodes:
            step = torch.in_step(node)
            if step is None:
                continue
            if id(step) not in counters_of:
                counters_of[id(step)] = _counters(step, ctx.tree, incremented)
            counters = counters_of[id(step)]
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                hit = _clamp(node.value, counters) or _drawn(node.value, ctx.facts.aliases.resolve)
                if hit is not None:
                    bound_names[(id(step), node.targets[0].id)] = hit
        for node in torch.nodes:
            if not (isinstance(node, ast.BinOp) and isinstance(node.op, _ARITH)):
                continue
            step = torch.in_step(node)
            if step is None:
                continue
            for scalar, other in ((node.left, node.right), (node.right, node.left)):
                if not torch.tensor(other):
                    continue
                hit = _clamp(scalar, counters_of.get(id(step), set())) or _drawn(scalar, ctx.facts.aliases.resolve)
                if hit is None and isinstance(scalar, ast.Name):
                    hit = bound_names.get((id(step), scalar.id))
                if hit is None:
                    continue
                bound, call = hit
                if isinstance(call.func, ast.Name) and call.func.id in _BOUNDS:
                    ctx.report(self, call, f"a per-step Python number clamped to {bound:g} meets a tensor (line "
                                           f"{node.lineno}): torch_xla bakes 0 and ±1 into the graph as constants, so "
                                           "the step compiles once more when the schedule reaches the bound; compute "
                                           "the schedule on the device (a step-count tensor and torch.clamp)")
                else:
                    ctx.report(self, call, f"a Python number drawn per step from values that include {bound:g} meets "
                                           f"a tensor (line {node.lineno}): torch_xla bakes 0 and ±1 into the graph "
                                           "as constants, so the step compiles once more for that value; draw it on "
                                           "the device (`torch.tensor(values, device=...)[torch.randint(...)]`) or "
                                           "leave the special value out")
                break
        for clamp, stepped in _zero_lr_schedules(ctx, torch):
            ctx.report(self, clamp, f"a LambdaLR factor clamped to 0 is stepped in a torch_xla step (line "
                                    f"{stepped.lineno}): when it reaches 0 the optimizer's learning rate is 0.0, "
                                    "a value torch_xla bakes into the update graph as a constant, so that step "
                                    "compiles once more; end the decay at a small positive floor "
                                    "(`max(1e-3, ...)`) or stop before the last factor")
