"""Generate xlacheck/data/torch_xla_host.json: library calls that read a torch_xla tensor back to the host.

One command (needs torch and torch_xla; xlacheck itself never imports them):

    PJRT_DEVICE=CPU nice python tools/generate_torch_host_table.py
    python tools/generate_torch_host_table.py --check  # reruns every probe, compares (exit 1: stale)

Each probe runs one library call on the XLA device the way a training step makes it: the tensor it
is handed is computed lazily in the step (not synced), the call runs, and the probe records what
``torch_xla.debug.metrics`` counted during the call alone: ``TransferFromDeviceTime`` samples (a
device-to-host copy) and the ``aten::_local_scalar_dense`` counter (a ``.item()``-style read).
``reads`` is true when either moved. Three sections:

* ``sinks``: logging and progress calls handed a device tensor (``SummaryWriter.add_scalar(tag,
  loss, step)``); ``argument`` names the parameter that held the tensor and ``position`` its
  place after ``self`` (``ReduceLROnPlateau.step(metrics)`` too: it compares the metric on the host).
  XLA350 reads them: the call, on an object the file builds from that class,
  with a proven tensor in that argument, is a host read inside the step.
* ``optimizers``: every ``torch.optim.Optimizer`` subclass in ``torch.optim`` (and
  ``torch.nn.utils.clip_grad_norm_`` with and without ``error_if_nonfinite``), stepped three times
  on an ``nn.Linear`` on the XLA device; the third ``step()`` is measured (``reads_per_step``: the
  ``_local_scalar_dense`` count; ``LBFGS`` with ``max_iter=2`` and a closure, an optimizer that
  rejects the probe's parameters, ``SparseAdam``/``Muon``, is recorded with its error).
  XLA350 reads them: ``opt.step()`` in a step, where the file
  builds ``opt`` from a class that reads, is a host read at every step.
* ``modules``: ``torch.nn`` module calls with and without a mask argument and its causal hint
  (``Transformer(src, tgt, tgt_mask=m)``), run three times in a training step on the XLA device
  (forward and backward; the third call is measured). ``class``/``argument``/``position``/``hint``
  say which call a row stands for: the argument given, the hint keyword absent. XLA350 reads the
  rows that read: such a call, on an object the file builds from that class, in step code.
  ``--only-modules`` reruns this section alone and merges it into ``--out``.
* ``functions``: Python and NumPy functions handed a device tensor (``math.isnan(loss)``,
  ``str(t)``, ``range(n)`` of an integer tensor, ``"%.3f" % loss``, ``"{}".format(loss)``,
  ``xm.master_print(t)``, ``torch.tensor([t, t * 2])``: a probe that hands a list display tells XLA350
  to look at the display's items); a row
  that raised (NumPy on an XLA tensor: a TypeError, not a read) or read nothing is kept with its
  verdict. XLA350 reads the rows that read: such a call on a proven tensor in step code.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _table_check  # noqa: E402  (tools/ is not a package)

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "torch_xla_host.json"
COMMAND = "PJRT_DEVICE=CPU python tools/generate_torch_host_table.py"

# qualified name of the method -> (the argument handed the tensor, its position after self, how the
# object is built, the call: `w` is the object, `t` a lazily computed scalar tensor, `v` a vector)
SINKS: dict[str, tuple[str, int, str, str]] = {
    "torch.utils.tensorboard.SummaryWriter.add_scalar": (
        "scalar_value", 1, "SummaryWriter(tmp)", "w.add_scalar('loss', t, 0)"),
    "torch.utils.tensorboard.SummaryWriter.add_scalars": (
        "tag_scalar_dict", 1, "SummaryWriter(tmp)", "w.add_scalars('run', {'loss': t}, 0)"),
    "torch.utils.tensorboard.SummaryWriter.add_histogram": (
        "values", 1, "SummaryWriter(tmp)", "w.add_histogram('weights', v, 0)"),
    "tqdm.tqdm.set_postfix": ("kwargs", -1, "tqdm.tqdm(total=3, file=io.StringIO())", "w.set_postfix(loss=t)"),
    "tqdm.tqdm.set_description": ("desc", 0, "tqdm.tqdm(total=3, file=io.StringIO())", "w.set_description(f'{t}')"),
    # a scheduler stepped on the loss (`sched.step(val_loss)`): it compares the metric on the host
    "torch.optim.lr_scheduler.ReduceLROnPlateau.step": (
        "metrics", 0, "torch.optim.lr_scheduler.ReduceLROnPlateau(torch.optim.SGD([torch.nn.Parameter(torch.zeros(1, "
        "device=device))], lr=0.1))", "w.step(t)"),
}

# Python and NumPy functions (and the two str formatting operators) handed a device tensor in
# the step: name -> (the position of the tensor argument, the call: `t` is a lazily computed scalar
# float tensor, `i` a scalar integer one). Rows that read nothing are kept: the file says which do not.
FUNCTIONS: dict[str, tuple[int, str]] = {
    "math.isnan": (0, "math.isnan(t)"), "math.isinf": (0, "math.isinf(t)"),
    "math.isfinite": (0, "math.isfinite(t)"), "math.exp": (0, "math.exp(t)"), "math.log": (0, "math.log(t)"),
    "math.sqrt": (0, "math.sqrt(t)"), "math.floor": (0, "math.floor(t)"), "math.ceil": (0, "math.ceil(t)"),
    "numpy.isnan": (0, "numpy.isnan(t)"), "numpy.asarray": (0, "numpy.asarray(t)"),
    "numpy.array": (0, "numpy.array(t)"), "numpy.mean": (0, "numpy.mean(t)"),
    "builtins.str": (0, "str(t)"), "builtins.repr": (0, "repr(t)"), "builtins.format": (0, "format(t, '.3f')"),
    "builtins.range": (0, "range(i)"), "builtins.round": (0, "round(t)"), "builtins.abs": (0, "abs(t)"),
    "builtins.len": (0, "len(t.reshape(1))"),
    "str.__mod__": (1, "'loss %.3f' % t"), "str.format": (0, "'loss {}'.format(t)"),
    # builtins that iterate a tensor or compare its items on the host (`v` a lazily computed vector,
    # `b` a bool vector), and conversions through Python's number protocol
    "builtins.any": (0, "any(b)"), "builtins.all": (0, "all(b)"), "builtins.max": (0, "max(t, t * 2)"),
    "builtins.min": (0, "min(t, t * 2)"), "builtins.sorted": (0, "sorted(v)"), "builtins.sum": (0, "sum(v)"),
    "builtins.list": (0, "list(v)"), "builtins.tuple": (0, "tuple(v)"), "builtins.bool": (0, "bool(t)"),
    "builtins.int": (0, "int(t)"), "builtins.float": (0, "float(t)"), "builtins.complex": (0, "complex(t)"),
    "builtins.divmod": (0, "divmod(i, 3)"), "builtins.hex": (0, "hex(i)"), "builtins.hash": (0, "hash(t)"),
    "builtins.enumerate": (0, "list(enumerate(v))"), "builtins.zip": (0, "list(zip(v, v))"),
    "operator.index": (0, "operator.index(i)"), "operator.contains": (0, "operator.contains(v, 1.0)"),
    "math.isclose": (0, "math.isclose(t, 1.0)"), "math.fsum": (0, "math.fsum(v)"), "math.prod": (0, "math.prod(v)"),
    "torch.equal": (0, "torch.equal(v, v * 2)"), "torch.allclose": (0, "torch.allclose(v, v * 2)"),
    "torch.is_nonzero": (0, "torch.is_nonzero(t)"), "torch.is_same_size": (0, "torch.is_same_size(v, v)"),
    "torch.numel": (0, "torch.numel(v)"), "torch.is_tensor": (0, "torch.is_tensor(t)"),
    "torch.testing.assert_close": (0, "torch.testing.assert_close(v, v)"),
    # tensors built from a list of device scalars (`torch.tensor([loss, acc])`): a list display in the probe
    # means the rule looks at the display's items
    "torch.tensor": (0, "torch.tensor([t, t * 2])"), "torch.as_tensor": (0, "torch.as_tensor([t, t * 2])"),
    "torch.Tensor": (0, "torch.Tensor([t, t * 2])"),
    # torch_xla's own logging and reductions to the host
    "torch_xla.core.xla_model.master_print": (0, "xm.master_print(t)"),
    "torch_xla.core.xla_model.mesh_reduce": (1, "xm.mesh_reduce('loss', t, sum)"),
    # serialization: pickling a device tensor copies its data to the host (a checkpoint written in the step)
    "torch.save": (0, "torch.save(v, io.BytesIO())"),
}

# A device integer tensor handed where torch takes a size, a count or an index bound (`i` is a lazily
# computed 0-d long tensor worth 4, `v` a 32-element float vector, `m` an (8, 4) matrix): name ->
# (the argument that holds `i`, the call). torch converts it with `__index__`/`item()`, a host read.
SIZES: dict[str, tuple[str, str]] = {
    "torch.zeros": ("size", "torch.zeros(i, device=v.device)"),
    "torch.ones": ("size", "torch.ones(i, 2, device=v.device)"),
    "torch.empty": ("size", "torch.empty(i, device=v.device)"),
    "torch.full": ("size", "torch.full((i,), 0.5, device=v.device)"),
    "torch.arange": ("end", "torch.arange(i, device=v.device)"),
    "torch.randn": ("size", "torch.randn(i, device=v.device)"),
    "torch.randint": ("high", "torch.randint(0, i, (3,), device=v.device)"),
    "torch.randperm": ("n", "torch.randperm(i, device=v.device)"),
    "torch.eye": ("n", "torch.eye(i, device=v.device)"),
    "torch.linspace": ("steps", "torch.linspace(0, 1, i, device=v.device)"),
    "Tensor.__getitem__(slice)": ("stop", "v[:i]"),
    "Tensor.__getitem__(slice start)": ("start", "v[i:]"),
    "Tensor.__getitem__(index)": ("index", "v[i]"),
    "Tensor.view": ("size", "v.view(i, -1)"), "Tensor.reshape": ("shape", "v.reshape(i, -1)"),
    "Tensor.new_zeros": ("size", "v.new_zeros(i)"), "Tensor.new_ones": ("size", "v.new_ones(i)"),
    "Tensor.new_full": ("size", "v.new_full((i,), 0.5)"), "Tensor.new_empty": ("size", "v.new_empty(i)"),
    "Tensor.expand": ("size", "v[:1].expand(i)"), "Tensor.repeat": ("repeats", "v.repeat(i)"),
    "Tensor.narrow": ("length", "v.narrow(0, 0, i)"), "Tensor.split": ("split_size", "v.split(i)"),
    "Tensor.chunk": ("chunks", "v.chunk(i)"), "Tensor.topk": ("k", "v.topk(i)"),
    "Tensor.roll": ("shifts", "v.roll(i)"), "Tensor.unflatten": ("sizes", "v.unflatten(0, (i, -1))"),
    "Tensor.tile": ("dims", "v.tile(i)"), "Tensor.unfold": ("size", "v.unfold(0, i, 1)"),
    "Tensor.kthvalue": ("k", "v.kthvalue(i)"), "Tensor.diagonal": ("offset", "m.diagonal(i)"),
    "Tensor.tril": ("diagonal", "m.tril(i)"), "Tensor.triu": ("diagonal", "m.triu(i)"),
    "Tensor.flatten": ("start_dim", "m.flatten(i - 4)"),
    "torch.nn.functional.pad": ("pad", "torch.nn.functional.pad(v, (0, i))"),
    "torch.nn.functional.one_hot": ("num_classes", "torch.nn.functional.one_hot(v.long().clamp(0, 3), i)"),
    "torch.nn.functional.interpolate": ("size", "torch.nn.functional.interpolate(v.view(1, 1, -1), size=i)"),
    "torch.nn.functional.adaptive_avg_pool1d": ("output_size",
                                                "torch.nn.functional.adaptive_avg_pool1d(v.view(1, 1, -1), i)"),
    "torch.split": ("split_size_or_sections", "torch.split(v, i)"),
    "torch.tril_indices": ("row", "torch.tril_indices(i, i, device=v.device)"),
    "torch.multinomial": ("num_samples", "torch.multinomial(v.abs() + 0.1, i)"),
    "builtins.range": ("stop", "range(i)"),
}

# Tensor attributes the sweep does not call: they need arguments of their own kind, change global
# state, or hand the tensor to another runtime (no Python value comes back to compare).
_T = "torch.nn.Transformer(8, 2, 1, 1, 16, dropout=0.0, batch_first=True)"
_E = ("torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True), 1, "
      "enable_nested_tensor=False)")
_D = "torch.nn.TransformerDecoder(torch.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, batch_first=True), 1)"
_EL = "torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)"
_DL = "torch.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, batch_first=True)"
_MHA = "torch.nn.MultiheadAttention(8, 2, batch_first=True)"
# row -> (the module class, the argument the row gives (None: none), its position after self, the hint keyword
# the row leaves out (None: none), how the module is built, the call: `s` a (2, 6, 8) source, `t` a (2, 5, 8)
# target, `ms`/`mt` the square causal masks of generate_square_subsequent_mask, `mm` a zero memory mask, `pad` a
# boolean key-padding mask; all computed lazily on the device in the step)
MODULE_CALLS: dict[str, tuple[str, str | None, int, str | None, str, str]] = {
    "torch.nn.Transformer": ("torch.nn.Transformer", None, -1, None, _T, "w(s, t)"),
    "torch.nn.Transformer(src_mask)": ("torch.nn.Transformer", "src_mask", 2, "src_is_causal", _T,
                                       "w(s, t, src_mask=ms)"),
    "torch.nn.Transformer(src_mask, src_is_causal=True)": ("torch.nn.Transformer", "src_mask", 2, None, _T,
                                                           "w(s, t, src_mask=ms, src_is_causal=True)"),
    "torch.nn.Transformer(tgt_mask)": ("torch.nn.Transformer", "tgt_mask", 3, "tgt_is_causal", _T,
                                       "w(s, t, tgt_mask=mt)"),
    "torch.nn.Transformer(tgt_mask, tgt_is_causal=True)": ("torch.nn.Transformer", "tgt_mask", 3, None, _T,
                                                           "w(s, t, tgt_mask=mt, tgt_is_causal=True)"),
    "torch.nn.Transformer(memory_mask)": ("torch.nn.Transformer", "memory_mask", 4, None, _T,
                                          "w(s, t, memory_mask=mm)"),
    "torch.nn.TransformerEncoder": ("torch.nn.TransformerEncoder", None, -1, None, _E, "w(s)"),
    "torch.nn.TransformerEncoder(mask)": ("torch.nn.TransformerEncoder", "mask", 1, "is_causal", _E, "w(s, mask=ms)"),
    "torch.nn.TransformerEncoder(mask, is_causal=True)": ("torch.nn.TransformerEncoder", "mask", 1, None, _E,
                                                          "w(s, mask=ms, is_causal=True)"),
    "torch.nn.TransformerEncoder(src_key_padding_mask)": ("torch.nn.TransformerEncoder", "src_key_padding_mask", 2,
                                                          None, _E, "w(s, src_key_padding_mask=pad)"),
    "torch.nn.TransformerDecoder": ("torch.nn.TransformerDecoder", None, -1, None, _D, "w(t, s)"),
    "torch.nn.TransformerDecoder(tgt_mask)": ("torch.nn.TransformerDecoder", "tgt_mask", 2, "tgt_is_causal", _D,
                                              "w(t, s, tgt_mask=mt)"),
    "torch.nn.TransformerDecoder(tgt_mask, tgt_is_causal=True)": ("torch.nn.TransformerDecoder", "tgt_mask", 2, None,
                                                                  _D, "w(t, s, tgt_mask=mt, tgt_is_causal=True)"),
    "torch.nn.TransformerDecoder(memory_mask)": ("torch.nn.TransformerDecoder", "memory_mask", 3, None, _D,
                                                 "w(t, s, memory_mask=mm)"),
    "torch.nn.TransformerEncoderLayer(src_mask)": ("torch.nn.TransformerEncoderLayer", "src_mask", 1, "is_causal",
                                                   _EL, "w(s, src_mask=ms)"),
    "torch.nn.TransformerDecoderLayer(tgt_mask)": ("torch.nn.TransformerDecoderLayer", "tgt_mask", 2,
                                                   "tgt_is_causal", _DL, "w(t, s, tgt_mask=mt)"),
    "torch.nn.MultiheadAttention(attn_mask)": ("torch.nn.MultiheadAttention", "attn_mask", 5, "is_causal", _MHA,
                                               "w(s, s, s, attn_mask=ms)"),
    "torch.nn.MultiheadAttention(key_padding_mask)": ("torch.nn.MultiheadAttention", "key_padding_mask", 3, None,
                                                      _MHA, "w(s, s, s, key_padding_mask=pad)"),
}

# The module-call probes: each row's module built on the device and called three times in a training step
# (forward, a sum of the output, backward); the third call is measured.
_MODULES = r'''
import json, sys, warnings
warnings.filterwarnings("ignore")
import torch, torch_xla
import torch_xla.debug.metrics as met
device = torch_xla.device()
spec = json.loads(open(sys.argv[1]).read())

def counts():
    transfers = met.metric_data("TransferFromDeviceTime")
    return (transfers[0] if transfers else 0, met.counter_value("aten::_local_scalar_dense") or 0)

def settle():
    try:
        torch_xla.sync()
    except Exception:
        pass

out = {}
for name, (build, call) in spec.items():
    torch.manual_seed(0)
    try:
        w = eval(build, {"torch": torch}).to(device)
        x = torch.randn(2, 6, 8).to(device)
        y = torch.randn(2, 5, 8).to(device)
        torch_xla.sync()
        got = []
        for _ in range(3):
            torch_xla.sync()
            before = counts()
            s, t = x * 1.0, y * 1.0
            env = {"w": w, "s": s, "t": t, "torch": torch,
                   "ms": torch.nn.Transformer.generate_square_subsequent_mask(6, device=device),
                   "mt": torch.nn.Transformer.generate_square_subsequent_mask(5, device=device),
                   "mm": torch.zeros(5, 6, device=device),
                   "pad": (s[..., 0] * 0 + torch.arange(6, device=device)) > 4}
            r = eval(call, env)
            (r[0] if isinstance(r, tuple) else r).sum().backward()
            after = counts()
            settle()
            got.append({"transfers": after[0] - before[0], "scalar_reads": after[1] - before[1]})
        out[name] = {**got[-1], "error": None}
    except Exception as exc:  # recorded, never guessed
        out[name] = {"transfers": None, "scalar_reads": None, "error": f"{type(exc).__name__}: {exc}"[:200]}
    settle()
print(json.dumps({"torch": torch.__version__, "torch_xla": torch_xla.__version__, "modules": out}))
'''


def run_modules(python: str, scratch: Path) -> dict[str, dict]:
    """The ``modules`` section's probes, in a fresh torch_xla process."""
    spec = scratch / "modules.json"
    spec.write_text(json.dumps({name: [row[4], row[5]] for name, row in MODULE_CALLS.items()}))
    worker = scratch / "modules_worker.py"
    worker.write_text(_MODULES)
    proc = subprocess.run([python, str(worker), str(spec)], check=True, capture_output=True, text=True,
                          env={**os.environ, "PJRT_DEVICE": "CPU"}, timeout=1800)
    return json.loads(proc.stdout.strip().splitlines()[-1])["modules"]


