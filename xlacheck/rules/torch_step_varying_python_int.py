"""XLA450: a Python int that changes every step used as a slice bound or tensor size in a torch_xla step."""

from __future__ import annotations

import ast
from collections import deque

from xlacheck.analysis import longest_length_of
from xlacheck.analysis.torch_model import (
    CPU,
    HOST,
    OUT,
    STEP_ARG,
    STEP_INT,
    TENSOR,
    TorchFacts,
    moves_off_cpu,
    multi_axis_of_batch,
    names_off_cpu,
    overwritten_unread,
    recompiles,
)
from xlacheck.diagnostics import Severity
from xlacheck.rules.base import Example
from xlacheck.rules.module_base import ModuleContext, ModuleRule
from xlacheck.rules.torch_collate_pads_to_longest import batch_builders_padding_to_longest

# Factories and view ops whose int arguments become shapes (baked into the graph).
_SIZE_OPS = frozenset({"torch.zeros", "torch.ones", "torch.full", "torch.empty", "torch.arange", "torch.rand",
                       "torch.randn", "torch.randint", "torch.eye", "torch.linspace",
                       "torch.nn.functional.one_hot", "Tensor.view", "Tensor.reshape", "Tensor.expand",
                       "Tensor.narrow", "Tensor.topk", "torch.topk", "Tensor.new_zeros", "Tensor.new_ones",
                       "Tensor.new_full", "Tensor.repeat", "torch.narrow", "Tensor.unfold",
                       # measured in xlacheck/data/torch_xla_recompile.json (int_split_size, int_split_sections,
                       # int_chunk_count, int_in_pad): a new size or count is a new graph
                       "torch.split", "Tensor.split", "torch.chunk", "Tensor.chunk", "torch.nn.functional.pad",
                       "Tensor.new_empty",
                       # measured too (int_in_interpolate_size, float_interpolate_scale_factor,
                       # int_in_adaptive_pool_output_size, int_roll_shift, int_in_randperm, int_tril_diagonal,
                       # int_topk_k): an output size, a resize factor, a shift or a band offset is a constant
                       # of the graph
                       "torch.nn.functional.interpolate", "torch.nn.functional.upsample",
                       *(f"torch.nn.functional.adaptive_{k}_pool{d}d" for k in ("avg", "max") for d in (1, 2, 3)),
                       "torch.roll", "Tensor.roll", "torch.randperm", "torch.tril", "torch.triu", "Tensor.tril",
                       "Tensor.triu"})
# The recompile table's probe for each size op (xlacheck/data/torch_xla_recompile.json): flagged only
# while the table says a new value compiles again; ops without a probe of their own share the factories'.
_SIZE_PROBES = {"torch.arange": ("int_in_arange",), "Tensor.view": ("int_in_view",),
                "Tensor.reshape": ("int_in_reshape",), "Tensor.expand": ("int_in_expand",),
                "Tensor.narrow": ("int_in_narrow_start",), "torch.narrow": ("int_in_narrow_start",),
                "Tensor.repeat": ("int_in_repeat",), "torch.split": ("int_split_size", "int_split_sections"),
                "Tensor.split": ("int_split_size", "int_split_sections"), "torch.chunk": ("int_chunk_count",),
                "Tensor.chunk": ("int_chunk_count",), "torch.nn.functional.pad": ("int_in_pad",),
                "torch.nn.functional.interpolate": ("int_in_interpolate_size", "float_interpolate_scale_factor"),
                "torch.nn.functional.upsample": ("int_in_interpolate_size", "float_interpolate_scale_factor"),
                **{f"torch.nn.functional.adaptive_{k}_pool{d}d": ("int_in_adaptive_pool_output_size",)
                   for k in ("avg", "max") for d in (1, 2, 3)},
                "torch.roll": ("int_roll_shift",), "Tensor.roll": ("int_roll_shift",),
                "torch.randperm": ("int_in_randperm",), "torch.tril": ("int_tril_diagonal",),
                "torch.triu": ("int_tril_diagonal",), "Tensor.tril": ("int_tril_diagonal",),
                "Tensor.triu": ("int_tril_diagonal",), "Tensor.topk": ("int_topk_k",), "torch.topk": ("int_topk_k",)}
_SIZE_KEYWORDS = frozenset({"size", "num_classes", "k", "end", "length", "split_size_or_sections", "split_size",
                            "chunks", "pad", "scale_factor", "output_size", "shifts", "diagonal"})
# Ops whose first positional argument is the input tensor, not a size.
_INPUT_FIRST = frozenset({"torch.nn.functional.one_hot", "torch.narrow", "torch.topk", "torch.split", "torch.chunk",
                          "torch.nn.functional.pad", "torch.nn.functional.interpolate", "torch.nn.functional.upsample",
                          *(f"torch.nn.functional.adaptive_{k}_pool{d}d" for k in ("avg", "max") for d in (1, 2, 3)),
                          "torch.roll", "torch.tril", "torch.triu"})


def _dynamo(torch: TorchFacts, node: ast.AST) -> bool:
    """Step code that torch.compile (dynamo, backend="openxla") compiles: a Python int that changes per call
    compiles once more, then dynamo's automatic dynamic shapes pass it as a symbolic value, and torch_xla
    compiles nothing in the steady steps (measured with torch_xla 2.9 on the form matrix: a slice offset,
    `topk`'s k and a `view` size, each drawn per step: 0 compilations per steady step). Not with
    ``dynamic=False``: dynamo then specializes on every value (a compile each, up to its cache limit)."""
    line, end = getattr(node, "lineno", 0), getattr(node, "end_lineno", 0) or 0
    return any("torch.compile" in st.why and "dynamic=False" not in st.why
               and isinstance(st.node, (ast.FunctionDef, ast.AsyncFunctionDef))
               and st.node.lineno <= line and end <= (st.node.end_lineno or 0) for st in torch.steps)


