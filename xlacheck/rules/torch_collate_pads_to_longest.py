"""XLA453: a DataLoader's ``collate_fn`` pads each batch to its longest sequence, feeding a torch_xla loop."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from xlacheck.analysis import longest_length_of
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule
from xlacheck.rules.torch_dataloader_without_drop_last import loaders_feeding_steps

_PAD_SEQUENCE = frozenset({"torch.nn.utils.rnn.pad_sequence"})
# Rounding that turns the batch maximum into a few bucket lengths.
_ROUNDING = (ast.FloorDiv, ast.Mod)


def collate_functions_feeding_steps(
        ctx: ModuleContext) -> Iterator[tuple[ast.Call, ast.expr, list[ast.FunctionDef | ast.AsyncFunctionDef]]]:
    """Each DataLoader that feeds step code and has a ``collate_fn=``: (the loader call, the
    ``collate_fn`` value, the same-file functions it runs). XLA453 and XLA561 read it."""
    for loader in loaders_feeding_steps(ctx):
        value = next((kw.value for kw in loader.keywords if kw.arg == "collate_fn"), None)
        if value is not None:
            yield loader, value, _collate_functions(ctx, value)


def _collate_values(ctx: ModuleContext) -> Iterator[ast.expr]:
    """The ``collate_fn=`` value of every ``DataLoader(...)`` call of the file, whatever it feeds."""
    resolve = ctx.facts.aliases.resolve
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Call) and resolve(node.func) == "torch.utils.data.DataLoader":
            yield from (kw.value for kw in node.keywords if kw.arg == "collate_fn")


def _collate_functions(ctx: ModuleContext, value: ast.expr) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The same-file functions a ``collate_fn=`` value runs: a function name, ``functools.partial(f,
    ...)``, a lambda's callees, an instance of a class (its ``__call__``), ``self.method``."""
    resolve = ctx.facts.aliases.resolve
    refs: list[ast.expr] = [value]
    if isinstance(value, ast.Call) and resolve(value.func) == "functools.partial" and value.args:
        refs = [value.args[0]]
    elif isinstance(value, ast.Lambda):
        refs = [c.func for c in ast.walk(value.body) if isinstance(c, ast.Call)]
    elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        refs = [ast.Name(id=f"{value.func.id}.__call__")]
    out: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    for ref in refs:
        for f in ctx.facts.functions:
            if isinstance(f.node, ast.Lambda):
                continue
            if isinstance(ref, ast.Name) and "." in ref.id:
                cls, meth = ref.id.split(".", 1)
                if f.cls is not None and f.cls.node.name == cls and f.name == meth:
                    out.append(f.node)
            elif isinstance(ref, ast.Name) and f.name == ref.id and f.cls is None:
                out.append(f.node)
            elif isinstance(ref, ast.Attribute) and isinstance(ref.value, ast.Name) and ref.value.id == "self" \
                    and f.name == ref.attr and f.cls is not None:
                out.append(f.node)
    return out


def _pads_to_longest(ctx: ModuleContext, func: ast.AST) -> ast.Call | None:
    """The node that pads to the batch's longest: ``pad_sequence(...)``, or ``max(len(x) for ...)``
    used as a length without rounding it to a multiple."""
    resolve = ctx.facts.aliases.resolve
    longest: dict[str, ast.Call] = {}
    rounded: set[str] = set()
    for n in ast.walk(func):
        if isinstance(n, ast.Call) and resolve(n.func) in _PAD_SEQUENCE:
            return n
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            name = n.targets[0].id
            if longest_length_of(n.value) is not None:
                longest[name] = n.value  # type: ignore[assignment]  # (a max(...) Call, checked above)
            elif name in longest and any(isinstance(b, ast.BinOp) and isinstance(b.op, _ROUNDING)
                                         for b in ast.walk(n.value)):
                rounded.add(name)
            elif name in longest:
                rounded.add(name)  # reassigned to something else: not the raw maximum
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("ceil",):
            rounded |= {x.id for x in ast.walk(n) if isinstance(x, ast.Name)}
    for name, call in longest.items():
        if name in rounded:
            continue
        if any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) for n in ast.walk(func)):
            return call
    return None