def build_modules(got: dict[str, dict]) -> dict[str, dict]:
    return {name: {"class": cls, "argument": argument, "position": position, "hint": hint, "builds": build_,
                   "call": call, "transfers": got[name]["transfers"], "scalar_reads": got[name]["scalar_reads"],
                   "error": got[name]["error"], "reads": _verdict(got[name])}
            for name, (cls, argument, position, hint, build_, call) in MODULE_CALLS.items()}


SKIPPED_METHODS = frozenset({
    "backward", "register_hook", "register_post_accumulate_grad_hook", "share_memory_", "pin_memory", "cuda",
    "resize_", "resize_as_", "set_", "storage", "untyped_storage", "apply_", "map_", "map2_", "record_stream",
    "retain_grad", "ipu", "xpu", "mtia", "hpu", "to_mkldnn", "module_load", "new_tensor", "requires_grad_",
    "_typed_storage", "__reduce_ex__", "__setstate__", "__deepcopy__", "storage_type", "__dlpack__",
    "__dlpack_device__", "__cuda_array_interface__", "__torch_function__", "__torch_dispatch__",
})
# Python protocol methods the sweep calls too (what `bool(t)`, `int(t)`, `len(t)`, `repr(t)`, `iter(t)`,
# `np.asarray(t)` and `hash(t)` call); other dunders are operators, which return tensors.
PROTOCOL_METHODS = ("__bool__", "__int__", "__float__", "__complex__", "__index__", "__len__", "__repr__", "__str__",
                    "__format__", "__array__", "__iter__", "__hash__", "__reversed__", "__contains__")