def _argument_bound(node: ast.AST, flags: dict[int, int]) -> bool:
    """A slice bound that is a Python int the compiled function takes as an argument (``xs[start:start + 4]``
    in ``torch.compile(fn, backend="openxla")``'s ``fn(xs, start)``): dynamo's automatic dynamic shapes do not
    spare torch_xla here. Measured with torch 2.9 / torch_xla 2.9 (PJRT CPU): a compiled ``f(xs, t)`` returning
    ``xs[t:t + 2] * 2``, ``xs[t] * 2`` or ``xs[:, t] * 2``, called with t = 0..5, compiled an XLA graph for every
    value (6 of 6), while an offset drawn inside the compiled forward compiled 0 times per steady step (the
    form matrix); eval_cases' recompile_openxla_kalman_step_python_int_t: 3 steady compiles for 3 values."""
    if not isinstance(node, ast.Subscript):
        return False
    for p in ast.walk(node.slice):
        if isinstance(p, ast.Slice):
            for bound in (p.lower, p.upper):
                hit = _varies(bound, flags)
                if hit is not None and flags.get(id(hit), 0) & STEP_ARG \
                        and not flags.get(id(hit), 0) & (STEP_INT | HOST | TENSOR):
                    return True
    return False


def _varies(node: ast.AST | None, flags: dict[int, int]) -> ast.AST | None:
    """The sub-expression that carries a per-step Python int, if any (in ``ast.walk`` order). Not the count of
    the items a step is handed, ``len(batch)`` of a step argument (:func:`_batch_count`)."""
    if node is None:
        return None
    todo = deque([node])
    while todo:
        n = todo.popleft()
        if isinstance(n, (ast.Name, ast.Attribute, ast.Call, ast.BinOp)) \
                and flags.get(id(n), 0) & (STEP_INT | HOST | STEP_ARG):
            return n
        if not _batch_count(n, flags):
            todo.extend(ast.iter_child_nodes(n))
    return None


def _batch_count(n: ast.AST, flags: dict[int, int]) -> bool:
    """``len(examples)`` of a Python value the step takes as an argument (and nothing drawn per step): the
    number of examples handed in at each call, the batch's first dimension. A graph input's batch dimension
    compiles again only when it changes (torch_xla_recompile.json: batch_dim recompiles, same_shape_new_values
    does not), which is at a smaller last batch: XLA451's fact (it needs the data set's length), no per-step
    value of this rule."""
    if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len" and len(n.args) == 1
            and not n.keywords and isinstance(n.args[0], ast.Name)):
        return False
    arg = flags.get(id(n.args[0]), 0)
    return bool(arg & STEP_ARG) and not (arg | flags.get(id(n), 0)) & (STEP_INT | HOST)


def _loop_count(loop: ast.For, flags: dict[int, int]) -> ast.AST | None:
    """``for i in range(n)`` where ``n`` is a Python int that changes every step (a random draw, a
    value read from a tensor: not a step function's argument, which is often a fixed setting)."""
    it = loop.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and it.args):
        return None
    for a in it.args:
        hit = _varies(a, flags)
        if hit is not None and flags.get(id(hit), 0) & (STEP_INT | HOST) and not flags.get(id(hit), 0) & TENSOR:
            return hit
    return None


