"""XLA454: a tensor kept across torch_xla steps grows by ``torch.cat`` onto itself every step."""

from __future__ import annotations

import ast

from xlacheck.analysis.tables import TORCH_CATS, TORCH_JOINS
from xlacheck.analysis.torch_model import CPU, Step, TorchFacts, bound_names, own_statements
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# joins of a whole Python list of tensors (TORCH_JOINS, ``torch.stack(hist)``): one piece per item, so a list one
# item longer at every step is a tensor one row longer at every step
# list methods that shrink or empty a list: a list the code trims is a bounded window, not a growing one
_SHRINKS = frozenset({"clear", "pop", "remove", "popleft"})


def _same(a: ast.AST, b: ast.AST) -> bool:
    return ast.unparse(a) == ast.unparse(b)  # (ast.dump would tell a Store target from a Load)


def _flat_targets(a: ast.Assign) -> list[ast.expr]:
    """The targets of an assignment, tuple unpacking included (``down, mid = controlnet(...)`` sets ``mid``)."""
    out: list[ast.expr] = []
    todo = list(a.targets)
    while todo:
        t = todo.pop()
        if isinstance(t, (ast.Tuple, ast.List)):
            todo.extend(t.elts)
        elif isinstance(t, ast.Starred):
            todo.append(t.value)
        else:
            out.append(t)
    return out


def _first_fill(region: ast.AST, target: ast.expr) -> set[int]:
    """Ids of the assignments under ``if <target> is None:``: the accumulator's first value, after
    which the other branch grows it (``self.preds = logits`` / ``else: self.preds = torch.cat(...)``)."""
    out: set[int] = set()
    for n in ast.walk(region):
        if isinstance(n, ast.If) and isinstance(n.test, ast.Compare) and len(n.test.ops) == 1 \
                and isinstance(n.test.ops[0], ast.Is) and _same(n.test.left, target) \
                and isinstance(n.test.comparators[0], ast.Constant) and n.test.comparators[0].value is None:
            out.update(id(s) for s in ast.walk(ast.Module(body=n.body, type_ignores=[])) if isinstance(s, ast.Assign))
    return out


def _assigned(region: ast.AST) -> list[ast.Assign]:
    """Plain assignments in the step's own statements (nested functions and classes excluded)."""
    if isinstance(region, ast.Lambda):
        return []  # an expression: no statements
    body = [*getattr(region, "body", ()), *getattr(region, "orelse", ())]
    return [s for s in own_statements(body) if isinstance(s, ast.Assign)]


def _outlives(target: ast.expr, step: Step, region_assigns: list[ast.Assign]) -> bool:
    """Does the value held by ``target`` survive from one step to the next?

    ``self.<attr>`` does; so does an item of a container the step does not create (``state["ids"]``:
    a closure's or the caller's dict). A plain name does only when the step is a loop body and the
    loop body assigns it nowhere else (a function's locals start afresh at every call)."""
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
        return True
    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
            and isinstance(target.slice, ast.Constant):
        owner = target.value.id
        node = step.node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and owner in {
                a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs}:
            return False  # a parameter: the caller may pass a new dict at every call
        return not any(isinstance(n, ast.Name) and n.id == owner and isinstance(n.ctx, ast.Store)
                       for a in region_assigns for t in a.targets for n in ast.walk(t))
    if isinstance(target, ast.Name) and step.loop is not None:
        # (the caller checked it has no other assignment in the loop) but for the loop's own target, bound afresh
        # from the iterable at every trip: `for data, y in loader: data = torch.cat([data, data])` doubles each
        # new batch, a fixed shape, and keeps nothing from the trip before
        return not (isinstance(step.loop, (ast.For, ast.AsyncFor)) and target.id in bound_names(step.loop))
    return False