# Tensor methods that take a tensor or a value (the sweep calls the rest with no argument): name -> call
ARG_METHODS: dict[str, str] = {
    "equal": "v.equal(v * 2)", "allclose": "v.allclose(v * 2)", "__contains__": "v.__contains__(1.0)",
    "is_same_size": "v.is_same_size(v)", "is_set_to": "v.is_set_to(v)", "__format__": "t.__format__('.3f')",
    "to": "v.to('cpu')", "type": "v.type(torch.DoubleTensor)", "tolist": "v.tolist()", "item": "t.item()",
}

_WORKER = r'''
import io, json, sys, tempfile, inspect
import torch, torch_xla, tqdm
import torch_xla.debug.metrics as met
from torch.utils.tensorboard import SummaryWriter
device = torch_xla.device()
spec = json.loads(open(sys.argv[1]).read())
tmp = tempfile.mkdtemp(prefix="xlacheck_host_")

def counts():
    transfers = met.metric_data("TransferFromDeviceTime")
    return (transfers[0] if transfers else 0, met.counter_value("aten::_local_scalar_dense") or 0)

def measure(run):
    torch_xla.sync()
    before = counts()
    run()
    after = counts()
    _settle()
    return {"transfers": after[0] - before[0], "scalar_reads": after[1] - before[1]}

def _settle():
    """Run what the probe left pending; a graph that fails to lower is dropped with its tensors."""
    try:
        torch_xla.sync()
    except Exception:
        pass

out = {"sinks": {}, "optimizers": {}}
for name, (argument, position, build, call) in spec["sinks"].items():
    w = eval(build)
    x = torch.randn(8, 4).to(device)
    torch_xla.sync()
    def run():
        t = (x * 2).sum()
        v = (x * 3).flatten()
        eval(call, {"w": w, "t": t, "v": v})
    try:
        out["sinks"][name] = {**measure(run), "error": None}
    except Exception as exc:  # recorded, never guessed
        out["sinks"][name] = {"transfers": None, "scalar_reads": None, "error": f"{type(exc).__name__}: {exc}"[:200]}

import io, math, numpy, operator
import torch_xla.core.xla_model as xm
out["functions"] = {}
for name, (position, call) in spec.get("functions", {}).items():
    x = torch.randn(8, 4).to(device)
    torch_xla.sync()
    def run():
        t = (x * 2).sum().abs() + 1.0
        i = (x * 2).sum().abs().long() + 1
        v = (x * 2).flatten()
        b = (x * 2).flatten() > -100.0
        eval(call, {"t": t, "i": i, "v": v, "b": b, "io": io, "math": math, "numpy": numpy, "operator": operator,
                    "torch": torch, "xm": xm})
    try:
        out["functions"][name] = {**measure(run), "error": None}
    except Exception as exc:  # recorded, never guessed
        out["functions"][name] = {"transfers": None, "scalar_reads": None,
                                  "error": f"{type(exc).__name__}: {exc}"[:200]}
    _settle()

out["sizes"] = {}
for name, (argument, call) in spec.get("sizes", {}).items():
    x = torch.randn(8, 4).to(device)
    torch_xla.sync()
    def run():
        i = (x * 0).sum().long() + 4
        v = (x * 2).flatten()
        m = (x * 2)
        r = eval(call, {"i": i, "v": v, "m": m, "torch": torch})
        return r
    try:
        out["sizes"][name] = {**measure(run), "error": None}
    except Exception as exc:  # recorded, never guessed
        out["sizes"][name] = {"transfers": None, "scalar_reads": None, "error": f"{type(exc).__name__}: {exc}"[:200]}
    _settle()

def optimizers():
    for n in sorted(dir(torch.optim)):
        cls = getattr(torch.optim, n)
        if inspect.isclass(cls) and issubclass(cls, torch.optim.Optimizer) and cls is not torch.optim.Optimizer:
            yield "torch.optim." + n, cls

def probe_optimizer(name, cls):
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 3).to(device)
    x = torch.randn(8, 4).to(device)
    if cls is None:
        params = list(model.parameters())
        nonfinite = "error_if_nonfinite" in name
        step = lambda: torch.nn.utils.clip_grad_norm_(params, 1.0, error_if_nonfinite=nonfinite)
    else:
        extra = {"max_iter": 2} if cls.__name__ == "LBFGS" else {}  # its default 20 inner iterations take minutes
        opt = (cls(model.parameters(), lr=0.1, **extra) if "lr" in inspect.signature(cls).parameters
               else cls(model.parameters()))
        def closure():
            opt.zero_grad()
            loss = model(x).square().mean()
            loss.backward()
            return loss
        step = (lambda: opt.step(closure)) if cls.__name__ == "LBFGS" else (lambda: opt.step())
    rows = []
    for i in range(3):
        model.zero_grad()
        model(x).square().mean().backward()
        rows.append(measure(step))
    return rows[-1]

for name, cls in list(optimizers()) + [("torch.nn.utils.clip_grad_norm_", None),
                                        ("torch.nn.utils.clip_grad_norm_(error_if_nonfinite=True)", None)]:
    print(name, file=sys.stderr, flush=True)
    try:
        out["optimizers"][name] = {**probe_optimizer(name, cls), "error": None}
    except Exception as exc:  # recorded, never guessed
        out["optimizers"][name] = {"transfers": None, "scalar_reads": None,
                                   "error": f"{type(exc).__name__}: {exc}"[:200]}
print(json.dumps({"torch": torch.__version__, "torch_xla": torch_xla.__version__, **out}))
'''

