"""XLA561: a DataLoader's ``collate_fn`` packs its examples end to end, feeding a torch_xla loop."""

from __future__ import annotations

import ast

from xlacheck.analysis.torch_model import recompiles
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule
from xlacheck.rules.torch_collate_pads_to_longest import collate_functions_feeding_steps

_FROM_LIST = frozenset({"torch.tensor", "torch.as_tensor", "torch.LongTensor", "torch.IntTensor"})
# Element forms that give each example a batch axis of its own (``x[None]``, ``x.unsqueeze(0)``,
# ``x.view(1, -1)``): concatenated, they make a batch of the loader's size, not a packed stream.
_ADDS_AXIS = frozenset({"unsqueeze", "view", "reshape", "expand", "repeat"})


def _params(func: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    a = func.args
    return {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs} - {"self", "cls"}


def _over_params(e: ast.expr, params: set[str]) -> bool:
    """``e`` is built from the collate function's batch argument (a name in it appears)."""
    return any(isinstance(n, ast.Name) and n.id in params for n in ast.walk(e))


def _adds_axis(elt: ast.expr) -> bool:
    for n in ast.walk(elt):
        if isinstance(n, ast.Subscript) and any(isinstance(x, ast.Constant) and x.value is None
                                                for x in ast.walk(n.slice)):
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _ADDS_AXIS:
            return True
    return False


def _one_dimensional(elt: ast.expr, ctx: ModuleContext) -> bool:
    """The element is built as a 1-D sequence: ``torch.tensor(ex["ids"])`` of a list of ids, or an
    example's tensor with its batch axis removed (``ex["input_ids"].squeeze(0)``, ``.flatten()``)."""
    if isinstance(elt, ast.Call):
        if ctx.facts.aliases.resolve(elt.func) in _FROM_LIST:
            return True
        return isinstance(elt.func, ast.Attribute) and elt.func.attr in ("squeeze", "flatten", "ravel")
    return False


def _keyword_in_file(ctx: ModuleContext, arg: str, value: str) -> bool:
    return any(isinstance(n, ast.keyword) and n.arg == arg and isinstance(n.value, ast.Constant)
               and n.value.value == value for n in ast.walk(ctx.tree))


def _returns_batched_tensors(ctx: ModuleContext) -> bool:
    """The file calls a tokenizer or processor with ``return_tensors="pt"``: its outputs keep a batch
    axis of 1 (``input_ids`` of shape (1, L)), so concatenating such examples along dim 0 stacks a
    batch of the loader's size rather than packing a stream."""
    return _keyword_in_file(ctx, "return_tensors", "pt")


def _per_example_list(e: ast.expr, func: ast.AST, params: set[str], ctx: ModuleContext) -> bool:
    """A list (or generator) with one entry per example of the batch: a comprehension over the
    batch argument whose element does not add a batch axis, or a name assigned one. An element
    taken as it comes (``ex["input_ids"]``) has an unknown rank: it counts unless the file makes
    its examples with ``return_tensors="pt"`` (then each has a batch axis already)."""
    if isinstance(e, (ast.ListComp, ast.GeneratorExp)):
        return any(_over_params(g.iter, params) for g in e.generators) and not _adds_axis(e.elt) \
            and (_one_dimensional(e.elt, ctx) or not _returns_batched_tensors(ctx))
    if isinstance(e, ast.Name):
        values = [n.value for n in ast.walk(func) if isinstance(n, ast.Assign) and len(n.targets) == 1
                  and isinstance(n.targets[0], ast.Name) and n.targets[0].id == e.id]
        return len(values) == 1 and isinstance(values[0], (ast.ListComp, ast.GeneratorExp)) \
            and _per_example_list(values[0], func, params, ctx)
    return False


def _flat_token_lists(func: ast.AST, params: set[str]) -> set[str]:
    """Names of Python lists that a loop over the batch argument extends with each example's
    sequence (``flat.extend(ex["input_ids"])``): a token stream as long as the batch's total."""
    out: set[str] = set()
    for loop in ast.walk(func):
        if not isinstance(loop, ast.For) or not _over_params(loop.iter, params):
            continue
        for c in ast.walk(loop):
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr in ("extend", "__iadd__") \
                    and isinstance(c.func.value, ast.Name):
                out.add(c.func.value.id)
        for s in ast.walk(loop):
            if isinstance(s, ast.AugAssign) and isinstance(s.op, ast.Add) and isinstance(s.target, ast.Name):
                out.add(s.target.id)
    # truncated or rebuilt to a budget (``flat = flat[:n] + pad``, ``flat[:n]``): not the raw stream
    for n in ast.walk(func):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Name) and t.id in out and not (isinstance(n.value, ast.List) and not n.value.elts):
                    out.discard(t.id)
        elif isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and isinstance(n.slice, ast.Slice):
            out.discard(n.value.id)
    return out


