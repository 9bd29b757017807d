"""XLA250: an op whose output shape depends on tensor values, inside a torch_xla step."""

from __future__ import annotations

import ast

from xlacheck.analysis import walk
from xlacheck.analysis.torch_model import BOOL, CPU, STRUCT, Step, op_table
from xlacheck.diagnostics import Applicability, Edit, Fix, Location, Severity
from xlacheck.rules.base import INLINE, Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule

# Rewrites with a static shape, by op (the message names the one that fits).
_REWRITE = {
    "nonzero": "the mask itself and compute with it (`x * mask`, `torch.where(mask, x, 0)`, `masked_fill`)",
    "argwhere": "the mask itself and compute with it (`x * mask`, `torch.where(mask, x, 0)`)",
    "masked_select": "`torch.where(mask, x, 0)` (or `x * mask`) and reduce with the mask's sum",
    "unique": "a fixed-size encoding (`F.one_hot(x, num_classes).amax(0)`) or `torch.bincount`-free counting",
    "unique_consecutive": "a fixed-size encoding with a mask of run starts",
    "where": "three-argument `torch.where(cond, x, y)`",
    "repeat_interleave": "an integer `repeats` (static) or a gather from a fixed-size index",
    "getitem": "`masked_fill(~mask, 0)`, `torch.where(mask, x, 0)`, or a loss with `ignore_index`",
    "setitem": "`x = x.masked_fill(mask, value)` or `torch.where(mask, value, x)`",
}


def _leaf(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _simple(e: ast.expr) -> bool:
    """A name or attribute chain (``x``, ``out.logits``): safe to write twice in a rewrite."""
    while isinstance(e, ast.Attribute):
        e = e.value
    return isinstance(e, ast.Name)


def _reduction_fix(call: ast.Call, sub: ast.Subscript, torch_name: str) -> Fix | None:
    """``x[m].sum()`` -> ``torch.where(m, x, 0).sum()``; ``x[m].mean()`` -> the masked sum over the
    mask's count. Same values and gradients (unselected elements, NaN included, contribute 0; an
    empty mask gives 0 and NaN as before). When the mask is a comparison of ``x`` itself it has
    ``x``'s shape; otherwise it is viewed with trailing singleton dims (``x[m]`` with a (B, T) mask
    on a (B, T, D) tensor selects whole rows)."""
    x, m = sub.value, sub.slice
    if call.args or call.keywords or not _simple(x):
        return None
    xs = ast.unparse(x)
    same_shape = isinstance(m, ast.Compare) and any(ast.unparse(o) == xs for o in [m.left, *m.comparators]) \
        and all(_simple(o) or isinstance(o, ast.Constant) for o in [m.left, *m.comparators])
    if same_shape:
        mask = ast.unparse(m)
    elif _simple(m):
        ms = ast.unparse(m)
        mask = f"{ms}.view(*{ms}.shape, *[1] * ({xs}.dim() - {ms}.dim()))"
    else:
        return None
    kept = f"{torch_name}.where({mask}, {xs}, 0)"
    method = call.func.attr  # type: ignore[attr-defined]
    text = f"{kept}.sum()" if method == "sum" else f"({kept}.sum() / ({mask}).expand_as({xs}).sum())"
    if call.end_lineno is None or call.end_col_offset is None:
        return None
    edit = Edit(Location(call.lineno, call.col_offset), Location(call.end_lineno, call.end_col_offset), text)
    return Fix(f"Reduce under the mask: {torch_name}.where(mask, x, 0) (static shape)", (edit,), Applicability.SAFE)


def _fixed_in(index: ast.expr, step: Step | None) -> bool:
    """``index`` is a name the step never binds, changes in place, nor takes as a parameter: made before the
    loop, the same value at every step. A device tensor indexed by such a CPU mask gets the same count each
    time: torch_xla computes the indices on the CPU and compiles one program (rebuilt: `w[mask] = orig[mask]`
    with `mask = torch.arange(10) < 3`, six steps, two compiles, the first with the set-up, no aten:: fallback)."""
    if not isinstance(index, ast.Name) or step is None:
        return False
    node = step.node
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and index.id in {
            a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs}:
        return False
    for n in walk(node):
        if isinstance(n, ast.Name) and n.id == index.id and not isinstance(n.ctx, ast.Load):
            return False
        if isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.value, ast.Name) and n.value.id == index.id \
                and (not isinstance(n.ctx, ast.Load) or isinstance(n, ast.Attribute) and n.attr.endswith("_")):
            return False  # changed in place in the step (`mask[i] = True`, `mask.fill_(...)`): no longer fixed
    return True