# The Tensor-method sweep: every public method of torch.Tensor (and the protocol methods) called on
# lazily computed 0-d tensors of three dtypes (`f` float, `i` long, `b` bool; the ARG_METHODS with
# their argument on a vector). One JSON line per probe; a probe that kills the process (an XLA check
# failure) is recorded as a crash by the driver, which starts a new process after it.
_SWEEP = r'''
import json, sys, warnings
warnings.filterwarnings("ignore")
import torch, torch_xla
import torch_xla.debug.metrics as met
device = torch_xla.device()
spec = json.loads(open(sys.argv[1]).read())
skip = set(json.loads(open(sys.argv[2]).read()))

def counts():
    transfers = met.metric_data("TransferFromDeviceTime")
    return (transfers[0] if transfers else 0, met.counter_value("aten::_local_scalar_dense") or 0)

def settle():
    try:
        torch_xla.sync()
    except Exception:
        pass

x = torch.randn(8, 4).to(device)
settle()
for key, call in spec:
    if key in skip:
        continue
    print(key, file=sys.stderr, flush=True)
    settle()
    before = counts()
    row = {"key": key, "error": None, "returns": None, "device": None}
    try:
        env = {"t": (x * 2).sum().abs() + 1.0, "v": (x * 2).flatten(), "torch": torch,
               "f": (x * 2).sum() + 1.0, "i": (x * 2).sum().abs().long() + 1, "b": (x * 2).sum() > -100.0}
        r = eval(call, env)
        module = type(r).__module__
        row["returns"] = type(r).__name__ if module == "builtins" else f"{module}.{type(r).__name__}"
        if isinstance(r, torch.Tensor):
            row["device"] = r.device.type  # a copy on the host ("cpu") or a lazy result ("xla")
        if row["returns"] in ("generator", "list_iterator", "tuple_iterator", "map", "zip"):
            r = list(r)  # iterating is what a caller does with it
        del r, env
    except Exception as exc:
        row["error"] = f"{type(exc).__name__}: {exc}"[:160]
    after = counts()
    row["transfers"], row["scalar_reads"] = after[0] - before[0], after[1] - before[1]
    settle()
    print(json.dumps(row), flush=True)
'''