def _functions_of(tree: ast.Module) -> dict[int, ast.FunctionDef | ast.AsyncFunctionDef]:
    """The innermost function around each node of ``tree`` (by node id)."""
    out: dict[int, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    for f in ast.walk(tree):  # (outer functions come first: an inner one overwrites its own nodes)
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for n in ast.walk(f):
                out[id(n)] = f
    return out


def _python_int_by_use(name: str, func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """``name`` is used in ``func`` where only a Python int goes: a bound of ``range(...)`` or of a slice
    (``range(start + 1, end)``, ``h[:, start:end]``). A step function's argument used so is a position,
    not an index tensor, so an index with it is a constant of the graph (table: int_index)."""
    def mentions(e: ast.expr | None) -> bool:
        # the argument itself or arithmetic on it (`start + 1`), not its length or shape (`len(idx)`,
        # `idx.shape[0]`: a sequence or an index tensor has those too)
        if isinstance(e, ast.Name):
            return e.id == name
        if isinstance(e, ast.BinOp):
            return mentions(e.left) or mentions(e.right)
        return isinstance(e, ast.UnaryOp) and mentions(e.operand)

    for n in ast.walk(func):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "range" \
                and any(mentions(a) for a in n.args):
            return True
        if isinstance(n, ast.Slice) and (mentions(n.lower) or mentions(n.upper)):
            return True
    return False


def _longest_item(e: ast.expr, func: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """``max(len(p) for p in prompts)`` (also a list comprehension, ``max(map(len, prompts))``:
    analysis.longest_length_of) over a parameter of ``func``: the length of the longest item of a list the
    function is handed at each call, the batch padded to its longest sequence. The parameter's name, or None."""
    params = {a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs} - {"self", "cls"}
    seq = longest_length_of(e)
    return seq.id if isinstance(seq, ast.Name) and seq.id in params else None


def _padded_to_longest(e: ast.expr, func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[ast.expr, str] | None:
    """A size expression that is, or names a local assigned once from, :func:`_longest_item` and never rounded to
    a bucket afterwards (``//``, ``%``): (the sub-expression, the list parameter's name)."""
    if any(isinstance(n, ast.BinOp) and isinstance(n.op, (ast.FloorDiv, ast.Mod)) for n in ast.walk(e)):
        return None  # rounded up to a multiple: a few bucket lengths
    for n in ast.walk(e):
        if isinstance(n, ast.Call) and (param := _longest_item(n, func)) is not None:
            return n, param
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            values = [s.value for s in ast.walk(func) if isinstance(s, ast.Assign) and len(s.targets) == 1
                      and isinstance(s.targets[0], ast.Name) and s.targets[0].id == n.id]
            rebound = any(isinstance(s, (ast.AugAssign, ast.AnnAssign)) and isinstance(s.target, ast.Name)
                          and s.target.id == n.id for s in ast.walk(func))
            if len(values) == 1 and not rebound and (param := _longest_item(values[0], func)) is not None:
                return n, param
    return None


def _reaches_device(call: ast.Call, stmt: ast.AST | None, func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """The factory builds on a device (``device=`` not the CPU), or the name it is assigned to is moved off the
    CPU later in ``func`` (``ids.to(self.device)``, not ``ids.to(torch.long)``): a padded batch that stays on
    the CPU costs the XLA graph nothing."""
    if names_off_cpu(k.value for k in call.keywords if k.arg == "device"):
        return True
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        return False
    name = stmt.targets[0].id
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)
               and n.func.value.id == name and (n.func.attr == "cuda" or n.func.attr == "to" and moves_off_cpu(n))
               for n in ast.walk(func))


def _runs_tensor_ops(loop: ast.For, torch: TorchFacts) -> bool:
    """The loop's body computes with proven torch tensors or calls a module (``h = block(h)``: its ops join
    the graph once per trip) (its own statements, nested ones too)."""
    return any(id(n) in torch.call_ops or torch.tensor(n) or torch.of(n) & OUT and isinstance(n, ast.Call)
               for s in loop.body for n in ast.walk(s))


# What the varying argument sets, for the ops whose argument is not a plain size (the message names it).
_ROLE = {"torch.nn.functional.interpolate": "the output size", "torch.nn.functional.upsample": "the output size",
         **{f"torch.nn.functional.adaptive_{k}_pool{d}d": "the output size" for k in ("avg", "max") for d in (1, 2, 3)},
         "torch.roll": "the shift", "Tensor.roll": "the shift", "torch.tril": "the diagonal",
         "torch.triu": "the diagonal", "Tensor.tril": "the diagonal", "Tensor.triu": "the diagonal",
         "torch.randperm": "the length", "torch.topk": "k", "Tensor.topk": "k"}


def _counted(hit: ast.AST, torch: TorchFacts) -> bool:
    """The per-step int is an attribute that step code counts up (``self.step_index``, ``self.cur_len - 1``),
    and no other per-step value joins it: the one path this rule reports without --preview. On the judged
    PyTorch corpora (main 283c31ed, --preview) none of XLA450's 13 findings was such a counter, 7 of the 13
    were false (random draws among a few values, a loop counter, a padded CPU tensor); in eval_cases/torch_xla
    the train cases' counters (a scheduler's step index, a decode position, an eval's samples seen) each
    compile once per step (torch_xla 2.9)."""
    if not any(id(n) in torch.counted for n in ast.walk(hit)):
        return False
    inside = {id(x) for n in ast.walk(hit) if id(n) in torch.counted for x in ast.walk(n)}
    return not any(torch.of(n) & (STEP_INT | HOST | STEP_ARG) for n in ast.walk(hit)
                   if isinstance(n, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)) and id(n) not in inside)


def _what(hit: ast.AST, flags: dict[int, int], number: bool = False) -> str:
    if flags.get(id(hit), 0) & (STEP_INT | HOST):
        return f"a Python {'number' if number else 'int'} that changes every step"
    return (f"`{ast.unparse(hit)}`, a Python value the step function takes as an argument (new at each call "
            "from the loop)")



class TorchStepVaryingPythonInt(ModuleRule):
    """
    ## What it does
    Flags a Python int that changes from step to step (drawn with `random.randint`/`randrange`/`choice`
    or any other function of `random` or `numpy.random` that returns one number, as measured in
    `xlacheck/data/random_draws.json`: `int(random.random() * n)`, `np.random.beta(a, a)`, not an
    array drawn with `size=`; or drawn from torch's CPU generator, `int(torch.rand(()).numpy() * n)`;
    or a function of `math` or NumPy of such a number, at an argument its result was measured to
    follow (`xlacheck/data/number_functions.json`: `int(w * np.sqrt(1 - lam))`, `math.log2(n)`);
    or the counter of a training loop each iteration of which ends its own graph (it iterates an
    `MpDeviceLoader` or calls `torch_xla.sync()`/`xm.mark_step()`: `for step, batch in
    enumerate(loader)`, `for i in range(num_steps)`);
    read from a tensor with `int(t)`/`.item()`/`.tolist()` (per-example lengths or counts of the
    batch), or an attribute the step counts up:
    `self.step_index += 1`) used, inside a torch_xla step, as an index or a slice bound of a
    torch tensor (`sigmas[self.step_index]`, `ids[:, cur_len] = tok`, `x[:, :n]`,
    `img[:, :, i:i + 6]`) or as a size argument of a tensor factory or view (`torch.zeros(b, n)`,
    `torch.arange(n)`, `F.one_hot(y, n)`, `x.view(-1, n)`, `x.topk(k)`, the sections of
    `torch.split(h, counts.tolist())`, a `chunk` count, an `F.pad` amount, the `size` or
    `scale_factor` of `F.interpolate` (multi-scale training, a random zoom: a float drawn with
    `random.uniform` counts here, it sets an output size), an adaptive pool's output size, the
    shift of `torch.roll`, the diagonal of `torch.tril`/`triu`, the length of `torch.randperm`; a
    tuple or list of such numbers counts, `[math.ceil(x * sf) for x in img.shape[2:]]` too), or as the trip count
    of a Python loop over torch ops (`for t in range(int(lengths.max())): h = cell(x[:, t], h)`; a
    step function's argument does not count there, it is often a fixed setting). An attribute tensor counts
    when the class builds it on a device (`torch.zeros(..., device=d)`, `.to(d)`): a schedule kept
    on the CPU and indexed there costs the device nothing. A step *function*'s argument counts too
    (a training-step function or one `torch_xla.compile` compiles, which the loop calls once per
    step): a parameter without a default that the function never proves a tensor, module or object
    (`def train_step(ids, seq_len, labels)`), followed into the file's model (`model(ids, seq_len)`
    hands `seq_len` to the forward of the one same-file nn.Module no other builds, when that forward
    uses it as a size) and through loops over it (`for beg, end in trim:`; the size of an item of
    such a list, `for tgt in targets: pred[i, :tgt.shape[0]]`: a list of per-image tensors rather
    than one stacked tensor because their sizes differ); as an index only where the same function
    also uses it as a `range` or slice bound, where only a Python int goes (`h[:, start]` next to
    `for i in range(start + 1, end)`): alone, such an argument may be an index tensor. Also the length
    of the longest item of a list a step function is handed (`seq_len = max(len(p) for p in prompts)`,
    `max(map(len, prompts))`) as a size of a tensor factory that builds on the device or whose result
    the function moves there: the batch padded to its longest sequence (XLA453 reads the same in a
    collate function); not once rounded up to a multiple (`// 64 * 64`: a few buckets). Not in code that
    `torch.compile(backend="openxla")` compiles (slice bounds and sizes): dynamo compiles once more
    for the second value, then passes the int as a symbolic value, and torch_xla compiles nothing
    in the steady steps (measured with torch_xla 2.9 on the form matrix, a slice offset, `topk`'s
    `k` and a `view` size drawn per step: 0 compilations per steady step); except a slice bound that is
    the compiled function's own int argument (`fn(x, start)` slicing `h[:, start:start + 4]`: measured,
    one compilation per new value, 6 of 6). Nor in set-up that runs
    once, not per step: a cache built lazily or rebuilt only when it is too small (a RoPE table that
    doubles when a longer position first comes) or when a static size changes (the analysis model's
    `cached`). Sizes computed from a tensor's static shape and from numbers a module fixes when it is
    built are no per-step value: one graph per input shape (measured with torch_xla 2.9 on the CPU:
    three steps of one shape compile once, a second shape once more). Nor the count of the items a
    step function is handed, `len(reviews)` of its argument (`torch.zeros(len(reviews), MAX_LEN)`):
    that is the batch's first dimension, which changes only at a smaller last batch (the recompile
    table's `batch_dim`; whether there is one depends on the data set's length: XLA451).
    By default only the attribute that step code counts up is reported (`sigmas[self.step_index]`,
    `ids[:, self.cur_len]`, `for _ in range(self.step)`: an index, slice bound, size or loop trip
    count); every other path needs `--preview` (below 90% true findings on judged
    real code: random draws among a few values, loop counters of host-side loops).

    ## Why is this bad?
    torch_xla bakes Python ints into the graph: a slice offset or a size is a constant of the
    compiled program. A value that changes every step gives a new graph, and a new compilation,
    every step, even when the result's shape stays the same (a random crop offset, a decode
    position, a sampler's step index). Measured by the oracle in eval/torch_xla_cases:
    `recompile_random_crop_offset`, `recompile_truncate_to_batch_max`; in
    `xlacheck/data/torch_xla_recompile.json` (tools/generate_torch_recompile_table.py): a new slice
    offset, index, factory size, view/reshape/narrow/split/chunk/repeat/expand/pad argument or loop
    count, interpolate size or scale factor, adaptive-pool output size, roll shift, band diagonal,
    randperm length or top-k `k` compiles again, a new Python float multiplied in does not (except 0
    and 1); and in eval_cases/torch_xla:
    `sigmas[step_index]` on the device and `ids[:, cur_len] = tok` compile once per step (4 of 4
    steady steps), the same schedule kept on the CPU does not.

    ## Example
    ```python
    i, j = random.randrange(0, 3), random.randrange(0, 3)
    crop = img[:, :, i:i + 6, j:j + 6]
    ```

    ## Use instead
    ```python
    # draw the offsets on the device and gather with them (one graph for every offset)
    i = torch.randint(0, 3, (), device=img.device)
    rows = (i + torch.arange(6, device=img.device))
    crop = img.index_select(2, rows)
    # or pad to a fixed length / a few bucket lengths instead of truncating to the batch maximum
    ```

    ## Fix safety
    No automatic fix: a device-side offset changes the random stream, and padding changes
    what the model sees.
    """

    code = "XLA450"
    fix = None
    name = "torch-step-varying-python-int"
    severity = Severity.RECOMPILE
    # Behind --preview but for one path: on the judged PyTorch corpora (benchmarks/judged_real_code.py) 6 of
    # its 13 findings were true (docs/torchprec32.md); the false ones are sizes that take a few values in
    # practice (aspect-ratio buckets, a decode's caption length), which the code does not show. An attribute
    # that step code counts up (`_counted`) is reported by default: none of the 13 (docs/torchrec33.md).
    VALID = (
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt, size):\n    for img, y in loader:\n"
                "        crop = torch.relu(img)[:, :, 1:1 + size]\n        loss = model(crop).sum()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n"),
        # a random float only multiplied in is uploaded as data; a fixed zoom has one output size
        Example("import random\nimport torch\nimport torch.nn.functional as F\nimport torch_xla\n"
                "def train(model, loader, opt):\n    for img, y in loader:\n"
                "        img = F.interpolate(img * random.uniform(0.8, 1.2), scale_factor=2.0)\n"
                "        loss = model(img).sum()\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n"),
        # the offset drawn on the device and applied as an index: no Python int reaches the graph
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    device = torch_xla.device()\n"
                "    for x, y in loader:\n        x, y = x.to(device), y.to(device)\n"
                "        i = torch.randint(0, 4, (1,), device=device)\n"
                "        loss = model(x.index_select(1, i + torch.arange(8, device=device))).sum()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n"),
        # a changing bound of torch.randint is a value, not a size (its size is (1,)): rnnt SpecAugment's
        # `torch.randint(0, max(1, h - w + 1), size=(1,))` (fourth first sight, corpora13)
        Example("import random\nimport torch\nimport torch_xla\ndef train(model, loader, opt):\n"
                "    for x, y in loader:\n        w = random.randint(1, 8)\n"
                "        f0 = torch.randint(0, 64 - w + 1, size=(1,))\n"
                "        loss = model(x * f0).sum()\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n"),
        # torch.compile (dynamo, openxla): the second value compiles once more, then the int is dynamic
        Example("import random\nimport torch\nimport torch.nn as nn\nimport torch_xla\n"
                "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                "        self.fc = nn.Linear(16, 16)\n    def forward(self, h):\n"
                "        off = random.randint(1, 8)\n"
                "        return self.fc(torch.cat([h[:, off:], h[:, :off]], dim=1))\n"
                "def train(loader, opt, device):\n    model = Net().to(device)\n"
                "    compiled = torch.compile(model, backend='openxla')\n"
                "    for x, y in loader:\n        compiled(x).sum().backward()\n        opt.step()\n"
                "        torch_xla.sync()\n"),
        # the rows of a stacked model input share one size: not a per-call value
        Example("import torch\ndef train_step(model, opt, feats):\n    pred = model(feats)\n    loss = 0.0\n"
                "    for row in feats:\n        loss = loss + pred[:, :row.shape[0]].sum()\n    loss.backward()\n"
                "    opt.step()\n    return loss\n", torch_xla=True),
        # a step function's argument used only as an index may be an index tensor (a device gather): not claimed
        Example("import torch\ndef train_step(model, opt, x, idx):\n    h = model(x)\n    loss = h[:, idx].sum()\n"
                "    loss.backward()\n    opt.step()\n    return loss\n", torch_xla=True),
        # the longest prompt rounded up to a multiple of 64: a few bucket lengths, one graph each
        Example("import torch\n@torch.no_grad()\ndef prefill(model, prompts, device):\n"
                "    seq_len = (max(len(p) for p in prompts) + 63) // 64 * 64\n"
                "    ids = torch.zeros(len(prompts), seq_len, dtype=torch.long)\n"
                "    return model(ids.to(device)).argmax(-1)\n", torch_xla=True),
        # padded to the longest, but the padded batch stays on the CPU (a host-side tokenizer step)
        Example("import torch\n@torch.no_grad()\ndef prefill(model, prompts, device):\n"
                "    seq_len = max(len(p) for p in prompts)\n"
                "    ids = torch.zeros(len(prompts), seq_len, dtype=torch.long)\n"
                "    return ids.tolist()\n", torch_xla=True),
        # bound, then bound again before any read (StyleTTS2's slmadv.py, corpora18): nothing reads the lazy
        # value, so no graph is built for it (measured, torch_xla 2.9 CPU: 2 compiles over 5 sizes; 5 when read)
        Example("import random\nimport torch\nimport torch_xla\ndef train(model, loader, opt):\n"
                "    device = torch_xla.device()\n    for x, y in loader:\n        n = random.randint(1, 8)\n"
                "        t = torch.ones(4, 8, device=device).expand(n, 4, 8)\n"
                "        t = torch.ones(4, 8, device=device)\n        loss = model(x.to(device) * t).sum()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n"),
        # the count of the examples the step is handed sizes the batch padded to a fixed length (Lightning
        # #4046's fix): that is the batch dimension, which changes only at a smaller last batch (XLA451)
        Example("import torch\nMAX_LEN = 16\ndef collate(reviews, device):\n"
                "    ids = torch.zeros(len(reviews), MAX_LEN, dtype=torch.long)\n"
                "    for i, r in enumerate(reviews):\n        ids[i, :len(r[:MAX_LEN])] = torch.tensor(r[:MAX_LEN])\n"
                "    return ids.to(device)\n"
                "def train_step(model, opt, reviews, labels, device):\n    ids = collate(reviews, device)\n"
                "    loss = model(ids, labels)\n    loss.backward()\n    opt.step()\n    return loss.detach()\n",
                torch_xla=True),
        # the model's forward slices to its input's own length (fairseq's decoder, pytorch/xla#855): a static
        # dimension of a tensor, not a Python value handed in (a Python int has no shape)
        Example("import torch\nimport torch.nn as nn\nclass Decoder(nn.Module):\n    def __init__(self):\n"
                "        super().__init__()\n        self.emb = nn.Embedding(40, 16)\n"
                "        self.conv = nn.Conv1d(16, 16, 3, padding=2)\n    def forward(self, tokens):\n"
                "        y = self.conv(self.emb(tokens).transpose(1, 2))\n"
                "        return y[..., :tokens.shape[1]].transpose(1, 2)\n"
                "def train_step(model, opt, tokens, target):\n    loss = (model(tokens) - target).pow(2).mean()\n"
                "    loss.backward()\n    opt.step()\n    return loss.detach()\n", torch_xla=True),
        # an array drawn with NumPy (np.random.rand(8): a shape argument) used as values, not as a size
        Example("import numpy as np\nimport torch\nimport torch_xla\ndef train(model, loader, opt):\n"
                "    device = torch_xla.device()\n    for x, y in loader:\n        x = x.to(device)\n"
                "        keep = np.random.rand(8) > 0.5\n"
                "        loss = model(x * torch.from_numpy(keep).to(device)).sum()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n"),
        # NumPy/math of a fixed number (np.sqrt(0.5)) is fixed; np.argmax of a draw is always 0
        # (xlacheck/data/number_functions.json: no position follows)
        Example("import random\nimport numpy as np\nimport torch\nimport torch_xla\n"
                "def train(model, loader, opt):\n"
                "    device = torch_xla.device()\n    for x, y in loader:\n        x = x.to(device)\n"
                "        n = int(8 * np.sqrt(0.5)) + int(np.argmax(random.random()))\n"
                "        loss = model(x[:, :n]).sum()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n"),
        # the counter of a loop inside the step (one graph holds all its iterations), and the training loop's
        # counter read from a Python list of learning rates: no index of a tensor in a graph of its own
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt, lrs):\n"
                "    device = torch_xla.device()\n    for step, (x, y) in enumerate(loader):\n"
                "        h = model(x.to(device))\n        for i in range(4):\n            h = h + h[:, i:i + 1]\n"
                "        for g in opt.param_groups:\n            g['lr'] = lrs[step]\n"
                "        loss = h.sum()\n        loss.backward()\n        opt.step()\n        torch_xla.sync()\n"),
        # a per-step random draw as a slice bound: reported only with --preview (7 of XLA450's 13 findings on
        # judged real code were false, random draws among a few values among them)
        Example("import random\nimport torch\nimport torch_xla\ndef train(model, loader, opt):\n"
                "    device = torch_xla.device()\n    for x, y in loader:\n        n = random.randint(1, 8)\n"
                "        loss = model(x.to(device)[:, :n]).sum()\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n"),
    )
    INVALID = (
        Example("import random\nimport torch\nimport torch.nn.functional as F\nimport torch_xla\n"
                "def train(model, loader, opt):\n    for img, y in loader:\n"
                "        s = random.choice([224, 256, 288])\n"
                "        img = F.interpolate(img, size=(s, s), mode='bilinear')\n"
                "        loss = model(img).sum()\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n",
                preview=True,
                expected=(
                    (8, 15, 'a Python number that changes every step sets the output size of `F.interpolate`: '
                            'torch_xla bakes it into the graph and compiles a new one for each output size; use one value '
                            '(or a few, each one compilation, drawn per epoch), or keep the value on the device (a '
                            'gather with a device index)'),
                )),
        Example("import torch\nimport torch_xla\nfrom torch.utils.data import DataLoader\n"
                "def train(cell, head, ds, opt):\n    for x, lengths in DataLoader(ds, batch_size=4, drop_last=True):\n"
                "        h = torch.zeros(4, 8, device=x.device)\n        for t in range(int(lengths.max())):\n"
                "            h = cell(x[:, t], h)\n        head(h).sum().backward()\n        opt.step()\n"
                "        torch_xla.sync()\n",
                preview=True,
                expected=(
                    (7, 9, 'a Python int that changes every step sets the trip count of a Python loop over torch '
                           'ops: torch_xla unrolls the loop into the graph and compiles a new one for each count; '
                           'loop a fixed number of times (pad, mask the extra steps)'),
                )),
        Example("import random\nimport torch\nimport torch_xla\ndef train(model, loader, opt):\n"
                "    for img, y in loader:\n        i = random.randrange(0, 3)\n"
                "        crop = torch.relu(img)[:, :, i:i + 6]\n"
                "        loss = model(crop).sum()\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n",
                preview=True,
                expected=(
                    (7, 16, 'a Python int that changes every step is a slice bound of a torch tensor: torch_xla '
                            'bakes it into the graph and compiles a new one for each value; use a fixed size (pad) '
                            'or a device-side index'),
                )),
        Example("import torch\nimport torch.nn as nn\nimport torch_xla\n\nclass Enc(nn.Module):\n"
                "    def __init__(self):\n        super().__init__()\n        self.pos = nn.Embedding(32, 8)\n\n"
                "    def forward(self, h, seq_len):\n        pos = torch.arange(seq_len, device=h.device)\n"
                "        return h + self.pos(pos)\n\n"
                "@torch_xla.compile\ndef train_step(model, opt, h, seq_len):\n    loss = model(h, seq_len).sum()\n"
                "    loss.backward()\n    opt.step()\n    return loss\n",
                preview=True,
                expected=(
                    (11, 15, '`seq_len`, a Python value the step function takes as an argument (new at each call '
                             'from the loop) sets a size of `torch.arange`: torch_xla compiles a new graph for each '
                             'value; use a fixed size (pad, a few buckets) or keep the value on the device'),
                )),
        Example("import random\nimport torch\nimport torch_xla\ndef train(model, loader, opt):\n"
                "    for img, y in loader:\n        i = random.randrange(0, 3)\n        row = torch.relu(img)[i]\n"
                "        loss = model(row).sum()\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n",
                preview=True,
                expected=(
                    (7, 15, 'a Python int that changes every step indexes a torch tensor: torch_xla bakes the '
                            'position into the graph and compiles a new one for each value; index with a device '
                            'tensor (`index_select`/`index_copy_`)'),
                )),
        # a draw from torch's CPU generator read back as a Python int (torchvision's RandomCrop.get_params),
        # slicing a batch item moved to the device (a multi-axis index: a tensor, not a tuple or dict)
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n    device = torch_xla.device()\n"
                "    for x, y in loader:\n        x, y = x.to(device), y.to(device)\n"
                "        i = torch.randint(0, 4, (1,)).item()\n        loss = model(x[:, i:i + 8]).sum()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n",
                preview=True,
                expected=(
                    (8, 22, 'a Python int that changes every step is a slice bound of a torch tensor: torch_xla '
                            'bakes it into the graph and compiles a new one for each value; use a fixed size (pad) '
                            'or a device-side index'),
                )),
        # torch.compile(..., dynamic=False): dynamo specializes on every value, so the slice bound recompiles
        Example("import random\nimport torch\nimport torch.nn as nn\nimport torch_xla\n"
                "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                "        self.fc = nn.Linear(16, 16)\n    def forward(self, h):\n"
                "        off = random.randint(1, 8)\n"
                "        return self.fc(torch.cat([h[:, off:], h[:, :off]], dim=1))\n"
                "def train(loader, opt, device):\n    model = Net().to(device)\n"
                "    compiled = torch.compile(model, backend='openxla', dynamic=False)\n"
                "    for x, y in loader:\n        compiled(x).sum().backward()\n        opt.step()\n"
                "        torch_xla.sync()\n",
                preview=True,
                expected=(
                    (11, 35, 'a Python int that changes every step is a slice bound of a torch tensor: torch_xla bakes it into the graph '
                            'and compiles a new one for each value; use a fixed size (pad) or a device-side index'),
                    (11, 47, 'a Python int that changes every step is a slice bound of a torch tensor: torch_xla bakes it into the graph '
                            'and compiles a new one for each value; use a fixed size (pad) or a device-side index'),
                )),
        # the size of an item of a Python list the step is handed (per-image targets, roboflow/rf-detr#1450): a list
        # and not one stacked tensor because the sizes differ, so the slice bound is new with each batch
        Example("import torch\nimport torch.nn.functional as F\ndef train_step(model, opt, feats, targets):\n"
                "    pred = model(feats)\n    loss = 0.0\n    for i, tgt in enumerate(targets):\n"
                "        n = tgt.shape[0]\n        loss = loss + F.l1_loss(pred[i, :n], tgt)\n    loss.backward()\n"
                "    opt.step()\n    return loss\n", torch_xla=True,
                preview=True,
                expected=(
                    (8, 33, '`n`, a Python value the step function takes as an argument (new at each call from the '
                            'loop) is a slice bound of a torch tensor: torch_xla bakes it into the graph and compiles '
                            'a new one for each value; use a fixed size (pad) or a device-side index'),
                )),
        # the same kind of argument also bounds a `range`: a Python int, so the index is a constant of the graph
        # (pytorch/pytorch#114293: a window `h[:, start]` + `for i in range(start + 1, end)`, one compile per start)
        Example("import torch\ndef train_step(model, opt, x, start, end):\n    h = model(x)\n    acc = h[:, start]\n"
                "    for i in range(start + 1, end):\n        acc = acc + h[:, i]\n    acc.sum().backward()\n"
                "    opt.step()\n    return acc\n", torch_xla=True,
                preview=True,
                expected=(
                    (4, 11, '`start`, a Python value the step function takes as an argument (new at each call from '
                            'the loop) indexes a torch tensor: torch_xla bakes the position into the graph and '
                            'compiles a new one for each value; index with a device tensor (`index_select`/'
                            '`index_copy_`)'),
                )),
        # a generation server's prefill padded to the longest prompt of the call, then moved to the device
        # (huggingface/optimum-tpu#98: "prefill should be done with max input size"); a module-level function
        # that pads is a batch builder, XLA453's finding
        Example("import torch\nclass Server:\n    def __init__(self, model, device):\n"
                "        self.model, self.device = model, device\n"
                "    @torch.no_grad()\n    def prefill(self, prompts):\n"
                "        seq_len = max(len(p) for p in prompts)\n"
                "        ids = torch.zeros(len(prompts), seq_len, dtype=torch.long)\n"
                "        return self.model(ids.to(self.device)).argmax(-1)\n", torch_xla=True,
                preview=True,
                expected=(
                    (8, 15, '`seq_len`, the length of the longest item of `prompts` (a list handed in at each call), '
                            'sets a size of `torch.zeros`: the batch is padded to its longest sequence, and torch_xla '
                            'compiles a new graph for each length; pad to a fixed length (or a few buckets)'),
                )),
        # the next binding reads the value: it reaches the graph
        Example("import random\nimport torch\nimport torch_xla\ndef train(model, loader, opt):\n"
                "    device = torch_xla.device()\n    for x, y in loader:\n        n = random.randint(1, 8)\n"
                "        t = torch.ones(4, 8, device=device).expand(n, 4, 8)\n"
                "        t = t.sum(0)\n        loss = model(x.to(device) * t).sum()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n",
                preview=True,
                expected=(
                    (8, 13, 'a Python int that changes every step sets a size of `tensor.expand`: torch_xla compiles '
                            'a new graph for each value; use a fixed size (pad, a few buckets) or keep the value on '
                            'the device'),
                )),
        # torch.compile(backend="openxla"): an int argument of the compiled function as a slice bound compiles
        # once per value (measured: 6 of 6 calls with t = 0..5), unlike an offset drawn inside the compiled code
        Example("import torch\n@torch.compile(backend='openxla')\ndef window_mean(x, w, start):\n"
                "    h = torch.tanh(x @ w)\n    return h[:, start:start + 4].mean(1)\n", torch_xla=True,
                preview=True,
                expected=(
                    (5, 12, '`start`, a Python value the step function takes as an argument (new at each call from '
                            'the loop) is a slice bound of a torch tensor: torch_xla bakes it into the graph and '
                            'compiles a new one for each value; use a fixed size (pad) or a device-side index'),
                )),
        # StyleGAN2's style mixing (pytorch/xla#1558): a crossover layer drawn from torch's CPU generator and read
        # back through NumPy, handed with each latent to a helper that expands a multi-axis slice by it
        Example("import torch\nimport torch_xla\ndef styles_to_tensor(styles):\n"
                "    return torch.cat([t[:, None, :].expand(-1, n, -1) for t, n in styles], dim=1)\n"
                "def train(mapping, gen, loader, opt, layers):\n    device = torch_xla.device()\n"
                "    for z1, z2 in loader:\n        z1, z2 = z1.to(device), z2.to(device)\n"
                "        tt = int(torch.rand(()).numpy() * layers)\n"
                "        styles = [(mapping(z1), tt), (mapping(z2), layers - tt)]\n"
                "        loss = gen(styles_to_tensor(styles)).mean()\n        loss.backward()\n        opt.step()\n"
                "        torch_xla.sync()\n",
                preview=True,
                expected=(
                    (4, 23, 'a Python int that changes every step sets a size of `tensor.expand`: torch_xla compiles '
                            'a new graph for each value; use a fixed size (pad, a few buckets) or keep the value on '
                            'the device'),
                )),
        # a length drawn with random.random() (any draw of one number, xlacheck/data/random_draws.json) truncating
        # the batch: a new slice bound at every step
        Example("import random\nimport torch\nimport torch_xla\ndef train(model, loader, opt):\n"
                "    device = torch_xla.device()\n    for x, y in loader:\n        x = x.to(device)\n"
                "        n = int(random.random() * 8) + 1\n        loss = model(x[:, :n]).sum()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n",
                preview=True,
                expected=(
                    (9, 22, 'a Python int that changes every step is a slice bound of a torch tensor: torch_xla '
                            'bakes it into the graph and compiles a new one for each value; use a fixed size (pad) '
                            'or a device-side index'),
                )),
        # a block applied a random number of times (stochastic depth): the loop over module calls is unrolled
        Example("import random\nimport torch\nimport torch_xla\ndef train(model, encoder, loader, opt):\n"
                "    device = torch_xla.device()\n    for x, y in loader:\n        h = model(x.to(device))\n"
                "        for _ in range(random.randint(1, 4)):\n            h = encoder(h)\n"
                "        loss = h.sum()\n        loss.backward()\n        opt.step()\n        torch_xla.sync()\n",
                preview=True,
                expected=(
                    (8, 9, 'a Python int that changes every step sets the trip count of a Python loop over torch ops: '
                           'torch_xla unrolls the loop into the graph and compiles a new one for each count; loop a '
                           'fixed number of times (pad, mask the extra steps)'),
                )),
        # a CutMix width from NumPy/math of a draw (xlacheck/data/number_functions.json: np.sqrt follows its
        # argument): a new slice bound at every step
        Example("import numpy as np\nimport torch\nimport torch_xla\ndef train(model, loader, opt):\n"
                "    device = torch_xla.device()\n    for x, y in loader:\n        x = x.to(device)\n"
                "        n = int(8 * np.sqrt(1.0 - np.random.beta(1.0, 1.0)))\n        loss = model(x[:, :n]).sum()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n",
                preview=True,
                expected=(
                    (9, 22, 'a Python int that changes every step is a slice bound of a torch tensor: torch_xla '
                            'bakes it into the graph and compiles a new one for each value; use a fixed size (pad) '
                            'or a device-side index'),
                )),
        # the counter of the training loop, each iteration of which ends its graph (torch_xla.sync()), as the start
        # of the positions: a new graph at every step
        Example("import torch\nimport torch_xla\ndef train(model, loader, opt):\n"
                "    device = torch_xla.device()\n    for step, (x, y) in enumerate(loader):\n"
                "        x = x.to(device)\n"
                "        pos = torch.arange(step, step + x.shape[1], device=device)\n"
                "        loss = model(x, pos).sum()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n",
                preview=True,
                expected=(
                    (7, 15, 'a Python int that changes every step sets a size of `torch.arange`: torch_xla compiles '
                            'a new graph for each value; use a fixed size (pad, a few buckets) or keep the value on '
                            'the device'),
                )),
        # an attribute that step code counts up indexes a device tensor (diffusers' Euler scheduler,
        # `sigmas[self.step_index]`): reported by default
        Example("import torch\nimport torch_xla\nclass Noise:\n    def __init__(self, device):\n"
                "        self.sigmas = torch.linspace(1.0, 0.0, 9).to(device)\n        self.step_index = 0\n"
                "    def add(self, x):\n        sigma = self.sigmas[self.step_index]\n        self.step_index += 1\n"
                "        return x + sigma * torch.randn_like(x)\ndef train(model, loader, opt, device):\n"
                "    noise = Noise(device)\n    for x, y in loader:\n        loss = model(noise.add(x)).sum()\n"
                "        loss.backward()\n        opt.step()\n        torch_xla.sync()\n",
                expected=(
                    (8, 17, 'a Python int that changes every step indexes a torch tensor: torch_xla bakes the '
                            'position into the graph and compiles a new one for each value; index with a device '
                            'tensor (`index_select`/`index_copy_`)'),
                )),
    )

    def check_module(self, ctx: ModuleContext) -> None:
        torch = ctx.torch
        if not torch.steps:
            return
        flags = torch.flags
        functions: dict[int, ast.FunctionDef | ast.AsyncFunctionDef] | None = None
        builders: set[int] | None = None  # XLA453's batch builders: it reports their padded sizes

        def report(node: ast.AST, hit: ast.AST | None, message: str) -> None:
            if ctx.preview or hit is not None and _counted(hit, torch):
                ctx.report(self, node, message)
        for node in torch.nodes:
            if id(torch.stmt_of.get(id(node))) in torch.cached:
                continue  # a lazily built or grown cache: once per object or per size, not a new value per step
                #           (other set-up runs once per call: a value new at every call is new at every step)
            stmt = torch.stmt_of.get(id(node))
            if stmt is not None and not isinstance(node, ast.For) and overwritten_unread(ctx.tree, stmt):
                continue  # bound, then bound again before any read: a lazy value nothing reads builds no graph
            if isinstance(node, ast.For) and (count := _loop_count(node, flags)) is not None \
                    and _runs_tensor_ops(node, torch) and recompiles("loop_count"):
                # table: loop_count (the loop is unrolled into the graph, one graph per trip count)
                report(node, count, f"{_what(count, flags)} sets the trip count of a Python loop over "
                                       "torch ops: torch_xla unrolls the loop into the graph and compiles a new one "
                                       "for each count; loop a fixed number of times (pad, mask the extra steps)")
                continue
            if _dynamo(torch, node) and (isinstance(node, ast.Call) or isinstance(node, ast.Subscript) and any(
                    isinstance(p, ast.Slice) for p in ast.walk(node.slice))) and not _argument_bound(node, flags):
                continue  # (torch.compile: dynamo makes a changing int dynamic after one more compile; an index
                #           into a tensor was not measured there and stays reported, and so does a slice bound
                #           that is the compiled function's own int argument: measured, one compile per value)
            if isinstance(node, ast.Subscript) and (torch.tensor(node.value) or multi_axis_of_batch(node, torch)) \
                    and not torch.of(node.value) & CPU:
                parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                for p in parts:
                    if isinstance(p, ast.Slice):
                        hit = _varies(p.lower, flags) or _varies(p.upper, flags)
                        if hit is not None:
                            report(node, hit, f"{_what(hit, flags)} is a slice bound of a torch "
                                                   "tensor: torch_xla bakes it into the graph and compiles a new one "
                                                   "for each value; use a fixed size (pad) or a device-side index")
                            break
                    elif not flags.get(id(p), 0) & TENSOR and (hit := _varies(p, flags)) is not None \
                            and not flags.get(id(hit), 0) & TENSOR and (flags.get(id(hit), 0) & (STEP_INT | HOST) or (
                                isinstance(hit, ast.Name) and (functions := functions or _functions_of(ctx.tree))
                                and id(node) in functions and _python_int_by_use(hit.id, functions[id(node)]))):
                        # (a step function's argument used as an index may be an index tensor: not claimed, unless
                        # the function also uses it as a range or slice bound, where only a Python int goes)
                        report(node, hit, f"{_what(hit, flags)} indexes a torch tensor: torch_xla "
                                               "bakes the position into the graph and compiles a new one for each "
                                               "value; index with a device tensor (`index_select`/`index_copy_`)")
                        break
            elif isinstance(node, ast.Call):
                op = torch.call_ops.get(id(node))
                if op not in _SIZE_OPS or not recompiles(*_SIZE_PROBES.get(op, ("int_in_factory_size",))):
                    continue
                args = node.args[1:] if op in _INPUT_FIRST else node.args
                if op in ("torch.full",):
                    args = node.args[:1]
                elif op == "torch.randint":
                    # randint([low,] high, size): the bounds are values, not sizes (the recompile table
                    # measures sizes only); the size is the last positional argument or size=
                    has_size_kw = any(kw.arg == "size" for kw in node.keywords)
                    args = node.args[-1:] if len(node.args) >= 2 and not has_size_kw else []
                sizes = list(args) + [kw.value for kw in node.keywords if kw.arg in _SIZE_KEYWORDS]
                hit = next((h for a in sizes if (h := _varies(a, flags)) is not None), None)
                if hit is None and (functions := functions or _functions_of(ctx.tree)) and id(node) in functions \
                        and id(functions[id(node)]) not in (builders := builders if builders is not None else {
                            id(f) for f, _ in batch_builders_padding_to_longest(ctx)}) \
                        and _reaches_device(node, torch.stmt_of.get(id(node)), functions[id(node)]) \
                        and (longest := next((pl for a in sizes if (pl := _padded_to_longest(
                            a, functions[id(node)])) is not None), None)) is not None:
                    shown = op.replace("Tensor.", "tensor.").replace("torch.nn.functional.", "F.")
                    report(node, None, f"`{ast.unparse(longest[0])}`, the length of the longest item of "
                                           f"`{longest[1]}` (a list handed in at each call), sets a size of "
                                           f"`{shown}`: the batch is padded to its longest sequence, and torch_xla "
                                           "compiles a new graph for each length; pad to a fixed length (or a few "
                                           "buckets)")
                    continue
                if hit is not None and not torch.tensor(hit):
                    shown = op.replace("Tensor.", "tensor.").replace("torch.nn.functional.", "F.")
                    role = _ROLE.get(op)
                    if role is None:
                        report(node, hit, f"{_what(hit, flags)} sets a size of `{shown}`: torch_xla compiles "
                                               "a new graph for each value; use a fixed size (pad, a few buckets) or "
                                               "keep the value on the device")
                    else:
                        # (a new interpolate scale_factor with the same output size compiles nothing:
                        # float_interpolate_scale_factor_same_size; the output size is the graph's constant)
                        each = "output size" if role == "the output size" else "value"
                        report(node, hit, f"{_what(hit, flags, number=True)} sets {role} of `{shown}`: torch_xla "
                                               f"bakes it into the graph and compiles a new one for each {each}; use "
                                               "one value (or a few, each one compilation, drawn per epoch), or keep "
                                               "the value on the device (a gather with a device index)")
