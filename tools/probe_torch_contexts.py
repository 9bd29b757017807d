"""Probe xlacheck's PyTorch/XLA recall per context: each fact of the torch_xla tables placed in the code
around it that real PyTorch/XLA training code uses, labelled by torch_xla, scored per context.

The facts are the sinks of ``tools/generate_form_cases_torch.py`` (its hand sinks and ``TABLE_SINKS``: every
host read of ``xlacheck/data/torch_xla_host.json``, the CPU-fallback and argument-dependent rows of
``torch_xla_ops.json``, the recompile probes of ``torch_xla_recompile.json``), each with its near miss (the
fixed form). The contexts (``CONTEXTS``) are the places a step's code sits in: a loop that calls
``xm.mark_step()``, a loop over ``pl.MpDeviceLoader`` or ``ParallelLoader.per_device_loader``, an accelerate
loop (``accelerator.backward``), a Hugging Face ``Trainer`` subclass's ``compute_loss``/``training_step``, a
module's ``forward``, a same-file helper the loop calls, a model wrapped in
``torch.compile(backend="openxla")``, an eval loop under ``torch.no_grad()``, a metric's ``update``. Each
probe is one file in the shared oracle's conventions; torch_xla labels it (``oracle_torch.py label``:
``CompileTime``, ``TransferFromDeviceTime`` and ``aten::`` counters in the steady steps), so a probe whose
hazard torch_xla does not show counts as a negative whatever its name says.

    python tools/probe_torch_contexts.py write DIR [--sample K]    # DIR/cases/*.py (K sinks a context)
    PJRT_DEVICE=CPU python /work/shared/eval/torch_xla_cases/oracle_torch.py label DIR/cases \\
        --out DIR/labels.json --jobs 1                              # torch_xla's verdicts (slow: ~20 s a probe)
    python tools/probe_torch_contexts.py score DIR [--labels DIR/labels.json]   # the per-context table

The labels of the probes torch_xla ran for docs/torchrec31.md (77: ``item``, ``mask``, ``slice_offset`` and
their near misses, ``median``, in every context) are kept, trimmed to the verdicts, in
``benchmarks/results/torch_context_probe_labels.json`` (``score DIR --labels`` reads it as it is).

``score`` lints each probe with the oracle section stripped (``check_source``, ``torch_xla=True`` as
``benchmarks/torch_cases_score.py`` does; ``--no-declare`` for plain files). Without labels the table's
verdict (the file name) is the expectation; with labels only labelled probes count, by torch_xla's verdict.
The probes are written to find what the analyzer does not follow: never cases of the corpus.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))

import generate_form_cases_torch as forms  # noqa: E402
from generate_form_cases_torch import Sink  # noqa: E402

ORACLE = Path("/work/shared/eval/torch_xla_cases/oracle_torch.py")

# the form matrix's models (their text does not depend on the sink): the plain one, the one called with
# ``model(**batch)``
_PLAIN_NET = forms._model("step", forms.SINKS[0], True)
_KW_NET = forms._model("kwargs", forms.SINKS[0], True)
_BUILD = "    model = Net().to(device)\n    opt = torch.optim.SGD(model.parameters(), lr=0.05)\n"
_LOADER = "DataLoader(TensorDataset(x, y), batch_size=8)"
_DATA_IMPORTS = "from torch.utils.data import DataLoader, TensorDataset\n"


@dataclass(frozen=True)
class Context:
    """Where the sink sits. ``code(sink, positive)`` is the linted code; ``entry`` the ``ENTRY(device)`` body
    (oracle section: not linted); ``settings`` the oracle's switches."""

    name: str
    doc: str
    imports: str
    code: Callable[[Sink, bool], str]
    entry: str
    settings: str = ""
    cpu_batches: bool = False  # ALT_ARGS on the CPU (a loader moves them)
    backward: bool = True  # the step backpropagates through the sink (not an eval loop)


Writer = Callable[[str, int], str]  # writes the sink on a variable, at an indent


def _writer(sink: Sink, positive: bool) -> Writer:
    return lambda var, ind: forms._body(sink, var, positive, ind)


def _with_sink(template: Callable[[Writer], str]) -> Callable[[Sink, bool], str]:
    return lambda sink, positive: template(_writer(sink, positive))