def _packs(ctx: ModuleContext, func: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.Call | None:
    """The call that packs the batch's examples into one stream, when the function returns it as
    built (not truncated or padded to a fixed budget afterwards)."""
    resolve = ctx.facts.aliases.resolve
    if _keyword_in_file(ctx, "padding", "max_length"):
        return None  # the file tokenizes every example to one fixed length: the stream's length is fixed too
    params = _params(func)
    flat = _flat_token_lists(func, params)
    packed: dict[str, ast.Call] = {}
    candidates: list[ast.Call] = []
    for n in ast.walk(func):
        if not isinstance(n, ast.Call):
            continue
        name = resolve(n.func)
        if name == "torch.cat" and n.args:
            dim = n.args[1] if len(n.args) > 1 else next(
                (k.value for k in n.keywords if k.arg in ("dim", "axis")), None)
            if (dim is None or isinstance(dim, ast.Constant) and dim.value == 0) \
                    and _per_example_list(n.args[0], func, params, ctx):
                candidates.append(n)
        elif name in _FROM_LIST and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id in flat:
            candidates.append(n)
    if not candidates:
        return None
    ids = {id(c) for c in candidates}
    for n in ast.walk(func):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and id(n.value) in ids:
            packed[n.targets[0].id] = n.value  # type: ignore[assignment]  # (a candidate Call)
    # a name rebound later, sliced or padded is not returned as built
    for n in ast.walk(func):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Name) and t.id in packed and packed[t.id] is not n.value:
                    packed.pop(t.id)
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            packed.pop(n.target.id, None)
        elif isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id in packed \
                and isinstance(n.slice, ast.Slice):
            packed.pop(n.value.id)
    for ret in ast.walk(func):
        if not isinstance(ret, ast.Return) or ret.value is None:
            continue
        parts: list[ast.expr] = [ret.value]
        if isinstance(ret.value, (ast.Tuple, ast.List)):
            parts = list(ret.value.elts)
        elif isinstance(ret.value, ast.Dict):
            parts = list(ret.value.values)
        for p in parts:
            if id(p) in ids:
                return p  # type: ignore[return-value]  # (a candidate Call)
            if isinstance(p, ast.Name) and p.id in packed:
                return packed[p.id]
    return None