def _method_probes(python: str) -> list[tuple[str, str]]:
    """(key, call) for every probe of the sweep, from the installed torch (``name:dtype``)."""
    code = ("import json, torch; print(json.dumps(sorted(n for n in dir(torch.Tensor) if callable(getattr("
            f"torch.Tensor, n, None)) and (not n.startswith('_') or n in {PROTOCOL_METHODS!r}))))")
    names = json.loads(subprocess.run([python, "-c", code], check=True, capture_output=True, text=True,
                                      env={**os.environ, "PJRT_DEVICE": "CPU"}).stdout)
    probes = []
    for n in names:
        if n in SKIPPED_METHODS:
            continue
        if n in ARG_METHODS:
            probes.append((f"{n}:arg", ARG_METHODS[n]))
        else:
            probes.extend((f"{n}:{d}", f"{d}.{n}()") for d in ("f", "i", "b"))
    return probes


def run_sweep(python: str, scratch: Path, only: list[str] | None = None) -> dict[str, dict]:
    """Every sweep probe (``only`` those keys), in as many processes as crashes need; ``{key: row}``."""
    probes = _method_probes(python)
    if only is not None:
        probes = [p for p in probes if p[0] in set(only)]
    spec, skip_file = scratch / "sweep.json", scratch / "skip.json"
    spec.write_text(json.dumps(probes))
    (scratch / "sweep.py").write_text(_SWEEP)
    rows: dict[str, dict] = {}
    while len(rows) < len(probes):
        skip_file.write_text(json.dumps(sorted(rows)))
        proc = subprocess.run([python, str(scratch / "sweep.py"), str(spec), str(skip_file)], capture_output=True,
                              text=True, env={**os.environ, "PJRT_DEVICE": "CPU"}, timeout=1800)
        for line in proc.stdout.splitlines():
            if line.startswith("{"):
                row = json.loads(line)
                rows[row.pop("key")] = row
        if proc.returncode != 0:
            started = [ln.strip() for ln in proc.stderr.splitlines() if ln.strip() in dict(probes)]
            crashed = next((k for k in reversed(started) if k not in rows), None)
            if crashed is None:
                raise RuntimeError(f"sweep worker failed: {proc.stderr[-2000:]}")
            rows[crashed] = {"error": "crash: " + proc.stderr.strip().splitlines()[-1][:150], "returns": None,
                             "device": None, "transfers": None, "scalar_reads": None}
    return rows