def _train_loop(head: str, loop: str, fetch: str, backward: str, tail: str, out: str = "model(x)",
                inline: bool = True) -> Callable[[Writer], str]:
    """A training loop over ``loop``; with ``inline`` the sink sits on ``out`` in its body."""
    def code(s: Writer) -> str:
        return f"""{head}
    model.train()
    losses = []
    {loop}
{fetch}        opt.zero_grad()
        out = {out}
{s("out", 8) + chr(10) if inline else ""}        loss = F.cross_entropy(out, y)
        {backward}
        opt.step()
        losses.append(loss.detach())
{tail}    return losses
"""
    return code


def _inline(loop: Callable[[Writer], str]) -> Callable[[Sink, bool], str]:
    return _with_sink(lambda s: _PLAIN_NET + "\n\n" + loop(s))


_SYNCED_LOOP = ("def train(model, opt, batches, device):", "for x, y in batches:",
                "        x, y = x.to(device), y.to(device)\n", "loss.backward()", "        xm.mark_step()\n")


def _forward_code(sink: Sink, positive: bool) -> str:
    loop = _train_loop(*_SYNCED_LOOP, inline=False)
    return forms._model("forward", sink, positive) + "\n\n" + loop(_writer(sink, positive))


def _helper_code(s: Writer) -> str:
    return (f"def postprocess(out):\n{s('out', 4)}\n    return out\n\n\n" + _PLAIN_NET + "\n\n"
            + _train_loop(*_SYNCED_LOOP, out="postprocess(model(x))", inline=False)(s))


def _compile_code(sink: Sink, positive: bool) -> str:
    """The form matrix's cell: the sink in ``forward``, the model wrapped in ``torch.compile(backend="openxla")``."""
    return (forms._model("forward", sink, positive) + "\n\n" + forms._step("forward", sink, positive) + "\n\n"
            + forms._entry("torch_compile", "forward")[1])


def _eval_code(s: Writer) -> str:
    return _PLAIN_NET + f"""

@torch.no_grad()
def evaluate(model, batches, device):
    model.eval()
    total = torch.zeros((), device=device)
    for x, y in batches:
        x, y = x.to(device), y.to(device)
        out = model(x)
{s("out", 8)}
        total = total + F.cross_entropy(out, y)
        xm.mark_step()
    return total
"""


def _metric_code(s: Writer) -> str:
    return _PLAIN_NET + f"""

class RunningAccuracy:
    def __init__(self, device):
        self.correct = torch.zeros((), device=device)
        self.count = 0

    def update(self, logits, target):
{s("logits", 8)}
        self.correct += (logits.argmax(-1) == target).float().sum()
        self.count += target.shape[0]

    def compute(self):
        return self.correct / max(self.count, 1)


def evaluate(model, metric, batches, device):
    model.eval()
    with torch.no_grad():
        for x, y in batches:
            x, y = x.to(device), y.to(device)
            metric.update(model(x), y)
            xm.mark_step()
    return metric.compute()
"""


def _returned_code(s: Writer) -> str:
    """The model output reaches the loop through a helper's returned tuple (``loss, out = forward_loss(...)``)."""
    return _PLAIN_NET + f"""

def forward_loss(model, x, y):
    out = model(x)
    return F.cross_entropy(out, y), out


def train(model, opt, batches, device):
    model.train()
    losses = []
    for x, y in batches:
        x, y = x.to(device), y.to(device)
        opt.zero_grad()
        loss, out = forward_loss(model, x, y)
{s("out", 8)}
        loss = loss + out.mean() * 0.0
        loss.backward()
        opt.step()
        losses.append(loss.detach())
        xm.mark_step()
    return losses
"""


def _dict_code(s: Writer) -> str:
    """The model output is stored in a dict of step results and read back by key."""
    return _PLAIN_NET + "\n\n" + _train_loop(
        *_SYNCED_LOOP[:2], _SYNCED_LOOP[2] + "        res = {\"logits\": model(x), \"labels\": y}\n",
        *_SYNCED_LOOP[3:], out="res[\"logits\"]")(s)