class TorchTensorGrowsEveryStep(ModuleRule):
    """
    ## What it does
    Flags, inside a torch_xla step, `state = torch.cat([state, new])` (also `torch.concat`,
    `hstack`, `vstack`) where `state` outlives the step: an attribute (`self.preds =
    torch.cat((self.preds, logits))`), an item of a container the step does not create
    (`state["ids"] = torch.cat([ids, next_token], 1)` after `ids = state["ids"]`), or, in a step
    loop, a name that the loop body only ever grows (not the loop's own variable, bound afresh from the
    iterable at every trip). A tensor kept on the CPU (assigned from
    `.cpu()`, or grown with a piece built without `device=`) is host bookkeeping and is not flagged.
    Also a Python list that outlives the step (a module-level list for a step function or a step
    loop, a list built before a step loop), that the step appends a device tensor to and joins whole
    (`torch.stack(hist)`, `torch.cat(list(hist))`): bound once to an empty list, never rebound,
    popped, cleared or sliced away (a `deque(maxlen=k)` window is not flagged).

    ## Why is this bad?
    The tensor is one step longer at every step, and torch_xla compiles a graph per input shape:
    every step then traces and compiles a new graph (and everything that reads the tensor with
    it). Measured by the oracle in eval_cases/torch_xla: a decode loop that appends each token to
    the ids and an evaluation loop that concatenates every batch's logits onto a running tensor
    both compile once per step (4 of 4 steady steps).

    ## Example
    ```python
    @torch.no_grad()
    def prediction_step(self, ids, labels):
        logits = self.model(ids)
        self.preds = torch.cat((self.preds, logits), dim=0)
    ```

    ## Use instead
    ```python
    # keep fixed-shape device accumulators (counts, sums), or a preallocated buffer written with a
    # device index (`buf.index_copy_(0, pos, x)`); move per-batch results to the host after the sync
    self.correct += (logits.argmax(-1) == labels).sum()
    ```

    ## Fix safety
    No automatic fix: a preallocated buffer needs its maximum size, and what the code later does with
    the concatenated tensor decides which fixed-shape form is equivalent.
    """

    code = "XLA454"
    fix = None
    name = "torch-tensor-grows-every-step"
    severity = Severity.RECOMPILE
    VALID = (
        Example("import torch\nimport torch_xla\n@torch_xla.compile\ndef step(x, y):\n    h = torch.relu(x)\n"
                "    h = torch.cat([h, y], dim=1)\n    return h\n"),
        # set afresh by tuple unpacking earlier in the same iteration (diffusers' ControlNet guess mode)
        Example("import torch\nimport torch_xla\ndef denoise(unet, controlnet, latents, timesteps):\n"
                "    for t in timesteps:\n        down, mid = controlnet(latents, t)\n"
                "        mid = torch.cat([torch.zeros_like(mid), mid])\n        latents = unet(latents, t, mid)\n"
                "        torch_xla.sync()\n    return latents\n"),
        Example("import torch\nimport torch_xla\ndef evaluate(model, loader):\n    preds = []\n"
                "    for x, y in loader:\n        acc = torch.zeros(0)\n        acc = torch.cat([acc, model(x)])\n"
                "        preds.append(acc)\n        torch_xla.sync()\n"),
        Example("import torch\nimport torch_xla\nclass Slot:\n    def __init__(self, ids):\n"
                "        self.tokens = ids.cpu()\n    def run(self, model, loader):\n        for x in loader:\n"
                "            tok = model(x).argmax(-1)\n            torch_xla.sync()\n"
                "            self.tokens = torch.cat([self.tokens, tok.cpu()])\n"),
        # a bounded window (a deque with maxlen), a list trimmed to its last items, a list built afresh per call
        Example("import collections\nimport torch\nimport torch.nn as nn\nimport torch_xla\n"
                "WINDOW = collections.deque(maxlen=4)\nHIST = []\nclass Net(nn.Module):\n    def forward(self, x):\n"
                "        h = torch.relu(x)\n        WINDOW.append(h.mean())\n        HIST.append(h.mean())\n"
                "        if len(HIST) > 4:\n            HIST.pop(0)\n        outs = []\n        outs.append(h)\n"
                "        return (torch.stack(list(WINDOW)).mean() + torch.stack(HIST).mean()\n"
                "                + torch.stack(outs).sum())\n",
                torch_xla=True),
        # the step loop's own variable, bound afresh from the loader at every trip: the batch doubled, a fixed shape
        Example("import torch\nimport torch_xla\nimport torch_xla.distributed.parallel_loader as pl\n"
                "def train(model, loader, opt):\n    device = torch_xla.device()\n"
                "    for data, target in pl.MpDeviceLoader(loader, device):\n"
                "        data = torch.cat([data, data], dim=0)\n        loss = model(data).sum()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n", torch_xla=True),
    )
    INVALID = (
        Example("import torch\nimport torch_xla\nclass Eval:\n    def __init__(self, model):\n"
                "        self.model, self.preds = model, None\n    def run(self, loader):\n        for x in loader:\n"
                "            out = self.model(x)\n            self.preds = torch.cat((self.preds, out), dim=0)\n"
                "            torch_xla.sync()\n",
                expected=(
                    (9, 26, 'a tensor kept across steps grows with `torch.cat` onto itself every step '
                            '(`self.preds`): each step has a new shape and torch_xla compiles a new graph; keep '
                            'fixed-shape accumulators or a preallocated buffer written with a device index'),
                )),
        Example("import torch\nimport torch_xla\ndef evaluate(model, loader):\n"
                "    preds = torch.zeros(0, 3, device=torch_xla.device())\n"
                "    for x, y in loader:\n        preds = torch.cat([preds, model(x)])\n        torch_xla.sync()\n",
                expected=(
                    (6, 17, 'a tensor kept across steps grows with `torch.cat` onto itself every step '
                            '(`preds`): each step has a new shape and torch_xla compiles a new graph; keep '
                            'fixed-shape accumulators or a preallocated buffer written with a device index'),
                )),
        # a module-level list one tensor longer at every step, stacked whole in the step
        Example("import torch\nimport torch.nn as nn\nimport torch_xla\nHIST = []\nclass Net(nn.Module):\n"
                "    def forward(self, x):\n        h = torch.relu(x)\n        HIST.append(h.mean())\n"
                "        return h * torch.stack(HIST).mean()\n", torch_xla=True,
                expected=(
                    (9, 20, 'a Python list kept across steps gets a device tensor appended every step and is joined '
                            'whole with `torch.stack` (`HIST`): each step has a new shape and torch_xla compiles a '
                            'new graph; keep a fixed-length window (`collections.deque(maxlen=k)`) or a preallocated '
                            'buffer written with a device index'),
                )),
        # a module-level list a `mark_step` loop fills and stacks whole at every iteration
        Example("import torch\nimport torch_xla.core.xla_model as xm\nHIST = []\n\n"
                "def train(model, opt, batches, device):\n    for x, y in batches:\n"
                "        out = model(x.to(device))\n        HIST.append(out.detach().mean())\n"
                "        loss = (out - torch.stack(HIST).mean()).pow(2).mean()\n        loss.backward()\n"
                "        opt.step()\n        xm.mark_step()\n",
                expected=(
                    (9, 23, 'a Python list kept across steps gets a device tensor appended every step and is joined '
                            'whole with `torch.stack` (`HIST`): each step has a new shape and torch_xla compiles a '
                            'new graph; keep a fixed-length window (`collections.deque(maxlen=k)`) or a preallocated '
                            'buffer written with a device index'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        torch = ctx.torch
        if not torch.steps:
            return
        regions: dict[int, list[ast.Assign]] = {}
        for node in torch.nodes:
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call)):
                continue
            call = node.value
            if torch.call_ops.get(id(call)) not in TORCH_CATS or not call.args \
                    or not isinstance(call.args[0], (ast.List, ast.Tuple)):
                continue
            step = torch.in_step(node)
            if step is None:
                continue
            assigns = regions.setdefault(id(step.node), _assigned(step.node))
            target = node.targets[0]
            if not _grows(target, call.args[0].elts, node, assigns, torch):
                continue
            if any(a is not node and any(_same(t, target) for t in _flat_targets(a)) and not _is_growth(a, target)
                   and id(a) not in _first_fill(step.node, target) for a in assigns):
                continue  # (re)set inside the step too: it need not grow from one step to the next
            if not _outlives(target, step, assigns):
                continue
            if any(_on_cpu(e, ctx) for e in call.args[0].elts) or _held_on_cpu(target, ctx):
                continue  # host-side bookkeeping (a CPU tensor grows on the CPU), not a graph input
            ctx.report(self, call, f"a tensor kept across steps grows with `{torch.call_ops[id(call)]}` onto itself "
                                   f"every step (`{ast.unparse(target)}`): each step has a new shape and torch_xla "
                                   "compiles a new graph; keep fixed-shape accumulators or a preallocated buffer "
                                   "written with a device index")
        for node in torch.nodes:
            if not isinstance(node, ast.Call) or torch.call_ops.get(id(node)) not in TORCH_JOINS:
                continue
            step = torch.in_step(node)
            kept = _whole_list(node)
            if step is None or kept is None or not _grown_list(kept, step, ctx):
                continue
            ctx.report(self, node, f"a Python list kept across steps gets a device tensor appended every step and is "
                                   f"joined whole with `{torch.call_ops[id(node)]}` (`{kept}`): each step has a new "
                                   "shape and torch_xla compiles a new graph; keep a fixed-length window "
                                   "(`collections.deque(maxlen=k)`) or a preallocated buffer written with a device "
                                   "index")


def _whole_list(call: ast.Call) -> str | None:
    """The name of the list a join takes whole: ``torch.stack(hist)``, ``torch.stack(list(hist))``."""
    if not call.args:
        return None
    a = call.args[0]
    if isinstance(a, ast.Call) and isinstance(a.func, ast.Name) and a.func.id in ("list", "tuple") \
            and len(a.args) == 1 and not a.keywords:
        a = a.args[0]
    return a.id if isinstance(a, ast.Name) else None


def _empty_list(e: ast.expr | None) -> bool:
    return isinstance(e, ast.List) and not e.elts or isinstance(e, ast.Call) and isinstance(e.func, ast.Name) \
        and e.func.id == "list" and not e.args and not e.keywords


def _trimmed(name: str, tree: ast.AST) -> bool:
    """Something in the file shortens, empties or rebinds the list from a function: ``clear``/``pop``/``remove``,
    ``del name[...]``, ``name[...] = ...``, ``global name``."""
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _SHRINKS \
                and isinstance(n.func.value, ast.Name) and n.func.value.id == name:
            return True
        targets = n.targets if isinstance(n, (ast.Delete, ast.Assign)) else [n.target] \
            if isinstance(n, ast.AugAssign) else []
        if any(isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == name for t in targets):
            return True
        if isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names:
            return True
    return False


def _grown_list(name: str, step: Step, ctx: ModuleContext) -> bool:
    """``name`` is a list that outlives the step and that the step lengthens by a device tensor every step:
    the step appends a proven non-CPU tensor to it and never rebinds it; it is bound once, to an empty list
    (``[]``, ``list()``), outside the step: at module level for a step function (a local of the function starts
    afresh at each call), in the loop's own function before the loop for a step loop (or at module level where
    that function binds nothing of that name); nothing trims it."""
    torch = ctx.torch
    region = step.node
    if not any(isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "append"
               and isinstance(c.func.value, ast.Name) and c.func.value.id == name and len(c.args) == 1
               and torch.tensor(c.args[0]) and not torch.of(c.args[0]) & CPU for c in ast.walk(region)):
        return False
    if _trimmed(name, ctx.tree):
        return False
    own = list(own_statements(getattr(region, "body", [])))
    if any(name in bound_names(s) for s in own):
        return False  # (re)bound in the step: a new list at each step or call
    if step.loop is not None:
        scope = step.owner
        if isinstance(region, ast.stmt) and name in bound_names(region):
            return False  # the loop's own target
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and not any(
                name in bound_names(s) for s in own_statements(scope.body)) and name not in {
                a.arg for a in [*scope.args.posonlyargs, *scope.args.args, *scope.args.kwonlyargs]}:
            scope = ctx.tree  # a module-level list the loop's function only fills: it outlives every iteration
    elif isinstance(region, (ast.FunctionDef, ast.AsyncFunctionDef)):
        if name in {a.arg for a in [*region.args.posonlyargs, *region.args.args, *region.args.kwonlyargs]}:
            return False
        scope = ctx.tree
    else:
        return False
    body = getattr(scope, "body", None)
    if not isinstance(body, list):
        return False
    bindings = [s for s in own_statements(body) if name in bound_names(s)]
    return len(bindings) == 1 and isinstance(bindings[0], ast.Assign) and _empty_list(bindings[0].value)


_FACTORIES = frozenset({"tensor", "as_tensor", "zeros", "ones", "full", "empty", "arange", "rand", "randn",
                        "randint", "linspace", "eye", "LongTensor", "FloatTensor", "BoolTensor", "IntTensor"})


def _on_cpu(e: ast.expr, ctx: ModuleContext) -> bool:
    """A piece built on the CPU: a torch factory without ``device=`` or a ``.cpu()`` copy (concatenated
    with a device tensor it would raise, so the grown tensor lives on the CPU)."""
    if not isinstance(e, ast.Call):
        return False
    if isinstance(e.func, ast.Attribute) and e.func.attr == "cpu":
        return True
    name = ctx.facts.aliases.resolve(e.func) or ""
    return name.startswith("torch.") and name.rsplit(".", 1)[-1] in _FACTORIES \
        and not any(kw.arg == "device" for kw in e.keywords)


def _held_on_cpu(target: ast.expr, ctx: ModuleContext) -> bool:
    """Some assignment in the file gives the target a CPU tensor (``self._tokens = input_ids.cpu()``)."""
    for n in ast.walk(ctx.tree):
        if isinstance(n, ast.Assign) and any(_same(t, target) for t in n.targets) and _on_cpu(n.value, ctx):
            return True
    return False


def _is_growth(a: ast.Assign, target: ast.expr) -> bool:
    v = a.value
    return isinstance(v, ast.Call) and bool(v.args) and isinstance(v.args[0], (ast.List, ast.Tuple)) and any(
        _same(e, target) for e in v.args[0].elts)


def _grows(target: ast.expr, parts: list[ast.expr], node: ast.Assign, assigns: list[ast.Assign],
           torch: TorchFacts) -> bool:
    """One of the concatenated pieces is the target itself, or a name the step read from it
    (``ids = state["ids"]`` ... ``state["ids"] = torch.cat([ids, nxt], 1)``)."""
    for p in parts:
        if _same(p, target):
            return True
        if isinstance(p, ast.Name):
            sources = [a.value for a in assigns if any(isinstance(t, ast.Name) and t.id == p.id for t in a.targets)]
            if len(sources) == 1 and _same(sources[0], target) and sources[0].lineno < node.lineno:
                return True
    return False