# The positional parameters of the `sizes` rows' torch functions, as torch states them: the Python signature
# where there is one (`torch.nn.functional.pad`), else the signature line of the docstring
# (`full(size, fill_value, *, out=None, ...)`); `*size` is a size given as several arguments. A docstring
# whose required parameter follows a defaulted one (`arange(start=0, end, step=1)`) states overloads: none.
_PARAMS_WORKER = r'''
import inspect, json, re, sys
import torch, torch.nn.functional

out = {}
for name in json.loads(sys.argv[1]):
    obj = torch
    for part in name.split(".")[1:]:
        obj = getattr(obj, part)
    try:
        params = [("*" if p.kind is p.VAR_POSITIONAL else "") + p.name
                  for p in inspect.signature(obj).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)]
    except (TypeError, ValueError):
        m = re.match(r"\s*\w+\((.*?)\)\s*->", obj.__doc__ or "")
        if m is None:
            continue
        params, defaulted, overloaded = [], False, False
        for piece in m.group(1).replace("\\*", "*").split(","):
            piece = piece.strip()
            if piece in ("*", "") or piece.startswith("**"):
                break
            overloaded |= defaulted and "=" not in piece
            defaulted |= "=" in piece
            params.append(piece.split("=", 1)[0].strip())
        if overloaded:  # `arange(start=0, end, step=1)`: which parameter a positional argument binds depends
            continue    # on how many there are (torch's overloads), so none is recorded
    out[name] = params
print(json.dumps(out))
'''