def _list_code(s: Writer) -> str:
    """The model output is held in a list with the labels and read back by index."""
    return _PLAIN_NET + "\n\n" + _train_loop(
        *_SYNCED_LOOP[:2], _SYNCED_LOOP[2] + "        pair = [model(x), y]\n", *_SYNCED_LOOP[3:], out="pair[0]")(s)


def _property_code(s: Writer) -> str:
    """The model output is read through a property of a same-file output class."""
    return _PLAIN_NET + """


class StepOutput:
    def __init__(self, logits, labels):
        self._logits = logits
        self.labels = labels

    @property
    def logits(self):
        return self._logits
""" + "\n\n" + _train_loop(*_SYNCED_LOOP, out="StepOutput(model(x), y).logits")(s)


_TRAINER_MAIN = """

def fit(model, args, train_dataset):
    trainer = ProbeTrainer(model=model, args=args, train_dataset=train_dataset)
    trainer.train()
    return trainer
"""


def _compute_loss_code(s: Writer) -> str:
    return _KW_NET + f"""

class ProbeTrainer(Trainer):
    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        logits = model(**inputs)
{s("logits", 8)}
        loss = F.cross_entropy(logits, labels)
        return (loss, logits) if return_outputs else loss
""" + _TRAINER_MAIN


def _training_step_code(s: Writer) -> str:
    return _KW_NET + f"""

class ProbeTrainer(Trainer):
    def training_step(self, model, inputs, num_items_in_batch=None):
        model.train()
        labels = inputs.pop("labels")
        out = model(**inputs)
{s("out", 8)}
        loss = F.cross_entropy(out, labels)
        self.accelerator.backward(loss)
        return loss.detach()
""" + _TRAINER_MAIN


# the oracle calls the Trainer override the way Trainer.training_step does (a Trainer built without __init__:
# the probe measures the override's code, not the Trainer's set-up)
_TRAINER_ENTRY = """    trainer = ProbeTrainer.__new__(ProbeTrainer)
    trainer.accelerator = types.SimpleNamespace(backward=lambda loss: loss.backward())

    def step(x, y):
        opt.zero_grad()
        loss = trainer.{call}(model, {{"inputs": x, "labels": y}})
        loss.backward() if {backward} else None
        opt.step()
        return loss.detach()
    return step, _batch(device, 0)
"""
_LOADER_ENTRY = (_BUILD + f"    return (lambda x, y: train(model, opt, {_LOADER}, device)), "
                 "_batch(torch.device(\"cpu\"), 0)\n")
_SYNCED = "MARK_STEP = False  # the loop syncs after each step\n"
_NO_EAGER = "EAGER = False  # the loader needs an XLA device\n"