def data_dependent_ops() -> frozenset[str]:
    """Ops the generated table saw change their output shape with the input values (and that fall back)."""
    return frozenset(n for n, e in op_table()["ops"].items() if e.get("data_dependent_shape"))


class TorchDataDependentShape(ModuleRule):
    """
    ## What it does
    Flags ops whose output shape depends on tensor values inside a torch_xla step: boolean-mask
    indexing `x[mask]` and assignment `x[mask] = v` (with `mask` proven a bool tensor: a
    comparison, `.bool()`, or a name the same function also passes where torch accepts only a
    bool tensor, such as `masked_fill`'s mask or three-argument `where`'s condition; the table's
    `bool_arguments`, measured by calling each op with a float and an integer tensor there),
    `nonzero`, `argwhere`, `masked_select`, one-argument `torch.where`, `unique`,
    `repeat_interleave` with tensor `repeats` (the method form also on what step code hands a
    module or gets from one and on its rows, `for row in mask: row.nonzero()`: a module takes and
    returns torch tensors, not the NumPy arrays that share `nonzero`). The set comes from the generated table
    (`xlacheck/data/torch_xla_ops.json`, docs/torch-op-table.md): ops whose output shape moved
    between two inputs of the same shape, and the argument-dependent probes.

    ## Why is this bad?
    XLA compiles static shapes. torch_xla runs these ops on the CPU (`aten::nonzero`,
    `aten::masked_select`, `aten::_unique2` ... fall back), copies the inputs to the host and
    the result back, and the graph after them is compiled again whenever the number of
    selected elements changes: nearly every step.

    ## Example
    ```python
    loss = F.cross_entropy(logits[labels != -100], labels[labels != -100])
    ```

    ## Use instead
    ```python
    loss = F.cross_entropy(logits, labels, ignore_index=-100)
    # or: per = F.cross_entropy(logits, labels.clamp(min=0), reduction="none")
    #     loss = (per * mask).sum() / mask.sum()
    ```

    ## Fix safety
    A selection reduced at once, `x[mask].sum()` / `x[mask].mean()` (no arguments, `x` and
    `mask` plain names), is rewritten to `torch.where(mask, x, 0).sum()` (and that sum over the
    mask's count): safe, the same values and gradients, NaN in unselected elements and an empty
    mask included (proven by running both versions on torch_xla in the tests: no
    `aten::nonzero` left). Other consumers (a loss, an assignment) get no automatic fix: the
    rewrite depends on them.
    """

    code = "XLA250"
    fix = INLINE  # check_module builds the reduction fix from the call it flags
    name = "torch-data-dependent-shape"
    severity = Severity.RECOMPILE
    VALID = (
        Example("import torch\nimport torch_xla\nimport torch.nn.functional as F\n"
                "def train(model, loader, opt):\n    device = torch_xla.device()\n    for x, y in loader:\n"
                "        x, y = x.to(device), y.to(device)\n        logits = model(x)\n"
                "        loss = F.cross_entropy(logits, y, ignore_index=-100)\n        loss.backward()\n"
                "        opt.step()\n        torch_xla.sync()\n"),
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    for x, idx in loader:\n"
                "        h = torch.relu(x)\n        loss = torch.where(h > 0, h, 0.0)[idx].sum()\n        loss.backward()\n"
                "        opt.step()\n        torch_xla.sync()\n"),
        # mask binarising in a helper that only the set-up of a declared @torch.no_grad() pipeline calls, once
        # per call before its denoising loop (diffusers' prepare_mask_and_masked_image): not step code
        Example("import torch\ndef prepare(mask):\n    mask = torch.nn.functional.interpolate(mask, size=(64, 64))\n"
                "    mask[mask < 0.5] = 0\n    mask[mask >= 0.5] = 1\n    return mask\n"
                "class Pipeline:\n    @torch.no_grad()\n    def __call__(self, mask, latents, steps):\n"
                "        mask = prepare(mask)\n        for t in self.scheduler.timesteps[:steps]:\n"
                "            latents = self.unet(latents, t, mask)\n        return latents\n", torch_xla=True),
        # negatives drawn on the CPU (no device=): the mask compares CPU tensors, the index runs on the CPU
        Example("import torch\ndef train(model, loader, opt):\n    for x, y in loader:\n"
                "        neg = torch.randint(0, 9, (4, 8))\n        neg[neg >= 3] += 1\n"
                "        loss = model(x, neg.to(x.device)).sum()\n        loss.backward()\n        opt.step()\n",
                torch_xla=True),
        # a CPU mask made once before the loop (textual inversion's frozen rows): the same count at every step
        Example("import torch\ndef train(model, loader, opt, vocab, first_new):\n"
                "    keep = torch.arange(vocab) < first_new\n    orig = model.embed.weight.data.clone()\n"
                "    for x in loader:\n        model(x).sum().backward()\n        opt.step()\n"
                "        with torch.no_grad():\n            model.embed.weight[keep] = orig[keep]\n",
                torch_xla=True),
        # the last real token found by counting the model input's mask (pytorch/xla#5031): a fixed shape
        Example("import torch\n@torch.no_grad()\ndef score(model, ids, mask):\n    logits = model(ids, mask)\n"
                "    return torch.count_nonzero(mask, dim=1) - 1\n", torch_xla=True),
        # a batch the step moves to the device itself comes from a host loader: its labels, stacked and masked
        # before their own move, are CPU tensors (open_flamingo's MMC4 labels, docs/torch-prec22.md)
        Example("import torch\ndef train(model, loader, opt, device):\n    for batch in loader:\n"
                "        images = batch[0].to(device)\n        labels = torch.stack([x[0] for x in batch[1]])\n"
                "        labels[labels == 0] = -100\n        loss = model(images, labels.to(device)).sum()\n"
                "        loss.backward()\n        opt.step()\n", torch_xla=True),
        # CTranslate2 takes a torch tensor only through __cuda_array_interface__ (measured, CTranslate2 4.8.5: a CPU
        # or XLA tensor raises ValueError), so this loss runs on CUDA only (OpenNMT-py's LM prior, batch 22)
        Example("import torch\nimport ctranslate2\n\ndef lm_prior_loss(lm, scores, target, pad):\n"
                "    src = target.clone()\n    src[src == 2] = pad\n"
                "    lm_scores = lm.forward_batch(ctranslate2.StorageView.from_array(src.to(torch.int32)))\n"
                "    lm_scores = torch.as_tensor(lm_scores, device=scores.device)\n"
                "    return (scores - lm_scores).masked_select(target != pad).sum()\n\n"
                "def train(model, lm, loader, opt):\n    for x, y in loader:\n"
                "        loss = lm_prior_loss(lm, model(x), y, 0)\n        loss.backward()\n        opt.step()\n",
                torch_xla=True),
    )
    INVALID = (
        Example("import torch\nimport torch_xla\nimport torch_xla.distributed.parallel_loader as pl\n"
                "import torch.nn.functional as F\ndef train(model, loader, opt, device):\n"
                "    for batch in pl.MpDeviceLoader(loader, device):\n        logits = model(batch['x'])\n"
                "        y = batch['labels']\n        keep = y != -100\n"
                "        loss = F.cross_entropy(logits[keep], y[keep])\n        loss.backward()\n        opt.step()\n",
                expected=(
                    (10, 32, '`x[mask]` with a boolean tensor mask has a data-dependent shape: torch_xla runs it on '
                             'the CPU (aten::nonzero) and recompiles when the count changes; use `masked_fill(~mask, '
                             '0)`, `torch.where(mask, x, 0)`, or a loss with `ignore_index`'),
                    (10, 46, '`x[mask]` with a boolean tensor mask has a data-dependent shape: torch_xla runs it on '
                             'the CPU (aten::nonzero) and recompiles when the count changes; use `masked_fill(~mask, '
                             '0)`, `torch.where(mask, x, 0)`, or a loss with `ignore_index`'),
                )),
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    for x, y in loader:\n"
                "        h = torch.relu(model(x))\n        loss = h[h > 0].sum()\n        loss.backward()\n"
                "        opt.step()\n        torch_xla.sync()\n",
                fixed="import torch\nimport torch_xla\ndef train(model, loader, opt):\n    for x, y in loader:\n"
                      "        h = torch.relu(model(x))\n        loss = torch.where(h > 0, h, 0).sum()\n"
                      "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n",
                expected=(
                    (6, 16, '`x[mask]` with a boolean tensor mask has a data-dependent shape: torch_xla runs it on '
                            'the CPU (aten::nonzero) and recompiles when the count changes; use `masked_fill(~mask, '
                            '0)`, `torch.where(mask, x, 0)`, or a loss with `ignore_index`'),
                )),
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    for x, y in loader:\n"
                "        pos = torch.nonzero(y > 0)\n        loss = torch.relu(x).sum() + pos.float().sum()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n",
                expected=(
                    (5, 15, '`torch.nonzero` has a data-dependent output shape: torch_xla runs it on the CPU and '
                            'recompiles when the size changes; use the mask itself and compute with it (`x * mask`, '
                            '`torch.where(mask, x, 0)`, `masked_fill`)'),
                )),
        Example("import torch\nimport torch_xla\ndef select(hidden, keep):\n"
                "    hidden = hidden.masked_fill(~keep[..., None], 0.0)\n    return hidden[keep]\n"
                "def train(model, loader, opt):\n    for x, m in loader:\n        loss = select(model(x), m).sum()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n",
                expected=(
                    (5, 12, '`x[mask]` with a boolean tensor mask has a data-dependent shape: torch_xla runs it on '
                            'the CPU (aten::nonzero) and recompiles when the count changes; use `masked_fill(~mask, '
                            '0)`, `torch.where(mask, x, 0)`, or a loss with `ignore_index`'),
                )),
        # `.nonzero()` on the rows of what the step hands a module: a torch tensor (no container has the method)
        Example("import torch\n@torch.no_grad()\ndef score(model, ids, mask):\n    logits = model(ids, mask)\n"
                "    return torch.stack([row.nonzero().max() for row in mask])\n", torch_xla=True,
                expected=(
                    (5, 25, '`tensor.nonzero` has a data-dependent output shape: torch_xla runs it on the CPU and '
                            'recompiles when the size changes; use the mask itself and compute with it (`x * mask`, '
                            '`torch.where(mask, x, 0)`, `masked_fill`)'),
                )),
        # a mask that is a NumPy array (features read with `.numpy()`, scored by a NumPy head): torch copies it to
        # the XLA device and runs aten::nonzero there (measured, torch_xla 2.9 CPU: 8 aten::nonzero fallbacks in 4
        # steps of `imgs[q] = imgs[q] * 0.5`, q = rng.random(8) > 0.5; none with a CPU tensor mask)
        Example("import numpy as np\nimport torch\ndef head(x, w, b):\n    return np.exp(x @ w.T + b).T\n"
                "@torch.inference_mode()\ndef filter_images(clip, images: torch.Tensor, w, b):\n"
                "    feats = clip.encode_image(images).cpu().numpy().astype(np.float16)\n"
                "    query = head(feats, w, b) > 0.5\n    if query.sum() > 0:\n"
                "        images[query] = images[query] * 0\n    return images\n", torch_xla=True,
                expected=(
                    (10, 9, '`x[mask] = v` with a boolean tensor mask has a data-dependent shape: torch_xla runs it '
                            'on the CPU (aten::nonzero) and recompiles when the count changes; use `x = '
                            'x.masked_fill(mask, value)` or `torch.where(mask, value, x)`'),
                    (10, 25, '`x[mask]` with a boolean tensor mask has a data-dependent shape: torch_xla runs it on '
                             'the CPU (aten::nonzero) and recompiles when the count changes; use `masked_fill(~mask, '
                             '0)`, `torch.where(mask, x, 0)`, or a loss with `ignore_index`'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        torch = ctx.torch
        if not torch.steps:
            return
        dd = data_dependent_ops()
        torch_name = next((k for k, v in ctx.facts.aliases.names.items() if v == "torch"), None)
        reduced = {id(n.func.value): n for n in torch.nodes if isinstance(n, ast.Call)
                   and isinstance(n.func, ast.Attribute) and n.func.attr in ("sum", "mean")
                   and isinstance(n.func.value, ast.Subscript)}
        for node in torch.nodes:
            if id(torch.stmt_of.get(id(node))) in torch.setup:
                continue  # set-up before a declared no_grad function's work loop (input pre-processing): once per call
            if isinstance(node, ast.Subscript) and (torch.tensor(node.value) or torch.of(node.value) & STRUCT):
                # (a model output or batch indexed by a bool tensor must be a tensor: a structure would raise)
                if torch.of(node.value) & CPU:
                    # a tensor on the CPU: torch_xla raises on an index on the XLA device ("indices should be
                    # either on cpu or on the same device"), so its mask is on the CPU too and no XLA op runs
                    # (fairseq wav2vec's `neg_idxs[neg_idxs >= tszs] += 1` on `torch.randint(...)`)
                    continue
                index = node.slice
                if torch.of(node.value) & CPU and torch.of(index) & CPU:
                    continue  # a CPU tensor under a CPU mask (the host's own data): nothing runs on the device
                if torch.of(index) & CPU and _fixed_in(index, torch.in_step(node)):
                    continue  # a CPU mask made before the loop: the same count at every step, one shape
                if torch.of(index) & BOOL and torch.tensor(index):
                    kind = "setitem" if isinstance(node.ctx, ast.Store) else "getitem"
                    what = "`x[mask] = v`" if kind == "setitem" else "`x[mask]`"
                    call = reduced.get(id(node))
                    fix = _reduction_fix(call, node, torch_name) if call is not None and torch_name else None
                    ctx.report(self, node, f"{what} with a boolean tensor mask has a data-dependent shape: torch_xla "
                                           f"runs it on the CPU (aten::nonzero) and recompiles when the count changes; "
                                           f"use {_REWRITE[kind]}", fix=fix)
                continue
            if not isinstance(node, ast.Call):
                continue
            op = torch.call_ops.get(id(node))
            if op is None or torch.of(node) & CPU:
                continue  # (an op on CPU tensors alone runs on the CPU: no XLA graph to cut)
            leaf = _leaf(op)
            method = op.startswith("Tensor.")
            table_name = op if op in op_table()["ops"] else ("Tensor." + leaf if method else op)
            hit = False
            if leaf == "where":
                hit = not method and len(node.args) == 1 and not node.keywords
            elif leaf == "repeat_interleave":
                repeats = node.args[0] if method and node.args else node.args[1] if len(node.args) > 1 else None
                for kw in node.keywords:
                    if kw.arg == "repeats":
                        repeats = kw.value
                one_arg_form = not method and len(node.args) == 1 and not node.keywords  # repeat_interleave(counts)
                hit = (repeats is not None and torch.tensor(repeats)) or (one_arg_form and torch.tensor(node.args[0]))
            elif leaf in _REWRITE and (table_name in dd or f"torch.{leaf}" in dd):
                hit = True  # nonzero(as_tuple=True) too: every output's length is the count
            if hit:
                ctx.report(self, node, f"`{op.replace('Tensor.', 'tensor.')}` has a data-dependent output shape: "
                                       f"torch_xla runs it on the CPU and recompiles when the size changes; "
                                       f"use {_REWRITE.get(leaf, 'a fixed-size, masked computation')}")