def positional_params(python: str, scratch: Path) -> dict[str, list[str]]:
    """The positional parameters of the `sizes` rows that are torch functions (a torch process, no device):
    which parameter a positional argument binds, so a read names the argument it reads (`torch.full(size,
    fill)` reads `fill_value` when `fill` is a device tensor, not the size)."""
    worker = scratch / "params.py"
    worker.write_text(_PARAMS_WORKER)
    names = [name for name in SIZES if name.startswith("torch.")]
    proc = subprocess.run([python, str(worker), json.dumps(names)], check=True, capture_output=True, text=True,
                          timeout=300)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run_probes(python: str, scratch: Path, methods: list[str] | None = None) -> dict:
    """Run every probe in a fresh torch_xla process (``python``); its JSON answer (``methods``: only
    those keys of the Tensor-method sweep)."""
    spec = scratch / "probes.json"
    spec.write_text(json.dumps({"sinks": SINKS, "functions": FUNCTIONS, "sizes": SIZES}))
    worker = scratch / "worker.py"
    worker.write_text(_WORKER)
    proc = subprocess.run([python, str(worker), str(spec)], check=True, capture_output=True, text=True,
                          env={**os.environ, "PJRT_DEVICE": "CPU"}, timeout=900)
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    got["modules"] = run_modules(python, scratch)
    got["methods"] = run_sweep(python, scratch, methods)
    got["params"] = positional_params(python, scratch)
    return got


def _verdict(r: dict) -> bool | None:
    if r["error"] is not None:
        return None
    return bool(r["transfers"] or r["scalar_reads"])