CONTEXTS = (
    Context("mark_step_loop", "inline in a training loop that calls `xm.mark_step()`",
            "import torch_xla.core.xla_model as xm\n",
            _inline(_train_loop(*_SYNCED_LOOP)),
            _BUILD + "    return (lambda x, y: train(model, opt, [(x, y)], device)), _batch(device, 0)\n", _SYNCED),
    Context("mpdl_loop", "inline in a loop over `enumerate(pl.MpDeviceLoader(loader, device))`",
            "import torch_xla.distributed.parallel_loader as pl\n" + _DATA_IMPORTS,
            _inline(_train_loop("def train(model, opt, loader, device):",
                        "for step, (x, y) in enumerate(pl.MpDeviceLoader(loader, device)):", "", "loss.backward()",
                        "")),
            _LOADER_ENTRY,
            _NO_EAGER, cpu_batches=True),
    Context("parallel_loader", "inline in a loop over `pl.ParallelLoader(...).per_device_loader(device)`",
            "import torch_xla.distributed.parallel_loader as pl\n" + _DATA_IMPORTS,
            _inline(_train_loop("def train(model, opt, loader, device):\n"
                                "    para = pl.ParallelLoader(loader, [device])",
                                "for x, y in para.per_device_loader(device):", "", "loss.backward()", "")),
            _LOADER_ENTRY,
            _NO_EAGER, cpu_batches=True),
    Context("accelerate_loop", "inline in an accelerate loop (`accelerator.backward(loss)`) over a prepared loader",
            "from accelerate import Accelerator\n" + _DATA_IMPORTS,
            _inline(_train_loop("def train(accelerator, model, opt, loader):", "for x, y in loader:", "",
                        "accelerator.backward(loss)", "")),
            "    accelerator = Accelerator()\n    model = Net()\n"
            "    opt = torch.optim.SGD(model.parameters(), lr=0.05)\n"
            "    model, opt = accelerator.prepare(model, opt)\n"
            f"    return (lambda x, y: train(accelerator, model, opt, accelerator.prepare({_LOADER}))), "
            "_batch(torch.device(\"cpu\"), 0)\n",
            "EAGER = False  # accelerate picks the XLA device where torch_xla is installed\n", cpu_batches=True),
    Context("hf_compute_loss", "in a Hugging Face `Trainer` subclass's `compute_loss`, on the logits",
            "import types\nfrom transformers import Trainer\n", _with_sink(_compute_loss_code),
            _BUILD + _TRAINER_ENTRY.format(call="compute_loss", backward="True")),
    Context("hf_training_step", "in a Hugging Face `Trainer` subclass's `training_step`, on the logits",
            "import types\nfrom transformers import Trainer\n", _with_sink(_training_step_code),
            _BUILD + _TRAINER_ENTRY.format(call="training_step", backward="False")),
    Context("forward", "in the model's `forward`, the model run by a training loop that calls `xm.mark_step()`",
            "import torch_xla.core.xla_model as xm\n", _forward_code,
            _BUILD + "    return (lambda x, y: train(model, opt, [(x, y)], device)), _batch(device, 0)\n", _SYNCED),
    Context("helper", "in a same-file helper the `xm.mark_step()` training loop calls on the model output",
            "import torch_xla.core.xla_model as xm\n", _with_sink(_helper_code),
            _BUILD + "    return (lambda x, y: train(model, opt, [(x, y)], device)), _batch(device, 0)\n", _SYNCED),
    Context("torch_compile", "in the `forward` of a model wrapped in `torch.compile(backend=\"openxla\")`", "",
            _compile_code,
            "    model = build_model(device)\n    opt = torch.optim.SGD(model.parameters(), lr=0.05)\n"
            "    return (lambda x, y: train_step(model, opt, x, y)), _batch(device, 0)\n"),
    Context("helper_return", "in a `xm.mark_step()` training loop, on the output a same-file helper returns "
            "with the loss", "import torch_xla.core.xla_model as xm\n", _with_sink(_returned_code),
            _BUILD + "    return (lambda x, y: train(model, opt, [(x, y)], device)), _batch(device, 0)\n", _SYNCED),
    Context("dict_item", "in a `xm.mark_step()` training loop, on the output read back from a dict of step results",
            "import torch_xla.core.xla_model as xm\n", _with_sink(_dict_code),
            _BUILD + "    return (lambda x, y: train(model, opt, [(x, y)], device)), _batch(device, 0)\n", _SYNCED),
    Context("list_item", "in a `xm.mark_step()` training loop, on the output read back from a list by index",
            "import torch_xla.core.xla_model as xm\n", _with_sink(_list_code),
            _BUILD + "    return (lambda x, y: train(model, opt, [(x, y)], device)), _batch(device, 0)\n", _SYNCED),
    Context("property", "in a `xm.mark_step()` training loop, on the output read through a same-file property",
            "import torch_xla.core.xla_model as xm\n", _with_sink(_property_code),
            _BUILD + "    return (lambda x, y: train(model, opt, [(x, y)], device)), _batch(device, 0)\n", _SYNCED),
    Context("eval_loop", "inline in a `@torch.no_grad()` eval loop that calls `xm.mark_step()`",
            "import torch_xla.core.xla_model as xm\n", _with_sink(_eval_code),
            "    model = Net().to(device)\n    return (lambda x, y: evaluate(model, [(x, y)], device)), "
            "_batch(device, 0)\n", _SYNCED, backward=False),
    Context("metric_update", "in a metric's `update`, called from an eval loop that calls `xm.mark_step()`",
            "import torch_xla.core.xla_model as xm\n", _with_sink(_metric_code),
            "    model = Net().to(device)\n    metric = RunningAccuracy(device)\n"
            "    return (lambda x, y: evaluate(model, metric, [(x, y)], device)), _batch(device, 0)\n", _SYNCED,
            backward=False),
)
CONTEXT = {c.name: c for c in CONTEXTS}


