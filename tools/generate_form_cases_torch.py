"""Generate the PyTorch/XLA form matrix: each SINK (a host sync, a data-dependent shape, an op without
a lowering, a recompile hazard) placed on each PATH by which model code reaches a torch_xla step (how
the step is entered, where in the model or the step the sink sits, and how the value travels there).

Each cell is one case file in ``eval_cases/torch_xla/cases`` (oracle conventions, ``CATEGORY`` set in
the oracle section), ``form_<sink>_<path>.py``, and its near miss ``neg_form_<sink>_<path>.py`` (the
same code with the sink's fixed form) where the matrix asks for one. The file name is the author's
guess; torch_xla labels the cases (``oracle_torch.py label``), and a label that disagrees renames the
file. The matrix is not a sample of real code: it is written to find the paths the analyzer does not
follow, so every case goes into ``eval_cases/authored_with_rules.txt`` (no evidence of recall) and
into ``eval_cases/forms_torch.txt`` (``torch_cases_score.py --only-from eval_cases/forms_torch.txt``).

    python tools/generate_form_cases_torch.py --write --out /tmp/forms    # every cell, to label them
    python tools/generate_form_cases_torch.py --write --labelled-only    # the tree: the labelled cells
    python tools/generate_form_cases_torch.py --check     # exit 1 when a case in the tree differs from the generator
    python tools/generate_form_cases_torch.py --list      # the cells' file names, one a line

The tree holds the cells torch_xla has labelled (``eval_cases/torch_xla/labels.json``); the others are
written to a scratch folder, labelled there (``oracle_torch.py label``) and merged
(``merge_labels.py --torch``), then ``--write --labelled-only`` adds them.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "eval_cases" / "torch_xla" / "cases"
LIST = ROOT / "eval_cases" / "forms_torch.txt"


@dataclass(frozen=True)
class Sink:
    """A hazard written on a ``(batch, 16)`` float tensor ``{v}``: statements that end with ``{v}`` rebound
    to a tensor of the same shape. ``pos`` has the hazard (its first line carries the ``# XLA:`` note),
    ``neg`` the fixed form. ``random``: the case draws Python numbers (eager and XLA runs differ)."""

    name: str
    category: str
    pos: str
    neg: str
    doc: str
    random: bool = False
    state: bool = False  # uses the module-level LOG / HIST / STATE (reset by ENTRY)
    optimizer: str = ""  # the positive case builds this optimizer (torch_xla_host.json optimizers)


SINKS = (
    Sink("item", "host", "scale = {v}.abs().mean().item()\n{v} = {v} / (scale + 1.0)",
         "scale = {v}.abs().mean()\n{v} = {v} / (scale + 1.0)", "`.item()` reads the value on the host"),
    Sink("tolist", "host", "LOG.append({v}.argmax(-1).tolist())",
         "LOG.append({v}.argmax(-1).detach())", "`.tolist()` copies the predictions to the host", state=True),
    Sink("cpu", "host", "LOG.append({v}.detach().cpu())", "LOG.append({v}.detach())",
         "`.cpu()` copies the activations to the host", state=True),
    Sink("float", "host", "peak = float({v}.abs().max())\n{v} = {v} / (peak + 1.0)",
         "peak = {v}.abs().max()\n{v} = {v} / (peak + 1.0)", "`float(t)` reads the value on the host"),
    Sink("if", "host", "if {v}.mean() > 0:\n    {v} = {v} * 0.5",
         "{v} = torch.where({v}.mean() > 0, {v} * 0.5, {v})", "`if t:` reads the condition on the host"),
    Sink("print", "host", "print(\"activations\", {v}.mean())", "print(\"activations\", {v}.shape)",
         "`print(t)` formats the value on the host"),
    Sink("mask", "shape", "pos_part = {v}[{v} > 0]\n{v} = {v} + pos_part.sum() * 0.01",
         "{v} = {v} + ({v} * ({v} > 0)).sum() * 0.01", "`x[mask]` has a data-dependent size (aten::nonzero)"),
    Sink("nonzero", "shape", "idx = torch.nonzero({v} > 0)\n{v} = {v} + idx.float().mean() * 0.01",
         "{v} = {v} + ({v} > 0).float().mean() * 0.01", "`torch.nonzero` has a data-dependent size"),
    Sink("masked_select", "shape", "sel = torch.masked_select({v}, {v} > 0)\n{v} = {v} + sel.mean() * 0.01",
         "sel = {v}.masked_fill({v} <= 0, 0.0)\n{v} = {v} + sel.mean() * 0.01",
         "`torch.masked_select` has a data-dependent size"),
    Sink("unique", "shape", "classes = torch.unique({v}.argmax(-1))\n{v} = {v} + classes.float().sum() * 0.01",
         "classes = F.one_hot({v}.argmax(-1), 16).amax(0)\n{v} = {v} + classes.float().sum() * 0.01",
         "`torch.unique` has a data-dependent size"),
    Sink("repeat_interleave", "shape",
         "reps = ({v}[:, 0] > 0).long() + 1\nrep = torch.repeat_interleave({v}, reps, dim=0)\n"
         "{v} = {v} + rep.mean() * 0.01",
         "rep = torch.repeat_interleave({v}, 2, dim=0)\n{v} = {v} + rep.mean() * 0.01",
         "`repeat_interleave` with tensor repeats has a data-dependent size"),
    Sink("median", "op", "{v} = {v} - {v}.median(dim=-1, keepdim=True).values",
         "{v} = {v} - {v}.mean(dim=-1, keepdim=True)", "`median` has no XLA lowering (aten::median)"),
    Sink("multinomial", "op",
         "draw = torch.multinomial(F.softmax({v}.detach(), -1), 2)\n{v} = {v} + draw.float().mean() * 0.01",
         "draw = torch.multinomial(F.softmax({v}.detach(), -1), 1)\n{v} = {v} + draw.float().mean() * 0.01",
         "`multinomial(p, 2)` has no XLA lowering (one sample has)", random=True),
    Sink("adaptive_pool", "op",
         "pooled = F.adaptive_avg_pool1d({v}.unsqueeze(1), 3)\n{v} = {v} + pooled.mean() * 0.01",
         "pooled = F.adaptive_avg_pool1d({v}.unsqueeze(1), 4)\n{v} = {v} + pooled.mean() * 0.01",
         "adaptive pooling 16 -> 3 has no XLA lowering (16 -> 4 has)"),
    Sink("bincount", "op",
         "counts = torch.bincount({v}.argmax(-1), minlength=16)\n{v} = {v} + counts.float() * 0.01",
         "counts = F.one_hot({v}.argmax(-1), 16).sum(0)\n{v} = {v} + counts.float() * 0.01",
         "`bincount` has no XLA lowering"),
    Sink("slice_offset", "recompile",
         "off = _RNG.randint(1, 8)\n{v} = torch.cat([{v}[:, off:], {v}[:, :off]], dim=1)",
         "off = 4\n{v} = torch.cat([{v}[:, off:], {v}[:, :off]], dim=1)",
         "a Python int drawn per step as a slice offset", random=True),
    Sink("factory_int", "recompile",
         "n = _RNG.randint(1, 8)\n{v} = {v} + torch.ones(n, device={v}.device).sum() * 0.01",
         "n = 4\n{v} = {v} + torch.ones(n, device={v}.device).sum() * 0.01",
         "a Python int drawn per step as a factory size", random=True),
    Sink("list_grown", "recompile",
         "HIST.append({v}.detach().mean())\n{v} = {v} + torch.stack(list(HIST)).mean() * 0.01",
         "WINDOW.append({v}.detach().mean())\n{v} = {v} + torch.stack(list(WINDOW)).mean() * 0.01",
         "a Python list of tensors grown every step and stacked", state=True),
    Sink("schedule_one", "recompile",
         "STATE[\"t\"] += 1\nw = min(1.0, STATE[\"t\"] / 3)\n{v} = {v} * w",
         "STATE[\"t\"] += 1\nw = min(0.9, STATE[\"t\"] / 4)\n{v} = {v} * w",
         "a schedule factor that reaches exactly 1.0 (a constant baked into the graph)", state=True),
)
SINK = {s.name: s for s in SINKS}

# ---------------------------------------------------------------------------------------------------- table sinks
# The sinks of the generated tables, not a hand list: every entry of xlacheck/data/torch_xla_host.json that
# read the device back (functions, logging sinks, optimizers, size arguments, Tensor methods), the fallback
# and argument-dependent rows of torch_xla_ops.json (the lowered argument as the near miss), and every
# recompile probe of torch_xla_recompile.json (its value drawn per step; the fixed value as the near miss).
# Each call is written in the table's own probe names (``t`` a scalar, ``v`` a vector, ``m`` a matrix,
# ``i`` an integer scalar, ``b`` booleans, ``f`` a float scalar), bound here from the sink's tensor.
DATA = ROOT / "xlacheck" / "data"
_BIND = {  # the table's probe values, computed from p_x = torch.abs({v}), a proven tensor wherever {v} is
    "functions": {"t": "p_x.abs().mean() + 1.0", "i": "(p_x * 0).sum().long() + 4", "v": "p_x.flatten()",
                  "b": "p_x.flatten() > -100.0"},
    "sizes": {"i": "(p_x * 0).sum().long() + 4", "v": "p_x.flatten()", "m": "p_x"},
    "sinks": {"t": "p_x.abs().mean()", "v": "p_x.flatten()"},
    "methods": {"t": "p_x.abs().mean() + 1.0", "v": "p_x.flatten()", "f": "p_x.mean() + 1.0",
                "i": "p_x.abs().sum().long() + 1", "b": "p_x.sum() > -100.0"},
}
_SINK_OBJECTS = {"SummaryWriter(tmp)": ("from torch.utils.tensorboard import SummaryWriter",
                                        "WRITER = SummaryWriter(tempfile.mkdtemp())"),
                 "tqdm.tqdm(total=3, file=io.StringIO())": ("import tqdm",
                                                            "WRITER = tqdm.tqdm(total=3, file=io.StringIO())")}
# the call of an argument-dependent op, with {kw} the arguments its table rows vary
_ARG_CALLS = {
    "torch.multinomial": "torch.multinomial(F.softmax({v}.detach(), -1), {kw})",
    "torch.nn.functional.adaptive_avg_pool1d": "F.adaptive_avg_pool1d({v}.unsqueeze(1), {kw})",
    "torch.nn.functional.adaptive_avg_pool2d": "F.adaptive_avg_pool2d({v}.view(-1, 1, 4, 4), {kw})",
    "torch.nn.functional.adaptive_max_pool1d": "F.adaptive_max_pool1d({v}.unsqueeze(1), {kw})",
    "torch.nn.functional.adaptive_max_pool2d": "F.adaptive_max_pool2d({v}.view(-1, 1, 4, 4), {kw})",
    "torch.nn.functional.embedding": "F.embedding({v}.argmax(-1), torch.ones(16, 4, device={v}.device), {kw})",
    "torch.nn.functional.embedding_bag": ("F.embedding_bag({v}.argmax(-1).view(2, -1), "
                                          "torch.ones(16, 4, device={v}.device), {kw})"),
    "torch.nn.functional.interpolate": "F.interpolate({v}.view(-1, 1, 4, 4), scale_factor=2, {kw})",
    "torch.repeat_interleave": "torch.repeat_interleave({v}, {kw}, dim=0)",
    "torch.where": "torch.where({kw})",
    "Tensor.__getitem__": "{v}[{kw}]",
}
_WHEN_ARGS = {  # a row's `when` value -> the argument written
    ("output_size", "does not divide input (8->3)"): "3", ("output_size", "divides input (8->4)"): "4",
    ("output_size", "1"): "1", ("max_norm", "given"): "max_norm=1.0",
    ("repeats", "tensor"): "({v}[:, 0] > 0).long() + 1",
    ("repeats", "int"): "2", ("arguments", "1"): "{v} > 0", ("arguments", "3"): "{v} > 0, {v}, 0.0",
    ("index", "bool tensor"): "{v} > 0", ("index", "long tensor"): "{v}.argmax(-1)",
}


_WRITER_IMPORTS = {"SummaryWriter(tmp)": "tempfile", "tqdm.tqdm(total=3, file=io.StringIO())": "io"}


def _writer(text: str) -> str:
    """The logging object a table sink's call runs on (``w`` in the host table), or ''."""
    return next((b for b, (_, line) in _SINK_OBJECTS.items() if "WRITER." in text and
                 ("add_" in text) == ("SummaryWriter" in b)), "")


def _rename(call: str, names: dict[str, str]) -> str:
    import re
    return re.sub(r"\b(" + "|".join(names) + r")\b(?!\s*=)", lambda m: names[m.group(1)], call) if names else call


def _bound(section: str, call: str, v: str = "{v}") -> str:
    """Lines binding the probe names ``call`` uses, then ``LOG.append(call)``."""
    import re
    used = [n for n in _BIND[section] if re.search(rf"\b{n}\b(?!\s*=)", call)]
    names = {n: f"p_{n}" for n in used}
    if section == "sinks":
        names["w"] = "WRITER"
    lines = ["p_x = torch.abs({v})"] + [f"p_{n} = {_BIND[section][n]}" for n in used]
    return "\n".join(lines + [f"LOG.append({_rename(call, names)})"])


def _slug(name: str) -> str:
    import re
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def _table_sinks() -> tuple[Sink, ...]:
    import sys as _sys
    _sys.path.insert(0, str(ROOT / "tools"))
    from generate_torch_host_table import ARG_METHODS  # the sweep's own calls
    host = json.loads((DATA / "torch_xla_host.json").read_text())
    ops = json.loads((DATA / "torch_xla_ops.json").read_text())
    rec = json.loads((DATA / "torch_xla_recompile.json").read_text())
    out: list[Sink] = []
    quiet = {sec: [n for n, e in host[sec].items() if not e.get("transfers") and e.get("call") and not e.get("error")]
             for sec in ("functions", "sizes")}
    for sec in ("functions", "sizes", "sinks"):
        reading = [(n, e) for n, e in host[sec].items() if e.get("transfers") and not e.get("error")]
        for k, (n, e) in enumerate(reading):
            pos = _bound(sec, e["call"])
            if sec == "sinks":
                neg = "LOG.append({v}.abs().mean().detach())"
            elif sec == "sizes":  # the size as a Python int
                neg = _bound(sec, e["call"]).replace(f"p_i = {_BIND[sec]['i']}", "p_i = 4")
            else:
                q = quiet[sec][k % len(quiet[sec])]
                neg = _bound(sec, host[sec][q]["call"])
            out.append(Sink(f"tab_{sec}_{_slug(n)}", "host", pos, neg,
                            f"`{n}` read a device value back (torch_xla_host.json {sec})", state=True))
    methods: dict[str, str] = {}
    for key, e in sorted(host["methods"].items()):
        n, dt = key.split(":")
        if e.get("transfers") and not e.get("error") and ops["ops"].get("Tensor." + n, {}).get("status") != "fallback":
            methods.setdefault(n, ARG_METHODS.get(n, f"{dt}.{n}()"))
    for n, call in methods.items():
        out.append(Sink(f"tab_method_{_slug(n)}", "host", _bound("methods", call),
                        "LOG.append({v}.abs().mean().detach())",
                        f"`Tensor.{n}` read a device value back (torch_xla_host.json methods)", state=True))
    for n, e in host["optimizers"].items():
        if e.get("reads") and not e.get("error") and n.startswith("torch.optim.") and n != "torch.optim.LBFGS":
            out.append(Sink(f"tab_opt_{_slug(n.rsplit('.', 1)[1])}", "host", "", "",
                            f"`{n}.step()` read a device value back (torch_xla_host.json optimizers)",
                            optimizer=n))
    # ops: the fallback Tensor methods the host sweep ran without an error (their call is the sweep's), and
    # every argument-dependent op, its fallback argument against the argument that lowers
    fallback: dict[str, str] = {}
    for key, e in sorted(host["methods"].items()):
        n, dt = key.split(":")
        if not e.get("error") and ops["ops"].get("Tensor." + n, {}).get("status") == "fallback" and \
                not n.endswith("_") and n not in SINK:
            fallback.setdefault(n, ARG_METHODS.get(n, f"{dt}.{n}()"))
    for n, call in fallback.items():
        out.append(Sink(f"tab_op_{_slug(n)}", "op", _bound("methods", call),
                        "LOG.append({v}.abs().mean().detach())",
                        f"`Tensor.{n}` has no XLA lowering (torch_xla_ops.json)", state=True))
    for n, rows in ops["argument_dependent"].items():
        if n not in _ARG_CALLS:
            continue
        fb = [r for r in rows if r["status"] == "fallback" and len(r["when"]) == 1]
        ok = [r for r in rows if r["status"] == "lowered" and len(r["when"]) == 1 and not r.get("reads_value")]
        if not fb or not ok:
            continue
        def arg(r):
            (k, val), = r["when"].items()
            return _WHEN_ARGS.get((k, str(val)), f"{k}={val!r}")
        call = "p_x = torch.abs({v})\nr = " + _ARG_CALLS[n].replace("{v}", "p_x")
        pos = f"{call.replace('{kw}', arg(fb[0]).replace('{v}', 'p_x'))}\n{{v}} = {{v}} + r.float().mean() * 0.01"
        neg = f"{call.replace('{kw}', arg(ok[0]).replace('{v}', 'p_x'))}\n{{v}} = {{v}} + r.float().mean() * 0.01"
        out.append(Sink(f"tab_argop_{_slug(n.rsplit('.', 1)[1])}", "op", pos, neg,
                        f"`{n}` with {fb[0]['when']} has no lowering ({ok[0]['when']} has)",
                        random=n == "torch.multinomial"))
    for n, p in rec["probes"].items():
        if not p.get("recompiles") or p["input"] != "fixed" or "globals()" in p["step"] or "\n" in p["step"]:
            continue
        expr = p["step"].removeprefix("return ")
        body = _rename(_rename(expr, {"v": "p_val"}), {"x": "p_x"})
        vals = p["values"]
        pos = (f"p_val = _RNG.choice({vals!r})\np_x = torch.abs({{v}})\nr = {body}\n"
               "{v} = {v} + r.float().mean() * 0.01")
        neg = f"p_val = {vals[0]!r}\np_x = torch.abs({{v}})\nr = {body}\n{{v}} = {{v}} + r.float().mean() * 0.01"
        out.append(Sink(f"tab_rec_{_slug(n)}", "recompile", pos, neg,
                        f"{p['varies']} (torch_xla_recompile.json {n})", random=True))
    return tuple(out)


TABLE_SINKS = _table_sinks()

# ---------------------------------------------------------------------------------------------------- paths
# Where the sink sits (the variable it applies to is named in the template as {SINK:var}).
LOCATIONS = ("forward", "submodule", "sequential", "modulelist", "helper", "hook", "step", "loss_fn", "loss_module",
             "tuple", "dict", "attr", "kwargs", "kwargs_forward", "trainer_method", "closure", "moduledict", "super",
             "partial", "hook_before_loop")
ENTRIES = ("plain", "sync", "mark_step", "mpdl", "spawn", "torch_compile", "xla_compile")

_ENTRY_DOC = {
    "plain": "a training-step function (backward and optimizer step), run on the XLA device by the caller",
    "sync": "a manual loop that calls `torch_xla.sync()` after each training step",
    "mark_step": "a manual loop that calls `xm.mark_step()` after each training step",
    "mpdl": "a loop over `pl.MpDeviceLoader` (which syncs at each batch)",
    "spawn": "a per-process function started by `xmp.spawn`, looping with `xm.optimizer_step` and `xm.mark_step()`",
    "torch_compile": "a model wrapped in `torch.compile(backend=\"openxla\")`",
    "xla_compile": "a training step wrapped in `torch_xla.compile`",
}
_LOC_DOC = {
    "forward": "in the model's `forward`",
    "submodule": "in the `forward` of a submodule the model calls",
    "sequential": "in the `forward` of a module inside an `nn.Sequential`",
    "helper": "in a module-level helper the model's `forward` calls",
    "hook": "in a forward hook registered on a layer",
    "step": "in the training step, on the model output",
    "loss_fn": "in a loss function the step calls",
    "loss_module": "in the `forward` of an `nn.Module` loss",
    "tuple": "in the step, on a feature tensor the model returns in a tuple",
    "dict": "in the step, on a feature tensor the model returns in a dict",
    "attr": "in the step, on a feature tensor the model returns as a dataclass attribute",
    "kwargs": "in the step, on the output of `model(**batch)`",
    "kwargs_forward": "in the model's `forward`, on an input passed as `model(**batch)`",
    "modulelist": "in the `forward` of a block the model runs from an `nn.ModuleList`",
    "trainer_method": "in a training-step method of a trainer class, on the output of `self.model`",
    "closure": "in a step function that a factory returns as a closure, on the model output",
    "moduledict": "in the `forward` of a head the model picks from an `nn.ModuleDict`",
    "super": "in the `forward` of a base class the model's `forward` calls through `super()`",
    "partial": "in the training step, on the model output, called through `functools.partial`",
    "hook_before_loop": "in a forward hook the training loop's function registers before the loop",
}


def _body(sink: Sink, var: str, positive: bool, indent: int, note: bool = True) -> str:
    text = (sink.pos if positive else sink.neg).replace("{v}", var)
    lines = text.splitlines()
    if not lines:  # a sink outside the model (the optimizer the step code builds)
        return " " * indent + "pass"
    if positive and note:
        lines[0] += f"  # XLA: {sink.category}"
    return textwrap.indent("\n".join(lines), " " * indent)


def _model(loc: str, sink: Sink, positive: bool, note: bool = True) -> str:
    """The model (and loss) classes and functions for a location."""
    s = lambda var, ind: _body(sink, var, positive, ind, note)  # noqa: E731
    if loc == "forward":
        return f"""class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 16)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
{s("h", 8)}
        return self.fc2(h)
"""
    if loc == "submodule":
        return f"""class Block(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.lin = nn.Linear(d, d)

    def forward(self, h):
{s("h", 8)}
        return self.lin(h)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.block = Block()

    def forward(self, x):
        return self.block(torch.relu(self.fc1(x)))
"""
    if loc == "sequential":
        return f"""class Probe(nn.Module):
    def forward(self, h):
{s("h", 8)}
        return h


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), Probe(), nn.Linear(16, 16))

    def forward(self, x):
        return self.body(x)
"""
    if loc == "modulelist":
        return f"""class Block(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.lin = nn.Linear(d, d)

    def forward(self, h):
{s("h", 8)}
        return torch.relu(self.lin(h))


class Net(nn.Module):
    def __init__(self, depth=2):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.blocks = nn.ModuleList([Block() for _ in range(depth)])

    def forward(self, x):
        h = self.fc1(x)
        for blk in self.blocks:
            h = blk(h)
        return h
"""
    if loc == "moduledict":
        return f"""class Head(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.lin = nn.Linear(d, d)

    def forward(self, h):
{s("h", 8)}
        return self.lin(h)


class Net(nn.Module):
    def __init__(self, task="main"):
        super().__init__()
        self.task = task
        self.fc1 = nn.Linear(8, 16)
        self.heads = nn.ModuleDict({{"main": Head(), "aux": Head()}})

    def forward(self, x):
        return self.heads[self.task](torch.relu(self.fc1(x)))
"""
    if loc == "super":
        return f"""class Base(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 16)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
{s("h", 8)}
        return self.fc2(h)


class Net(Base):
    def forward(self, x):
        return super().forward(x) * 2.0
"""
    if loc == "hook_before_loop":
        return f"""def feature_hook(module, inputs, output):
{s("output", 4)}
    return output


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 16)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))
"""
    if loc == "kwargs_forward":
        return f"""class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 16)

    def forward(self, inputs, labels=None):
        h = self.fc1(inputs)
{s("h", 8)}
        return self.fc2(torch.relu(h))
"""
    if loc == "helper":
        return f"""def transform(h):
{s("h", 4)}
    return h


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 16)

    def forward(self, x):
        h = transform(torch.relu(self.fc1(x)))
        return self.fc2(h)
"""
    if loc == "hook":
        return f"""def feature_hook(module, inputs, output):
{s("output", 4)}
    return output


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 16)
        self.fc1.register_forward_hook(feature_hook)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))
"""
    plain = """class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 16)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))
"""
    if loc == "loss_fn":
        return plain + f"""

def loss_fn(out, y):
{s("out", 4)}
    return F.cross_entropy(out, y)
"""
    if loc == "loss_module":
        return plain + f"""

class SmoothedLoss(nn.Module):
    def __init__(self, smoothing=0.1):
        super().__init__()
        self.smoothing = smoothing

    def forward(self, out, y):
{s("out", 8)}
        return F.cross_entropy(out, y, label_smoothing=self.smoothing)
"""
    if loc == "tuple":
        return """class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 16)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        return self.fc2(h), h
"""
    if loc == "dict":
        return """class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 16)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        return {"logits": self.fc2(h), "features": h}
"""
    if loc == "attr":
        return """@dataclass
class NetOutput:
    logits: torch.Tensor
    features: torch.Tensor


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 16)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        return NetOutput(logits=self.fc2(h), features=h)
"""
    if loc == "kwargs":
        return """class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 16)

    def forward(self, inputs, labels=None):
        return self.fc2(torch.relu(self.fc1(inputs)))
"""
    return plain  # step


def _step(loc: str, sink: Sink, positive: bool) -> str:
    """``train_step(model, opt, x, y)``: forward, the loss, backward, an optimizer step."""
    s = lambda var: _body(sink, var, positive, 4)  # noqa: E731
    if loc in ("step", "partial"):
        fwd = f"    out = model(x)\n{s('out')}\n    loss = F.cross_entropy(out, y)\n"
    elif loc == "loss_fn":
        fwd = "    loss = loss_fn(model(x), y)\n"
    elif loc == "loss_module":
        fwd = "    loss = criterion(model(x), y)\n"
    elif loc == "tuple":
        fwd = (f"    out, feats = model(x)\n{s('feats')}\n"
               "    loss = F.cross_entropy(out, y) + feats.pow(2).mean() * 0.01\n")
    elif loc == "dict":
        fwd = (f"    res = model(x)\n    feats = res[\"features\"]\n{s('feats')}\n"
               "    loss = F.cross_entropy(res[\"logits\"], y) + feats.pow(2).mean() * 0.01\n")
    elif loc == "attr":
        fwd = (f"    res = model(x)\n    feats = res.features\n{s('feats')}\n"
               "    loss = F.cross_entropy(res.logits, y) + feats.pow(2).mean() * 0.01\n")
    elif loc == "kwargs_forward":
        fwd = "    batch = {\"inputs\": x, \"labels\": y}\n    loss = F.cross_entropy(model(**batch), y)\n"
    elif loc == "kwargs":
        fwd = (f"    batch = {{\"inputs\": x, \"labels\": y}}\n    out = model(**batch)\n{s('out')}\n"
               "    loss = F.cross_entropy(out, y)\n")
    else:
        fwd = "    loss = F.cross_entropy(model(x), y)\n"
    params = "model, opt, criterion, x, y" if loc == "loss_module" else "model, opt, x, y"
    if loc == "trainer_method":
        return f"""class Trainer:
    def __init__(self, model, opt):
        self.model = model
        self.opt = opt

    def train_step(self, x, y):
        self.opt.zero_grad()
        out = self.model(x)
{_body(sink, "out", positive, 8)}
        loss = F.cross_entropy(out, y)
        loss.backward()
        self.opt.step()
        return loss.detach()
"""
    if loc == "closure":
        return f"""def make_train_step(model, opt):
    def train_step(x, y):
        opt.zero_grad()
        out = model(x)
{_body(sink, "out", positive, 8)}
        loss = F.cross_entropy(out, y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step
"""
    return (f"def train_step({params}):\n    opt.zero_grad()\n{fwd}"
            "    loss.backward()\n    opt.step()\n    return loss.detach()\n")


def _call_args(loc: str) -> str:
    return "model, opt, criterion, x, y" if loc == "loss_module" else "model, opt, x, y"


def _entry(entry: str, loc: str) -> tuple[str, str, str, str]:
    """(extra imports, the code that runs steps, the ENTRY body, extra oracle settings) of an entry form."""
    args = _call_args(loc)
    crit = "    criterion = SmoothedLoss()\n" if loc == "loss_module" else ""
    build = f"    model = Net().to(device)\n    opt = torch.optim.SGD(model.parameters(), lr=0.05)\n{crit}"
    bound = args.replace(", x, y", "")
    if entry == "plain":
        return ("", "", f"{build}    return functools.partial(train_step, {bound}), _batch(device, 0)\n", "")
    if entry in ("sync", "mark_step"):
        imp = "import torch_xla\n" if entry == "sync" else "import torch_xla.core.xla_model as xm\n"
        sync = "torch_xla.sync()" if entry == "sync" else "xm.mark_step()"
        setup, call, teardown = "", f"train_step({args})", ""
        if loc == "trainer_method":
            setup, call = "    trainer = Trainer(model, opt)\n", "trainer.train_step(x, y)"
        elif loc == "closure":
            setup, call = "    step = make_train_step(model, opt)\n", "step(x, y)"
        elif loc == "partial":
            setup, call = "    step = functools.partial(train_step, model, opt)\n", "step(x, y)"
        elif loc == "hook_before_loop":
            setup = "    handle = model.fc1.register_forward_hook(feature_hook)\n"
            teardown = "    handle.remove()\n"
        run = f"""def train_epoch({bound}, batches):
{setup}    losses = []
    for x, y in batches:
        losses.append({call})
        {sync}
{teardown}    return losses
"""
        return (imp, run, f"{build}    return (lambda x, y: train_epoch({bound}, [(x, y)])), _batch(device, 0)\n",
                "MARK_STEP = False  # the loop syncs after each step\n")
    if entry == "mpdl":
        imp = ("import torch_xla\nimport torch_xla.distributed.parallel_loader as pl\n"
               "from torch.utils.data import DataLoader, TensorDataset\n")
        run = f"""def train_epoch({bound}, features, targets, device):
    loader = pl.MpDeviceLoader(DataLoader(TensorDataset(features, targets), batch_size=8), device)
    losses = []
    for x, y in loader:
        losses.append(train_step({args}))
    return losses
"""
        return (imp, run, f"{build}    return (lambda x, y: train_epoch({bound}, x, y, device)), "
                          "_batch(torch.device(\"cpu\"), 0)\n",
                "EAGER = False  # MpDeviceLoader needs an XLA device\n")
    if entry == "spawn":
        imp = ("import torch_xla\nimport torch_xla.core.xla_model as xm\n"
               "import torch_xla.distributed.xla_multiprocessing as xmp\n")
        setup = "    criterion = SmoothedLoss()\n" if loc == "loss_module" else ""
        run = f"""def _mp_fn(index, batches):
    device = torch_xla.device()
    model = Net().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
{setup}    for x, y in batches:
        train_step({args.replace('x, y', 'x.to(device), y.to(device)')})
        xm.mark_step()


if __name__ == "__main__":
    xmp.spawn(_mp_fn, args=([],))
"""
        return (imp, run, f"{build}    return functools.partial(train_step, {bound}), _batch(device, 0)\n", "")
    if entry == "torch_compile":
        run = """def build_model(device):
    model = Net().to(device)
    return torch.compile(model, backend="openxla") if device.type == "xla" else model
"""
        b = f"    model = build_model(device)\n    opt = torch.optim.SGD(model.parameters(), lr=0.05)\n{crit}"
        return ("", run, f"{b}    return functools.partial(train_step, {bound}), _batch(device, 0)\n", "")
    if entry == "xla_compile":
        imp = "import torch_xla\n"
        run = """def make_step(device):
    return torch_xla.compile(train_step) if device.type == "xla" else train_step
"""
        return (imp, run, f"{build}    step = make_step(device)\n"
                          f"    return functools.partial(step, {bound}), _batch(device, 0)\n",
                "MARK_STEP = False  # torch_xla.compile syncs around the step\n")
    raise ValueError(entry)


_NO_COMPARE = "COMPARE = False  # Python-side random draws: the eager and XLA runs see different values\n"


# Cells whose hazard torch_xla did not show (the file name follows the oracle, the note says why):
# under torch.compile (dynamo) a per-step Python int offset compiles once more, then dynamo makes it a
# dynamic value ("automatic dynamic shapes"): no recompile in the steady steps.
ORACLE_FLIPPED = {("slice_offset", "torch_compile", "forward"):
                  "torch_xla: ok (compiles 4, 2, then 0 per step: dynamo marks the offset dynamic)"}


def sink_setup(sink: Sink) -> tuple[list[str], list[str], str, str, str]:
    """What a file holding ``sink`` needs besides torch: (the ``random`` import, the other standard-library
    imports, third-party imports, module-level state (the draws' ``_RNG``, the logging ``WRITER``, ``LOG`` /
    ``STATE``), the ``ENTRY`` lines that reset that state)."""
    draw = ["import random"] if sink.random else []
    stdlib = ["import collections"] if sink.name == "list_grown" else []
    text = sink.pos + sink.neg
    stdlib += [f"import {m}" for m in ("io", "math", "operator", "tempfile") if f"{m}." in text or
               m in ("io", "tempfile") and "WRITER" in text and m in _WRITER_IMPORTS.get(_writer(text), "")]
    writer = _writer(text)
    third = _SINK_OBJECTS[writer][0] + "\n" if writer else ""
    state = "_RNG = random.Random(0)\n\n\n" if sink.random else ""
    if writer:
        state += _SINK_OBJECTS[writer][1] + "\n\n\n"
    resets = ""
    if sink.state:
        state += ("LOG = []\nHIST = []\nWINDOW = collections.deque(maxlen=2)\nSTATE = {\"t\": 0}\n\n\n"
                  if sink.name == "list_grown" else "LOG = []\nSTATE = {\"t\": 0}\n\n\n")
        resets = "    LOG.clear()\n    STATE[\"t\"] = 0\n" + (
            "    HIST.clear()\n    WINDOW.clear()\n" if sink.name == "list_grown" else "")
    return draw, stdlib, third, state, resets


def case(sink: Sink, entry: str, loc: str, positive: bool) -> tuple[str, str]:
    """(file name, source) of one cell."""
    flipped = ORACLE_FLIPPED.get((sink.name, entry, loc)) if positive else None
    name = f"{'' if positive and not flipped else 'neg_'}form_{sink.name}_{entry}_{loc}.py"
    imports, run, entry_body, settings = _entry(entry, loc)
    if sink.optimizer:  # the step code builds the optimizer the table measured (Adam, reading nothing: the near miss)
        cls = sink.optimizer if positive else "torch.optim.Adam"
        note = "  # XLA: host" if positive else ""
        run = (f"def make_optimizer(model):\n    return {cls}(model.parameters(), lr=0.05){note}\n\n\n"
               + run.replace("torch.optim.SGD(model.parameters(), lr=0.05)", "make_optimizer(model)"))
        entry_body = entry_body.replace("torch.optim.SGD(model.parameters(), lr=0.05)", "make_optimizer(model)")
    draw, stdlib, third, state, _ = sink_setup(sink)
    imports += third
    head = (["import functools"] if "functools" in entry_body or loc == "partial" else []) + draw
    if loc == "attr":
        head.append("from dataclasses import dataclass")
    head += stdlib
    verdict = ("the hazard: " + sink.doc) if positive else \
        "the near miss: the fixed form of " + sink.doc.split(" ", 1)[0]
    doc = (f'"""Generated by tools/generate_form_cases_torch.py: {verdict}, {_LOC_DOC[loc]}, reached through '
           f'{_ENTRY_DOC[entry]}{"; " + flipped if flipped else ""}.\n'
           'Source: the matrix of tools/generate_form_cases_torch.py; torch_xla 2.9 labels it."""\n')
    src = (doc + "\n".join(head) + ("\n" if head else "")
           + "\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
           + imports + "\n\n" + state + _model(loc, sink, positive, not flipped) + "\n\n" + _step(loc, sink, positive)
           + ("\n\n" + run if run else ""))
    resets = sink_setup(sink)[4]
    oracle = f"""

# --- oracle ---
CATEGORY = "{sink.category}"
{settings}{_NO_COMPARE if sink.random else ""}

def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 8, generator=g).to(device), torch.randint(0, 16, (8,), generator=g).to(device)


def ENTRY(device):
{resets}{entry_body}

def ALT_ARGS(device):
    return [_batch({'torch.device("cpu")' if entry == "mpdl" else "device"}, s) for s in (1, 2)]
"""
    return name, src.replace("\n\n\n\n", "\n\n\n") + oracle


# ---------------------------------------------------------------------------------------------------- the matrix
CORE_SINKS = ("item", "mask", "median")  # one of each failure family, for the paths
ENTRY_SINKS = ("item", "mask", "slice_offset")


def cells() -> list[tuple[str, str, str, bool]]:
    """(sink, entry, location, positive) of every case: every sink on the plainest path (a synced loop, the
    sink in ``forward``), the core sinks on every location, three sinks on every entry; a near miss for
    every sink and for every path (with ``.item()``)."""
    out: list[tuple[str, str, str, bool]] = []
    for s in SINKS:
        out += [(s.name, "sync", "forward", True), (s.name, "sync", "forward", False)]
    for loc in LOCATIONS:
        if loc == "forward":
            continue
        out += [(s, "sync", loc, True) for s in CORE_SINKS]
        out.append(("item", "sync", loc, False))
    for entry in ENTRIES:
        if entry == "sync":
            continue
        loc = "forward" if entry == "torch_compile" else "step"
        out += [(s, entry, loc, True) for s in ENTRY_SINKS]
        out.append(("item", entry, loc, False))
    ways = [("sync", loc) for loc in LOCATIONS] + [(e, "forward" if e == "torch_compile" else "step")
                                                     for e in ENTRIES if e != "sync"]
    # a table sink keeps the way its cells in the tree were generated with (their labels belong to those
    # files): a row added to a table must not shift the round-robin of the rows before it
    kept = _ways_in_tree(ways)
    for k, s in enumerate(TABLE_SINKS):
        entry, loc = ("spawn", "step") if s.optimizer else kept.get(s.name, ways[k % len(ways)])
        out += [(s.name, entry, loc, True), (s.name, entry, loc, False)]
    return out


def _ways_in_tree(ways: list[tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """Table sink name -> the (entry, location) of its cells already in the tree."""
    out: dict[str, tuple[str, str]] = {}
    if not CASES.is_dir():
        return out
    for path in CASES.glob("*form_tab_*.py"):
        stem = path.stem.removeprefix("neg_").removeprefix("form_")
        for entry, loc in ways:
            if stem.endswith(f"_{entry}_{loc}"):
                out[stem[: -len(f"_{entry}_{loc}")]] = (entry, loc)
                break
    return out


def generate() -> dict[str, str]:
    every = {**SINK, **{s.name: s for s in TABLE_SINKS}}
    return dict(case(every[s], e, loc, pos) for s, e, loc, pos in cells())


def _in_tree() -> set[str]:
    return {p.name for p in CASES.glob("*.py") if p.name.startswith(("form_", "neg_form_"))}


def _listing(names: set[str]) -> str:
    return ("# The generated form matrix in the tree (tools/generate_form_cases_torch.py), labelled by torch_xla:\n"
            "# torch_cases_score.py --only-from eval_cases/forms_torch.txt\n"
            + "".join(f"{n.removesuffix('.py')}\n" for n in sorted(names)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", action="store_true")
    group.add_argument("--check", action="store_true")
    group.add_argument("--list", action="store_true")
    ap.add_argument("--out", type=Path, default=CASES, help="where --write puts the case files")
    ap.add_argument("--labelled-only", action="store_true",
                    help="with --write into the tree: keep only the cells torch_xla/labels.json labels (label the "
                         "others from a scratch folder first: --write --out DIR, oracle_torch.py label DIR)")
    args = ap.parse_args(argv)
    files = generate()
    if args.list:
        print("".join(f"{n}\n" for n in sorted(files)), end="")
        return 0
    if args.write:
        args.out.mkdir(parents=True, exist_ok=True)
        keep = set(files)
        if args.labelled_only and args.out == CASES:
            keep &= set(json.loads((CASES.parent / "labels.json").read_text()))
            for name in _in_tree() - keep:
                (CASES / name).unlink()
        for n in keep:
            (args.out / n).write_text(files[n])
        if args.out == CASES:
            LIST.write_text(_listing(_in_tree()))
        print(f"wrote {len(keep)} of the {len(files)} cases to {args.out}")
        return 0
    here = _in_tree()
    stale = sorted(n for n in here if files.get(n) != (CASES / n).read_text())
    if not LIST.is_file() or LIST.read_text() != _listing(here):
        stale.append(str(LIST))
    if stale:
        print(f"stale: {', '.join(stale)}; run python tools/generate_form_cases_torch.py --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