def build(got: dict) -> dict:
    sinks = {name: {"argument": argument, "position": position, "builds": build_, "call": call,
                    "transfers": got["sinks"][name]["transfers"], "scalar_reads": got["sinks"][name]["scalar_reads"],
                    "error": got["sinks"][name]["error"], "reads": _verdict(got["sinks"][name])}
             for name, (argument, position, build_, call) in SINKS.items()}
    optimizers = {name: {"transfers": r["transfers"], "reads_per_step": r["scalar_reads"], "error": r["error"],
                         "reads": _verdict(r)} for name, r in got["optimizers"].items()}
    functions = {name: {"position": position, "call": call, "transfers": got["functions"][name]["transfers"],
                        "scalar_reads": got["functions"][name]["scalar_reads"],
                        "error": got["functions"][name]["error"],
                        "reads": _verdict(got["functions"][name])}
                 for name, (position, call) in FUNCTIONS.items()}
    sizes = {name: {"argument": argument, "call": call, "transfers": got["sizes"][name]["transfers"],
                    "scalar_reads": got["sizes"][name]["scalar_reads"], "error": got["sizes"][name]["error"],
                    "reads": _verdict(got["sizes"][name]),
                    **({"params": got["params"][name]} if name in got.get("params", {}) else {})}
             for name, (argument, call) in SIZES.items()}
    methods = {key: {**row, "reads": _verdict(row) if not str(row["error"]).startswith("crash") else None}
               for key, row in sorted(got["methods"].items())}
    return {"command": COMMAND, "generated": dt.date.today().isoformat(), "device": "PJRT_DEVICE=CPU",
            "torch": got["torch"], "torch_xla": got["torch_xla"], "schema": 2, "sinks": sinks,
            "optimizers": optimizers, "functions": functions, "sizes": sizes, "methods": methods,
            "modules": build_modules(got["modules"])}


def check_table(python: str, path: Path, sample: int = 0) -> int:
    """Rerun every probe (one process, as the full run does) and compare the verdicts with the file;
    ``sample``: only that many rows of the Tensor-method sweep, drawn from each verdict."""
    import tempfile

    table = json.loads(path.read_text())
    table.setdefault("functions", {})
    only = None
    if sample:
        groups: dict[str, list[str]] = {}
        for key, row in table.get("methods", {}).items():
            groups.setdefault(str(row.get("reads")), []).append(key)
        only = _table_check.spread_sample(groups, sample)
    with tempfile.TemporaryDirectory() as tmp:
        fresh = build(run_probes(python, Path(tmp), only))
    differences = []
    for section in ("sinks", "optimizers", "functions", "sizes", "methods", "modules"):
        names = set(fresh[section]) if section == "methods" and only is not None else \
            set(table.get(section, {})) | set(fresh[section])
        for name in sorted(names):
            keep = table.get(section, {}).get(name, {}).get("reads"), fresh[section].get(name, {}).get("reads")
            if (line := _table_check.difference(f"{section}:{name} reads", *keep)):
                differences.append(line)
    for key in ("torch", "torch_xla"):
        if (line := _table_check.difference(key, table[key], fresh[key])):
            differences.append(line)
    checked = sum(len(fresh[s]) for s in ("sinks", "optimizers", "functions", "sizes", "methods", "modules")) + 2
    return _table_check.report("generate_torch_host_table", checked, differences,
                               f"torch {fresh['torch']}, torch_xla {fresh['torch_xla']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", default=sys.executable, help="a Python with torch, torch_xla, tensorboard and tqdm")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true", help="rerun the probes and compare with --out")
    ap.add_argument("--sample", type=int, default=0,
                    help="with --check: re-measure N rows of the Tensor-method sweep (0: all ~1,700, minutes)")
    ap.add_argument("--refresh-params", action="store_true",
                    help="fill the sizes rows' params into the existing --out file (torch only, no device probes)")
    ap.add_argument("--only-modules", action="store_true",
                    help="rerun only the modules section's probes and merge them into the existing --out file")
    args = ap.parse_args(argv)
    if args.only_modules:
        import tempfile

        table = json.loads(args.out.read_text())
        with tempfile.TemporaryDirectory() as tmp:
            table["modules"] = build_modules(run_modules(args.python, Path(tmp)))
        args.out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
        print("modules that read: " + ", ".join(n for n, r in table["modules"].items() if r["reads"]))
        return 0
    if args.refresh_params:
        import tempfile

        table = json.loads(args.out.read_text())
        with tempfile.TemporaryDirectory() as tmp:
            params = positional_params(args.python, Path(tmp))
        for name, row in table["sizes"].items():
            row.pop("params", None)
            if name in params:
                row["params"] = params[name]
        args.out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
        print(f"params of {len(params)} size rows: " + json.dumps(params))
        return 0
    if (status := _table_check.gate("generate_torch_host_table", "torch_xla", args.python, args.check,
                                    lambda: check_table(args.python, args.out, args.sample))) is not None:
        return status
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        table = build(run_probes(args.python, Path(tmp)))
    args.out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    reads = [n for s in ("sinks", "optimizers") for n, r in table[s].items() if r["reads"]]
    methods = sorted({k.split(":")[0] for k, r in table["methods"].items() if r["reads"]})
    print(f"wrote {args.out}: {len(table['sinks'])} sinks, {len(table['optimizers'])} optimizer steps, "
          f"{len(table['functions'])} functions, {len(table['sizes'])} size arguments, {len(table['methods'])} "
          f"Tensor method probes; read back: {', '.join(reads)}; methods that read: {', '.join(methods)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