# how to call each op whose forward lowers and whose backward falls back (torch_xla_ops.json ``backward``) on the
# (batch, 16) output ``{v}``: every input the step's gradient flows through
_BACKWARD_CALLS = {
    "torch.cdist": "torch.cdist({v}, {v})",
    "torch.cholesky": "torch.cholesky({v}.T @ {v} + torch.eye(16, device={v}.device))",
    "torch.logit": "torch.logit(torch.sigmoid({v}), eps=1e-6)",
    "torch.special.logit": "torch.special.logit(torch.sigmoid({v}), eps=1e-6)",
    "torch.masked_scatter": "torch.masked_scatter({v}, {v} > 0, {v} * 2)",
    "torch.nn.functional.glu": "F.glu({v})",
    "torch.nn.functional.pdist": "F.pdist({v})",
    "torch.pdist": "torch.pdist({v})",
    "torch.nn.functional.upsample": "F.upsample({v}.unsqueeze(1), scale_factor=2)",
    "torch.nn.functional.upsample_bilinear": "F.upsample_bilinear({v}.view(-1, 1, 4, 4), scale_factor=2)",
    "torch.nn.functional.upsample_nearest": "F.upsample_nearest({v}.unsqueeze(1), scale_factor=2)",
    "torch.sgn": "torch.sgn({v})",
}


def backward_sinks() -> list[Sink]:
    """The ops of torch_xla_ops.json whose forward lowers and whose backward falls back: the result reaches
    the loss (the backward kernel runs), against the same call whose result is only logged detached (no
    backward runs through it)."""
    ops = json.loads((ROOT / "xlacheck" / "data" / "torch_xla_ops.json").read_text())["ops"]
    out = []
    for n, e in sorted(ops.items()):
        if e["status"] != "lowered" or e.get("backward") != "fallback" or n not in _BACKWARD_CALLS:
            continue
        call = "r = " + _BACKWARD_CALLS[n]
        out.append(Sink(f"tab_bwd_{forms._slug(n.removeprefix('torch.'))}", "op",
                        call + "\n{v} = {v} + r.mean() * 0.01", call + "\nLOG.append(r.detach())",
                        f"`{n}` lowers but its backward ({', '.join(e.get('backward_aten', []))}) falls back "
                        "(torch_xla_ops.json backward)", state=True))
    return out


def facts() -> list[Sink]:
    """Every sink the form matrix has that a step's code can hold (not the optimizers the step builds), and the
    ops whose backward alone falls back."""
    return [s for s in forms.SINKS + forms.TABLE_SINKS if not s.optimizer] + backward_sinks()


def probe(sink: Sink, ctx: Context, positive: bool) -> tuple[str, str]:
    """(file name, source) of one probe."""
    name = f"{'' if positive else 'neg_'}ctx_{sink.name}_{ctx.name}.py"
    draw, stdlib, third, state, resets = forms.sink_setup(sink)
    head = draw + stdlib
    if "xm." in sink.pos + sink.neg and " as xm\n" not in ctx.imports:  # a table call written on `xm`
        third = "import torch_xla.core.xla_model as xm\n" + third
    verdict = ("the hazard: " + sink.doc) if positive else \
        "the near miss: the fixed form of " + sink.doc.split(" ", 1)[0]
    doc = (f'"""Generated by tools/probe_torch_contexts.py: {verdict}, {ctx.doc}.\n'
           'Source: a context probe; torch_xla 2.9 labels it."""\n')
    code = ctx.code(sink, positive)
    src = (doc + "\n".join(head) + ("\n" if head else "")
           + "\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n" + ctx.imports + third
           + "\n\n" + state + code)
    where = 'torch.device("cpu")' if ctx.cpu_batches else "device"
    oracle = f"""

# --- oracle ---
CATEGORY = "{sink.category}"
{ctx.settings}{forms._NO_COMPARE if sink.random else ""}

def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 8, generator=g).to(device), torch.randint(0, 16, (8,), generator=g).to(device)


def ENTRY(device):
{resets}{ctx.entry}

def ALT_ARGS(device):
    return [_batch({where}, s) for s in (1, 2)]
"""
    return name, src.replace("\n\n\n\n", "\n\n\n") + oracle