def _sizes_torch_tensor(ctx: ModuleContext, func: ast.AST, hit: ast.Call) -> bool:
    """``pad_sequence`` itself, or the name holding the maximum is an argument of a torch call
    (``torch.full((n, longest), pad)``, ``F.pad(x, (0, longest - len(x)))``)."""
    resolve = ctx.facts.aliases.resolve
    if resolve(hit.func) in _PAD_SEQUENCE:
        return True
    names = {n.targets[0].id for n in ast.walk(func) if isinstance(n, ast.Assign) and n.value is hit
             and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)}
    # names computed from it, also in a nested helper (lit-llama's `pad_right`: `n = max_len - len(x)`,
    # `torch.full((n,), pad)`); a rounded value is no longer the batch's own longest
    assigns = [(n.targets[0].id, n.value) for n in ast.walk(func) if isinstance(n, ast.Assign)
               and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)]
    grown = True
    while grown:
        grown = False
        for target, value in assigns:
            if target not in names and not any(isinstance(b, ast.BinOp) and isinstance(b.op, _ROUNDING)
                                               for b in ast.walk(value)) \
                    and any(isinstance(x, ast.Name) and x.id in names for x in ast.walk(value)):
                names.add(target)
                grown = True
    for c in ast.walk(func):
        if isinstance(c, ast.Call) and (resolve(c.func) or "").startswith("torch.") and any(
                isinstance(x, ast.Name) and x.id in names for a in [*c.args, *(k.value for k in c.keywords)]
                for x in ast.walk(a)):
            return True
    return False


def batch_builders_padding_to_longest(ctx: ModuleContext) -> list[tuple[ast.AST, ast.Call]]:
    """(function, the call that pads) for each function of a declared project with a step in this file that
    makes torch tensors as long as its batch's longest sequence, outside a DataLoader's ``collate_fn``: a
    module-level function or a method that is no step. XLA453 reports them; XLA450 leaves the sizes they
    set to it (one finding for one padded batch)."""
    if not ctx.torch.steps or not ctx.torch.declared:
        return []
    # Declared project (its torch code runs on XLA) with a step in this file: a batch builder that
    # makes torch tensors as long as the batch's longest sequence feeds that step however it is called.
    steps = {id(st.node) for st in ctx.torch.steps}
    # a DataLoader's collate_fn (also one nested in the function that builds the loader) is judged
    # by whether its loader's batches reach a step
    in_collates = {id(n) for value in _collate_values(ctx) for func in _collate_functions(ctx, value)
                   for n in ast.walk(func)}
    out: list[tuple[ast.AST, ast.Call]] = []
    for f in ctx.facts.functions:
        node = f.node
        if isinstance(node, ast.Lambda) or f.parent is not None or id(node) in steps and f.cls is not None:
            continue  # (a module-level batch builder the loop calls between syncs is step code too: lit-llama's
            #           get_batch; methods in the step, forward among them, are not batch builders)
        hit = _pads_to_longest(ctx, node)
        if hit is None or id(hit) in in_collates or not _sizes_torch_tensor(ctx, node, hit):
            continue
        if _set_up_of_its_loop(ctx, node, hit):
            continue
        out.append((node, hit))
    return out


def _set_up_of_its_loop(ctx: ModuleContext, func: ast.AST, hit: ast.AST) -> bool:
    """The function runs a step loop itself (a training script's ``main``) and takes the maximum in its own
    statements before or after that loop, not in one of its trips nor in a nested function: it runs once per
    run, over the data set (parler-tts' ``max(len(l[0]) for l in max_sample["labels"])``, the longest target
    of the training set for ``padding="max_length"``), not once per batch."""
    loops = [st.loop for st in ctx.torch.steps if st.loop is not None and st.owner is func]
    if not loops:
        return False
    line = getattr(hit, "lineno", 0)
    if any(loop.lineno <= line <= (loop.end_lineno or loop.lineno) for loop in loops):
        return False
    return not any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and n is not func
                   and n.lineno <= line <= (n.end_lineno or n.lineno) for n in ast.walk(func))