class TorchCollatePacksExamples(ModuleRule):
    """
    ## What it does
    Flags a `collate_fn` that packs the batch's examples end to end and returns the stream as
    built: `torch.cat([...one entry per example...])` along dim 0, or `torch.tensor(flat)` of a
    list that a loop over the batch extends with each example (`flat.extend(ex["input_ids"])`),
    when its DataLoader feeds a torch_xla loop (directly or through `MpDeviceLoader`; an
    evaluation loop too: each new length compiles there as well, not once like a last partial batch).
    Not flagged: a stream truncated or padded to a fixed token budget before it is returned
    (`torch.cat(docs)[:budget]` padded back to `budget`), entries that get a batch axis each
    (`x[None]`, `x.unsqueeze(0)`: a batch of the loader's size), concatenation along another dim,
    entries taken as they come (`ex["input_ids"]`) in a file that makes its examples with
    `return_tensors="pt"` (a tokenizer's or processor's output has a batch axis of 1 already: the
    concatenation stacks a batch), and any collate in a file that tokenizes with
    `padding="max_length"` (every example has one length).

    ## Why is this bad?
    The packed length is the batch's total token count, a new number for almost every batch. Each
    new length is a new input shape, and torch_xla traces and compiles the whole step again
    (measured in `xlacheck/data/torch_xla_recompile.json`: `cat_varying_count` and
    `sequence_length` recompile at each new value; pytorch/xla #6413: inputs whose size follows
    batch * length compile a new graph each time).

    ## Example
    ```python
    def collate(batch):
        ids = torch.cat([torch.tensor(ex["input_ids"]) for ex in batch])
        return {"input_ids": ids}
    ```

    ## Use instead
    ```python
    def collate(batch, budget=4096):
        ids = torch.cat([torch.tensor(ex["input_ids"]) for ex in batch])[:budget]
        ids = F.pad(ids, (0, budget - ids.numel()), value=PAD)  # one shape; mask PAD in the loss
        return {"input_ids": ids}
    ```

    ## Fix safety
    No automatic fix: the budget, the padding id and the loss mask are the model's choice.
    """

    code = "XLA561"
    checks_test_files = False  # set-up rule: a test's set-up is a toy on purpose
    fix = None
    name = "torch-collate-packs-examples"
    severity = Severity.RECOMPILE
    VALID = (
        Example("import torch\nimport torch_xla\nfrom torch.utils.data import DataLoader\n"
                "def collate(batch):\n    ids = torch.cat([ex['ids'] for ex in batch])[:512]\n"
                "    return torch.cat([ids, ids.new_zeros(512 - ids.numel())])\n"
                "def train(model, ds, opt):\n"
                "    loader = DataLoader(ds, batch_size=8, collate_fn=collate, drop_last=True)\n"
                "    for x in loader:\n        model(x).sum().backward()\n        opt.step()\n"
                "        torch_xla.sync()\n"),
        Example("import torch\nimport torch_xla\nfrom torch.utils.data import DataLoader\n"
                "def collate(batch):\n    return torch.cat([ex['image'].unsqueeze(0) for ex in batch])\n"
                "def train(model, ds, opt):\n"
                "    loader = DataLoader(ds, batch_size=8, collate_fn=collate, drop_last=True)\n"
                "    for x in loader:\n        model(x).sum().backward()\n        opt.step()\n"
                "        torch_xla.sync()\n"),
    )
    INVALID = (
        Example("import torch\nimport torch_xla\nfrom torch.utils.data import DataLoader\n"
                "def collate(batch):\n    return torch.cat([ex['ids'] for ex in batch])\n"
                "def train(model, ds, opt):\n"
                "    loader = DataLoader(ds, batch_size=8, collate_fn=collate, drop_last=True)\n"
                "    for x in loader:\n        model(x).sum().backward()\n        opt.step()\n"
                "        torch_xla.sync()\n",
                expected=(
                    (5, 12, "this collate_fn packs the batch's examples end to end: the stream is as long as the "
                            "batch's total token count, a new shape for almost every batch, and its DataLoader "
                            "(line 7) feeds a torch_xla loop that compiles its step again for each; "
                            "truncate and pad the stream to a fixed token budget (mask the padding)"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        if not ctx.torch.steps or not recompiles("cat_varying_count", "sequence_length"):
            return
        reported: set[int] = set()
        for loader, _, funcs in collate_functions_feeding_steps(ctx):
            for func in funcs:
                hit = _packs(ctx, func)
                if hit is None or id(hit) in reported:
                    continue
                reported.add(id(hit))
                ctx.report(self, hit, "this collate_fn packs the batch's examples end to end: the stream is as long "
                                      "as the batch's total token count, a new shape for almost every batch, and its "
                                      f"DataLoader (line {loader.lineno}) feeds a torch_xla loop "
                                      "that compiles its step again for each; truncate and pad the stream to a fixed "
                                      "token budget (mask the padding)")
                break