def sample(k: int) -> list[Sink]:
    """``k`` sinks spread over the families (the hand sinks first, then the table sections in turn)."""
    every = facts()
    groups: dict[str, list[Sink]] = defaultdict(list)
    for s in every:
        groups[s.name.split("_")[1] if s.name.startswith("tab_") else "hand"].append(s)
    out: list[Sink] = []
    i = 0
    while len(out) < min(k, len(every)):
        for g in groups.values():
            if i < len(g) and len(out) < k:
                out.append(g[i])
        i += 1
    return out


def generate(k: int | None) -> dict[str, str]:
    sinks = facts() if k is None else sample(k)
    return dict(probe(s, c, pos) for c in CONTEXTS for s in sinks for pos in (True, False)
                if c.backward or not s.name.startswith("tab_bwd_"))


def _table(rows: dict[str, list[int]]) -> str:
    lines = ["| context | probes | TP | FN | FP | TN | recall | precision |", "|---|---|---|---|---|---|---|---|"]
    for name, (tp, fn, fp, tn) in rows.items():
        r = tp / (tp + fn) if tp + fn else float("nan")
        p = tp / (tp + fp) if tp + fp else float("nan")
        lines.append(f"| {name} | {tp + fn + fp + tn} | {tp} | {fn} | {fp} | {tn} | {r:.2f} | {p:.2f} |")
    return "\n".join(lines)


def score(cases: Path, labels: dict | None, declare: bool, verbose: bool) -> str:
    from xlacheck.engine import check_source
    rows: dict[str, list[int]] = {c.name: [0, 0, 0, 0] for c in CONTEXTS}
    by_sink: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    missed: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, str(ORACLE), "strip", str(cases), tmp], check=True, capture_output=True)
        for f in sorted(Path(tmp).glob("*.py")):
            ctx = next((c for c in CONTEXTS if f.stem.endswith("_" + c.name)), None)
            if ctx is None:
                continue
            if labels is not None:
                if f.name not in labels or "xla_fail" not in labels[f.name]:
                    continue
                positive = bool(labels[f.name]["xla_fail"])
            else:
                positive = not f.name.startswith("neg_")
            found = check_source(f.read_text(), str(f), torch_xla=declare).diagnostics
            slot = (0 if found else 1) if positive else (2 if found else 3)
            rows[ctx.name][slot] += 1
            sink = f.stem.removeprefix("neg_").removeprefix("ctx_").removesuffix("_" + ctx.name)
            family = sink.split("_")[1] if sink.startswith("tab_") else "hand"
            by_sink[family][slot] += 1
            if verbose and slot in (1, 2):
                missed.append(f"{'FN' if slot == 1 else 'FP'} {f.name} "
                              + " ".join(f"{d.line}:{d.code}" for d in found))
    total = [sum(r[i] for r in rows.values()) for i in range(4)]
    out = _table({**rows, "all": total}) + "\n\n" + _table(dict(sorted(by_sink.items()))).replace(
        "| context |", "| sink family |", 1)
    return out + ("\n\n" + "\n".join(missed) if missed else "")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write", help="write the probes to DIR/cases")
    w.add_argument("dir", type=Path)
    w.add_argument("--sample", type=int, help="only K sinks a context, spread over the families")
    s = sub.add_parser("score", help="lint the probes of DIR/cases, one row a context")
    s.add_argument("dir", type=Path)
    s.add_argument("--labels", type=Path, help="oracle_torch.py label output: score by torch_xla's verdicts")
    s.add_argument("--no-declare", action="store_true", help="lint without the --torch-xla declaration")
    s.add_argument("-v", "--verbose", action="store_true", help="list the misses and false findings")
    args = ap.parse_args(argv)
    if args.cmd == "write":
        out = args.dir / "cases"
        out.mkdir(parents=True, exist_ok=True)
        files = generate(args.sample)
        for n, text in files.items():
            (out / n).write_text(text)
        print(f"wrote {len(files)} probes to {out}")
        return 0
    labels = json.loads(args.labels.read_text()) if args.labels else None
    if labels is not None and "labels" in labels:  # benchmarks/results/torch_context_probe_labels.json
        labels = labels["labels"]
    print(score(args.dir / "cases", labels, not args.no_declare, args.verbose))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