class TorchCollatePadsToLongest(ModuleRule):
    """
    ## What it does
    Flags a `collate_fn` that pads each batch to its own longest sequence
    (`torch.nn.utils.rnn.pad_sequence`, or a length computed as `max(len(x) for x in batch)`
    and not rounded up to a multiple) when its DataLoader feeds a torch_xla training loop
    (directly or through `MpDeviceLoader`). With the `--torch-xla` declaration (the project's
    torch code runs on XLA) and a step in the file, also any top-level function or method that
    builds torch tensors that long (`torch.full((b, longest), pad)`, `pad_sequence`), however the
    batch reaches the step; not a function that runs the step loop itself and takes the longest in
    its own statements outside that loop (once per run, over the data set). Hugging Face collators
    and tokenizer padding are XLA401's.
    By default only the `collate_fn` of a DataLoader that feeds a step of the same file is
    reported; the batch builders need `--preview` (below 90% true findings on judged real code).

    ## Why is this bad?
    Each batch gets the length of its longest example, so the step sees a new input shape for
    almost every batch, and torch_xla traces and compiles the whole step again for each new
    length (minutes per shape on a TPU). pytorch/xla #1509 and fairseq #4198 (XLA recompiling
    nearly every step) were this: the fix was padding to a fixed length.

    ## Example
    ```python
    def collate(batch):
        ids = pad_sequence([b["ids"] for b in batch], batch_first=True)
        return ids, torch.stack([b["label"] for b in batch])
    loader = DataLoader(ds, batch_size=32, collate_fn=collate, drop_last=True)
    ```

    ## Use instead
    ```python
    def collate(batch, multiple=64):
        ids = pad_sequence([b["ids"] for b in batch], batch_first=True)
        ids = F.pad(ids, (0, -ids.shape[1] % multiple))  # a few bucket lengths
        return ids, torch.stack([b["label"] for b in batch])
    ```

    ## Fix safety
    No automatic fix: longer batches cost memory, and the model must mask the extra padding.
    """

    code = "XLA453"
    fix = None
    name = "torch-collate-pads-to-longest"
    severity = Severity.RECOMPILE
    # Behind --preview but for one path: on the judged PyTorch corpora (benchmarks/judged_real_code.py) 1 of its
    # 3 findings was true (docs/torchprec32.md); whether the lengths vary is in the data, not the code. All 3 were
    # batch builders; a DataLoader's own collate_fn feeding a step of the same file is reported by default.
    VALID = (
        Example("import torch\nimport torch_xla\nfrom torch.utils.data import DataLoader\n"
                "from torch.nn.utils.rnn import pad_sequence\n"
                "def collate(batch):\n    return pad_sequence(batch, batch_first=True)\n"
                "def evaluate(model, ds):\n"
                "    loader = DataLoader(ds, batch_size=8, collate_fn=collate, drop_last=True)\n"
                "    return [model(x) for x in loader]\n"),
        # lit-llama's finetune loops: the loop draws from the loader but trains on get_batch(...), so the
        # loader's padded batches never reach the model (fourth first sight, corpora13)
        Example("import torch\nimport torch_xla\nfrom torch.utils.data import DataLoader\n"
                "from torch.nn.utils.rnn import pad_sequence\n"
                "def collate(batch):\n    return pad_sequence(batch, batch_first=True)\n"
                "def train(model, ds, opt, get_batch):\n"
                "    loader = DataLoader(ds, batch_size=8, collate_fn=collate, drop_last=True)\n"
                "    for i, x in enumerate(loader):\n        x = get_batch(i)\n"
                "        model(x).sum().backward()\n        opt.step()\n        torch_xla.sync()\n"),
        Example("import torch\nimport torch_xla\ndef get_batch(data, device, block_size=64):\n"
                "    ix = torch.randint(len(data), (4,))\n    seqs = [data[i] for i in ix]\n"
                "    max_len = block_size\n\n    def pad_right(x):\n        n = max_len - len(x)\n"
                "        return torch.cat((x, torch.zeros(n, dtype=x.dtype)))\n\n"
                "    return torch.stack([pad_right(s) for s in seqs]).to(device)\n"
                "def train(model, data, opt, device):\n    for _ in range(100):\n        x = get_batch(data, device)\n"
                "        model(x).sum().backward()\n        opt.step()\n        torch_xla.sync()\n",
                torch_xla=True),
        # the function that runs the step loop takes the data set's longest once, before the loop: one length
        Example("import torch\nimport torch_xla\ndef main(model, dataset, loader, opt):\n"
                "    device = torch_xla.device()\n    longest = max(len(ids) for ids in dataset)\n"
                "    pad = torch.zeros(1, longest, dtype=torch.long)\n    for ids in loader:\n"
                "        loss = model(torch.cat([ids, pad]).to(device)).sum()\n        loss.backward()\n"
                "        opt.step()\n        torch_xla.sync()\n", torch_xla=True),
    )
    INVALID = (
        Example("import torch\nimport torch_xla\nfrom torch.utils.data import DataLoader\n"
                "from torch.nn.utils.rnn import pad_sequence\n"
                "def collate(batch):\n    return pad_sequence(batch, batch_first=True)\n"
                "def train(model, ds, opt):\n"
                "    loader = DataLoader(ds, batch_size=8, collate_fn=collate, drop_last=True)\n"
                "    for x in loader:\n        model(x).sum().backward()\n        opt.step()\n"
                "        torch_xla.sync()\n",
                expected=(
                    (8, 54, 'this collate_fn pads each batch to its longest sequence (line 6) and its DataLoader '
                            'feeds a torch_xla training loop: every new length is a new input shape, and torch_xla '
                            'compiles the step again; pad to a fixed length or round the length up to a '
                            'multiple (a few buckets)'),
                )),
        # a batch builder the loop calls between syncs (lit-llama's get_batch): the longest length reaches
        # torch.zeros through a name computed from it in a nested helper
        Example("import torch\nimport torch_xla\ndef get_batch(data, device):\n"
                "    ix = torch.randint(len(data), (4,))\n    seqs = [data[i] for i in ix]\n"
                "    max_len = max(len(s) for s in seqs)\n\n    def pad_right(x):\n        n = max_len - len(x)\n"
                "        return torch.cat((x, torch.zeros(n, dtype=x.dtype)))\n\n"
                "    return torch.stack([pad_right(s) for s in seqs]).to(device)\n"
                "def train(model, data, opt, device):\n    for _ in range(100):\n        x = get_batch(data, device)\n"
                "        model(x).sum().backward()\n        opt.step()\n        torch_xla.sync()\n",
                torch_xla=True,
                preview=True,
                expected=(
                    (6, 15, "this function pads a batch of torch tensors to its longest sequence, and this project's "
                            "torch code runs on XLA: every new length is a new input shape, and torch_xla compiles "
                            "the step again; pad to a fixed length or round the length up to a multiple (a few "
                            "buckets)"),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        if not ctx.torch.steps:
            return
        reported: set[int] = set()
        for _, value, funcs in collate_functions_feeding_steps(ctx):
            for func in funcs:
                hit = _pads_to_longest(ctx, func)
                if hit is None:
                    continue
                ctx.report(self, value, f"this collate_fn pads each batch to its longest sequence (line {hit.lineno}) "
                                        "and its DataLoader feeds a torch_xla training loop: every new length is a "
                                        "new input shape, and torch_xla compiles the step again; pad to a fixed "
                                        "length or round the length up to a multiple (a few buckets)")
                reported.add(id(func))
                break
        for node, hit in batch_builders_padding_to_longest(ctx) if ctx.preview else ():
            if id(node) in reported:
                continue
            ctx.report(self, hit, "this function pads a batch of torch tensors to its longest sequence, and this "
                                  "project's torch code runs on XLA: every new length is a new input shape, and "
                                  "torch_xla compiles the step again; pad to a fixed length or round the length up "
                                  "to a multiple (a few buckets)")
