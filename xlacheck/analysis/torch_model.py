"""The PyTorch/XLA adapter of the value/context model: which code runs in a torch_xla step, and
which values there are proven torch tensors.

It reads the facts the shared scan already gathered (:class:`~xlacheck.analysis.contexts.ModuleFacts`:
aliases, functions, classes, call edges) and adds what is specific to PyTorch. Precision first:
nothing is a tensor or a step unless the code proves it.

Steps (code that torch_xla traces lazily and executes at each sync):

* in a file that imports ``torch_xla``: the body of a loop that syncs (``torch_xla.sync()``,
  ``xm.mark_step()``, ``xm.optimizer_step(...)``) or iterates an ``MpDeviceLoader`` /
  ``ParallelLoader.per_device_loader``; the body of ``with torch_xla.step():``; functions passed to
  or decorated with ``torch_xla.compile``; a training loop (``loss.backward()`` and an optimizer
  step) in a function that creates the XLA device (``torch_xla.device()``, ``xm.xla_device()``);
  an ``accelerate`` training loop (``accelerator.backward``) in a file that names the XLA/TPU
  distributed type;
* functions decorated with or wrapped in ``torch.compile(backend="openxla")``;
* when the caller *declares* that the project's torch code runs on XLA (``torch_xla=True``, the
  ``--torch-xla`` flag): training-step functions (``.backward()`` and an optimizer step), functions
  decorated with ``torch.no_grad()``/``torch.inference_mode()``, ``forward`` methods of
  ``nn.Module`` subclasses defined in the file, the methods of a Hugging Face ``Trainer`` subclass that
  the Trainer calls once per batch (``compute_loss``, ``training_step``, ``prediction_step``: measured,
  xlacheck/data/hf_trainer.json);
* and, transitively, same-file functions called from step code.

Values (flags of :data:`TENSOR`, :data:`OUT`, ...): results of ``torch.*`` ops and of tensor
methods on proven tensors, arithmetic with a proven tensor, model outputs (a module proven by its
construction or use), batches drawn from a ``DataLoader``/``MpDeviceLoader`` and ``.to(device)``
results. Unknown values (a parameter nobody proves, a call of an unknown function) are never
tensors.
"""

from __future__ import annotations

import ast
import re
from collections import ChainMap
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache, lru_cache

from xlacheck._data import load_json
from xlacheck.analysis import TRY_STATEMENTS, dotted, is_main_guard, walk
from xlacheck.analysis.calls import binding_counts, closed_call_literals, literal_test, none_test_helpers
from xlacheck.analysis.contexts import ClassInfo, FunctionInfo, ModuleFacts, owner_class
from xlacheck.analysis.fixpoint import grow, settle
from xlacheck.analysis.module_index import is_tokenizer
from xlacheck.analysis.scopes import ScopeTree, own_nodes
from xlacheck.analysis.tables import (
    CUDA_ARRAY_TAKERS,
    CUDA_ONLY_PACKAGES,
    NO_XLA_TORCH_CALLS,
    NON_TORCH_RUNTIMES,
    OTHER_TORCH_BACKENDS,
)
from xlacheck.analysis.type_guards import python_number_annotation, python_number_names

TENSOR = 1  # proven torch tensor
BOOL = 2  # a boolean tensor (a mask)
OUT = 4  # a module's output: a tensor or a structure of tensors (ModelOutput, tuple, dict)
MODULE = 8  # an nn.Module instance
LOADER = 16  # a DataLoader / MpDeviceLoader / per_device_loader
BATCH = 32  # drawn from a loader: a tensor or a structure of tensors
STEP_INT = 64  # a Python number that changes from step to step (random draw, a value read from a tensor)
LONG = 128  # an integer tensor (indices)
OPTIMIZER = 256  # a torch.optim optimizer
DEVICE = 512  # an XLA device object
HOST = 1024  # a Python number read back from a tensor (.item(), float(t))
# A comparison (or ``.bool()``) of values nobody proved: a Python bool or a boolean tensor. Indexing
# a proven tensor with it settles which (``t[True]`` only adds a dimension, nobody writes it): a mask.
MAYBE_MASK = 2048
TENSOR_DICT = 4096  # a dict display every value of which is a proven tensor (``{"loss": loss, "acc": acc}``)
# computed from a module's output or a parameter: autograd records it, so a training step runs the
# backward of the ops applied to it (a raw input batch has no gradient: no backward kernel runs)
GRAD = 8192
# A Python value a step *function* takes as an argument (no default, not proven a tensor, module,
# optimizer or loader): the caller hands it in at every call, so where it reaches a shape (a slice
# bound, a factory's size) each new value is a new graph. Items of it (``for beg, end in trim``) and
# arithmetic with it carry the flag; ``len()`` of it does not (a batch's length is its fixed size).
STEP_ARG = 16384
# A tensor (or a batch of them) known to live on the CPU: an item of a plain
# ``torch.utils.data.DataLoader(...)`` built here (no ``collate_fn``, nothing in its arguments moved to a
# device), not moved since; what a method, index or arithmetic computes from CPU tensors alone stays
# there; so is what a tokenizer returns with ``return_tensors="pt"``. Reading it on the host
# (``int(lengths.max())``) runs no pending XLA graph, and a torch op on it alone runs no XLA op.
CPU = 32768
# A 0-d tensor: a full reduction of a proven tensor (``x.sum()``, ``scores.argmax()``: no ``dim``), an
# elementwise method of one (``.long()``, ``.abs()``), or arithmetic of one with Python numbers or other 0-d
# tensors (``(x * 0).sum().long() + 4``). With LONG it is an integer scalar: used as an index (``v[i]``)
# torch reads its value back as a Python int (torch_xla_host.json sizes: ``Tensor.__getitem__(index)``).
ZERO_D = 65536
# A list that starts empty (every assignment to the name in the file is ``[]``) and that step code fills
# with ``.append()`` of proven device tensors (``losses.append(loss)``): its items, and what indexing it
# gives, are those tensors (``[l.item() for l in losses]`` reads each).
TENSOR_LIST = 131072

STRUCT = OUT | BATCH  # a tensor or a structure of tensors: its items/attributes are tensors
# binary operators that no tuple, list, dict or ModelOutput supports: an operand of one is a tensor
_TENSOR_ONLY_OPS = (ast.Sub, ast.Div, ast.FloorDiv, ast.Pow, ast.MatMult)


def _cuda_autocast_query(call: ast.Call, resolve: Callable[[ast.expr], str | None]) -> bool:
    """``torch.is_autocast_enabled()``, or with ``"cuda"``: whether CUDA autocast is on, which is False in code on
    the XLA device (measured, torch and torch_xla 2.9.0: False outside autocast and inside
    ``torch.autocast("xla", dtype=torch.bfloat16)``, where only ``torch.is_autocast_enabled("xla")`` is True). A
    CUDA fp16 guard such as ``if torch.is_autocast_enabled() and torch.isinf(x).any():`` skips its read on XLA."""
    if resolve(call.func) != "torch.is_autocast_enabled" or len(call.args) + len(call.keywords) > 1:
        return False
    arg = call.args[0] if call.args else call.keywords[0].value if call.keywords else None
    return arg is None or isinstance(arg, ast.Constant) and arg.value == "cuda"


def cuda_autocast_helpers(tree: ast.Module, resolve: Callable[[ast.expr], str | None]) -> tuple[str, ...]:
    """The module's own CUDA autocast queries: a module-level def without parameters or decorators whose body,
    straight-line assignments of plain names and one final ``return`` (a docstring aside), returns a value that
    :func:`_cuda_autocast_query` makes False on the XLA device: the query itself, an ``and`` with it (or with a
    name bound to such a value), ``not`` of a True one never. openfold's ``is_fp16_enabled()`` is
    ``torch.get_autocast_gpu_dtype() == torch.float16 and torch.is_autocast_enabled()``: a fp16 guard that calls
    it (``if is_fp16_enabled() and a_std != 0.:``) skips its read on XLA. Sorted names, each bound once."""
    bound = binding_counts(tree)

    def false_on_xla(e: ast.expr, names: set[str]) -> bool:
        if isinstance(e, ast.Call):
            return _cuda_autocast_query(e, resolve)
        if isinstance(e, ast.Name):
            return e.id in names
        return isinstance(e, ast.BoolOp) and isinstance(e.op, ast.And) and any(false_on_xla(v, names) for v in e.values)

    out = []
    for f in tree.body:
        a = f.args if isinstance(f, ast.FunctionDef) else None
        if not isinstance(f, ast.FunctionDef) or a is None or f.decorator_list or bound.get(f.name) != 1 or (
                a.posonlyargs or a.args or a.vararg or a.kwonlyargs or a.kwarg):
            continue
        body = [s for s in f.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        names: set[str] = set()
        for s in body[:-1]:
            if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)):
                break
            (names.add if false_on_xla(s.value, names) else names.discard)(s.targets[0].id)
        else:
            last = body[-1] if body else None
            if isinstance(last, ast.Return) and last.value is not None and false_on_xla(last.value, names):
                out.append(f.name)
    return tuple(sorted(out))


# Tensor methods NumPy arrays do not have: a value they are called on is a torch tensor (``_cuda_array_call``)
_TORCH_ONLY_METHODS = frozenset({"to", "int", "long", "float", "half", "contiguous", "cuda", "detach", "clone"})
# Functions whose documented result is "torch_xla is in use" (transformers' and accelerate's
# ``is_torch_xla_available``, transformers' older ``is_torch_tpu_available``): True in code that runs on XLA, so
# the branch it rules out (``if not is_torch_xla_available() and torch.isnan(loss):``) never runs there.
XLA_AVAILABLE_FUNCTIONS = frozenset({"is_torch_xla_available", "is_torch_tpu_available"})
# torch's queries of Apple's MPS backend: False wherever torch_xla runs. torch_xla ships Linux wheels only
# (torch_xla 2.9.0: the single tag manylinux_2_28_x86_64) and MPS exists only in macOS builds of torch (torch
# 2.9.0 on Linux: all three return False), so a branch they open (tortoise-tts' ``if
# torch.backends.mps.is_available(): inp = inp.to('cpu')``) never runs on the XLA device.
MPS_QUERIES = frozenset({"torch.backends.mps.is_available", "torch.backends.mps.is_built", "torch.mps.is_available"})
SYNC_CALLS = frozenset({"torch_xla.sync", "torch_xla.core.xla_model.mark_step", "torch_xla.core.xla_model.optimizer_step"})
# Calls that execute the pending graph (a value read after one does not cut the step).
GRAPH_SYNCS = frozenset({"torch_xla.sync", "torch_xla.core.xla_model.mark_step"})
XLA_DEVICE_CALLS = frozenset({"torch_xla.device", "torch_xla.core.xla_model.xla_device", "torch_xla.xla_device"})
DEVICE_LOADERS = frozenset({"torch_xla.distributed.parallel_loader.MpDeviceLoader",
                            "torch_xla.distributed.parallel_loader.ParallelLoader"})
# Tensor factories that build on the CPU unless told otherwise (``torch.<name>``), split by what their
# signatures in torch 2.9 take (``inspect``/docstrings of the functions; checked in the tests):
# - deterministic: take ``device=``; built there, the values are the same (an op of the graph).
FACTORIES_DETERMINISTIC = frozenset({"zeros", "ones", "full", "empty", "arange", "eye", "linspace", "logspace",
                                     "tril_indices", "triu_indices"})
# - random: take ``device=`` but then draw from the device's generator: other values, and the CPU
#   generator no longer advances (``normal`` only in its ``normal(mean, std, size)`` form).
FACTORIES_RANDOM = frozenset({"rand", "randn", "randint", "randperm", "normal"})
# Ops (``torch.<name>``, ``Tensor.<name>``, ``F.<name>``) that draw from the generator of the device they run on:
# moved to the XLA device, a computation through one of them gives other values.
RANDOM_OPS = FACTORIES_RANDOM | {"bernoulli", "multinomial", "poisson", "rand_like", "randn_like", "randint_like",
                                 "dropout", "normal_", "uniform_", "bernoulli_", "random_", "exponential_",
                                 "geometric_", "cauchy_", "log_normal_", "rrelu"}
# - host data without ``device=`` (``from_numpy() takes no keyword arguments``): only ``.to(...)`` moves it.
FACTORIES_NO_DEVICE = frozenset({"from_numpy"})


def factory_takes_device(op: str, call: ast.Call) -> bool:
    """Whether ``torch.<op>(...)`` accepts ``device=``: the table above, and ``torch.normal`` only with a size
    (``normal(mean, std)`` of tensors takes no ``device=``)."""
    if op == "normal":
        return len(call.args) >= 3 or any(k.arg == "size" for k in call.keywords)
    return op in FACTORIES_DETERMINISTIC | FACTORIES_RANDOM


# Module methods that register a function torch then calls inside the module's forward or backward, and
# what it hands that function after the module: (module, inputs[, output]) for forward hooks, (module,
# grad_input, grad_output) for backward ones: tuples of tensors, or a tensor (a forward hook's output).
_HOOK_REGISTRATIONS = frozenset({"register_forward_hook", "register_forward_pre_hook", "register_full_backward_hook",
                                 "register_full_backward_pre_hook", "register_backward_hook"})
# torch.nn layers whose output is a tuple (output and state, or output and weights), not one tensor
_MULTI_OUTPUT_LAYERS = frozenset({"RNN", "LSTM", "GRU", "MultiheadAttention", "Sequential", "ModuleList", "ModuleDict",
                                  "Identity"})
_STEP_DECORATORS = frozenset({"torch.no_grad", "torch.inference_mode", "torch.enable_grad"})
_NO_GRAD = frozenset({"torch.no_grad", "torch.inference_mode"})
# grad-mode context managers/decorators and the parameter that sets the mode (None: the mode is fixed)
_GRAD_MODES = {f"{module}.{name}": param for module in ("torch", "torch.autograd", "torch.autograd.grad_mode")
               for name, param in (("no_grad", None), ("enable_grad", None), ("inference_mode", "mode"),
                                   ("set_grad_enabled", "mode"))}


def grad_disabled(node: ast.expr, resolve: Callable[[ast.expr], str | None]) -> bool | None:
    """Whether a ``with`` item or a decorator turns autograd off (True), on (False) or leaves it as it
    is (None: not a grad-mode manager, or a mode that is not a literal). ``torch.no_grad()`` and
    ``torch.inference_mode()`` turn it off; ``torch.enable_grad()``, ``torch.inference_mode(False)``
    (``mode=False``: leaving inference mode turns grad mode on, even inside ``no_grad``; measured,
    torch 2.9) and ``torch.set_grad_enabled(True)`` turn it on; ``torch.set_grad_enabled(False)`` off."""
    call = node if isinstance(node, ast.Call) else None
    name = resolve(call.func if call is not None else node)
    if name not in _GRAD_MODES:
        return None
    short = name.rsplit(".", 1)[1]
    if short in ("no_grad", "enable_grad"):
        return short == "no_grad"
    param = _GRAD_MODES[name]
    arg: ast.expr | None = None
    if call is not None:
        arg = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == param), None)
    if arg is None:  # inference_mode() / @inference_mode: on; set_grad_enabled needs its mode
        return True if short == "inference_mode" else None
    if not isinstance(arg, ast.Constant) or not isinstance(arg.value, bool):
        return None
    return arg.value if short == "inference_mode" else not arg.value
# methods that run a model's forward whatever the receiver (``model.generate(...)``, ``layer.forward(x)``)
_FORWARD_METHODS = frozenset({"forward", "generate", "__call__"})
# methods of a module (or of what holds it) that run no forward: moves, registration, bookkeeping
_NOT_A_FORWARD = frozenset({"to", "cuda", "cpu", "xla", "requires_grad_", "register_buffer", "register_parameter",
                            "register_forward_hook", "register_forward_pre_hook", "apply", "named_buffers",
                            "named_children", "get_submodule", "get_parameter", "add_module", "register_module",
                            "zero_", "copy_", "fill_"})
# what a branch that imports TensorFlow as an inference runtime calls to load the model (not tf.summary)
_TF_MODEL_LOADERS = frozenset({"saved_model", "load_model", "lite", "Interpreter", "GraphDef", "wrap_function"})
_LOADER_CALLS = frozenset({"torch.utils.data.DataLoader"}) | DEVICE_LOADERS

# Tensor methods whose result is not a tensor (Python values, sizes, devices, host copies).
NON_TENSOR_METHODS = frozenset({
    "item", "tolist", "numpy", "size", "dim", "ndimension", "numel", "nelement", "element_size", "data_ptr",
    "get_device", "stride", "storage_offset", "is_contiguous", "is_floating_point", "is_complex", "is_signed",
    "equal", "type", "untyped_storage", "storage", "backward", "register_hook", "is_set_to",
    "is_same_size", "is_nonzero", "is_pinned", "is_shared", "has_names", "is_coalesced", "dim_order",
    "__len__", "apply_", "map_", "cpu_", "requires_grad_", "retain_grad", "share_memory_", "record_stream",
})
# Methods torch.Tensor shares with NumPy arrays, Python containers and strings: calling one does
# not prove the receiver is a tensor.
_SHARED_METHOD_NAMES = frozenset({
    "all", "any", "argmax", "argmin", "argsort", "astype", "byteswap", "choose", "clip", "compress", "conj",
    "copy", "cumprod", "cumsum", "diagonal", "dot", "dump", "dumps", "fill", "flatten", "getfield", "item",
    "itemset", "max", "mean", "min", "nonzero", "partition", "prod", "put", "ravel", "repeat", "reshape",
    "resize", "round", "searchsorted", "setfield", "sort", "squeeze", "std", "sum", "swapaxes", "take",
    "tobytes", "tofile", "tolist", "trace", "transpose", "var", "view", "count", "index", "append", "extend",
    "pop", "remove", "insert", "reverse", "clear", "get", "items", "keys", "values", "update", "split",
    "join", "strip", "replace", "format", "lower", "upper", "startswith", "endswith", "encode", "decode",
    "to", "add", "sub", "mul", "div", "abs", "exp", "log", "sqrt", "pow", "sin", "cos", "tanh", "floor",
    "ceil", "real", "imag", "apply", "map", "eval", "train", "cuda", "cpu", "half", "double", "float", "int",
    "long", "bool", "type", "numpy", "size", "new", "zero_", "norm", "unique", "masked_select",
})
# Names that denote a model when called (``model(x)``): the output is a tensor or a ModelOutput.
_MODEL_NAMES = frozenset({"model", "net", "network", "module", "encoder", "decoder", "classifier"})
# Casts and copies: on a tensor or a batch item they give a tensor (not in the op table: no ATen schema).
_CASTS = frozenset({"long", "int", "float", "bool", "half", "double", "bfloat16", "type_as", "contiguous", "detach",
                    "clone"})
_MODULE_USE_METHODS = frozenset({"parameters", "named_parameters", "state_dict", "load_state_dict", "train",
                                 "eval", "modules", "named_modules", "zero_grad", "children", "buffers"})
# Method names too common to resolve to the one same-file class that defines them (optimizers,
# modules, containers and schedulers share them).
_COMMON_METHODS = _SHARED_METHOD_NAMES | _MODULE_USE_METHODS | frozenset({
    "step", "forward", "__call__", "__init__", "reset", "update", "compute", "backward", "zero_grad", "close",
    "run", "set", "save", "load", "state_dict", "to", "call", "predict", "fit", "log"})
_ND_NAMESPACES = ("torch.nn.functional.", "torch.linalg.", "torch.fft.", "torch.special.")
_NON_TENSOR_TORCH = frozenset({
    "torch.is_tensor", "torch.numel", "torch.no_grad", "torch.enable_grad", "torch.inference_mode", "torch.device",
    "torch.Size", "torch.finfo", "torch.iinfo", "torch.manual_seed", "torch.save", "torch.load", "torch.compile",
    "torch.is_floating_point", "torch.is_complex", "torch.equal", "torch.set_grad_enabled", "torch.autocast",
    "torch.get_default_dtype", "torch.is_grad_enabled", "torch.is_nonzero", "torch.Generator", "torch.dtype",
    "torch.nn.functional.has_torch_function",
})
# Array methods of torch.Tensor that no Python number, list, dict or string has (NumPy arrays share
# them: in step code a parameter that calls one is a tensor).
_ARRAY_METHODS = frozenset({"sum", "mean", "max", "min", "argmax", "argmin", "cumsum", "prod", "std", "var",
                            "reshape", "view", "flatten", "squeeze", "transpose", "unsqueeze", "float", "long",
                            "bool", "half", "int", "masked_fill", "size", "dim", "numel", "any", "all", "norm",
                            "nonzero", "masked_select", "unique", "clamp", "expand", "permute", "contiguous"})
# (not `.cpu()`: on a parameter it proves a tensor but not one on the XLA device; a CPU-built
# tensor's `.cpu()` is a no-op, optimum-tpu's generator.py:185 was such a false finding)
# Methods that, called on a comparison of unproven values, show it is a tensor mask.
_MASK_METHODS = frozenset({"nonzero", "argwhere", "masked_select", "unique"})
# what a Python bool (the result of comparing a tuple, dict or ModelOutput) has as attributes
_BOOL_ATTRIBUTES = frozenset(dir(bool))
# Python numbers drawn anew at each call: ints (an offset, a size) and floats (a zoom or resize factor that
# sets an output size: torch_xla_recompile.json, float_interpolate_scale_factor). A float only multiplied
# into tensors is uploaded as data and compiles once (float_scalar): XLA450 reads the flag at sizes only.
_RANDOM_INT_CALLS = frozenset({"random.randint", "random.randrange", "numpy.random.randint", "np.random.randint",
                               "random.choice", "random.uniform", "numpy.random.uniform", "np.random.uniform",
                               "numpy.random.choice", "np.random.choice"})


@cache
def _scalar_draws() -> dict[str, int | None]:
    """Functions of ``random`` and ``numpy.random`` that return one number drawn anew at each call
    (xlacheck/data/random_draws.json, tools/generate_random_draw_table.py), with the position of the
    ``size`` argument that makes a NumPy draw an array (None: none)."""
    rows = load_json("random_draws.json").get("rows", {})
    return {name: row.get("size") for name, row in rows.items() if row.get("scalar") and row.get("draws")}


def scalar_draw(name: str | None, call: ast.Call) -> bool:
    """``random.random()``, ``np.random.beta(a, a)``, ``np.random.rand()``: one host number drawn at each call
    (not ``np.random.rand(3)`` nor ``size=``, arrays)."""
    if name is None:
        return False
    name = "numpy." + name[3:] if name.startswith("np.") else name
    draws = _scalar_draws()
    if name not in draws:
        return False
    size = draws[name]
    return not any(k.arg == "size" for k in call.keywords) and (size is None or len(call.args) <= size)


@cache
def _number_functions() -> dict[str, frozenset[int]]:
    """Functions of ``math`` and of NumPy's top level that map Python numbers to one number, with the
    positions of the arguments the result changes with (xlacheck/data/number_functions.json,
    tools/generate_number_function_table.py)."""
    rows = load_json("number_functions.json").get("rows", {})
    return {name: frozenset(row.get("follows", ())) for name, row in rows.items()}


def number_of_step_number(name: str, args: list[int]) -> bool:
    """``np.sqrt(1 - lam)``, ``math.log2(n)``, ``np.clip(w * r, 1, w)`` with ``lam``/``n``/``r`` a Python number
    new at every step (STEP_INT) at a position the result follows: one number new at every step too."""
    name = "numpy." + name[3:] if name.startswith("np.") else name
    follows = _number_functions().get(name)
    return follows is not None and any(i in follows and a & STEP_INT for i, a in enumerate(args))


@cache
def op_table() -> dict:
    """xlacheck/data/torch_xla_ops.json, written by tools/generate_torch_table.py (never torch)."""
    table: dict = load_json("torch_xla_ops.json")
    return table


@cache
def not_tensor_first() -> frozenset[str]:
    """The torch functions whose first argument need not be a tensor (factories, window functions,
    ``cat``/``stack`` of a sequence, ``einsum``'s equation, ``polygamma``'s order): the op table's
    ``not_tensor_first``, read by tools/generate_torch_table.py from torch's documentation and ATen
    schemas. A name passed first to one of them is not thereby a tensor."""
    return frozenset(op_table().get("not_tensor_first", ()))


@cache
def recompile_table() -> dict:
    """xlacheck/data/torch_xla_recompile.json, written by tools/generate_torch_recompile_table.py (never
    torch): per-step variations and whether torch_xla compiled again for them; ``{}`` when missing."""
    try:
        table: dict = load_json("torch_xla_recompile.json")
    except FileNotFoundError:
        return {}
    return table


@cache
def host_table() -> dict:
    """xlacheck/data/torch_xla_host.json, written by tools/generate_torch_host_table.py (never torch):
    library calls (logging sinks, optimizer steps) measured reading a device tensor back to the host;
    ``{}`` when missing."""
    try:
        table: dict = load_json("torch_xla_host.json")
    except FileNotFoundError:
        return {}
    return table


@cache
def trainer_table() -> dict:
    """xlacheck/data/hf_trainer.json, written by tools/generate_hf_trainer_table.py (never transformers): the
    methods of Hugging Face's ``Trainer`` that its loops call once per batch with the batch, and the public
    classes derived from ``Trainer``; ``{}`` when missing."""
    try:
        table: dict = load_json("hf_trainer.json")
    except FileNotFoundError:
        return {}
    return table


@cache
def _trainer_batch_methods() -> frozenset[str]:
    table = trainer_table()
    return frozenset(table.get("per_train_step", {})) | frozenset(table.get("per_eval_batch", {}))


@cache
def pool_table() -> dict:
    """xlacheck/data/torch_xla_pools.json, written by tools/generate_torch_pool_table.py (never torch):
    whether torch_xla lowers each (adaptive pool, input side, output side) it measured, forward and
    backward; ``{}`` when missing."""
    try:
        table: dict = load_json("torch_xla_pools.json")
    except FileNotFoundError:
        return {}
    return table


def built_from(tree: ast.Module, recv: ast.expr, resolve: Callable[[ast.expr], str | None]) -> str | None:
    """The qualified class every assignment in the file gives ``recv`` (a name, or ``self.<attr>``),
    when all of them call the same resolved class (``self.tb = SummaryWriter(log_dir)``); None when the
    file never builds it there or builds different things. One walk of the module answers every receiver
    (:func:`_built_index`), so a rule asking per call stays linear."""
    if isinstance(recv, ast.Name):
        key = ("name", recv.id)
    elif _self_attr(recv):
        key = ("self", recv.attr)  # type: ignore[attr-defined]
    else:
        return None
    names = _built_index(tree, resolve).get(key, set())
    return next(iter(names)) if len(names) == 1 else None


# the last module indexed by _built_index: (tree, resolve, index); the tree is compared by identity
_BUILT_INDEX: list[tuple[ast.Module, Callable[[ast.expr], str | None], dict[tuple[str, str], set[str | None]]]] = []


def _built_index(tree: ast.Module, resolve: Callable[[ast.expr], str | None]
                 ) -> dict[tuple[str, str], set[str | None]]:
    """For each receiver the file assigns (``("name", x)`` or ``("self", attr)``): the classes its assignments and
    ``with ... as`` bindings build (None for a value that is not a call of a resolved class)."""
    last = _BUILT_INDEX[0] if _BUILT_INDEX else None
    if last is not None and last[0] is tree and last[1] == resolve:
        return last[2]
    factories = {f.name: f for f in tree.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}

    def built(e: ast.expr) -> str | None:
        """The class a call builds: ``SummaryWriter(...)``, or a same-file function every ``return`` of which
        builds the same class (``def make_optimizer(model): return torch.optim.ASGD(...)``)."""
        if not isinstance(e, ast.Call):
            return None
        if isinstance(e.func, ast.Name) and e.func.id in factories:
            returns = [r.value for r in own_statements(factories[e.func.id].body) if isinstance(r, ast.Return)]
            made = {resolve(r.func) if isinstance(r, ast.Call) and not (
                isinstance(r.func, ast.Name) and r.func.id in factories) else None for r in returns}
            return next(iter(made)) if len(made) == 1 else None
        return resolve(e.func)

    def key(t: ast.expr) -> tuple[str, str] | None:
        if isinstance(t, ast.Name):
            return ("name", t.id)
        return ("self", t.attr) if _self_attr(t) else None  # type: ignore[attr-defined]

    index: dict[tuple[str, str], set[str | None]] = {}
    for n in ast.walk(tree):
        if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None:
            keys = {k for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if (k := key(t)) is not None}
            if keys:
                made = built(n.value)
                for k in keys:
                    index.setdefault(k, set()).add(made)
        elif isinstance(n, (ast.With, ast.AsyncWith)):
            for item in n.items:
                k = key(item.optional_vars) if item.optional_vars is not None else None
                if k is not None:
                    e = item.context_expr
                    index.setdefault(k, set()).add(resolve(e.func) if isinstance(e, ast.Call) else None)
    _BUILT_INDEX[:] = [(tree, resolve, index)]
    return index


def recompiles(*probes: str) -> bool:
    """The recompile table measured a new compilation for any of ``probes`` (a missing table or probe,
    or one that errored, keeps the finding: the rules stated these before the table existed)."""
    rows = recompile_table().get("probes", {})
    return any(rows.get(p, {}).get("recompiles") is not False for p in probes)


@cache
def loss_modules() -> frozenset[str]:
    """The ``torch.nn`` loss modules (xlacheck/data/torch_module.json ``losses``, written by
    tools/generate_torch_module_table.py): calling one returns one tensor."""
    return frozenset(load_json("torch_module.json").get("losses", ()))


@cache
def tensor_methods() -> frozenset[str]:
    return frozenset(n.split(".", 1)[1] for n in op_table()["ops"] if n.startswith("Tensor."))


@cache
def proving_methods() -> frozenset[str]:
    """Tensor methods no NumPy array, container or string has: a call proves a tensor receiver."""
    return frozenset(m for m in tensor_methods() if m not in _SHARED_METHOD_NAMES and m not in NON_TENSOR_METHODS)


@cache
def bool_results() -> frozenset[str]:
    """Ops whose result is a bool tensor although no argument is bool (comparisons, ``isnan``,
    ``signbit``, ``isin``, ``any``/``all``), from the table's ``bool_results`` (each op's result
    dtype on the forward probe's own arguments)."""
    return frozenset(op_table().get("bool_results", ()))


def _bool_dtype(e: ast.expr | None, resolve: Callable[[ast.expr], str | None]) -> bool:
    """``torch.bool`` (or the string ``"bool"`` that ``.to``/``.type`` also accept)."""
    if e is None:
        return False
    if isinstance(e, ast.Constant):
        return e.value in ("bool", "torch.bool", "torch.BoolTensor")
    return resolve(e) in ("torch.bool", "torch.BoolTensor")


def _bool_dtype_argument(c: ast.Call, resolve: Callable[[ast.expr], str | None], positional: bool) -> bool:
    """A call given ``dtype=torch.bool`` (or, for ``.to``/``.type``, ``torch.bool`` as its first argument):
    its result is a bool tensor."""
    if any(k.arg == "dtype" and _bool_dtype(k.value, resolve) for k in c.keywords):
        return True
    return positional and bool(c.args) and _bool_dtype(c.args[0], resolve)


@cache
def bool_arguments() -> dict[str, list[dict]]:
    """op -> the tensor arguments torch accepts only as bool (``masked_fill``'s mask, three-argument
    ``where``'s condition), from the table's ``bool_arguments`` (each op called with a bool, a float
    and an integer tensor there)."""
    return op_table().get("bool_arguments", {})


def bool_argument_values(call: ast.Call, name: str | None) -> list[ast.expr]:
    """The expressions ``call`` passes where torch accepts only a bool tensor: by the resolved
    ``torch.*`` function (``name``) or by a method no NumPy array or container has
    (``x.masked_fill(mask, 0)``). The overload must be the one measured (``torch.where(c)``, one
    argument, takes a float)."""
    table = bool_arguments()
    rows: list[dict] = []
    shift = 0
    if name is not None and name in table:
        rows = table[name]
    elif name is None and isinstance(call.func, ast.Attribute) and f"Tensor.{call.func.attr}" in table \
            and call.func.attr in proving_methods():
        rows = [r for r in table[f"Tensor.{call.func.attr}"] if not r.get("numpy_name")]
        shift = 1  # the receiver is the schema's first argument
    out: list[ast.expr] = []
    if any(isinstance(a, ast.Starred) for a in call.args):
        return out
    for r in rows:
        if len(call.args) + len(call.keywords) + shift < r["min_args"]:
            continue
        kw = next((k.value for k in call.keywords if k.arg == r["name"]), None)
        pos = r["position"] - shift
        value = kw if kw is not None else call.args[pos] if 0 <= pos < len(call.args) else None
        if value is not None:
            out.append(value)
    return out


# Tensor methods whose result has the receiver's dtype (views, copies, layout changes).
_SAME_DTYPE_METHODS = frozenset({"unsqueeze", "squeeze", "view", "reshape", "expand", "expand_as", "transpose",
                                 "permute", "flatten", "contiguous", "clone", "detach", "repeat", "narrow"})


def bool_roots(e: ast.expr) -> list[str]:
    """The names that must hold bool tensors when ``e`` is one: ``~m``, ``m[..., None]``,
    ``m.unsqueeze(-1)``, ``a & b`` (an integer operand would make the result an integer)."""
    if isinstance(e, ast.Name):
        return [e.id]
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Invert):
        return bool_roots(e.operand)
    if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
        return bool_roots(e.left) + bool_roots(e.right)
    if isinstance(e, ast.Subscript):
        return bool_roots(e.value)
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr in _SAME_DTYPE_METHODS:
        return bool_roots(e.func.value)
    return []


def canonical(name: str | None) -> str | None:
    """``torch_xla.core.xla_model`` imported as ``xm`` resolves to its full path already; keep the
    deprecated spellings and the short ones on one name."""
    if name is None:
        return None
    for short, full in (("torch_xla.core.xla_model.", "torch_xla.core.xla_model."),):
        if name.startswith(short):
            return full + name[len(short):]
    return name


@dataclass(eq=False)
class Step:
    """One piece of step code: a function, or the body of a loop/with block."""

    node: ast.AST  # the FunctionDef, the loop or the With
    why: str
    owner: ast.AST | None  # the function (or module) whose statements hold the region
    loop: ast.For | ast.While | None = None
    # a callee that step code calls only under ``if step % n == 0:`` (a checkpoint or validation
    # helper): its statements run every n-th step, not every step
    periodic: bool = False
    # a callee that only the set-up phase of a declared @torch.no_grad() function calls (before its work
    # loop: input checks, pre-processing), directly or through other such callees: it runs once per call
    setup: bool = False


_CALLED_FROM_STEP = re.compile(r"called from step code(?: with tensors| as [^:]*)?(?:, (\d+) calls deep)?: ")


def called_from_step(caller_why: str, how: str = "") -> str:
    """Why a function that step code calls is step code: "called from step code" and the root
    step's reason, with the number of calls between when it is more than one, in place of one
    "called from step code (...)" per call (issue: four nested parentheses in one message). The
    root's own "X (Y)" reads "X, Y" there, so a message holds one level of parentheses."""
    m = _CALLED_FROM_STEP.match(caller_why)
    depth = int(m.group(1) or 1) + 1 if m else 1
    root = caller_why[m.end():] if m else caller_why
    head, sep, tail = root.partition(" (")
    if not m and sep and tail.endswith(")") and "(" not in tail and ")" not in tail[:-1]:
        root = f"{head}, {tail[:-1]}"
    return f"called from step code{how}{f', {depth} calls deep' if depth > 1 else ''}: {root}"


@dataclass
class TorchFacts:
    """What the torch rules read: the steps and each expression's flags there."""

    xla_file: bool  # imports torch_xla
    declared: bool  # the caller declared that torch code runs on XLA
    steps: list[Step] = field(default_factory=list)
    flags: dict[int, int] = field(default_factory=dict)  # id(expr) -> flags, for expressions in step code
    step_of: dict[int, Step] = field(default_factory=dict)  # id(node) -> its step, for every node in step code
    nodes: list[ast.AST] = field(default_factory=list)  # every node in step code, source order
    loops: list[tuple[ast.For | ast.While, ast.AST | None, str]] = field(default_factory=list)  # training loops
    module_names: set[str] = field(default_factory=set)
    module_classes: set[str] = field(default_factory=set)  # same-file nn.Module subclasses
    env_at: dict[int, dict[str, int]] = field(default_factory=dict)  # id(stmt) -> names before it (step code)
    stmt_of: dict[int, ast.stmt] = field(default_factory=dict)  # id(node) -> innermost statement (step code)
    call_ops: dict[int, str] = field(default_factory=dict)  # id(Call) -> "torch.x" / "Tensor.x" (tensor receiver proven)
    after_sync: set[int] = field(default_factory=set)  # ids of step statements that run after a sync in the same iteration
    # ids of step statements under ``if step % n == 0:`` (a Python counter): they run every n-th step, not every
    # step; also the output phase of a declared @torch.no_grad() function after its work loop, once per call
    periodic: set[int] = field(default_factory=set)
    # the file trains: some step code calls ``.backward()`` with an optimizer step, so the backward
    # kernels of the ops in its steps run too (outside ``no_grad`` code)
    trains: bool = False
    # some step code (any code, where torch code is declared to run on XLA) runs autograd's backward pass
    # (``loss.backward()``, ``torch.autograd.grad``), with or without an optimizer step: the backward kernels
    # of the ops it records run on the device
    backward: bool = False
    no_grad: set[int] = field(default_factory=set)  # ids of step statements under torch.no_grad()/inference_mode()
    # ids of the statements a declared @torch.no_grad() function with a work loop runs once per call
    # before its first loop (set-up; its output phase after the last loop is in ``periodic``)
    setup: set[int] = field(default_factory=set)
    # ids of the statements of a value kept on ``self`` and built lazily or rebuilt only when its size must change
    # (``_Builder._lazy_inits``; also in ``setup``): once per object or per size, not once per call
    cached: set[int] = field(default_factory=set)
    # ids of ``self.<attr>`` reads, in step code, of a Python int that step code counts up (``self.step_index += 1``)
    counted: set[int] = field(default_factory=set)

    def of(self, node: ast.AST | None) -> int:
        return self.flags.get(id(node), 0) if node is not None else 0

    def tensor(self, node: ast.AST | None) -> bool:
        return bool(self.of(node) & TENSOR)

    def in_step(self, node: ast.AST) -> Step | None:
        return self.step_of.get(id(node))


def multi_axis_of_batch(node: ast.Subscript, torch: TorchFacts) -> bool:
    """``x[:, i:j]`` of a batch item or a module's output (``x, y = x.to(device), y.to(device)``): a tuple,
    dict or ModelOutput takes no multi-axis index, so the value indexed is a tensor (the model reads the
    result as one)."""
    return isinstance(node.slice, ast.Tuple) and bool(torch.of(node.value) & STRUCT) and torch.tensor(node)


def _calls_in(node: ast.AST) -> Iterator[ast.Call]:
    for n in walk(node):
        if isinstance(n, ast.Call):
            yield n


class _Builder:
    def __init__(self, tree: ast.Module, facts: ModuleFacts, declared: bool) -> None:
        self.tree = tree
        self._assigned: dict[str, list[ast.expr]] | None = None  # name -> values assigned to it (lazy)
        self._callee_stack: set[int] = set()  # functions _used_as_tensor is reading through a call (no recursion)
        self._callee_used: dict[int, dict[str, int]] = {}  # id(function) -> its _used_as_tensor, read through a call
        self._callee_cycles = 0  # calls _proven_by_callee refused as recursion (a result read meanwhile is partial)
        self._function_attr_cache: dict[str, str] | None = None  # self.<attr> bound to a torch function (lazy)
        self.facts = facts
        self.aliases = facts.aliases
        self.out = TorchFacts(xla_file=any(v.split(".", 1)[0] == "torch_xla" for v in facts.aliases.names.values()),
                              declared=declared)
        self.module_classes = self._module_classes()
        self.module_factories = self._module_factories()
        self.trainer_classes = self._trainer_classes()
        self.module_names = self._module_names()
        self.out.module_names = self.module_names
        self.out.module_classes = self.module_classes
        self.submodule_attrs = self._submodule_attrs()
        self.self_methods = self._self_methods()
        self.param_flags: dict[int, dict[str, int]] = {}  # id(FunctionDef) -> params proven by step callers
        self._instance_cache: dict[str, str] | None = None
        self._unmoved_cache: dict[int, frozenset[str]] = {}  # id(ClassDef) -> its unmoved_attrs
        self.device_attrs: dict[str, set[str]] = {}  # class name -> self.<attr> always a tensor built on a device
        self.cpu_attrs: dict[str, set[str]] = {}  # class name -> self.<attr> a plain tensor attribute built on the CPU
        self.counter_attrs: dict[str, set[str]] = {}  # class name -> self.<attr> Python ints counted up in step code
        self.function_attrs: dict[str, set[str]] = {}  # class name -> self.<attr> a Python function (a lambda)
        self.late: list[tuple[FunctionInfo, str]] = []  # methods reached through objects of unknown type
        self._root_cache: tuple[FunctionInfo | None] | None = None
        self._built: dict[str, str] = {}  # unparsed receiver -> the class every assignment builds it from (built_class)
        self._buffer_cache: dict[int, frozenset[str]] = {}  # id(ClassDef) -> its buffer_attrs
        self.output_calls: set[int] = set()  # ids of calls in the output phase of a declared no_grad function
        self.setup_calls: set[int] = set()  # ids of calls in the set-up phase of a declared no_grad function
        self.lazy_calls: set[int] = set()  # ids of calls under ``if self.x is None:`` that set ``self.x`` (once)
        self._phased: set[int] = set()  # functions whose set-up and output phases _phases has marked
        self._runs_model_cache: dict[int, bool] = {}  # id(function) -> runs_a_model
        self._self_modules: dict[int, bool] | None = None  # id(method) -> its class uses self as a module
        # (id(function), flags of what a call passes) -> what the function returns (see _Walker.returned)
        self.returns: dict[tuple, tuple[int, list[int] | None]] = {}
        self.returning: set[int] = set()  # functions being walked for their return value (recursion)
        self.items_of: dict[int, list[int]] = {}  # id(Call) -> flags of each item of the tuple it returns
        self._forward_tuples: frozenset[int] | None = None
        # the file sets torch's default device (``torch.set_default_device(d)``, ``with torch.device(d):``):
        # a factory given no ``device=`` may build there, so none is known to build on the CPU
        self.default_device = _sets_default_device(tree, self.resolve)
        # the file imports a CUDA-only kernel library (``CUDA_ONLY_PACKAGES``) or calls a torch function that cannot
        # take XLA tensors (``NO_XLA_TORCH_CALLS``, torch.nested): code that calls one never runs on XLA
        self.imports_cuda_only = any(v.split(".", 1)[0] in CUDA_ONLY_PACKAGES for v in self.aliases.names.values()) \
            or self._calls_no_xla_torch()
        self.cuda_only = self._cuda_only_functions()
        self.never_runs = self._unused_class_functions()
        self.runtime_flags = self._runtime_flags()
        # parameters every call of a file-private function, or every call of the project, leaves at one
        # literal (analysis.calls)
        self.literals = closed_call_literals(tree, facts.functions, facts.call_literals)
        self.none_tests = none_test_helpers(tree)  # the module's own `def exists(v): return v is not None`
        # CUDA autocast queries, False on XLA: the module's own (``def is_fp16_enabled(): ...``) and those it imports
        # from other modules of the project, by the name its calls use (analysis.project.imports)
        self.cuda_queries = frozenset(cuda_autocast_helpers(tree, self.resolve)) | facts.imported_cuda_queries

    # -- names -----------------------------------------------------------------------------
    def resolve(self, node: ast.expr) -> str | None:
        name = canonical(self.aliases.resolve(node))
        if name is None and _self_attr(node):
            return self._function_attrs().get(node.attr)  # type: ignore[attr-defined]
        return name

    def _function_attrs(self) -> dict[str, str]:
        """``self.<attr>`` names that every assignment in the file binds to one same torch function that
        returns a tensor, referenced and not called (``self.monitor_op = torch.lt``): calling the attribute
        calls that function. Keyed by attribute name over the whole file: a name bound otherwise anywhere
        (another class, a tuple or loop target, ``with ... as``) is unknown everywhere, never a wrong function."""
        if self._function_attr_cache is None:
            seen: dict[str, set[str | None]] = {}

            def bind(target: ast.expr, value: ast.expr | None) -> None:
                """``target = value``; a tuple target takes the items of a tuple value of its length
                (``self.lt, self.gt = torch.lt, torch.gt``), else an unknown value each."""
                if isinstance(target, (ast.Tuple, ast.List)):
                    items = value.elts if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(
                        target.elts) and not any(isinstance(e, ast.Starred) for e in (*value.elts, *target.elts)) \
                        else [None] * len(target.elts)
                    for t, v in zip(target.elts, items):
                        bind(t.value if isinstance(t, ast.Starred) else t, v)
                elif _self_attr(target):
                    ref = canonical(self.aliases.resolve(value)) if isinstance(value, (ast.Name, ast.Attribute)) \
                        else None
                    attr = target.attr  # type: ignore[attr-defined]
                    seen.setdefault(attr, set()).add(ref if _builds_tensor(ref) else None)

            for n in walk(self.tree):
                if isinstance(n, ast.Assign):
                    for t in n.targets:
                        bind(t, n.value)
                elif isinstance(n, (ast.AnnAssign, ast.AugAssign)):
                    bind(n.target, n.value if isinstance(n, ast.AnnAssign) else None)
                elif isinstance(n, (ast.For, ast.AsyncFor)):
                    bind(n.target, None)  # `for self.x in ...`: not one function
                elif isinstance(n, (ast.With, ast.AsyncWith)):
                    for item in n.items:
                        if item.optional_vars is not None:
                            bind(item.optional_vars, None)
            self._function_attr_cache = {a: next(iter(v)) for a, v in seen.items()  # type: ignore[misc]
                                         if len(v) == 1 and None not in v}
        return self._function_attr_cache

    def _trainer_classes(self) -> set[str]:
        """Same-file subclasses of Hugging Face's ``Trainer`` (a class of ``hf_trainer.json``'s ``classes``,
        imported from the package or from its module, or a same-file class derived from one)."""
        names = {c.rsplit(".", 1)[1] for c in trainer_table().get("classes", ())}
        out: set[str] = set()
        grow(out, self.facts.classes, lambda c: c.node.name, lambda c: any(
            b.startswith("transformers.") and b.rsplit(".", 1)[1] in names or b in out for b in c.bases))
        return out

    def _module_classes(self) -> set[str]:
        out: set[str] = set()
        grow(out, self.facts.classes, lambda c: c.node.name, lambda c: any(
            b.startswith("torch.nn.") or b.startswith("transformers.") and b.endswith(("Model", "PreTrainedModel"))
            or b in out for b in c.bases))
        return out

    def _module_factories(self) -> set[str]:
        """Module-level functions of this file that build a module on every path: each ``return`` hands back
        a ``torch.nn`` module class's or a same-file module class's instance, or another such function's
        (``def block(c_in, c_out): return nn.Sequential(nn.Conv2d(...), nn.ReLU())``), so
        ``self.enc = block(3, 8)`` is a submodule."""
        out: set[str] = set()

        def builds(f: FunctionInfo) -> bool:
            returned = [n.value for n in own_nodes(f.node) if isinstance(n, ast.Return)]
            return bool(returned) and all(self._builds_module(v, out) for v in returned)
        tops = [f for f in self.facts.functions if f.cls is None and f.parent is None
                and isinstance(f.node, (ast.FunctionDef, ast.AsyncFunctionDef))]
        return grow(out, tops, lambda f: f.name, builds)

    def _module_names(self) -> set[str]:
        """Names used as nn.Modules anywhere in the file (``model.parameters()``, ``net.train()``)."""
        out: set[str] = set()
        for call in _calls_in(self.tree):
            f = call.func
            if isinstance(f, ast.Attribute) and f.attr in _MODULE_USE_METHODS and isinstance(f.value, ast.Name) \
                    and not (f.attr == "zero_grad" and "opt" in f.value.id.lower()):
                out.add(f.value.id)
        return out

    def _submodule_attrs(self) -> frozenset[str]:
        """Attribute names that every same-file nn.Module class assigning them builds as a module
        (``self.cell = nn.GRUCell(...)``): ``model.cell(h)`` on a model calls that submodule."""
        built: dict[str, set[bool]] = {}
        for c in self.facts.classes:
            if c.node.name not in self.module_classes:
                continue
            for attr, v in c.attrs.items():
                built.setdefault(attr, set()).add(self._builds_module(v))
        return frozenset(a for a, kinds in built.items() if kinds == {True})

    def _self_methods(self) -> frozenset[str]:
        """Names that ``self.<name>`` can only be a method by on a module of this file: a method some
        same-file class defines and no code here stores on ``self``, or a name nothing here stores on
        ``self`` at all (an inherited method: ``self.get_local_store()`` from a mixin); a submodule is
        assigned (``self.layer = nn.Linear(...)``). Nothing qualifies where the file registers attributes
        by name (``setattr``, ``add_module``, ``register_module``, ``self.__dict__``)."""
        stored: set[str] = set()
        for n in walk(self.tree):
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self":
                if not isinstance(n.ctx, ast.Load) or n.attr == "__dict__":
                    stored.add(n.attr)
            elif isinstance(n, ast.Call) and (isinstance(n.func, ast.Name) and n.func.id == "setattr" or isinstance(
                    n.func, ast.Attribute) and n.func.attr in ("add_module", "register_module", "setattr")):
                return frozenset()
        if "__dict__" in stored:
            return frozenset()
        loaded = {n.attr for n in walk(self.tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                  and n.value.id == "self"}
        return frozenset(loaded - stored)

    def _builds_module(self, v: ast.expr | None, factories: set[str] | None = None) -> bool:
        """``v`` builds a module: a ``torch.nn`` module class, a same-file one, or a same-file module factory."""
        if not isinstance(v, ast.Call):
            return False
        local = self.module_factories if factories is None else factories
        if isinstance(v.func, ast.Name) and (v.func.id in self.module_classes or v.func.id in local):
            return True
        return is_module_class(self.resolve(v.func))

    def buffer_attrs(self, cls: ClassInfo) -> frozenset[str]:
        """``self.<name>`` buffers a same-file nn.Module class (or a same-file base of it) registers with a
        value (``self.register_buffer("initted", torch.tensor(False))``): tensors that ``model.to(device)``
        moves with the parameters, so on the XLA device in step code; not where the class (or its bases)
        also binds the name to something else (``self.step = 0``) or registers it as ``None``."""
        key = id(cls.node)
        if key not in self._buffer_cache:
            self._buffer_cache[key] = frozenset()  # (a base naming itself)
            registered: dict[str, bool] = {}
            classes = [cls] + [c for c in self.facts.classes if c.node.name in cls.bases and c is not cls]
            for c in classes:
                if c.node.name not in self.module_classes:
                    continue
                for n in walk(c.node):
                    if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and _self_attr(n.func) \
                            and n.func.attr == "register_buffer" and len(n.args) >= 2 \
                            and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str):
                        value = n.args[1]
                        tensor = not (isinstance(value, ast.Constant) and value.value is None)
                        registered[n.args[0].value] = registered.get(n.args[0].value, True) and tensor
                    elif isinstance(n, ast.Assign):
                        for t in n.targets:
                            if _self_attr(t):
                                registered[t.attr] = False  # type: ignore[attr-defined]
            self._buffer_cache[key] = frozenset(k for k, v in registered.items() if v)
        return self._buffer_cache[key]

    def unmoved_attrs(self, cls: ClassInfo) -> frozenset[str]:
        """``self.<attr>`` of a class that is no nn.Module (so nothing moves it along with its parent), every
        binding of which builds a module on the CPU (a same-file module class, a ``torch.nn`` class, a
        pretrained model ``AutoModelFor...from_pretrained(...)`` given no ``device_map=``/``device=``; also with
        ``.eval()``/``.requires_grad_(False)``-like calls chained), and that nothing in the class moves or hands
        on (``self.<attr>.to(d)``/``.cuda()``, ``accelerator.prepare(self.<attr>)``, an argument, a return value,
        an item of a display, an alias): its parameters stay where they were built, on the CPU (a toxicity
        classifier a task loads for evaluation and never moves)."""
        key = id(cls.node)
        if key in self._unmoved_cache:
            return self._unmoved_cache[key]
        names: dict[str, bool] = {}
        if cls.node.name not in self.module_classes:
            for n in walk(cls.node):
                if isinstance(n, ast.Assign):
                    for t in n.targets:
                        if _self_attr(t):
                            built = self._cpu_module(n.value)
                            names[t.attr] = names.get(t.attr, True) and built  # type: ignore[attr-defined]
                elif isinstance(n, (ast.AugAssign, ast.AnnAssign)) and _self_attr(n.target):
                    names[n.target.attr] = False  # type: ignore[union-attr]
            kept = {k for k, built in names.items() if built}
            for n in walk(cls.node):
                if not kept:
                    break
                handed: list[ast.expr] = []
                if isinstance(n, ast.Call):
                    f = n.func
                    if isinstance(f, ast.Attribute) and _self_attr(f.value) and f.attr in (
                            "to", "cuda", "xla", "to_empty", "apply", "_apply"):
                        kept.discard(f.value.attr)  # type: ignore[attr-defined]
                    handed = [a.value if isinstance(a, ast.Starred) else a for a in n.args]
                    handed += [k.value for k in n.keywords]
                elif isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom, ast.Assign)) and n.value is not None:
                    handed = [n.value]
                elif isinstance(n, (ast.List, ast.Tuple, ast.Set)):
                    handed = list(n.elts)
                elif isinstance(n, ast.Dict):
                    handed = [v for v in n.values if v is not None]
                for a in handed:
                    if _self_attr(a):
                        kept.discard(a.attr)  # type: ignore[attr-defined]
            names = {k: True for k in kept}
        self._unmoved_cache[key] = frozenset(names)
        return self._unmoved_cache[key]

    def _cpu_module(self, v: ast.expr) -> bool:
        """``v`` builds a module on the CPU (see ``unmoved_attrs``)."""
        while isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr in (
                "eval", "train", "requires_grad_", "float", "half", "bfloat16", "double"):
            v = v.func.value
        if not isinstance(v, ast.Call) or any(k.arg in ("device_map", "device", None) for k in v.keywords):
            return False
        if self._builds_module(v):
            return True
        if not (isinstance(v.func, ast.Attribute) and v.func.attr == "from_pretrained"):
            return False
        leaf = (self.resolve(v.func.value) or "").rsplit(".", 1)
        return len(leaf) == 2 and leaf[0].split(".", 1)[0] in ("transformers", "diffusers") and (
            "Model" in leaf[1] or "For" in leaf[1]) and not leaf[1].endswith(("Config", "Tokenizer", "Processor"))

    # -- steps -----------------------------------------------------------------------------
    def _device_loader_names(self) -> dict[int, set[str]]:
        """Per function (id of its node; the module is id(tree)), the names that hold a device
        loader: assigned from ``MpDeviceLoader(...)``/``.per_device_loader(...)``, or a parameter
        that a same-file call passes such a name to."""
        def is_device_loader(e: ast.expr) -> bool:
            return isinstance(e, ast.Call) and (self.resolve(e.func) in DEVICE_LOADERS or (
                isinstance(e.func, ast.Attribute) and e.func.attr == "per_device_loader"))

        held: set[str] = set()  # names (and self.attrs) assigned a device loader anywhere in the file
        for n in walk(self.tree):
            if isinstance(n, ast.Assign) and is_device_loader(n.value):
                for t in n.targets:
                    if isinstance(t, ast.Name):
                        held.add(t.id)
                    elif isinstance(t, ast.Attribute):
                        held.add("self." + t.attr)
        out: dict[int, set[str]] = {}
        for n in walk(self.tree):
            if not isinstance(n, ast.Call):
                continue
            for f in self._lookup(n.func):
                if isinstance(f.node, ast.Lambda):
                    continue
                params = [a.arg for a in f.node.args.posonlyargs + f.node.args.args]
                if params and params[0] == "self" and isinstance(n.func, ast.Attribute):
                    params = params[1:]
                for p, a in zip(params, n.args):
                    text = a.id if isinstance(a, ast.Name) else ("self." + a.attr if isinstance(a, ast.Attribute)
                                                                  and isinstance(a.value, ast.Name) and a.value.id == "self" else "")
                    if text in held or is_device_loader(a):
                        out.setdefault(id(f.node), set()).add(p)
        out[id(self.tree)] = held
        return out

    def _calls_no_xla_torch(self) -> bool:
        """The file calls a torch function that cannot take XLA tensors (``NO_XLA_TORCH_CALLS``) or hands a torch
        tensor to a function that takes CUDA tensors only (:meth:`_cuda_array_call`)."""
        names = NO_XLA_TORCH_CALLS | CUDA_ARRAY_TAKERS
        last = {n.rsplit(".", 1)[-1] for n in names}
        return any(isinstance(n, ast.Call) and (n.func.attr if isinstance(n.func, ast.Attribute) else getattr(
            n.func, "id", "")) in last and (self.resolve(n.func) in NO_XLA_TORCH_CALLS or self._cuda_array_call(n))
            for n in walk(self.tree))

    def _cuda_array_call(self, c: ast.Call) -> bool:
        """A call of ``CUDA_ARRAY_TAKERS`` whose argument is a torch tensor by its last method, one NumPy arrays do
        not have (``StorageView.from_array(src[:, 0].to(torch.int32))``): only a CUDA tensor is taken."""
        return self.resolve(c.func) in CUDA_ARRAY_TAKERS and len(c.args) == 1 and isinstance(c.args[0], ast.Call) \
            and isinstance(c.args[0].func, ast.Attribute) and c.args[0].func.attr in _TORCH_ONLY_METHODS

    def _cuda_call(self, c: ast.Call, cuda_only: set[int]) -> bool:
        """A call into a CUDA-only kernel library (``flash_attn_varlen_func(...)``, ``sageattn(...)``), a Triton
        kernel launch (``_kernel[grid](...)`` of a ``@triton.jit`` function), a torch call that cannot take XLA
        tensors (``NO_XLA_TORCH_CALLS``: ``torch.nested.nested_tensor(...)``), or a call of a same-file
        function in ``cuda_only``."""
        f = c.func.value if isinstance(c.func, ast.Subscript) else c.func
        name = self.resolve(f) or ""
        if name.split(".", 1)[0] in CUDA_ONLY_PACKAGES or name in NO_XLA_TORCH_CALLS or self._cuda_array_call(c):
            return True
        for target in self._lookup(f):
            node = target.node
            if id(node) in cuda_only or not isinstance(node, ast.Lambda) and any(
                    (self.resolve(d.func if isinstance(d, ast.Call) else d) or "").split(".", 1)[0] == "triton"
                    for d in node.decorator_list):
                return True
        return False

    def cuda_bound(self, body: list[ast.stmt], cuda_only: set[int] | None = None) -> bool:
        """Running ``body`` reaches a CUDA-only call (``_cuda_call``) unless it returns first: a statement with
        one in its own expressions, an ``if`` both of whose branches are bound, or a ``try``/``with``/loop
        whose body is. Such code cannot run with XLA tensors: on XLA the project never takes it."""
        if not self.imports_cuda_only:
            return False
        cuda_only = self.cuda_only if cuda_only is None else cuda_only
        for s in body:
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if isinstance(s, ast.If):
                bound = bool(s.orelse) and self.cuda_bound(s.body, cuda_only) and self.cuda_bound(s.orelse, cuda_only)
            elif isinstance(s, (ast.Try, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While)):
                bound = self.cuda_bound(s.body, cuda_only)
            else:
                bound = any(isinstance(n, ast.Call) and self._cuda_call(n, cuda_only) for n in walk(s))
            if bound:
                return True
            if any(isinstance(n, ast.Return) for n in walk(s)):
                return False  # (a path that returns before the call: `if not use_flash: return sdpa(...)`)
        return False

    def _runtime_flags(self) -> frozenset[str]:
        """Names of the flags that select a runtime other than PyTorch (``NON_TORCH_RUNTIMES``): the test of an
        ``if`` is the flag (``onnx``, ``self.onnx``, or one of an ``or`` of them) and its branch imports or calls
        such a runtime (``elif onnx: import onnxruntime``). A branch the same flag selects elsewhere in the file
        (``elif self.onnx: im = im.cpu().numpy()``) feeds that runtime: torch_xla never runs it
        (:meth:`other_runtime`)."""
        def runtime(name: str | None, loads_model: bool) -> bool:
            # TensorFlow is also a logging library (tf.summary for TensorBoard): a runtime only where the
            # branch loads a model with it (tf.saved_model.load, tf.keras.models.load_model, tf.lite.Interpreter)
            return name is not None and any(name == p or name.startswith(p + ".") for p in NON_TORCH_RUNTIMES) \
                and (loads_model or name.split(".", 1)[0] not in ("tensorflow", "tf"))

        out: set[str] = set()
        for n in walk(self.tree):
            if not isinstance(n, ast.If) or not (flags := _flag_names(n.test)):
                continue
            nodes = [x for st in n.body for x in walk(st)]
            loads = any(isinstance(x, ast.Attribute) and x.attr in _TF_MODEL_LOADERS for x in nodes)
            if any(isinstance(x, ast.Import) and any(runtime(a.name, loads) for a in x.names)
                   or isinstance(x, ast.ImportFrom) and not x.level and runtime(x.module, loads)
                   or isinstance(x, ast.Call) and runtime(self.resolve(x.func), loads) for x in nodes):
                out.update(flags)
        return frozenset(out)

    def other_runtime(self, test: ast.expr) -> bool:
        """``test`` is a flag that selects a runtime other than PyTorch (:meth:`_runtime_flags`), or holds only
        where another accelerator's PyTorch backend is installed (:meth:`other_backend`)."""
        flags = _flag_names(test)
        return bool(flags) and all(f in self.runtime_flags for f in flags) or self.other_backend(test)

    def other_backend(self, test: ast.expr) -> bool:
        """``test`` is true only where another accelerator's backend (``OTHER_TORCH_BACKENDS``) was imported:
        ``torch_npu``, ``torch_npu is not None``, or an ``and`` with one such part (Open-Sora-Plan's
        ``if torch_npu is not None and npu_config is not None:`` Ascend path)."""
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
            return any(self.other_backend(v) for v in test.values)
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.IsNot) \
                and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None:
            test = test.left
        if not isinstance(test, (ast.Name, ast.Attribute)):
            return False
        name = self.resolve(test) or ""
        return name.split(".", 1)[0] in OTHER_TORCH_BACKENDS

    def _unused_class_functions(self) -> set[int]:
        """Ids of the functions inside this module's classes that nothing in the project names
        (``facts.unused_classes``, analysis.project.unused_classes): none of them runs, in a step or anywhere."""
        spans = [(s.lineno, s.end_lineno or s.lineno) for s in self.tree.body  # (or a function: a script's)
                 if isinstance(s, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                 and s.name in self.facts.unused_classes]
        # (a method nothing names: "Class.method", with what is nested in it)
        spans += [(f.lineno, f.end_lineno or f.lineno) for c in self.tree.body if isinstance(c, ast.ClassDef)
                  for f in c.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and f"{c.name}.{f.name}" in self.facts.unused_classes]
        return {id(f.node) for f in self.facts.functions
                if any(a <= getattr(f.node, "lineno", 0) <= b for a, b in spans)} if spans else set()

    def _cuda_only_functions(self) -> set[int]:
        """ids of the file's functions whose body is ``cuda_bound`` (calling such a function is a CUDA-only
        call too, to a fixed point), and of the functions nested in them."""
        if not self.imports_cuda_only:
            return set()
        funcs = [f.node for f in self.facts.functions if isinstance(f.node, (ast.FunctionDef, ast.AsyncFunctionDef))]
        found: set[int] = set()

        def more() -> bool:
            new = {id(f) for f in funcs if id(f) not in found and self.cuda_bound(f.body, found)}
            found.update(new)
            return bool(new)

        settle(more)
        return found | {id(n) for f in funcs if id(f) in found for n in walk(f) if n is not f
                        and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))}

    def find_steps(self) -> None:
        out = self.out
        self.device_loaders = self._device_loader_names()
        steps: list[Step] = []
        funcs = [f for f in self.facts.functions if not isinstance(f.node, ast.Lambda)]
        owners: list[tuple[ast.AST, list[ast.stmt]]] = [(self.tree, self.tree.body)] + [(f.node, f.node.body) for f in funcs]  # type: ignore[misc, assignment]
        accelerate_tpu = self._names_xla_distributed_type()
        self._lazy_inits()
        for owner, body in owners:
            if id(owner) in self.never_runs:
                continue
            creates_device = any(self.resolve(c.func) in XLA_DEVICE_CALLS for c in _own_calls(body))
            loaders = self.device_loaders.get(id(owner), set()) | self.device_loaders.get(id(self.tree), set())
            # the innermost loop that qualifies is the step: an epoch loop around it is not
            found = [(loop, why) for loop in _all_loops(body)
                     if (why := self._loop_step(loop, creates_device, accelerate_tpu, loaders))]
            for loop, why in found:
                if any(other is not loop and _contains(loop, other) for other, _ in found):
                    continue
                steps.append(Step(loop, why, owner, loop))
                out.loops.append((loop, owner, why))
            for w in _own_withs(body):
                for item in w.items:
                    e = item.context_expr
                    if isinstance(e, ast.Call) and self.resolve(e.func) == "torch_xla.step":
                        steps.append(Step(w, "inside `with torch_xla.step()`", owner))
        for f in funcs:
            why = self._function_step(f) if id(f.node) not in self.cuda_only and id(f.node) not in self.never_runs \
                else ""
            if why:
                steps.append(Step(f.node, why, f.node))
                if why.startswith("decorated with @") and why.endswith("(torch code declared to run on XLA)") \
                        and not isinstance(f.node, ast.Lambda):
                    self._phases(f.node)
        for call in _calls_in(self.tree):
            name = self.resolve(call.func)
            if call.args and (name == "torch_xla.compile" or name == "torch.compile" and _openxla(call)):
                how = _compile_options(call) if name == "torch.compile" else ""
                for f in self._lookup(call.args[0]) or self._forward_of_instance(call.args[0], call):
                    if id(f.node) not in self.never_runs:
                        steps.append(Step(f.node, f"passed to {name}{how}", f.node))
        # a step function that holds a training loop of its own (a whole pass over a loader, each iteration
        # cut by a sync: `torch_xla.compile(train_loop_fn)` over `for i, data in enumerate(loader)`) runs the
        # statements before and after that loop once per call (per epoch or data shard), not per step
        holding = {id(owner) for _, owner, _ in out.loops}
        for s in steps:
            if isinstance(s.node, (ast.FunctionDef, ast.AsyncFunctionDef)) and id(s.node) in holding \
                    and id(s.node) not in self._phased:
                self._phases(s.node)
        # callees of step code, transitively (same file)
        seen = {id(s.node) for s in steps if not isinstance(s.node, (ast.For, ast.While, ast.With))}
        roots = set(seen)
        # id(callee) -> (calling step, call under every-n-th, call in a set-up phase, call outside the caller's loops)
        sites: dict[int, list[tuple[Step, bool, bool, bool]]] = {}
        looped: dict[int, set[int]] = {}  # id(function) -> ids of the calls inside its loops and nested functions
        lazy_sites: dict[int, list[tuple[Step, bool]]] = {}  # id(callee) -> (calling step, call in a lazy init)
        work = list(steps)
        while work:
            s = work.pop()
            every_n = _every_n_calls(s.node) | self.output_calls
            for call in _calls_in(s.node):
                callees = self._lookup(call.func)
                if not callees:
                    callees = self._super_method(call.func, s.node)
                if not callees and isinstance(call.func, ast.Name):
                    # step = make_step(model, opt) before the loop, step(x, y) in it
                    callees = self._returned_closure(call.func.id, s.owner if s.loop is not None else s.node)
                if not callees and isinstance(call.func, ast.Name) and (call.func.id in self.module_names
                                                                      or call.func.id in _MODEL_NAMES):
                    root = self.root_forward()  # model(x): the forward of the file's model runs in the step
                    callees = [root] if root is not None and not isinstance(root.node, ast.Lambda) else []
                for f in callees:
                    if f.node is not s.node:
                        if id(s.node) not in looped:  # (a nested function may run any number of times too)
                            looped[id(s.node)] = {id(c) for part in _all_loops(getattr(s.node, "body", [])) + [
                                d for d in walk(s.node) if d is not s.node
                                and isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
                                for c in _calls_in(part)}
                        once = id(call) not in looped[id(s.node)]
                        sites.setdefault(id(f.node), []).append((s, id(call) in every_n, id(call) in self.setup_calls,
                                                                 once))
                        lazy_sites.setdefault(id(f.node), []).append((s, id(call) in self.lazy_calls))
                    if id(f.node) not in seen and f.node is not s.node and id(f.node) not in self.cuda_only \
                            and id(f.node) not in self.never_runs:
                        seen.add(id(f.node))
                        new = Step(f.node, called_from_step(s.why), f.node)
                        steps.append(new)
                        work.append(new)
            # code that runs inside this step's calls without a call here: the forwards of the same-file
            # modules this module holds (in ``nn.Sequential``/``nn.ModuleList`` too), the hooks registered
            # on its layers
            for f, how in self._runs_inside(s.node, s.owner if s.loop is not None else None):
                if id(f.node) not in seen and f.node is not s.node and id(f.node) not in self.never_runs:
                    seen.add(id(f.node))
                    new = Step(f.node, called_from_step(s.why, how), f.node)
                    steps.append(new)
                    work.append(new)
        # callees reached only through every-n-th-step calls (or from such callees), to a fixed point
        # (and callees reached only from set-up phases, or from such callees, the same way; a call in a loop
        # there runs more than once per call, so its callee is no set-up)
        entries = self._once_per_process()
        for s in steps:
            s.periodic = s.setup = id(s.node) not in roots and id(s.node) in sites
            s.setup = s.setup or id(s.node) in entries

        def lower() -> bool:  # the flags only fall, so this settles
            changed = False
            for s in steps:
                if s.periodic and not all(site or caller.periodic for caller, site, _, _ in sites[id(s.node)]):
                    s.periodic = False
                    changed = True
                if s.setup and id(s.node) not in entries and not all(
                        one and (at_setup or caller.setup) for caller, _, at_setup, one in sites[id(s.node)]):
                    s.setup = False
                    changed = True
            return changed

        settle(lower)
        # callees reached only from lazy inits (or from such callees) run once per object: all of them,
        # loops included, is set-up
        lazy = {id(s.node) for s in steps if id(s.node) not in roots and id(s.node) in lazy_sites}

        def shrink() -> bool:
            gone = {k for k in lazy if not all(at or id(caller.node) in lazy for caller, at in lazy_sites[k])}
            lazy.difference_update(gone)
            return bool(gone)

        settle(shrink)
        for s in steps:
            if id(s.node) in lazy:
                out.setup.update(id(x) for x in walk(s.node) if isinstance(x, ast.stmt))
        out.steps = steps
        out.trains = any(_trains(s.node, self) for s in steps)
        # (torch code declared to run on XLA: a backward pass anywhere in the file runs there too, such as a
        # function that calls the model and ``loss.backward()`` and leaves the optimizer to its caller)
        scopes: list[ast.AST] = [self.tree] if out.declared else [s.node for s in steps]
        out.backward = out.trains or any(runs_backward(c, self.resolve) for n in scopes for c in _calls_in(n))

    def built_class(self, recv: ast.expr) -> str:
        """The class the file builds ``recv`` (a name or ``self.<attr>``) from at every assignment
        (:func:`built_from`); "" when none or several."""
        key = ast.unparse(recv)
        if key not in self._built:
            self._built[key] = built_from(self.tree, recv, self.resolve) or ""
        return self._built[key]

    def optimizer_built(self, recv: ast.expr) -> bool:
        """``recv`` is built from a ``torch.optim`` optimizer class (``solver = torch.optim.SGD(...)``;
        learning-rate schedulers are not)."""
        name = self.built_class(recv)
        return name.startswith("torch.optim.") and name.rsplit(".", 1)[-1][:1].isupper() \
            and not name.startswith(("torch.optim.lr_scheduler.", "torch.optim.swa_utils."))

    def loss_built(self, recv: ast.expr) -> bool:
        """``recv`` is built from a ``torch.nn`` loss module (xlacheck/data/torch_module.json ``losses``:
        ``self.criterion = nn.CrossEntropyLoss()``), whose call returns one tensor."""
        return (isinstance(recv, ast.Name) or _self_attr(recv)) and self.built_class(recv) in loss_modules()

    def pass_params(self, fn: ast.AST, proven: dict[str, int]) -> None:
        """What one more call passes ``fn``'s parameters: a parameter keeps a flag every call passes."""
        old = self.param_flags.get(id(fn))
        self.param_flags[id(fn)] = proven if old is None else {k: old[k] & v for k, v in proven.items() if k in old}

    def _class_forward(self, name: str) -> list[FunctionInfo]:
        return [m for c in self.facts.classes if c.node.name == name and name in self.module_classes
                for n, m in c.methods.items() if n == "forward" and not isinstance(m.node, ast.Lambda)][:1]

    def _built_classes(self, v: ast.AST) -> list[str]:
        """Same-file nn.Module classes a value builds anywhere inside it (``Block()``, ``nn.Sequential(...,
        Probe(), ...)``, ``nn.ModuleList([Block() for _ in range(n)])``, ``Net().to(device)``)."""
        return [n.func.id for n in walk(v) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                and n.func.id in self.module_classes]

    def _forward_of_instance(self, e: ast.expr, site: ast.AST) -> list[FunctionInfo]:
        """``torch.compile(model, ...)``: the forward of the same-file module class every assignment of
        ``model`` in the enclosing function builds (``model = Net().to(device)``)."""
        if not isinstance(e, ast.Name):
            return []
        owner = next((f.node for f in self.facts.functions if not isinstance(f.node, ast.Lambda)
                      and _contains(f.node, site) and not any(
                          g is not f and not isinstance(g.node, ast.Lambda) and _contains(f.node, g.node)
                          and _contains(g.node, site) for g in self.facts.functions)), self.tree)
        built = [self._built_classes(a.value) for a in walk(owner) if isinstance(a, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == e.id for t in a.targets)]
        names = {n for b in built for n in b}
        if not built or any(not b for b in built) or len(names) != 1:
            return []
        return self._class_forward(names.pop())

    def _super_method(self, f: ast.expr, caller: ast.AST) -> list[FunctionInfo]:
        """``super().forward(x)`` in a method of a same-file class: the method of its same-file base class."""
        if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Call) and isinstance(f.value.func, ast.Name)
                and f.value.func.id == "super"):
            return []
        info = self.facts.by_node.get(id(caller))
        if info is None or info.cls is None:
            return []
        return [m for c in self.facts.classes if c.node.name in info.cls.bases
                for n, m in c.methods.items() if n == f.attr and not isinstance(m.node, ast.Lambda)][:1]

    def _returned_closure(self, name: str, owner: ast.AST | None) -> list[FunctionInfo]:
        """``step = make_step(model, opt)`` in ``owner``, then ``step(x, y)``: the function nested in the
        same-file factory that the factory returns by name (every assignment of ``step`` there calls it);
        ``step = functools.partial(train_step, model, opt)``: ``train_step``."""
        values = [a.value for a in own_statements(getattr(owner, "body", [])) if isinstance(a, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == name for t in a.targets)]
        values += [a.value for loop in _all_loops(getattr(owner, "body", [])) for a in own_statements(loop.body)
                   if isinstance(a, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in a.targets)]
        if len(values) != 1 or not isinstance(values[0], ast.Call):
            return []
        if self.resolve(values[0].func) == "functools.partial" and values[0].args:
            return [f for f in self._lookup(values[0].args[0]) if not isinstance(f.node, ast.Lambda)]
        out: list[FunctionInfo] = []
        for factory in self._lookup(values[0].func):
            node = factory.node
            if isinstance(node, ast.Lambda):
                continue
            returned = {r.value.id for r in own_statements(node.body) if isinstance(r, ast.Return)
                        and isinstance(r.value, ast.Name)}
            out += [f for f in self.facts.functions if f.parent is factory and f.name in returned
                    and not isinstance(f.node, ast.Lambda)]
        return out[:1]

    def _runs_inside(self, node: ast.AST, loop_owner: ast.AST | None = None) -> list[tuple[FunctionInfo, str]]:
        """Functions a step runs without calling them by name: in a method of a same-file nn.Module, the
        ``forward`` of each same-file module that an attribute it reads (``self.block``, ``self.body``)
        holds; the hooks registered on modules (``register_forward_hook(fn)``) in the step, in the function
        that holds a step loop, or, for a ``forward``, in its class."""
        info = self.facts.by_node.get(id(node))
        out: list[tuple[FunctionInfo, str]] = []
        cls = info.cls if info is not None else None
        if cls is not None and cls.node.name in self.module_classes:
            read = {n.attr for n in walk(node) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load)
                    and isinstance(n.value, ast.Name) and n.value.id == "self"}
            for attr in sorted(read & set(cls.attrs)):
                for name in dict.fromkeys(self._built_classes(cls.attrs[attr])):
                    if name != cls.node.name:
                        out += [(f, f" as the forward of self.{attr}") for f in self._class_forward(name)]
        places: list[ast.AST] = [node]
        if isinstance(loop_owner, (ast.FunctionDef, ast.AsyncFunctionDef)):
            places.append(loop_owner)  # (set-up before a step loop: ``model.fc.register_forward_hook(save)``)
        if cls is not None and cls.node.name in self.module_classes and info is not None and info.name == "forward":
            places += [m.node for m in cls.methods.values() if m.node is not node]
        for place in places:
            for c in _calls_in(place):
                if isinstance(c.func, ast.Attribute) and c.func.attr in _HOOK_REGISTRATIONS and c.args:
                    for f in self._lookup(c.args[0]):
                        if not isinstance(f.node, ast.Lambda):
                            self.param_flags.setdefault(id(f.node), _hook_params(f.node, c.func.attr))
                            out.append((f, f" as a hook registered by {c.func.attr}"))
        return out

    def _once_per_process(self) -> set[int]:
        """Module-level functions of a script that run once per process (ids of their nodes): the
        ``if __name__ == "__main__":`` block calls them outside any loop, or such a function does, and
        nothing else in the file names them (no other call, never handed on as a value). A host read
        in their straight-line code reads a result once (a parity check, a conversion, a report), not
        in every step; the bodies of their loops still run per iteration."""
        mains = [st for st in self.tree.body if is_main_guard(st)]
        if not mains:
            return set()
        funcs = {f.name: f.node for f in self.facts.functions if f.parent is None and f.cls is None
                 and isinstance(f.node, (ast.FunctionDef, ast.AsyncFunctionDef))}
        if not funcs:
            return set()

        def straight(body: list[ast.stmt]) -> Iterator[ast.Call]:
            """Calls that ``body`` makes once per run of it: outside loops, comprehensions and nested
            functions and classes."""
            todo: list[ast.AST] = list(body)
            while todo:
                n = todo.pop()
                if isinstance(n, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef,
                                  ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
                                  ast.GeneratorExp)):
                    continue
                if isinstance(n, ast.Call):
                    yield n
                todo.extend(ast.iter_child_nodes(n))

        uses: dict[str, int] = {}  # name -> how many times the file names it (calls and values)
        for n in walk(self.tree):
            if isinstance(n, ast.Name) and n.id in funcs:
                uses[n.id] = uses.get(n.id, 0) + 1
        once_calls: dict[str, int] = {}  # name -> its calls in once-per-process code

        def count(body: list[ast.stmt]) -> None:
            for c in straight(body):
                if isinstance(c.func, ast.Name) and c.func.id in funcs:
                    once_calls[c.func.id] = once_calls.get(c.func.id, 0) + 1

        for st in mains:
            count(st.body)
        once: set[str] = set()
        while True:
            new = {name for name, k in once_calls.items() if name not in once and k == uses.get(name)}
            if not new:
                break
            for name in new:
                once.add(name)
                count(funcs[name].body)
        return {id(funcs[name]) for name in once}

    def _class_of(self, node: ast.AST) -> ast.ClassDef | None:
        """The class whose method ``node`` is (None for a function outside any class)."""
        return next((c.node for c in self.facts.classes if any(st is node for st in c.node.body)), None)

    def _lazy_inits(self) -> None:
        """A value computed once and kept on ``self``: ``if self.x is None: ... self.x = ...`` runs on the
        first call only (a RoPE table, normalisation statistics built on first use), so its statements are
        set-up (``out.setup``) and so are the functions only it calls (``lazy_calls``), loops included. So is
        ``if not self.done: ...`` whose branch sets ``self.done = True`` (itself or in a method of the class
        that it calls: FID statistics of the real data, computed on the first evaluation). So is a cache
        rebuilt only when it is too small or its size no longer matches a static size (:func:`_cache_size_test`:
        a RoPE table that doubles when a longer position first comes, a buffer re-allocated when the batch
        size changes): a few sizes, each once, not a new one at every step. Not where the
        class resets ``self.x`` (to ``None``; ``self.done`` to ``False``) outside ``__init__`` (a cache rebuilt
        on demand)."""
        for cls in self.facts.classes:
            reset = {(t.attr, n.value.value) for m in cls.node.body
                     if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name != "__init__"
                     for n in walk(m) if isinstance(n, ast.Assign)
                     and isinstance(n.value, ast.Constant) and n.value.value in (None, False)
                     for t in n.targets if isinstance(t, ast.Attribute) and _self_attr(t)}
            methods = [m for m in cls.node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
            for n in walk(cls.node):
                if not isinstance(n, ast.If):
                    continue
                t = n.test
                grown = _cache_size_test(t, next((m for m in methods if _contains(m, n)), None),
                                         constructor_numbers(cls.node))
                if n.orelse and grown is None:
                    continue  # (with an elif/else, only a size test: its body is still the rebuild, once a size)
                if grown is not None:
                    attr, done = grown, None
                elif isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], ast.Is) \
                        and isinstance(t.comparators[0], ast.Constant) and t.comparators[0].value is None \
                        and _self_attr(t.left):
                    attr, done = t.left.attr, None  # type: ignore[attr-defined]
                elif isinstance(t, ast.UnaryOp) and isinstance(t.op, ast.Not) and _self_attr(t.operand):
                    attr, done = t.operand.attr, True  # type: ignore[attr-defined]
                elif (memo := _memo_test(t)) is not None:
                    # `if key not in self.cache: ... self.cache[key] = ...`: once per key (a RoPE table per
                    # sequence length, positions per (b, t, h, w)), where no method empties or rebinds the cache
                    changed: list[ast.expr] = []
                    for m in methods:
                        for a in walk(m) if m.name != "__init__" else ():
                            if isinstance(a, ast.Assign):
                                changed += a.targets
                            elif isinstance(a, ast.Call) and isinstance(a.func, ast.Attribute) \
                                    and a.func.attr in ("clear", "pop", "popitem"):
                                changed.append(a.func.value)
                    if any(isinstance(x, ast.Attribute) and _self_attr(x) and x.attr == memo for x in changed):
                        continue
                    if any(isinstance(x, ast.Subscript) and isinstance(x.ctx, ast.Store)
                           and isinstance(x.value, ast.Attribute) and _self_attr(x.value) and x.value.attr == memo
                           for st in n.body for x in walk(st)):
                        for st in n.body:
                            self.out.setup.update(id(x) for x in walk(st) if isinstance(x, ast.stmt))
                            self.out.cached.update(id(x) for x in walk(st) if isinstance(x, ast.stmt))
                            self.lazy_calls.update(id(call) for call in _calls_in(st))
                    continue
                else:
                    continue
                if (attr, None if done is None else False) in reset:
                    continue
                # the branch, and the methods of the class it calls, one level down (a loader method)
                scopes: list[ast.AST] = list(n.body) + [f.node for st in n.body for c in _calls_in(st)
                                                        if isinstance(c.func, ast.Attribute) and _self_attr(c.func)
                                                        for f in self._lookup(c.func)]
                if not any(isinstance(tt, ast.Attribute) and _self_attr(tt) and tt.attr == attr and (
                        done is None or isinstance(a.value, ast.Constant) and a.value.value is done)
                           for st in scopes for a in walk(st) if isinstance(a, (ast.Assign, ast.AnnAssign))
                           for tt in (a.targets if isinstance(a, ast.Assign) else [a.target])) and not (
                        done is None and any(_registers(c, attr) for st in scopes for c in _calls_in(st))):
                    continue
                for st in n.body:
                    self.out.setup.update(id(x) for x in walk(st) if isinstance(x, ast.stmt))
                    self.out.cached.update(id(x) for x in walk(st) if isinstance(x, ast.stmt))
                    self.lazy_calls.update(id(call) for call in _calls_in(st))

    def _phases(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """A declared @torch.no_grad()/inference_mode() function whose work runs in loops (a decode or
        denoising loop, an evaluation over a loader: loops that call torch, a module or a method of
        ``self`` such as a pipeline's ``self.unet``), or a step function that holds a training loop
        (:meth:`find_steps`), runs the statements before its first
        such loop (set-up: buffers, input checks) and after its last (reading the output) once per
        call, not once per iteration: ``out.setup`` holds the first (and their nested
        statements; the output phase joins ``out.periodic``, as a read there is no read in every step,
        and so do the functions only it calls)."""
        body = node.body

        def works(loop: ast.For | ast.While) -> bool:
            # (a model handed in runs the work too: `model(x, sigma)` in k-diffusion's samplers, `model.decode(z)`
            # in a micro-batch decode loop; the names the step model already takes for a model)
            return any(loop is step for step, _, _ in self.out.loops) or _uses_torch(loop, self) or any(
                _rooted_at_self(c.func)
                or isinstance(c.func, ast.Name) and (c.func.id in self.module_names or c.func.id in _MODEL_NAMES)
                or isinstance(c.func, ast.Attribute) and isinstance(c.func.value, ast.Name)
                and c.func.value.id in _MODEL_NAMES for c in _calls_in(loop))
        loops = [loop for loop in _own_loops(body) if works(loop)]
        # the work may also run in a method the function hands it to, once per call (transformers' generate
        # calls `decoding_method(self, ...)`, `getattr(type(self), ...)`: one of the class's decode loops)
        methods = [m for m in walk(owner_node) if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                   and m is not node] if (owner_node := self._class_of(node)) is not None else []
        # (a decode loop runs the model: a call of `self(...)` or of a method or module of `self` in the loop;
        # a loop of torch ops alone over a dict of inputs is no such work)
        looping = [m for m in methods if any(any(_rooted_at_self(c.func) for c in _calls_in(loop))
                                             for loop in _own_loops(m.body))]
        dynamic = _dynamic_self_methods(node, {m.name for m in looping})
        calls = [c for c in _calls_in(node) if looping and (
            isinstance(c.func, ast.Name) and c.func.id in dynamic
            or _rooted_at_self(c.func) and isinstance(c.func, ast.Attribute)
            and any(m.name == c.func.attr for m in looping))]
        if not loops and not calls:
            return
        tops = [i for i, st in enumerate(body) if any(st is loop or _contains(st, loop) for loop in loops)
                or any(_contains(st, c) for c in calls)]
        # the method the work is handed to runs once per call as well: its statements before its own loop
        # are this call's set-up too (fairseq's generate -> self._generate, whose loop decodes); only where
        # no method of the class calls it from a loop (fairseq's finalize_hypos runs at every decode step)
        self._phased.add(id(node))
        looped = {id(c) for m in [node, *methods] for loop in _all_loops(m.body) for c in _calls_in(loop)}
        for m in looping:
            sites = [c for c in _calls_in(owner_node or node) if isinstance(c.func, ast.Attribute)
                     and isinstance(c.func.value, ast.Name) and c.func.value.id == "self" and c.func.attr == m.name]
            if id(m) not in self._phased and not any(id(c) in looped for c in sites) and any(
                    isinstance(c.func, ast.Name) and c.func.id in dynamic or c in sites for c in calls):
                self._phases(m)
        for st in body[:tops[0]]:
            self.out.setup.update(id(n) for n in walk(st) if isinstance(n, ast.stmt))
            self.setup_calls.update(id(call) for call in _calls_in(st))
        for st in _after_last(body, tops[-1], loops):
            if isinstance(st, ast.Expr):
                continue  # print(x.mean()), log(...): a read only to show it, deferrable, stays a read
            self.out.periodic.update(id(n) for n in walk(st) if isinstance(n, ast.stmt) and not isinstance(n, ast.Expr))
            self.output_calls.update(id(call) for n in walk(st)
                                     if isinstance(n, ast.stmt) and not isinstance(n, ast.Expr)
                                     for part in ast.iter_child_nodes(n) if isinstance(part, ast.expr)
                                     for call in _calls_in(part))

    def _names_xla_distributed_type(self) -> bool:
        for n in walk(self.tree):
            if isinstance(n, ast.Attribute) and n.attr in ("XLA", "TPU") and isinstance(n.value, (ast.Name, ast.Attribute)):
                base = self.resolve(n.value) or ""
                if base.endswith("DistributedType"):
                    return True
        return False

    def _loop_step(self, loop: ast.For | ast.While, creates_device: bool, accelerate_tpu: bool,
                   loaders: set[str] = frozenset()) -> str:  # type: ignore[assignment]
        if accelerate_tpu and any(isinstance(c.func, ast.Attribute) and c.func.attr == "backward"
                                  and isinstance(c.func.value, ast.Name) and "accelerator" in c.func.value.id
                                  for c in _calls_in(loop)):
            # (a file that names accelerate's XLA distributed type need not import torch_xla itself)
            return "an accelerate training loop (XLA distributed type)"
        if not (self.out.xla_file or self.out.declared):
            return ""
        if isinstance(loop, ast.For) and self.out.xla_file:
            it = loop.iter
            while isinstance(it, ast.Call) and it.args and (
                    isinstance(it.func, ast.Name) and it.func.id in ("enumerate", "iter")
                    or self.resolve(it.func) in ("itertools.islice", "enumerate")):
                it = it.args[0]
            text = it.id if isinstance(it, ast.Name) else ("self." + it.attr if isinstance(it, ast.Attribute)
                                                            and isinstance(it.value, ast.Name) and it.value.id == "self" else "")
            if text and text in loaders:
                return "iterates an MpDeviceLoader"
        if isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call):
            it = loop.iter
            name = self.resolve(it.func)
            if name in DEVICE_LOADERS or (isinstance(it.func, ast.Attribute) and it.func.attr == "per_device_loader"):
                return "iterates an MpDeviceLoader"
            if name == "enumerate" or (isinstance(it.func, ast.Name) and it.func.id == "enumerate"):
                if it.args and isinstance(it.args[0], ast.Call) and (
                        self.resolve(it.args[0].func) in DEVICE_LOADERS
                        or isinstance(it.args[0].func, ast.Attribute) and it.args[0].func.attr == "per_device_loader"):
                    return "iterates an MpDeviceLoader"
        syncs = [c for c in _calls_in(loop) if self.resolve(c.func) in SYNC_CALLS]
        if syncs and self.out.xla_file:
            return "a loop that calls " + (self.resolve(syncs[0].func) or "").replace("torch_xla.core.xla_model.", "xm.")
        if _trains(loop, self) and (creates_device and self.out.xla_file or self.out.declared):
            return "a training loop on the XLA device"
        return ""

    def _function_step(self, f: FunctionInfo) -> str:
        node = f.node
        assert not isinstance(node, ast.Lambda)
        for dec in node.decorator_list:
            target = dec.func if isinstance(dec, ast.Call) else dec
            name = self.resolve(target)
            if name == "torch_xla.compile":
                return "decorated with @torch_xla.compile"
            if name == "torch.compile" and isinstance(dec, ast.Call) and _openxla(dec):
                return f"decorated with torch.compile{_compile_options(dec)}"
            if self.out.declared and name in _STEP_DECORATORS and _uses_torch(node, self) and (
                    name not in _NO_GRAD or not self.weight_set_up(f)):
                return f"decorated with @{name} (torch code declared to run on XLA)"
        if not self.out.declared:
            return ""
        if _trains(node, self, own=True) and not any(_trains(loop, self) for loop in _own_loops(node.body)):
            # (a function whose loop trains is not one step: the loop body is, see _loop_step)
            return "a training step (backward and optimizer step; torch code declared to run on XLA)"
        if _split_step(f, self) and not any(_trains(loop, self) for loop in _own_loops(node.body)):
            return ("a training step (optimizer step after a method that runs the backward; torch code declared "
                    "to run on XLA)")
        if f.cls is not None and f.name == "forward" and f.cls.node.name in self.module_classes:
            return f"{f.cls.node.name}.forward (torch code declared to run on XLA)"
        if f.cls is not None and f.cls.node.name in self.trainer_classes and f.name in _trainer_batch_methods():
            return (f"{f.cls.node.name}.{f.name} (transformers' Trainer calls it once per batch; torch code "
                    "declared to run on XLA)")
        return ""

    def weight_set_up(self, f: FunctionInfo) -> bool:
        """A declared ``@torch.no_grad()`` function that is set-up work on a model's weights, not an inference
        step of its own: it runs no model (:meth:`runs_a_model`), it works on weights (:func:`_handles_weights`:
        merge a LoRA delta into a layer, extract a rank from a weight's SVD, quantize or copy a state dict),
        and it is no optimizer's step (a method of a ``torch.optim`` optimizer class, or one that reads
        ``self.param_groups``: it updates the weights at every step). Such a function is step code only where
        step code calls it. Post-processing of outputs and a metric's update work on data, not weights: they
        stay steps."""
        node = f.node
        assert not isinstance(node, ast.Lambda)
        if self.runs_a_model(node) or not _handles_weights(node):
            return False
        if f.cls is not None and any(b.startswith("torch.optim.") or b.endswith("Optimizer") for b in f.cls.bases):
            return False
        return not any(isinstance(n, ast.Attribute) and n.attr == "param_groups" for n in walk(node))

    def runs_a_model(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """The function runs a model's forward, itself or through same-file functions it calls: ``self(...)``,
        a module call (:meth:`_is_module_call`), ``x.forward(...)``/``x.generate(...)``, a callable stored on
        ``self`` called with inputs (``self.unet(x)``: not a method of the file's classes), a method of a model
        other than its bookkeeping (``vae.decode(z)``, ``self.vae.encode(x)``)."""
        cache = self._runs_model_cache
        if id(node) in cache:
            return cache[id(node)]
        cache[id(node)] = False  # (recursion: a cycle proves nothing)
        methods = {m for c in self.facts.classes for m in c.methods}
        # a model handed in and called with inputs (``sample(denoiser, z)``: ``denoiser(z, t)``)
        params = _param_names(node) - {"self", "cls"}
        found = False
        for c in _calls_in(node):
            f = c.func
            if isinstance(f, ast.Name) and (f.id == "self" or f.id in params and bool(c.args or c.keywords)) \
                    or self._is_module_call(f):
                found = True
            elif isinstance(f, ast.Attribute):
                recv = f.value
                if f.attr in _FORWARD_METHODS:
                    found = True
                elif _self_attr(f):
                    # (with inputs: ``self.network_ref()`` dereferences a weak reference)
                    found = f.attr not in methods and bool(c.args or c.keywords)
                elif isinstance(recv, ast.Name) and (recv.id in self.module_names or recv.id in _MODEL_NAMES):
                    found = f.attr not in _NOT_A_FORWARD and f.attr not in _MODULE_USE_METHODS  # vae.decode(z)
                elif _self_attr(recv) and f.attr not in _NOT_A_FORWARD and f.attr not in tensor_methods() \
                        and f.attr not in _SHARED_METHOD_NAMES and f.attr not in _MODULE_USE_METHODS:
                    found = True  # self.vae.encode(x) (not self.diff.any(): a tensor's method)
            if not found:
                found = any(not isinstance(g.node, ast.Lambda) and g.node is not node and self.runs_a_model(g.node)
                            for g in self._lookup(f))
            if found:
                break
        cache[id(node)] = found
        return found

    def _lookup(self, ref: ast.expr) -> list[FunctionInfo]:
        facts = self.facts
        if isinstance(ref, ast.Name):
            hits = [f for f in facts.functions if f.name == ref.id and not isinstance(f.node, ast.Lambda)]
            return hits[:1] if len(hits) == 1 else [h for h in hits if h.parent is None and h.cls is None][:1]
        if isinstance(ref, ast.Attribute) and isinstance(ref.value, ast.Name) and ref.value.id == "self":
            hits = [f for f in facts.functions if f.name == ref.attr and f.cls is not None]
            return hits[:1] if len(hits) == 1 else []
        if isinstance(ref, ast.Attribute) and isinstance(ref.value, ast.Name):
            cls = self._instances().get(ref.value.id)  # tracker.on_batch_end(...): a same-file class's method
            if cls is None and ref.attr not in _COMMON_METHODS and ref.attr not in tensor_methods():
                # scheduler.scale_model_input(x) on a parameter: the one same-file class with that method
                hits = [f for f in facts.functions if f.name == ref.attr and f.cls is not None]
                return hits if len(hits) == 1 else []
            return [f for f in facts.functions
                    if f.name == ref.attr and f.cls is not None and f.cls.node.name == cls][:1]
        return []

    def _instances(self) -> dict[str, str]:
        """Names every assignment of which in the file builds the same same-file class (``t = Tracker()``)."""
        if self._instance_cache is None:
            classes = {c.node.name for c in self.facts.classes}
            seen: dict[str, set[str]] = {}
            for n in walk(self.tree):
                if isinstance(n, ast.Assign):
                    for t in n.targets:
                        if isinstance(t, ast.Name):
                            v = n.value
                            built = v.func.id if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) else ""
                            seen.setdefault(t.id, set()).add(built if built in classes else "")
            self._instance_cache = {k: next(iter(v)) for k, v in seen.items() if len(v) == 1 and "" not in v}
        return self._instance_cache

    def _instance_state(self) -> None:
        """Per class, the ``self.<attr>`` values the whole class proves:

        * a device tensor: every assignment is a torch call given a device (``torch.zeros(..., device=d)``)
          or ends in ``.to(d)`` (``d`` not the string ``"cpu"``); a CPU-built schedule read in the step is
          not one (indexing it with a Python int costs nothing on the device);
        * a step counter: a Python int (every assignment an int constant or a plain name) that step
          code counts up or down (``self.step_index += 1``): a value that is new every step."""
        step_nodes = [s.node for s in self.out.steps]
        for c in self.facts.classes:
            # a class one of whose methods runs in the step: all its methods keep the step's state
            in_step = [m.node for m in c.methods.values()
                       if any(st is m.node or _contains(st, m.node) for st in step_nodes)]
            assigned: dict[str, list[ast.expr | None]] = {}
            counted: set[str] = set()
            for n in walk(c.node):
                if isinstance(n, ast.Assign):
                    for t in n.targets:
                        pairs = (zip(t.elts, n.value.elts) if isinstance(t, ast.Tuple) and isinstance(n.value, ast.Tuple)
                                 and len(t.elts) == len(n.value.elts) else [(t, n.value)])
                        for tt, vv in pairs:
                            if _self_attr(tt):
                                assigned.setdefault(tt.attr, []).append(vv)  # type: ignore[attr-defined]
                            elif isinstance(tt, ast.Tuple):
                                for x in tt.elts:
                                    if _self_attr(x):
                                        assigned.setdefault(x.attr, []).append(None)  # type: ignore[attr-defined]
                elif isinstance(n, ast.AugAssign) and _self_attr(n.target):
                    if isinstance(n.op, (ast.Add, ast.Sub)) and in_step and not any(
                            isinstance(x, ast.Call) and (self.resolve(x.func) or "").startswith("torch.")
                            for x in walk(n.value)):
                        counted.add(n.target.attr)  # type: ignore[union-attr]
                    else:
                        assigned.setdefault(n.target.attr, []).append(None)  # type: ignore[union-attr]
                elif isinstance(n, ast.AnnAssign) and _self_attr(n.target):
                    assigned.setdefault(n.target.attr, []).append(n.value)  # type: ignore[union-attr]
                elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                        and n.func.attr == "register_buffer" and _self_attr(n.func) and len(n.args) >= 2 \
                        and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str):
                    # self.register_buffer("steps", torch.tensor(0)) binds self.steps; a buffer built anywhere but
                    # on a device lives where its module is, and nothing here says where that is (audiolm's
                    # trainer module keeps its step counter in a buffer and is never moved)
                    v = n.args[1]
                    assigned.setdefault(n.args[0].value, []).append(v if self._on_device(v) else None)
            name = c.node.name
            self.device_attrs[name] = {a for a, vs in assigned.items() if a not in counted and vs
                                       and all(v is not None and (self._on_device(v) or self._self_update(v, a))
                                               for v in vs)
                                       and any(v is not None and self._on_device(v) for v in vs)}
            # one assignment, a CPU build (``self.drop_rate = torch.tensor(p)``): a plain attribute, neither a
            # parameter nor a buffer, so ``module.to(device)`` leaves it on the CPU
            self.cpu_attrs[name] = {a for a, vs in assigned.items() if a not in counted and len(vs) == 1
                                    and isinstance(vs[0], ast.Call) and self._cpu_build(vs[0])}
            self.counter_attrs[name] = {a for a in counted if assigned.get(a) and all(
                isinstance(v, ast.Name) or isinstance(v, ast.Constant) and type(v.value) is int for v in assigned[a])}
            # bound to a lambda and never to a call's result (a constructor): a Python function, no nn.Module, so
            # calling it returns no module output (NaViT's `self.calc_token_dropout = lambda h, w: p`, else the
            # callable the constructor was given or None; real-code batch 24)
            self.function_attrs[name] = {a for a, vs in assigned.items() if any(isinstance(v, ast.Lambda) for v in vs)
                                         and not any(isinstance(v, ast.Call) for v in vs)}

    def _self_update(self, v: ast.expr, attr: str) -> bool:
        """``v`` is computed from ``self.<attr>`` itself by torch tensor ops, with no way off its device: a
        tensor method that returns a tensor on the same device (``self.done.mul(m)``, ``self.ids[beam]``),
        arithmetic with it (``self.n + 1``), or a torch function handed it (``torch.cat([self.ids, tok], 1)``,
        ``torch.where(m, x, self.out)``). So an attribute built on a device and re-bound this way in the
        step stays on the device. Not ``.cpu()``/``.to()``/``.item()``-like methods (``NON_TENSOR_METHODS``),
        nor a tensor method the op table does not know."""
        def own(e: ast.expr) -> bool:
            return _self_attr(e) and e.attr == attr  # type: ignore[attr-defined]

        def derived(e: ast.expr, depth: int = 0) -> bool:
            if depth > 6:
                return False
            if own(e):
                return True
            if isinstance(e, ast.Subscript):
                return derived(e.value, depth + 1)
            if isinstance(e, ast.BinOp):
                return derived(e.left, depth + 1) or derived(e.right, depth + 1)
            if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.Invert)):
                return derived(e.operand, depth + 1)
            if not isinstance(e, ast.Call):
                return False
            f = e.func
            if isinstance(f, ast.Attribute) and derived(f.value, depth + 1):
                return f.attr in tensor_methods() and f.attr not in NON_TENSOR_METHODS \
                    and f.attr not in ("cpu", "to", "numpy", "tolist", "type", "pin_memory")
            if _builds_tensor(self.resolve(f)) and not any(k.arg == "device" for k in e.keywords):
                args = [x for a in e.args for x in (a.elts if isinstance(a, (ast.List, ast.Tuple)) else [a])]
                return any(derived(a, depth + 1) for a in args)
            return False
        return derived(v)

    def _cpu_build(self, c: ast.Call) -> bool:
        """``torch.tensor(v)`` without ``device=`` (``v`` not a tensor the code proves: unknown is not one), or a
        factory ``_built_on_cpu`` knows: a tensor on the CPU."""
        name = self.resolve(c.func) or ""
        if self.default_device:
            return False
        if name == "torch.tensor":
            return not any(k.arg in ("device", None) for k in c.keywords) or _built_on_cpu(name, c)
        return name.startswith("torch.") and _built_on_cpu(name, c)

    def _on_device(self, v: ast.expr) -> bool:
        """A torch tensor built on (or moved to) a device that is not spelled ``"cpu"``."""
        if not isinstance(v, ast.Call):
            return False
        f = v.func
        if isinstance(f, ast.Attribute) and f.attr == "to" and v.args:
            dev = v.args[0]
            if isinstance(dev, ast.Constant) or not any(
                    isinstance(x, ast.Call) and _builds_tensor(self.resolve(x.func)) for x in walk(f.value)):
                return False  # .to("cpu") / .to(torch.float32)-like constants, or a receiver not built by torch here
            return not (isinstance(dev, ast.Attribute) and dev.attr in ("float", "long", "int", "bool", "half",
                                                                        "bfloat16", "float32", "float16", "int64"))
        if _builds_tensor(self.resolve(f)):
            device = next((kw.value for kw in v.keywords if kw.arg == "device"), None)
            return device is not None and not (isinstance(device, ast.Constant)
                                               and (device.value is None or device.value == "cpu")
                                               or _names_cuda(device))
        return False

    # -- values ----------------------------------------------------------------------------
    def run(self) -> TorchFacts:
        self.find_steps()
        out = self.out
        if not out.steps:
            return out
        self._instance_state()
        regions: dict[int, list[Step]] = {}
        for s in out.steps:
            regions.setdefault(id(s.owner), []).append(s)
        owners = {id(self.tree): self.tree} | {id(f.node): f.node for f in self.facts.functions}
        # callers before callees, so parameters get what step callers pass: functions that hold a step
        # loop first, then step functions in the order find_steps reached them (roots, then callees)
        first: dict[int, int] = {}
        for i, s in enumerate(out.steps):
            first.setdefault(id(s.owner), i)
        depth = self._containment_depth()  # a module's forward after the forwards of the modules that hold it
        roots = {id(s.node) for s in out.steps if isinstance(s.node, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and self._argument_step(s.node)}  # (they hand their arguments to the model's forward)
        order = sorted(regions, key=lambda k: (getattr(owners[k], "lineno", 0) if not _is_step_function(regions[k])
                                               else 10**9 + (0 if k in roots else 10**8)
                                               + depth.get(k, 0) * 10**6 + first[k]))
        for key in order:
            owner = owners[key]
            ranges = regions[key]
            env = self._initial_env(owner)
            info = self.facts.by_node.get(key)
            _Walker(self, ranges, env, owner_class(info) if info is not None else None).run(owner)
        # methods that step code reached through an object of unknown type handed tensors
        # (``metric.update(preds, y)``): steps too, walked after their callers, with their own callees
        walked = {id(s.node) for s in out.steps}
        while self.late:
            f, why = self.late.pop(0)
            if id(f.node) in walked:
                continue
            todo = [(f, why)]
            while todo:
                g, g_why = todo.pop(0)
                if id(g.node) in walked or id(g.node) in self.never_runs:
                    continue
                walked.add(id(g.node))
                step = Step(g.node, g_why, g.node)
                out.steps.append(step)
                _Walker(self, [step], self._initial_env(g.node), owner_class(g)).run(g.node)
                todo += [(h, called_from_step(g_why)) for c in _calls_in(g.node) for h in self._lookup(c.func)
                         if not isinstance(h.node, ast.Lambda)]
        return out

    def loose_method(self, f: ast.expr) -> FunctionInfo | None:
        """``obj.update(...)`` on an object of unknown type: the method, when exactly one same-file
        class that is not an nn.Module defines it (the caller checks that tensors are passed: no
        dict, optimizer or container method takes a tensor there); ``obj(...)``: that class's
        ``__call__``."""
        if isinstance(f, ast.Name):
            # criteria(input_ids) on a name of unknown type: the one same-file callable class
            # (``__call__``) that is not an nn.Module (a stopping criterion, a logits processor)
            if any(fn.name == f.id for fn in self.facts.functions) or any(c.node.name == f.id for c in self.facts.classes):
                return None
            hits = [m for c in self.facts.classes if c.node.name not in self.module_classes
                    for name, m in c.methods.items() if name == "__call__"]
            return hits[0] if len(hits) == 1 else None
        if not isinstance(f, ast.Attribute) or not isinstance(f.value, (ast.Name, ast.Attribute)) or _self_attr(f):
            return None
        hits = [m for c in self.facts.classes if c.node.name not in self.module_classes
                for name, m in c.methods.items() if name == f.attr and not name.startswith("__")]
        return hits[0] if len(hits) == 1 else None

    def _containment_depth(self) -> dict[int, int]:
        """id(method node) -> how deep its nn.Module class sits in the same-file modules that build
        it (``self.b1 = GenBlock(...)`` in Generator: GenBlock's methods are one deeper)."""
        holders: dict[str, set[str]] = {}
        for c in self.facts.classes:
            for v in c.attrs.values():
                for name in self._built_classes(v):  # (in nn.Sequential/nn.ModuleList too)
                    if name != c.node.name:
                        holders.setdefault(name, set()).add(c.node.name)
        depth: dict[str, int] = {}

        def of(name: str, seen: frozenset[str]) -> int:
            if name not in depth:
                depth[name] = 1 + max((of(h, seen | {name}) for h in holders.get(name, ()) if h not in seen),
                                      default=-1)
            return depth[name]

        out: dict[int, int] = {}
        for c in self.facts.classes:
            d = of(c.node.name, frozenset())
            for m in c.methods.values():
                out[id(m.node)] = d
        return out

    def _used_as_tensor(self, owner: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, int]:
        """Parameters the function's own code proves, by what it does with them (never by their name):

        * passed as the input tensor of a torch op (``torch.relu(x)``, ``F.cross_entropy(logits, y)``);
        * the receiver of an array method (``lengths.max()``, ``mask.sum(1)``): no Python number, list,
          dict or string has one, and step code holds torch tensors, not NumPy arrays;
        * indexed with several axes and a slice (``img[:, :, i:i + 6]``): an array;
        * passed to a module (``model(ids)``, ``self.encoder(x)``): a tensor or a batch of tensors;
        * passed where torch accepts only a bool tensor (``x.masked_fill(mask, 0)``,
          ``torch.where(mask, x, y)``; the table's ``bool_arguments``): a boolean tensor.

        Only in step code (the walker records flags there), and only for parameters the function never
        rebinds to something else (``x = x[:, :n]`` keeps the proof; ``x = torch.tensor(x)`` drops it)."""
        rebound = set()
        for n in own_statements(owner.body):
            for t in _assigned_names(n):
                value = getattr(n, "value", None) if not isinstance(n, (ast.For, ast.AsyncFor)) else None
                if value is None or not any(isinstance(v, ast.Name) and v.id == t.id for v in walk(value)):
                    rebound.add(t.id)
        params = (_param_names(owner) | self._enclosing_params(owner)) - rebound - {"self"}
        out: dict[str, int] = {}
        for s in own_statements(owner.body):
            for top in ast.iter_child_nodes(s):
                if not isinstance(top, ast.expr):
                    continue
                for c in walk(top):
                    if isinstance(c, ast.Call):
                        name = self.resolve(c.func)
                        f = c.func
                        leaf = (name or "").rsplit(".", 1)[-1]
                        for a in bool_argument_values(c, name):
                            for root in bool_roots(a):
                                if root in params:
                                    out[root] = out.get(root, 0) | TENSOR | BOOL  # masked_fill(mask, ...)
                        if name is not None and name.startswith("torch.") and name not in not_tensor_first() \
                                and (name in op_table()["ops"] or name.startswith(_ND_NAMESPACES)):
                            n_inputs = 2 if leaf.endswith(("_loss", "cross_entropy", "binary_cross_entropy")) else 1
                            for a in c.args[:n_inputs]:
                                if isinstance(a, ast.Name) and a.id in params:
                                    out[a.id] = out.get(a.id, 0) | TENSOR
                        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in params \
                                and f.attr in _ARRAY_METHODS and f.value.id not in self.module_names \
                                and f.value.id not in _MODEL_NAMES:
                            out[f.value.id] = out.get(f.value.id, 0) | TENSOR
                        elif self._is_module_call(f):
                            if isinstance(f, ast.Name) and f.id in params:
                                # ``model(e1, rel)`` in a closure of ``make_step(model, opt)``: the module itself,
                                # so ``model.emb.weight`` is its parameter
                                out[f.id] = out.get(f.id, 0) | MODULE
                            for a in c.args:
                                if isinstance(a, ast.Subscript) and not isinstance(a.slice, ast.Constant):
                                    a = a.value  # ``model(images[keep])``: what is indexed is a batch too
                                if isinstance(a, ast.Name) and a.id in params:
                                    out[a.id] = out.get(a.id, 0) | BATCH
                        inner = f.value if isinstance(f, ast.Attribute) else None
                        if isinstance(f, ast.Attribute) and isinstance(inner, ast.Call) \
                                and isinstance(inner.func, ast.Name) and inner.func.id in params \
                                and f.attr in proving_methods():
                            # q(s).gather(1, a): the parameter is a callable that returns tensors (a module)
                            out[inner.func.id] = out.get(inner.func.id, 0) | MODULE
                    elif isinstance(c, ast.Subscript) and isinstance(c.value, ast.Name) and c.value.id in params \
                            and isinstance(c.slice, ast.Tuple) and len(c.slice.elts) > 1 \
                            and any(isinstance(x, ast.Slice) for x in c.slice.elts):
                        out[c.value.id] = out.get(c.value.id, 0) | TENSOR
                    if isinstance(c, ast.Call):
                        for p, flags in self._proven_by_callee(c, params).items():
                            out[p] = out.get(p, 0) | flags
        return out

    def _proven_by_callee(self, c: ast.Call, params: set[str]) -> dict[str, int]:
        """Parameters handed on unchanged to a same-file function (called by its plain name) whose own code
        proves the receiving parameter a tensor (``soft = smooth_targets(y)`` where ``smooth_targets`` runs
        ``F.one_hot(targets)``): the same value, so a tensor here too. Only positional and keyword arguments
        that are the parameter itself; a function already being asked (recursion) proves nothing."""
        if not isinstance(c.func, ast.Name) or any(isinstance(a, ast.Starred) for a in c.args):
            return {}
        targets = self._lookup(c.func)
        if len(targets) != 1 or not isinstance(targets[0].node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return {}
        if id(targets[0].node) in self._callee_stack:
            self._callee_cycles += 1  # (what the functions on the stack prove is then partial: not kept)
            return {}
        callee = targets[0].node
        names = [a.arg for a in callee.args.posonlyargs + callee.args.args]
        passed = {names[i]: a.id for i, a in enumerate(c.args[:len(names)])
                  if isinstance(a, ast.Name) and a.id in params}
        passed.update({k.arg: k.value.id for k in c.keywords
                       if k.arg and isinstance(k.value, ast.Name) and k.value.id in params})
        if not passed:
            return {}
        used = self._callee_used.get(id(callee))
        if used is None:  # (kept: a chain of helpers each calling the next several times is read once each)
            cycles = self._callee_cycles
            self._callee_stack.add(id(callee))
            try:
                used = self._used_as_tensor(callee)
            finally:
                self._callee_stack.discard(id(callee))
            if self._callee_cycles == cycles:
                self._callee_used[id(callee)] = used
        return {mine: used[theirs] & (TENSOR | BOOL) for theirs, mine in passed.items() if used.get(theirs, 0) & TENSOR}

    def bool_by_use(self, owner: ast.AST) -> set[str]:
        """Names the function assigns once and passes, somewhere in its own code, where torch accepts
        only a bool tensor: boolean tensors wherever they are read (``x[mask]`` is then a mask)."""
        if not isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return set()
        # a parameter is bound once already: rebinding it (``keep = keep.nonzero()``) is a second value
        counts: dict[str, int] = dict.fromkeys(_param_names(owner), 1)
        for n in own_statements(owner.body):
            for t in bound_names(n):
                counts[t] = counts.get(t, 0) + 1
        out: set[str] = set()
        for n in own_statements(owner.body):
            for top in ast.iter_child_nodes(n):
                if not isinstance(top, ast.expr):
                    continue
                for c in walk(top):
                    if isinstance(c, ast.Call):
                        for a in bool_argument_values(c, self.resolve(c.func)):
                            out.update(r for r in bool_roots(a) if counts.get(r) == 1)
        return out

    def assigned_values(self, name: str) -> list[ast.expr]:
        """The values the file assigns to ``name`` (``name = value``, anywhere; ``losses, accs = [], []``: each
        name of a tuple target its item of a display as long)."""
        if self._assigned is None:
            self._assigned = {}
            for n in ast.walk(self.tree):
                if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None:
                    for t in n.targets if isinstance(n, ast.Assign) else [n.target]:
                        if isinstance(t, ast.Name):
                            self._assigned.setdefault(t.id, []).append(n.value)
                        elif isinstance(t, (ast.Tuple, ast.List)) and len(_display_items(n.value)) == len(t.elts):
                            for item, value in zip(t.elts, _display_items(n.value)):
                                if isinstance(item, ast.Name):
                                    self._assigned.setdefault(item.id, []).append(value)
        return self._assigned.get(name, [])

    def _is_module_call(self, f: ast.expr) -> bool:
        """``model(...)``/``net(...)`` (a name the file uses as a module) or ``self.layer(...)`` where
        ``layer`` is built from ``torch.nn`` in the class."""
        if isinstance(f, ast.Name):
            return f.id in self.module_names or f.id in _MODEL_NAMES
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self":
            for c in self.facts.classes:
                built = c.attrs.get(f.attr) if c.node.name in self.module_classes else None
                if isinstance(built, ast.Call):
                    if is_module_class(self.resolve(built.func)) or isinstance(built.func, ast.Name) \
                            and built.func.id in self.module_factories:
                        return True
        return False

    def _enclosing_params(self, owner: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
        """Parameters of the functions a closure is nested in (``make_train_step(model, opt)``
        returning ``train_step``): free names of the closure that its own code can prove."""
        info = self.facts.by_node.get(id(owner))
        out: set[str] = set()
        parent = info.parent if info is not None else None
        while parent is not None:
            if not isinstance(parent.node, ast.Lambda):
                out |= _param_names(parent.node)
            parent = parent.parent
        return out - _param_names(owner)

    def _argument_step(self, owner: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """A training-step function or one torch_xla compiles: its caller's loop calls it once per step."""
        return any(s.node is owner and (s.why.startswith(("a training step", "decorated with @torch_xla.compile",
                                                          "passed to torch_xla.compile", "decorated with torch.compile",
                                                          "passed to torch.compile")))
                   for s in self.out.steps)

    def _step_args(self, owner: ast.FunctionDef | ast.AsyncFunctionDef, proven: dict[str, int]) -> set[str]:
        """Parameters of a step function that are Python values handed in at each call: no default,
        not proven a tensor or a batch, never called, never read through an attribute or a key."""
        if not self._argument_step(owner):
            return set()
        a = owner.args
        positional = a.posonlyargs + a.args
        no_default = positional[:len(positional) - len(a.defaults)] + [
            k for k, d in zip(a.kwonlyargs, a.kw_defaults) if d is None]
        names = {p.arg for p in no_default if p.annotation is None or isinstance(p.annotation, ast.Name)
                 and p.annotation.id == "int"} - {"self", "cls"}
        names -= {n for n, f in proven.items() if f & ~BATCH}
        names -= self.module_names | _MODEL_NAMES
        # passed to a module (``model(ids, seq_len)``): a tensor, unless the model's forward uses that
        # parameter as a size only (a slice bound, a factory's size, a loop over it)
        batch_only = {n for n in names if proven.get(n)}
        if batch_only:
            names -= batch_only - self._sizes_for_model(owner, batch_only)
        for n in walk(owner):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
                names.discard(n.func.id)
            elif isinstance(n, (ast.Attribute, ast.Subscript)) and isinstance(n.value, ast.Name):
                names.discard(n.value.id)  # an object or a container: a batch, a config
        return names

    def _sizes_for_model(self, owner: ast.FunctionDef | ast.AsyncFunctionDef, names: set[str]) -> set[str]:
        """Of ``names``, those that ``owner`` passes to ``model(...)`` where the file's root forward
        uses the receiving parameter as a size or iterates it, and never as a tensor."""
        root = self.root_forward()
        if root is None or isinstance(root.node, ast.Lambda):
            return set()
        params = [a.arg for a in root.node.args.posonlyargs + root.node.args.args][1:]
        used = self._used_as_tensor(root.node)
        out: set[str] = set()
        for c in walk(owner):
            if not (isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
                    and (c.func.id in self.module_names or c.func.id in _MODEL_NAMES)):
                continue
            pairs = list(zip(params, c.args)) + [(k.arg, k.value) for k in c.keywords if k.arg]
            for param, arg in pairs:
                if isinstance(arg, ast.Name) and arg.id in names and not used.get(param, 0) & ~BATCH \
                        and _sized_by(root.node, param, self):
                    out.add(arg.id)
        return out

    def root_forward(self) -> FunctionInfo | None:
        """``forward`` of the one same-file nn.Module class that no other same-file module builds: what
        ``model(...)`` runs in a file that defines its model."""
        if self._root_cache is not None:
            return self._root_cache[0]
        held = {n for c in self.facts.classes for v in c.attrs.values() for n in self._built_classes(v)
                if n != c.node.name}
        # (a base class of a same-file model is not what ``model(x)`` builds: ``class Net(Base)``)
        held |= {b for c in self.facts.classes if c.node.name in self.module_classes for b in c.bases}
        roots = [m for c in self.facts.classes if c.node.name in self.module_classes and c.node.name not in held
                 for name, m in c.methods.items() if name == "forward"]
        self._root_cache = (roots[0] if len(roots) == 1 else None,)
        return self._root_cache[0]

    def forward_tuples(self) -> frozenset[int]:
        """Lengths of the tuple displays that the forwards of same-file nn.Module classes return."""
        if self._forward_tuples is None:
            self._forward_tuples = frozenset(
                len(s.value.elts) for c in self.facts.classes if c.node.name in self.module_classes
                for name, m in c.methods.items() if name == "forward" and not isinstance(m.node, ast.Lambda)
                for s in own_statements(m.node.body) if isinstance(s, ast.Return) and isinstance(s.value, ast.Tuple))
        return self._forward_tuples

    def _self_is_module(self, method: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """``self`` of this method may be a module: its class is a same-file nn.Module, uses ``self`` as one
        (``self.parameters()``), or derives from a class named like one. Another class's
        ``self.parameters()`` proves nothing here (a pipeline class next to the nn.Module classes of
        its file: diffusers' AnyText, whose translator returns strings)."""
        if self._self_modules is None:
            self._self_modules = {}
            # a class is one: a same-file nn.Module, a class that calls self.parameters() & co., a class with a
            # base named like a module or model (``PreTrainedModel`` imported relatively), or a subclass of one
            uses = {c.node.name for c in self.facts.classes if c.node.name in self.module_classes or any(
                isinstance(n.func, ast.Attribute) and n.func.attr in _MODULE_USE_METHODS
                and isinstance(n.func.value, ast.Name) and n.func.value.id == "self" for n in _calls_in(c.node))
                or any(b.rsplit(".", 1)[-1].endswith(("Module", "Model")) for b in c.bases)}
            grow(uses, self.facts.classes, lambda c: c.node.name, lambda c: any(b in uses for b in c.bases))
            for c in self.facts.classes:
                for n in walk(c.node):
                    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        self._self_modules[id(n)] = c.node.name in uses
        return self._self_modules.get(id(method), True)  # (a function outside any class: as before)

    def _initial_env(self, owner: ast.AST) -> dict[str, int]:
        env: dict[str, int] = {}
        if isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)):
            passed = self.param_flags.get(id(owner), {})
            proven = self._used_as_tensor(owner)
            step_args = self._step_args(owner, proven)
            for name in self._enclosing_params(owner):
                if proven.get(name):
                    env[name] = proven[name]  # a free name of a closure, proven by the closure's own code
            for a in owner.args.posonlyargs + owner.args.args + owner.args.kwonlyargs:
                flags = passed.get(a.arg, 0) | proven.get(a.arg, 0)
                if a.arg in step_args:
                    flags |= STEP_ARG
                if flags & STEP_ARG and proven.get(a.arg, 0) & BOOL:
                    flags &= ~STEP_ARG  # handed to masked_fill/where here: torch takes only a bool tensor there
                elif flags & STEP_ARG:
                    flags = STEP_ARG  # a Python value (the module-call proof of a batch does not hold for it)
                if a.arg in self.module_names and (a.arg != "self" or self._self_is_module(owner)):
                    flags |= MODULE
                ann = a.annotation
                if ann is not None and (self.resolve(ann) == "torch.Tensor"):
                    flags |= TENSOR
                elif python_number_annotation(ann):
                    flags &= STEP_ARG | STEP_INT  # declared Python numbers: no tensor, whatever a caller's batch is
                env[a.arg] = flags
        return env


_SIZE_FACTORIES = frozenset({"torch.arange", "torch.zeros", "torch.ones", "torch.full", "torch.empty", "torch.rand",
                             "torch.randn", "torch.eye", "torch.linspace"})


def _sized_by(func: ast.FunctionDef | ast.AsyncFunctionDef, name: str, b: _Builder) -> bool:
    """``name`` is a slice bound, a size of a torch factory or the iterable of a loop in ``func``; not
    through its own shape (``h[..., :tokens.shape[1]]``, ``tokens.size(1)``): a Python int has none, so
    that bound is a static dimension of a tensor, one graph per input shape."""
    def mentions(e: ast.expr | None) -> bool:
        if e is None:
            return False
        todo: list[ast.AST] = [e]
        while todo:
            n = todo.pop()
            if isinstance(n, ast.Name) and n.id == name:
                return True
            if _own_shape(n, name):
                continue
            todo.extend(ast.iter_child_nodes(n))
        return False

    for n in walk(func):
        if isinstance(n, ast.Slice) and (mentions(n.lower) or mentions(n.upper)):
            return True
        if isinstance(n, ast.Call) and b.resolve(n.func) in _SIZE_FACTORIES and any(mentions(a) for a in n.args):
            return True
        if isinstance(n, (ast.For, ast.comprehension)) and mentions(n.iter):
            return True
    return False


def _own_shape(n: ast.AST, name: str) -> bool:
    """``name.shape`` or ``name.size(...)``: the shape of the value ``name`` holds."""
    if isinstance(n, ast.Attribute) and n.attr == "shape":
        return isinstance(n.value, ast.Name) and n.value.id == name
    return isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "size" \
        and isinstance(n.func.value, ast.Name) and n.func.value.id == name


def _display_items(e: ast.expr) -> list[ast.expr]:
    """The items of a list or tuple display (``[loss, aux]``), none of them starred; ``[]`` for anything else."""
    if isinstance(e, (ast.List, ast.Tuple)) and not any(isinstance(x, ast.Starred) for x in e.elts):
        return list(e.elts)
    return []


def _param_names(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    a = node.args
    return {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}


def bound_names(s: ast.stmt) -> list[str]:
    """Names a statement binds (``a = ...``, ``a, b = ...``, ``for a in ...``, ``with ... as a``,
    ``a += ...``), not the names read inside a target (``y[keep] = 1`` binds nothing)."""
    targets: list[ast.expr] = []
    if isinstance(s, ast.Assign):
        targets = list(s.targets)
    elif isinstance(s, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
        targets = [s.target]
    elif isinstance(s, (ast.With, ast.AsyncWith)):
        targets = [i.optional_vars for i in s.items if i.optional_vars is not None]
    out: list[str] = []
    while targets:
        t = targets.pop()
        if isinstance(t, ast.Name):
            out.append(t.id)
        elif isinstance(t, (ast.Tuple, ast.List)):
            targets.extend(t.elts)
        elif isinstance(t, ast.Starred):
            targets.append(t.value)
    return out


def _assigned_names(s: ast.stmt) -> list[ast.Name]:
    targets: list[ast.expr] = []
    if isinstance(s, ast.Assign):
        targets = list(s.targets)
    elif isinstance(s, (ast.AugAssign, ast.AnnAssign)):
        targets = [s.target]
    elif isinstance(s, (ast.For, ast.AsyncFor)):
        targets = [s.target]
    out: list[ast.Name] = []
    for t in targets:
        out.extend(n for n in walk(t) if isinstance(n, ast.Name))
    return out


def is_module_class(name: str | None) -> bool:
    """A ``torch.nn`` class that builds a module (``nn.Linear``), not a parameter or buffer."""
    if not name or not name.startswith("torch.nn.") or name.startswith(
            ("torch.nn.functional.", "torch.nn.utils.", "torch.nn.init.")):
        return False
    leaf = name.rsplit(".", 1)[-1]
    return leaf[:1].isupper() and leaf not in ("Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer")


def _builds_tensor(name: str | None) -> bool:
    """A ``torch.*`` function that returns a tensor (not a module class, not a utility)."""
    if not name or not name.startswith("torch.") or name.startswith(("torch.nn.", "torch.utils.", "torch.optim.")):
        return False
    return name not in _NON_TENSOR_TORCH and not name.rsplit(".", 1)[-1][:1].isupper()


def _self_attr(t: ast.AST) -> bool:
    return isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"


# what reads or writes a module's weights: its parameters' attributes, its state dict
_WEIGHT_ATTRIBUTES = frozenset({"weight", "bias", "data", "_parameters"})
_WEIGHT_METHODS = frozenset({"state_dict", "load_state_dict", "parameters", "named_parameters", "buffers",
                             "named_buffers", "modules", "named_modules"})


# words that make a *weight* parameter a weighting of data, not a model's weight (class_weights, sample_weight,
# loss_weight, guidance_weight, attn_weights): a function handed one post-processes outputs or scores a batch
_DATA_WEIGHTS = frozenset({"class", "classes", "sample", "samples", "loss", "losses", "label", "labels", "pos", "neg",
                           "guidance", "cfg", "token", "tokens", "example", "instance", "task", "tasks", "reward",
                           "attn", "attention", "box", "bbox", "focal", "cls", "per"})


def _handles_weights(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """The function works on a model's weights: it reads a parameter's attributes (``layer.weight``,
    ``p.data``, ``module._parameters``), a state dict or the parameters of a module (``.state_dict()``,
    ``.named_parameters()``), or it is handed a weight (a parameter named ``weight``, ``org_weight``)."""
    if any("weight" in p.lower() and not set(p.lower().split("_")) & _DATA_WEIGHTS for p in _param_names(node)):
        return True
    return any(isinstance(n, ast.Attribute) and n.attr in _WEIGHT_ATTRIBUTES
               or isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _WEIGHT_METHODS
               for n in walk(node))


def _flag_names(test: ast.expr) -> list[str]:
    """The flags a test is made of: ``onnx``, ``self.onnx``, an ``or`` of them (``tflite or edgetpu``)."""
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) else [test]
    out = [p.id if isinstance(p, ast.Name) else p.attr if isinstance(p, ast.Attribute) and _self_attr(p) else ""
           for p in parts]
    return [] if "" in out else out


def _is_step_function(steps: list[Step]) -> bool:
    return any(s.node is s.owner for s in steps)


def _hook_params(fn: ast.FunctionDef | ast.AsyncFunctionDef, registration: str) -> dict[str, int]:
    """The flags of a hook's parameters: what torch passes after the module is a tensor or a structure of
    tensors (inputs and grads: tuples; a forward hook's output: the layer's output)."""
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    if params and params[0] == "self":
        params = params[1:]
    return {p: (OUT | GRAD if registration == "register_forward_hook" and i == 2 else OUT)
            for i, p in enumerate(params) if i > 0}


def _compile_options(call: ast.Call) -> str:
    """How a step's ``torch.compile`` call reads in a finding: ``(backend='openxla')``, plus
    ``dynamic=False`` where it is given (dynamo then never passes a changing int as a symbolic value)."""
    static = any(kw.arg == "dynamic" and isinstance(kw.value, ast.Constant) and kw.value.value is False
                 for kw in call.keywords)
    return "(backend='openxla', dynamic=False)" if static else "(backend='openxla')"


def _openxla(call: ast.Call) -> bool:
    return any(kw.arg == "backend" and isinstance(kw.value, ast.Constant) and kw.value.value == "openxla"
               for kw in call.keywords)


def _uses_torch(node: ast.AST, b: _Builder) -> bool:
    return any((b.resolve(c.func) or "").startswith("torch.") for c in _calls_in(node))


def _trains(node: ast.AST, b: _Builder, own: bool = False) -> bool:
    """A backward pass (``x.backward()``, ``torch.autograd.grad(...)``) and an optimizer step (see
    :func:`_optimizer_step`); ``own``: in the function's own statements, not in functions nested in it."""
    backward = step = False
    calls = _own_calls(node.body) if own and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else _calls_in(node)
    for c in calls:
        backward = backward or runs_backward(c, b.resolve)
        step = step or _optimizer_step(c, b)
    return backward and step


def _split_step(f: FunctionInfo, b: _Builder) -> bool:
    """A training step split in two, as ``transformers.Trainer`` writes it: the method steps the optimizer
    in its own statements after calling a method of its own class (``self.training_step(batch)``) whose
    own statements run the backward and step no optimizer. The caller runs once per step."""
    node = f.node
    if f.cls is None or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    calls = list(_own_calls(node.body))
    if not any(_optimizer_step(c, b) for c in calls):
        return False
    for c in calls:
        if isinstance(c.func, ast.Attribute) and _self_attr(c.func) and c.func.attr != node.name:
            callee = f.cls.methods.get(c.func.attr)
            if callee is None or not isinstance(callee.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            own = list(_own_calls(callee.node.body))
            if any(runs_backward(x, b.resolve) for x in own) and not any(_optimizer_step(x, b) for x in own):
                return True
    return False


def runs_backward(c: ast.Call, resolve: Callable[[ast.expr], str | None]) -> bool:
    """The call runs autograd's backward pass: ``loss.backward()``, ``accelerator.backward(loss)``,
    ``torch.autograd.backward(loss)``, ``torch.autograd.grad(loss, params)``."""
    return isinstance(c.func, ast.Attribute) and c.func.attr == "backward" or resolve(c.func) == "torch.autograd.grad"


# Builtins and attributes whose result carries no gradient: a Python number, a static fact, a detached view
_LEAVES_AUTOGRAD = frozenset({"float", "int", "bool", "len", "str", "print", "round"})
_STATIC_ATTRS = frozenset({"shape", "dtype", "device", "data", "requires_grad", "grad_fn", "ndim"})
# Methods of a container receiver that put an argument in it (``terms.append(nll)``)
_STORES = frozenset({"append", "extend", "insert", "add", "update"})


def reaches_backward(call: ast.Call, fn: ast.AST, resolve: Callable[[ast.expr], str | None]) -> bool:
    """``call``'s result, followed forward through the own statements of ``fn`` (the function that makes
    it: assignments, augmented and tuple assignments, ``terms.append(x)``, loop targets), reaches a
    backward pass there (the receiver of ``loss.backward()``, an argument of ``accelerator.backward`` or
    ``torch.autograd.grad``) or leaves ``fn`` by ``return``/``yield`` (a forward's output or a loss
    function's value, which the caller's loss is made of). Never through a call that leaves autograd
    (``.detach()``, ``.item()``, ``float()``) or a static fact (``.shape``, ``.data``): a value computed
    only for logging reaches no backward."""
    names: set[str] = set()

    def carries(e: ast.AST | None) -> bool:
        if e is None:
            return False
        if e is call:
            return True
        if isinstance(e, ast.Name):
            return isinstance(e.ctx, ast.Load) and e.id in names
        if isinstance(e, ast.Call) and (not _differentiable(e) or isinstance(e.func, ast.Name)
                                        and e.func.id in _LEAVES_AUTOGRAD):
            return False
        if isinstance(e, ast.Attribute) and e.attr in _STATIC_ATTRS or isinstance(e, ast.Lambda):
            return False
        return any(carries(c) for c in ast.iter_child_nodes(e))

    def bind(t: ast.expr) -> bool:
        if isinstance(t, ast.Name):
            new = t.id not in names
            names.add(t.id)
            return new
        if isinstance(t, (ast.Tuple, ast.List)):
            return any([bind(x) for x in t.elts])
        if isinstance(t, ast.Starred):
            return bind(t.value)
        if isinstance(t, ast.Subscript):  # out["logdet"] = logdet: the dict holds it
            return bind(t.value)
        return False  # (self.attr = ...: not followed)

    reached = False

    def one_pass() -> bool:
        nonlocal reached
        changed = False
        for n in own_nodes(fn):
            if isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom)) and carries(n.value):
                reached = True
            elif isinstance(n, ast.Call) and runs_backward(n, resolve):
                receiver = [n.func.value] if isinstance(n.func, ast.Attribute) and n.func.attr == "backward" else []
                reached = reached or any(carries(a) for a in [*receiver, *n.args, *(k.value for k in n.keywords)])
            elif isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr)) and carries(n.value):
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                changed = any([bind(t) for t in targets]) or changed
            elif isinstance(n, (ast.For, ast.AsyncFor)) and carries(n.iter):
                changed = bind(n.target) or changed
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _STORES \
                    and any(carries(a) for a in n.args):
                changed = bind(n.func.value) or changed
        return changed and not reached

    settle(one_pass)
    return reached


def _optimizer_named(e: ast.expr) -> bool:
    return isinstance(e, ast.Name) and "opt" in e.id.lower() \
        or _self_attr(e) and "opt" in e.attr.lower()  # type: ignore[attr-defined]


def _optimizer_step(c: ast.Call, b: _Builder) -> bool:
    """An optimizer step: ``.step()`` on a name that says it is one (``opt.step()``,
    ``self.optimizer.step()``) or that the file builds from a ``torch.optim`` optimizer class
    (``solver = torch.optim.SGD(...)``), a step handed the optimizer (``scaler.step(optimizer)``, the
    AMP grad scaler's), ``xm.optimizer_step(opt)``."""
    f = c.func
    if b.resolve(f) == "torch_xla.core.xla_model.optimizer_step":
        return True
    if not isinstance(f, ast.Attribute) or f.attr != "step":
        return False
    if _optimizer_named(f.value) or c.args and _optimizer_named(c.args[0]):
        return True
    return b.optimizer_built(f.value)


def own_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements of a body, nested compound statements included, nested functions/classes not."""
    stack = list(reversed(body))
    while stack:
        s = stack.pop()
        yield s
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for fname in ("body", "orelse", "finalbody", "handlers"):
            sub = getattr(s, fname, None)
            if isinstance(sub, list):
                stack.extend(reversed([x for x in sub if isinstance(x, (ast.stmt, ast.excepthandler))]))  # type: ignore[misc]
        if isinstance(s, ast.Match):
            for case in s.cases:
                stack.extend(reversed(case.body))


def _after_last(body: list[ast.stmt], last: int, loops: list[ast.For | ast.While]) -> list[ast.stmt]:
    """The statements of ``body`` after its ``last``-th statement (the last that holds a work loop), and,
    where that statement is a ``with`` block (``with torch.no_grad():``) around the loop, the statements
    after the loop inside it, level by level: each runs once, after the last iteration."""
    out = list(body[last + 1:])
    st = body[last]
    while isinstance(st, (ast.With, ast.AsyncWith)):
        inner = [i for i, x in enumerate(st.body) if any(x is loop or _contains(x, loop) for loop in loops)]
        if not inner:
            break
        out = st.body[inner[-1] + 1:] + out
        st = st.body[inner[-1]]
    return out


def _dynamic_self_methods(node: ast.AST, methods: Collection[str] = ()) -> set[str]:
    """Names ``node`` binds to a method of its own object looked up by name (``getattr(type(self), name)``,
    ``getattr(self, name)``), or to a bound method of it: ``self.m`` for a method ``m`` of ``methods`` (the
    class's methods that loop, in :meth:`_phases`), or a conditional expression of such arms (naturalspeech2's
    ``sample_fn = self.ddpm_sample if not self.use_ddim else self.ddim_sample``). A call of one runs one of the
    class's methods; a name bound more than once is left out of the latter."""
    out: set[str] = set()
    methods_bound: set[str] = set()
    bound = binding_counts(node)
    for n in walk(node):
        if not (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)):
            continue
        if isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Name) \
                and n.value.func.id == "getattr" and n.value.args:
            obj = n.value.args[0]
            if isinstance(obj, ast.Call) and isinstance(obj.func, ast.Name) and obj.func.id == "type" and obj.args:
                obj = obj.args[0]
            if isinstance(obj, ast.Name) and obj.id == "self":
                out.add(n.targets[0].id)
        arms = [n.value.body, n.value.orelse] if isinstance(n.value, ast.IfExp) else [n.value]
        if methods and all(isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) and a.value.id == "self"
                           and a.attr in methods for a in arms):
            methods_bound.add(n.targets[0].id)
    return out | {name for name in methods_bound if bound.get(name) == 1}


def _own_loops(body: list[ast.stmt]) -> list[ast.For | ast.While]:
    """Outermost loops that train: nested loops inside a step loop belong to that step."""
    out: list[ast.For | ast.While] = []
    for s in own_statements(body):
        if isinstance(s, (ast.For, ast.While)) and not any(_contains(o, s) for o in out):
            out.append(s)
    return out


def _all_loops(body: list[ast.stmt]) -> list[ast.For | ast.While]:
    return [s for s in own_statements(body) if isinstance(s, (ast.For, ast.While))]


def _own_withs(body: list[ast.stmt]) -> list[ast.With]:
    return [s for s in own_statements(body) if isinstance(s, ast.With)]


def _own_calls(body: list[ast.stmt]) -> Iterator[ast.Call]:
    for s in own_statements(body):
        for c in ast.iter_child_nodes(s):
            if isinstance(c, ast.expr):
                yield from (n for n in walk(c) if isinstance(n, ast.Call))


_NON_FINITE = frozenset({"isnan", "isinf", "isneginf", "isposinf"})


def _non_finite_test(test: ast.expr) -> bool:
    """``test`` asks whether a value is NaN or infinite (``torch.isnan(loss)``, ``torch.isnan(x).any()``,
    ``not torch.isfinite(loss)``, ``math.isnan(loss.item())``; inside ``or``): its body is the error path of a
    diverged step, not a step's work, so a read there (a debug print before the batch is skipped) runs only
    when the step went wrong (the test itself still reads the value every step)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return any(_non_finite_test(v) for v in test.values)
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    e = test.operand if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) else test
    while isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr in ("any", "all", "item") \
            and not e.args:
        e = e.func.value  # torch.isnan(x).any()
    if isinstance(e, ast.Call) and e.args and isinstance(e.func, (ast.Attribute, ast.Name)) and isinstance(
            e.func.value if isinstance(e.func, ast.Attribute) else e.func, (ast.Name, ast.Attribute)):
        name = e.func.attr if isinstance(e.func, ast.Attribute) else e.func.id
        if name in ("any",) and len(e.args) == 1:  # torch.any(torch.isnan(x))
            return _non_finite_test(ast.UnaryOp(op=ast.Not(), operand=e.args[0]) if negated else e.args[0])
        return name == "isfinite" if negated else name in _NON_FINITE
    if isinstance(e, ast.Call) and not e.args and isinstance(e.func, ast.Attribute):
        return e.func.attr == "isfinite" if negated else e.func.attr in _NON_FINITE  # loss.isnan()
    return False


def _every_n_test(test: ast.expr, is_tensor: Callable[[ast.expr], bool]) -> bool:
    """``step % n == 0`` (either side, also inside ``and``) on values ``is_tensor`` does not prove;
    also ``or``-ed with equality tests of such values, which hold at single steps (the first or the
    last: ``batch_idx == 0 or (batch_idx + 1) % n == 0``)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        def single(p: ast.expr) -> bool:
            parts = p.values if isinstance(p, ast.BoolOp) and isinstance(p.op, ast.And) else [p]
            return any(isinstance(q, ast.Compare) and all(isinstance(o, ast.Eq) for o in q.ops)
                       and not any(is_tensor(e) for e in (q.left, *q.comparators)) for q in parts)
        every = [_every_n_test(p, is_tensor) for p in test.values]
        return any(every) and all(e or single(p) for e, p in zip(every, test.values))
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    for p in parts:
        if isinstance(p, ast.BoolOp) and isinstance(p.op, ast.Or) and _every_n_test(p, is_tensor):
            return True  # `do_eval and (step % n == 0 or step == last)`
        if isinstance(p, ast.Compare) and len(p.ops) == 1 and isinstance(p.ops[0], ast.Eq):
            for side in (p.left, p.comparators[0]):
                if isinstance(side, ast.BinOp) and isinstance(side.op, ast.Mod) and not (
                        is_tensor(side.left) or is_tensor(side.right)):
                    return True
    return False


def _every_n_calls(node: ast.AST) -> set[int]:
    """Ids of the calls in ``node`` that sit in the body of an ``if step % n == 0:`` (before the
    values are known: a ``%`` of tensors compared with ``==`` is taken for a counter here too)."""
    out: set[int] = set()
    for n in walk(node):
        if isinstance(n, ast.If) and _every_n_test(n.test, lambda e: False):
            out.update(id(c) for s in n.body for c in _calls_in(s))
    return out


def _leaves_block(body: list[ast.stmt]) -> bool:
    """``body`` ends by leaving the block it sits in (``return``, ``raise``, ``break``, ``continue``)."""
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise, ast.Break, ast.Continue))


def _memo_test(t: ast.expr) -> str | None:
    """``attr`` of a memo test ``key not in self.<attr>`` (or ``not key in self.<attr>``)."""
    negated = isinstance(t, ast.UnaryOp) and isinstance(t.op, ast.Not)
    test = t.operand if isinstance(t, ast.UnaryOp) and negated else t
    wanted = ast.In if negated else ast.NotIn
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], wanted) \
            and isinstance(test.comparators[0], ast.Attribute) and _self_attr(test.comparators[0]):
        return test.comparators[0].attr
    return None


# methods of a dict or list that do not change it
_READ_ONLY_METHODS = frozenset({"get", "items", "keys", "values", "copy", "index", "count"})


def _contains(outer: ast.AST, inner: ast.AST) -> bool:
    return (getattr(outer, "lineno", 0) <= getattr(inner, "lineno", 0) <= (getattr(outer, "end_lineno", 0) or 0)
            and outer is not inner)


# --- code that runs at most once per run: a block that ends the run --------------------------------

_EXITS = frozenset({"sys.exit", "exit", "quit", "os._exit", "os.abort"})


def run_ending(stmt: ast.stmt, resolve: Callable[[ast.expr], str | None], in_try: bool) -> str | None:
    """How ``stmt`` ends the run ("sys.exit", "raise"; a raise inside a ``try`` may be caught), or None."""
    if isinstance(stmt, ast.Raise):
        return None if in_try else "raise"
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        func = stmt.value.func
        name = resolve(func) or (func.id if isinstance(func, ast.Name) else None)
        return name if name in _EXITS else None
    return None


def once_per_run(tree: ast.Module, resolve: Callable[[ast.expr], str | None], torch: TorchFacts) -> dict[int, str]:
    """Statements of a block that ends the run, each with why it runs once ("the block ends the run
    (sys.exit at line 12)"): the block's last statement calls ``sys.exit()``/``exit()``/``os._exit()``,
    or raises outside any ``try`` of its function, and none leaves it before (a check that fired,
    reporting before it stops: ``if torch.isnan(loss): print(loss.item()); exit(1)``). They run at most
    once per run, not in every step, so a per-step rule sets its findings there aside
    (:class:`xlacheck.diagnostics.SetAside`); the test that guards them still runs every step and is
    not among them, nor are the step regions inside such a block (``torch.steps``' loops and ``with``
    blocks; a training loop followed by ``sys.exit(0)``) or the functions and classes it defines (they
    run when called: ``sys.exit(main())``)."""
    steps = frozenset(id(s.node) for s in torch.steps if not isinstance(s.node, ast.Lambda))
    out: dict[int, str] = {}

    def leaves_early(body: list[ast.stmt]) -> bool:
        """A statement of the block may leave it before its end (``if not ok: return x`` before a
        final ``raise``: the block runs in every call that returns early)."""
        return any(isinstance(n, (ast.Return, ast.Break, ast.Continue, ast.Yield, ast.YieldFrom))
                   for n in own_nodes(body))

    def once(body: list[ast.stmt], why: str) -> None:
        """The block's statements that run once with it (a loop printing a dict's values before the
        exit included), not the step regions in it nor the functions and classes it defines."""
        stack: list[ast.stmt] = list(body)
        while stack:
            stmt = stack.pop()
            if id(stmt) in steps:
                continue
            out.setdefault(id(stmt), why)
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            stack.extend(n for n in ast.iter_child_nodes(stmt) if isinstance(n, ast.stmt))
            for h in getattr(stmt, "handlers", ()):
                stack.extend(h.body)
            for case in getattr(stmt, "cases", ()):
                stack.extend(case.body)

    def visit(body: list[ast.stmt], in_try: bool) -> None:
        how = run_ending(body[-1], resolve, in_try) if body else None
        if how is not None and not leaves_early(body):
            once(body, f"runs once: the block ends the run ({how} at line {body[-1].lineno})")
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                visit(stmt.body, False)
                continue
            if isinstance(stmt, TRY_STATEMENTS):
                visit(stmt.body, bool(stmt.handlers) or in_try)
                for h in stmt.handlers:
                    visit(h.body, in_try)
                visit(stmt.orelse, in_try)
                visit(stmt.finalbody, in_try)
                continue
            for field_name in ("body", "orelse"):
                inner = getattr(stmt, field_name, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    visit(inner, in_try)
            for case in getattr(stmt, "cases", ()):
                visit(case.body, in_try)

    visit(tree.body, False)
    return out


class _Walker:
    """Statements of one owner in source order; flags for expressions, recorded in step regions."""

    def __init__(self, b: _Builder, steps: list[Step], env: dict[str, int], cls: ClassInfo | None = None) -> None:
        self.b = b
        self.owner: ast.AST = b.tree  # the function (or module) walked: set by run
        self.cls = cls  # the class whose method this is: its self.<layer> attributes are modules
        self.steps = steps
        self.env = env
        self.active: list[Step] = []
        self.synced = False  # a sync ran earlier in this iteration of the step
        self.periodic = 0  # inside `if step % n == 0:` blocks
        self.setup = False  # the statements of a callee only a set-up phase calls (Step.setup)
        self.loops = 0  # inside a loop of the function walked
        self.no_grad = 0  # 1 where autograd is off (:func:`grad_disabled`: `with torch.no_grad():`, a decorator)
        self.bool_names: set[str] = set()  # assigned once and passed where torch takes only a bool tensor
        # names bound to a test whose value on the XLA device is known (``is_tpu = x.device.type == "xla"``)
        self.on_xla: dict[str, bool] = {}
        # names bound to Python sizes (``_, _, h, w = x.shape``, ``n = x.size(0) // 2``): never tensors
        self.size_names: set[str] = set()
        self.unmoved: frozenset[str] = frozenset()  # modules built here that nothing moves (see _unmoved_modules)
        self.literals: dict[str, object] = {}  # parameters every call leaves at one literal (analysis.calls)
        self.cut = False  # the statement just walked was an `if` whose running branch leaves the block

    def run(self, owner: ast.AST) -> None:
        self.owner = owner
        self.bool_names = self.b.bool_by_use(owner)
        self.literals = self.b.literals.get(id(owner), {})
        self.unmoved = _unmoved_modules(owner, self.b.module_classes)
        if isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)):
            # a parameter declared ``int`` is a Python number (``torch.div(seq_len, window: int)``: a CPU scalar)
            self.size_names.update(a.arg for a in owner.args.posonlyargs + owner.args.args + owner.args.kwonlyargs
                                   if isinstance(a.annotation, ast.Name) and a.annotation.id == "int")
        body = owner.body if isinstance(owner, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)) else []
        whole = [s for s in self.steps if s.node is owner]
        if whole:
            self.active.append(whole[0])
            self.periodic += whole[0].periodic
            self.setup = whole[0].setup
        if isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in owner.decorator_list:
                off = grad_disabled(d, self.b.resolve)
                if off is not None:
                    self.no_grad = int(off)
        self.block(body)

    # statements
    def block(self, body: list[ast.stmt]) -> None:
        for i, s in enumerate(body):
            self.stmt(s)
            if self.cut:  # the branch that runs of a decided `if` returns: what follows never runs
                self.cut = False
                self.dead_block(body[i + 1:], True)
                return

    def stmt(self, s: ast.stmt) -> None:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return
        entered = [st for st in self.steps if st.node is s]
        if entered and not self.active:
            self.active.append(entered[0])
        else:
            entered = []
        if self.active:
            self.record(s)
            self.b.out.env_at[id(s)] = dict(self.env)
        if isinstance(s, ast.Assign):
            v = self.expr(s.value)
            for t in s.targets:
                self.bind(t, v, s.value)
        elif isinstance(s, ast.AnnAssign):
            if s.value is not None:
                self.bind(s.target, self.expr(s.value), s.value)
        elif isinstance(s, ast.AugAssign):
            v = self.expr(s.value)
            if isinstance(s.target, ast.Name) and isinstance(s.op, ast.Add) and _display_items(s.value):
                self._fill(s.target.id, _display_items(s.value))  # losses += [loss]
            elif isinstance(s.target, ast.Name):
                old = self.env.get(s.target.id, 0)
                new = old | (v & (TENSOR | HOST)) if (old or v & TENSOR) else 0
                self.env[s.target.id] = new & ~CPU if v & TENSOR and not v & CPU else new
            else:
                self.expr(s.target)
        elif isinstance(s, (ast.For, ast.AsyncFor)):
            it = self.expr(s.iter)
            counter = STEP_INT if self._graph_per_iteration(s) else 0
            if (isinstance(s.iter, ast.Call) and isinstance(s.iter.func, ast.Name) and s.iter.func.id == "enumerate"
                    and s.iter.args and isinstance(s.target, ast.Tuple) and len(s.target.elts) == 2):
                pairs = [(s.target.elts[0], counter),  # the index
                         (s.target.elts[1], _item_flags(self.b.out.of(s.iter.args[0]), s.iter.args[0], self))]
            elif isinstance(s.iter, ast.Call) and isinstance(s.iter.func, ast.Name) and s.iter.func.id == "range":
                pairs = [(s.target, counter | _item_flags(it, s.iter, self))]
            elif (isinstance(s.iter, ast.Call) and isinstance(s.iter.func, ast.Name) and s.iter.func.id == "zip"
                  and not s.iter.keywords and isinstance(s.target, ast.Tuple)
                  and len(s.target.elts) == len(s.iter.args)
                  and not any(isinstance(a, ast.Starred) for a in s.iter.args)):
                # for score, box in zip(scores, boxes): each name gets an item of its own sequence
                pairs = [(t, _item_flags(self.b.out.of(a), a, self)) for t, a in zip(s.target.elts, s.iter.args)]
            elif _dict_items(s.iter, self) and isinstance(s.target, ast.Tuple) and len(s.target.elts) == 2:
                pairs = [(s.target.elts[0], 0), (s.target.elts[1], TENSOR)]  # for k, v in metrics.items(): the tensor
            elif _dict_values(s.iter, self):
                pairs = [(s.target, TENSOR)]  # for v in metrics.values(), as in a comprehension
            else:
                pairs = [(s.target, _item_flags(it, s.iter, self))]
            moved = self._moved_batches(s)

            def bind_target() -> None:  # every iteration starts with a fresh item
                for target, flags in pairs:
                    self.bind(target, flags, None)
                for name in moved:  # a host batch the body moves itself (_moved_batches)
                    if not self.env.get(name, 0) & (MODULE | LOADER | OPTIMIZER | TENSOR_DICT):
                        self.env[name] = self.env.get(name, 0) | BATCH | CPU
            bind_target()
            self.loop_body(s, bind_target)
        elif isinstance(s, ast.While):
            self.expr(s.test)
            self.loop_body(s)
        elif isinstance(s, ast.If):
            self.expr(s.test)
            # a NaN test's body is the error path of a diverged step; one that ends the run is left to
            # once_per_run, which sets its findings aside with that reason instead of dropping them
            every_n = self._every_n(s.test) or int(_non_finite_test(s.test) and not (
                s.body and run_ending(s.body[-1], self.b.resolve, in_try=False)))
            known = self.xla_truth(s.test) if self.active else None
            if known is None:  # (a branch every caller rules out never runs: analysis.calls)
                known = literal_test(s.test, self.literals, self.b.none_tests)
            self.periodic += every_n
            before = dict(self.env)
            numbers = python_number_names(s.test) + self._not_tensor_tests(s.test, True)
            for name in numbers:  # if isinstance(pos, int): pos is a Python number in the body, no tensor
                self.env[name] = 0
            self.dead_block(s.body, known is False or self.b.cuda_bound(s.body) or self.b.other_runtime(s.test))
            cut = known is True and _leaves_block(s.body)
            for name in numbers:
                if self.env.get(name) == 0 and name in before:
                    self.env[name] = before[name]  # not rebound in the body: whatever it was on the other path
            self.periodic -= every_n
            if s.orelse:
                # the else branch starts from the names before the `if`, not from what the body bound
                # (`weights = torch.tensor(...)` in the body; `weights.split("|")` on the str in the else)
                after_body, self.env = self.env, before
                others = {name: before.get(name) for name in self._not_tensor_tests(s.test, False)}
                for name in others:  # the else of `if torch.is_tensor(n):`: n is no tensor there
                    self.env[name] = 0
                self.dead_block(s.orelse, known is True or self.b.cuda_bound(s.orelse))
                for name, flags in others.items():
                    if self.env.get(name) == 0 and flags is not None:
                        self.env[name] = flags
                self.env = {**after_body, **{k: v for k, v in self.env.items() if k not in before or before[k] != v}}
                cut = cut or known is False and _leaves_block(s.orelse)
            elif _leaves_block(s.body):
                # `if isinstance(x, torch.Tensor): return x.unsqueeze(0)`: what follows is the test's else
                for name in self._not_tensor_tests(s.test, False):
                    self.env[name] = 0
            self.cut = cut
        elif isinstance(s, (ast.With, ast.AsyncWith)):
            for item in s.items:
                v = self.expr(item.context_expr)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, 0 if not v & LOADER else v, None)
            outer = self.no_grad
            for item in s.items:
                call = isinstance(item.context_expr, ast.Call)
                off = grad_disabled(item.context_expr, self.b.resolve) if call else None
                if off is not None:
                    self.no_grad = int(off)
            self.block(s.body)
            self.no_grad = outer
        elif isinstance(s, ast.Try):
            self.block(s.body)
            for h in s.handlers:
                self.block(h.body)
            self.block(s.orelse)
            self.block(s.finalbody)
        else:
            for c in ast.iter_child_nodes(s):
                if isinstance(c, ast.expr):
                    self.expr(c)
        if entered:
            self.active.pop()
        if not isinstance(s, (ast.For, ast.AsyncFor, ast.While)) and any(
                self.b.resolve(c.func) in GRAPH_SYNCS for c in _calls_in(s)):
            self.synced = True

    def _display_item(self, e: ast.Subscript) -> ast.expr | None:
        """The item a constant key or index reads from a display this function binds to a plain name
        (``res = {"logits": model(x), "labels": y}`` ... ``res["logits"]``; ``pair = [model(x), y]`` ...
        ``pair[0]``): the file assigns the name once, that display, here, and never stores into it or calls a
        method on it that could change it."""
        if not isinstance(e.value, ast.Name) or not isinstance(e.slice, ast.Constant):
            return None
        name, key = e.value.id, e.slice.value
        values = self.b.assigned_values(name)
        if len(values) != 1 or not _contains(self.owner, values[0]) or values[0].lineno >= e.lineno:
            return None
        display = values[0]
        if isinstance(display, ast.Dict) and isinstance(key, str):
            keys = [k.value if isinstance(k, ast.Constant) else None for k in display.keys]
            item = display.values[keys.index(key)] if keys.count(key) == 1 and None not in keys else None
        elif isinstance(display, (ast.List, ast.Tuple)) and type(key) is int and -len(display.elts) <= key \
                < len(display.elts) and not any(isinstance(x, ast.Starred) for x in display.elts):
            item = display.elts[key]
        else:
            return None
        for n in walk(self.b.tree):
            if isinstance(n, ast.Subscript) and not isinstance(n.ctx, ast.Load) or isinstance(n, ast.Call) \
                    and isinstance(n.func, ast.Attribute) and n.func.attr not in _READ_ONLY_METHODS:
                held = n.value if isinstance(n, ast.Subscript) else n.func.value  # type: ignore[attr-defined]
                if isinstance(held, ast.Name) and held.id == name:
                    return None
        return item

    def _fill(self, name: str, added: list[ast.expr]) -> None:
        """Step code adds the items ``added`` to the list ``name``: where that list starts empty
        (:meth:`_starts_empty`) and every item is a proven tensor on the device, it is a list of device tensors."""
        items = [self.b.out.of(a) for a in added]
        if items and all(a & TENSOR and not a & CPU for a in items) and not self.env.get(name, 0) & ~TENSOR_LIST \
                and self._starts_empty(name):
            self.env[name] = TENSOR_LIST

    def _starts_empty(self, name: str) -> bool:
        """Every value the file assigns to ``name`` is an empty list display, and it is no parameter of the
        function walked: a list only its methods fill (``append``, ``insert``, ``extend``, ``+=``)."""
        values = self.b.assigned_values(name)
        owner = self.owner
        params = _param_names(owner) if isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)) else set()
        return bool(values) and name not in params and all(isinstance(v, ast.List) and not v.elts for v in values)

    def _graph_per_iteration(self, loop: ast.For | ast.AsyncFor) -> bool:
        """A step loop each iteration of which ends its own graph: it iterates an MpDeviceLoader or its body
        calls ``torch_xla.sync()``/``xm.mark_step()``. Its counter (``for step, batch in enumerate(loader)``,
        ``for i in range(num_steps)``) is a new Python number in every graph: as an index or a size it is a
        constant of each one (torch_xla_recompile.json: int_index, int_slice_length, int_in_arange)."""
        return any(st.node is loop and st.loop is loop and (
            st.why == "iterates an MpDeviceLoader"
            or any(self.b.resolve(c.func) in GRAPH_SYNCS for c in _calls_in(loop))) for st in self.steps)

    def _not_tensor_tests(self, test: ast.expr, holds: bool) -> list[str]:
        """Names that ``test`` proves no torch tensor where it holds (``holds``) or where it fails:
        ``torch.is_tensor(n)`` / ``isinstance(n, torch.Tensor)`` fails (its ``else``), ``not`` of one holds."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self._not_tensor_tests(test.operand, not holds)
        if holds or not (isinstance(test, ast.Call) and isinstance(test.func, (ast.Name, ast.Attribute))
                         and test.args and isinstance(test.args[0], ast.Name) and not test.keywords):
            return []
        name = self.b.resolve(test.func)
        if name == "torch.is_tensor" and len(test.args) == 1 or (
                isinstance(test.func, ast.Name) and test.func.id == "isinstance" and not name and len(test.args) == 2
                and self.b.resolve(test.args[1]) == "torch.Tensor"):
            return [test.args[0].id]
        return []

    def _structure_compared(self, e: ast.expr) -> bool:
        """``e`` is an ``==``/``!=`` comparison of a batch item or module output (a tensor or a structure of
        tensors: ``labels != -100``), or a name every assignment in the file binds to one."""
        if isinstance(e, ast.Name):
            values = self.b.assigned_values(e.id)
            return bool(values) and all(not isinstance(v, ast.Name) and self._structure_compared(v) for v in values)
        return isinstance(e, ast.Compare) and len(e.ops) == 1 and isinstance(e.ops[0], (ast.Eq, ast.NotEq)) \
            and any(self.b.out.of(x) & STRUCT for x in (e.left, *e.comparators))

    def _every_n(self, test: ast.expr) -> int:
        """1 for ``step % n == 0`` (either side, also inside ``and``) on Python values: the branch runs
        every n-th step (the documented way to log from a torch_xla loop)."""
        return int(_every_n_test(test, lambda e: bool(self.b.out.of(e) & TENSOR)))

    def dead_block(self, body: list[ast.stmt], dead: bool) -> None:
        """Walk a branch; one that cannot run on the XLA device (``if not is_torch_xla_available():``) is walked
        for its bindings only, outside any step: nothing in it runs in a torch_xla step."""
        if not dead:
            self.block(body)
            return
        active, self.active = self.active, []
        self.block(body)
        self.active = active

    def truth(self, e: ast.expr) -> bool | None:
        """The value of a test in step code: :meth:`xla_truth`, else what the literals of the function's
        parameters decide (:func:`~xlacheck.analysis.calls.literal_test`); None when neither decides it."""
        known = self.xla_truth(e)
        return literal_test(e, self.literals, self.b.none_tests) if known is None else known

    def xla_truth(self, e: ast.expr) -> bool | None:
        """The value of a test in code that runs on the XLA device, where the test says where the code runs:
        ``is_torch_xla_available()`` (True), ``t.device.type == "<s>"`` (True iff ``s`` is "xla"; ``t`` a tensor
        not known to be on the CPU), ``t.is_xla``, a name bound to one of these, and ``not``/``and``/``or`` of
        them; ``torch.is_autocast_enabled()`` (False: :func:`_cuda_autocast_query`) and the project's functions that
        return it (:func:`cuda_autocast_helpers`); the MPS queries (False: ``MPS_QUERIES``); None when the test says
        nothing about the device."""
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            inner = self.xla_truth(e.operand)
            return None if inner is None else not inner
        if isinstance(e, ast.BoolOp):
            parts = [self.xla_truth(v) for v in e.values]
            decisive = isinstance(e.op, ast.Or)  # the value that decides an `or` (True) or an `and` (False)
            if decisive in parts:
                return decisive
            return None if None in parts else not decisive
        if isinstance(e, ast.Name):
            return self.on_xla.get(e.id)
        if isinstance(e, ast.Call) and _cuda_autocast_query(e, self.b.resolve):
            return False
        if isinstance(e, ast.Call) and not e.args and not e.keywords and self.b.cuda_queries \
                and dotted(e.func) in self.b.cuda_queries:
            return False  # the project's own CUDA autocast query (cuda_autocast_helpers)
        if isinstance(e, ast.Call) and not e.args and not e.keywords:
            f = e.func
            name = self.b.resolve(f) or (f.id if isinstance(f, ast.Name) else "")
            if name in MPS_QUERIES:
                return False
            return True if name.rsplit(".", 1)[-1] in XLA_AVAILABLE_FUNCTIONS else None
        if isinstance(e, ast.Attribute) and e.attr == "is_xla" and self._on_device(e.value):
            return True
        if isinstance(e, ast.Compare) and len(e.ops) == 1 and isinstance(e.ops[0], (ast.Eq, ast.NotEq)):
            left, right = e.left, e.comparators[0]
            if isinstance(left, ast.Constant):
                left, right = right, left
            if (isinstance(right, ast.Constant) and isinstance(right.value, str) and isinstance(left, ast.Attribute)
                    and left.attr == "type" and isinstance(left.value, ast.Attribute) and left.value.attr == "device"
                    and self._on_device(left.value.value)):
                return (right.value == "xla") == isinstance(e.ops[0], ast.Eq)
        return None

    def size(self, e: ast.expr) -> bool:
        """``e`` is a Python number from literals and static sizes alone (``x.shape[-1]``, ``x.size(0)``,
        ``len(xs)``, a name bound to one, arithmetic of them): never a tensor, the same at every call."""
        if isinstance(e, ast.Constant):
            return isinstance(e.value, (int, float)) and not isinstance(e.value, bool)
        if isinstance(e, ast.Name):
            return e.id in self.size_names
        if isinstance(e, ast.BinOp):
            return self.size(e.left) and self.size(e.right)
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
            return self.size(e.operand)
        if isinstance(e, (ast.Tuple, ast.List)):
            return bool(e.elts) and all(self.size(v) for v in e.elts)
        if isinstance(e, (ast.ListComp, ast.GeneratorExp)):
            return self.size(e.elt)  # [m.shape[-1] for m in masks]: a list of static sizes
        if isinstance(e, ast.Subscript):
            # x.shape[-1]; x.shape[2:] too: a torch.Size of static sizes, as a tuple display of them
            return _shape_of(e.value)
        if isinstance(e, ast.Attribute):
            return e.attr == "ndim" or (isinstance(e.value, ast.Name) and e.value.id == "self" and self.cls is not None
                                        and e.attr in constructor_numbers(self.cls.node))
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute):
            return e.func.attr in ("dim", "numel", "ndimension", "nelement") or (
                e.func.attr == "size" and len(e.args) == 1)
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in ("min", "max", "abs", "int") \
                and not self.b.resolve(e.func) and e.args and not e.keywords:
            return all(self.size(a) for a in e.args)  # min(max(q.size(-2), k.size(-2)), span: int)
        return (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "len"
                and not self.b.resolve(e.func))

    def _on_device(self, e: ast.expr) -> bool:
        """``e`` is a proven tensor (or batch) of step code not known to be on the CPU: on the XLA device."""
        # (a name's flags from the environment: a test is read before its statement's flags are recorded)
        f = self.env.get(e.id, 0) if isinstance(e, ast.Name) else self.b.out.of(e)
        return bool(f & (TENSOR | STRUCT)) and not f & CPU

    def loop_body(self, s: ast.For | ast.AsyncFor | ast.While, bind_target: Callable[[], None] | None = None) -> None:
        self.loops += 1
        self._loop_body(s, bind_target)
        self.loops -= 1

    def _loop_body(self, s: ast.For | ast.AsyncFor | ast.While, bind_target: Callable[[], None] | None = None) -> None:
        # twice: names assigned late in the body reach its start on the next iteration
        snapshot = dict(self.env)
        active = self.active
        self.active = []
        synced = self.synced
        self.synced = False
        self.block(s.body)
        self.active = active
        self.synced = False
        for k, v in self.env.items():
            if k in snapshot and snapshot[k] != v:
                self.env[k] = snapshot[k] & v  # proven on every path only
        if bind_target is not None:
            bind_target()
        self.block(s.body)
        self.synced = synced
        self.block(s.orelse)

    def record(self, s: ast.stmt) -> None:
        """Map the statement and its own expressions (not nested statements) to the step."""
        step = self.active[-1]
        out = self.b.out
        if self.synced:
            out.after_sync.add(id(s))
        if self.no_grad:
            out.no_grad.add(id(s))
        if self.periodic:
            out.periodic.add(id(s))
        if self.setup and not self.loops:  # (a loop repeats the statement: no longer once per call)
            out.setup.add(id(s))
        todo: list[ast.AST] = [s]
        while todo:
            n = todo.pop()
            if id(n) in out.step_of:
                continue
            out.step_of[id(n)] = step
            out.stmt_of[id(n)] = s
            out.nodes.append(n)
            children: list[ast.AST] = list(ast.iter_child_nodes(n))
            # `not is_tpu and not mask.any()`: on XLA the operands after a decided one never run; so with
            # `every > 0 and t.item()` where every call leaves `every` at 0 (analysis.calls.literal_test)
            if isinstance(n, ast.BoolOp):
                decisive = isinstance(n.op, ast.Or)
                cut = next((i for i, v in enumerate(n.values) if self.truth(v) is decisive), None)
                if cut is not None:
                    children = [n.op, *n.values[:cut + 1]]
            elif isinstance(n, ast.IfExp) and (known := self.truth(n.test)) is not None:
                children = [n.test, n.body if known else n.orelse]
            for c in children:
                if isinstance(c, (ast.stmt, ast.excepthandler, ast.Lambda)) or isinstance(c, ast.comprehension) and False:
                    continue
                todo.append(c)

    def _moved_batches(self, loop: ast.For | ast.AsyncFor) -> set[str]:
        """The names a loop binds whose items its body moves to a device itself
        (``batch[0].to(device_id)``, ``x.cuda()``): a loader that hands out device tensors makes that move a no-op,
        so a step that writes it draws host batches (a plain ``DataLoader``, a webdataset pipeline), and what it
        has not moved yet of that batch is still on the CPU (open_flamingo stacks and edits the MMC4 labels on the
        CPU, then moves them). Not over a torch_xla device loader (``MpDeviceLoader``, ``per_device_loader``)."""
        if any(isinstance(a, ast.Call) and (self.b.resolve(a.func) in DEVICE_LOADERS or (
                isinstance(a.func, ast.Attribute) and a.func.attr == "per_device_loader"))
               for a in ast.walk(loop.iter)):
            return set()
        device_loaders = self.b.device_loaders.get(id(self.owner), set()) | self.b.device_loaders.get(
            id(self.b.tree), set())
        if any(isinstance(a, ast.Name) and a.id in device_loaders for a in ast.walk(loop.iter)):
            return set()
        names = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
        moved: set[str] = set()
        for n in ast.walk(ast.Module(body=loop.body, type_ignores=[])):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and (
                    n.func.attr == "cuda" or n.func.attr == "to" and moves_off_cpu(n) and n.args):
                root = n.func.value
                while isinstance(root, (ast.Subscript, ast.Attribute)):
                    root = root.value
                if isinstance(root, ast.Name) and root.id in names:
                    moved.add(root.id)
        return moved

    def bind(self, target: ast.expr, flags: int, value: ast.expr | None) -> None:
        if isinstance(target, ast.Name):
            if value is not None and self.size(value):
                self.size_names.add(target.id)
            else:
                self.size_names.discard(target.id)
            known = self.xla_truth(value) if value is not None else None
            if known is None:
                self.on_xla.pop(target.id, None)
            else:
                self.on_xla[target.id] = known
            if target.id in self.bool_names:
                flags = (flags & ~(MAYBE_MASK | LONG)) | TENSOR | BOOL  # masked_fill(mask, ...) elsewhere here
            self.env[target.id] = flags
        elif isinstance(target, (ast.Tuple, ast.List)):
            item = _item_flags(flags, value, self)
            if flags & OUT and isinstance(value, ast.Call) and (self.b.resolve(value.func) or "").startswith("torch."):
                item = TENSOR  # values, indices = torch.topk(...); a, b = torch.chunk(...): tuples of tensors
            elif flags & OUT and not flags & (BATCH | MODULE | LOADER):
                # loss, logits = model(x, y); loss, logits = out[:2]: each item is what ``out[i]`` is, a tensor.
                # A same-file module's forward says what it returns instead (below); where that forward does not
                # return one tuple, or a layer of unknown class may be a same-file one returning (out, height,
                # width), each item stays a tensor or a structure of tensors (BATCH)
                forward = self._submodule_forward(value.func) if isinstance(value, ast.Call) else []
                if not forward and isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
                    if value.func.id == "self" and self.cls is not None:
                        forward = [m for name, m in self.cls.methods.items() if name == "forward"][:1]
                    elif value.func.id in _MODEL_NAMES and (root := self.b.root_forward()) is not None:
                        forward = [root]  # loss, logits = model(x, y): the file's model
                if forward:
                    self.returned(value, forward[0])  # type: ignore[arg-type]
                elif len(target.elts) not in self.b.forward_tuples():
                    item = TENSOR | (flags & (GRAD | CPU))
            if _dict_items(value, self) and len(target.elts) == 2:
                self.bind(target.elts[0], 0, None)  # for k, v in metrics.items(): the key, the tensor
                self.bind(target.elts[1], TENSOR, None)
                return
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                for t, v in zip(target.elts, value.elts):
                    self.bind(t, self.b.out.of(v), v)
                return
            returned = self.b.items_of.get(id(value)) if value is not None else None
            if returned is not None and len(returned) == len(target.elts) \
                    and not any(isinstance(t, ast.Starred) for t in target.elts):
                for t, item in zip(target.elts, returned):
                    self.bind(t, item, None)  # loss, acc = compute_loss(...): each item as the helper returns it
                return
            for t in target.elts:
                self.bind(t.value if isinstance(t, ast.Starred) else t, item, None)
            if value is not None and _shape_of(value):  # b, t, d = x.shape; _, _, h, w = x.size()
                self.size_names.update(t.id for t in target.elts if isinstance(t, ast.Name))
        else:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and not flags & TENSOR:
                # stats["lr"] = 0.01: no longer a dict of tensors alone
                self.env[target.value.id] = self.env.get(target.value.id, 0) & ~TENSOR_DICT
            self.expr(target)

    # expressions
    def expr(self, e: ast.expr) -> int:
        f = self._expr(e)
        if f & (TENSOR | OUT) and not f & (GRAD | BOOL | LONG) and _differentiable(e) and any(
                self.b.out.of(c) & GRAD for c in _operands(e)) and not isinstance(e, ast.Compare):
            f |= GRAD  # computed from a value autograd records
        if (f & (TENSOR | STRUCT) or id(e) in self.b.out.call_ops) and _stays_on_cpu(e, self.b.out, self.b.resolve,
                                                                                     self.size):
            f |= CPU  # (a torch op on CPU tensors alone, also one returning a Python value: torch.equal)
        if f & TENSOR:
            f |= _zero_d(e, self.b.out)
        self.b.out.flags[id(e)] = f
        return f

    def _expr(self, e: ast.expr) -> int:  # noqa: C901 - one dispatch over expression kinds
        b = self.b
        if isinstance(e, ast.Name):
            return self.env.get(e.id, MODULE if e.id in b.module_names else 0)
        if isinstance(e, ast.Constant):
            return 0
        if isinstance(e, ast.Call):
            return self.call(e)
        if isinstance(e, ast.Attribute):
            v = self.expr(e.value)
            if (self.cls is not None and isinstance(e.value, ast.Name) and e.value.id == "self"
                    and self.cls.node.name in b.module_classes):
                built = self.cls.attrs.get(e.attr)
                if isinstance(built, ast.Call):
                    name = b.resolve(built.func)
                    if is_module_class(name) or (isinstance(built.func, ast.Name) and (
                            built.func.id in b.module_classes or built.func.id in b.module_factories)):
                        return MODULE  # self.layer = nn.Linear(...) (or a same-file factory of one) in __init__
            if self.cls is not None and isinstance(e.value, ast.Name) and e.value.id == "self":
                built = self.cls.attrs.get(e.attr)
                if isinstance(built, ast.Call) and b.resolve(built.func) == "torch.nn.Parameter":
                    return TENSOR | GRAD  # self.const = nn.Parameter(...): a trainable tensor
                if e.attr in b.counter_attrs.get(self.cls.node.name, ()):
                    b.out.counted.add(id(e))
                    return STEP_INT  # self.step_index, counted up by step code: new every step
                if e.attr in b.function_attrs.get(self.cls.node.name, ()):
                    return 0  # self.calc = lambda h, w: p: a Python function, not a submodule
                if e.attr in b.device_attrs.get(self.cls.node.name, ()):
                    return TENSOR  # self.sigmas = torch.cat(...).to(device)
                if e.attr in b.buffer_attrs(self.cls):
                    return TENSOR  # self.register_buffer("initted", torch.tensor(False)): moved with the module
                if e.attr in b.cpu_attrs.get(self.cls.node.name, ()):
                    return TENSOR | CPU  # self.drop_rate = torch.tensor(p) in __init__: `.to(device)` does not move it
            if e.attr == "shape" and v & STEP_ARG and not v & (TENSOR | STRUCT):
                # for tgt in targets: tgt.shape, the size of an item of a Python list handed to the step at each
                # call (per-image targets): a list, not one stacked tensor, because the items' sizes differ
                return STEP_ARG
            if e.attr in ("shape", "dtype", "device", "ndim", "is_cuda", "requires_grad", "layout"):
                return 0
            if v & TENSOR and e.attr in ("T", "mT", "H", "data", "grad", "real", "imag", "values", "indices"):
                return TENSOR | (v & (BOOL | LONG)) if e.attr not in ("indices",) else TENSOR | LONG
            if v & STRUCT and e.attr not in ("keys", "items", "values", "get", "to"):
                return TENSOR
            if v & MODULE and e.attr not in _MODULE_USE_METHODS:
                if e.attr in ("weight", "bias"):
                    return TENSOR | GRAD  # a layer's parameters
                if isinstance(e.value, ast.Name) and e.value.id == "self" and e.attr in b.self_methods:
                    return 0  # self.get_sequence_length: a method of the object, not a submodule it holds
                return MODULE if e.attr[:1].islower() else 0
            return 0
        if isinstance(e, ast.Subscript):
            v = self.expr(e.value)
            index = self.expr(e.slice)  # records the index's own flags (rules read them)
            if v == STEP_ARG and isinstance(e.value, ast.Attribute) and e.value.attr == "shape":
                return STEP_ARG  # tgt.shape[0] of such an item: its size, new with every call
            if v & (TENSOR | STRUCT) and index & MAYBE_MASK and not index & TENSOR:
                self._settle_mask(e.slice)
            if v & TENSOR:
                return TENSOR | (v & (BOOL | LONG))
            if v & STRUCT:
                return TENSOR if not (isinstance(e.slice, ast.Slice)) else v
            if v & TENSOR_DICT and not isinstance(e.slice, ast.Slice):
                return TENSOR  # stats["loss"] of stats = {"loss": loss, "acc": acc}: each value is a tensor
            if v & TENSOR_LIST:
                return TENSOR_LIST if isinstance(e.slice, ast.Slice) else TENSOR  # losses[-1], losses[-10:]
            item = self._display_item(e)
            return self.b.out.of(item) if item is not None else 0
        if isinstance(e, ast.BinOp):
            lf, rf = self.expr(e.left), self.expr(e.right)
            if isinstance(e.op, _TENSOR_ONLY_OPS) and (lf | rf) & STRUCT and not (lf | rf) & (MODULE | LOADER):
                # `model(x) - y`, `(out / t) ** 2`: a tuple, dict or ModelOutput has no `-`, `/`, `**` or `@`, so an
                # operand that is a module's output or a batch item is a tensor here (`+`/`*` also join tuples)
                return TENSOR
            if (lf | rf) & TENSOR:
                bits = TENSOR
                if isinstance(e.op, (ast.BitAnd, ast.BitOr, ast.BitXor)) and (lf & BOOL or rf & BOOL):
                    bits |= BOOL
                return bits
            if isinstance(e.op, (ast.BitAnd, ast.BitOr, ast.BitXor)) and (lf | rf) & MAYBE_MASK:
                return MAYBE_MASK
            if (lf | rf) & STEP_INT and not (lf | rf) & (TENSOR | OUT):
                return STEP_INT
            if (lf | rf) & STEP_ARG and not (lf | rf) & (TENSOR | OUT):
                return STEP_ARG
            if (lf | rf) & HOST:
                return HOST
            return 0
        if isinstance(e, ast.UnaryOp):
            v = self.expr(e.operand)
            if isinstance(e.op, ast.Not):
                return 0
            return v & (TENSOR | BOOL | STEP_INT | STEP_ARG | HOST | (MAYBE_MASK if isinstance(e.op, ast.Invert) else 0))
        if isinstance(e, ast.Compare):
            fs = [self.expr(e.left)] + [self.expr(c) for c in e.comparators]
            if len(e.ops) == 1 and isinstance(e.ops[0], (ast.Eq, ast.NotEq)) and any(
                    isinstance(x, ast.JoinedStr) or isinstance(x, ast.Constant) and isinstance(x.value, (str, bytes))
                    for x in [e.left, *e.comparators]):
                # a tensor compared with a str is a Python bool, and reads nothing: Tensor.__eq__ returns
                # NotImplemented for a str and Python falls back to identity (measured, torch 2.9:
                # `torch.tensor([1.0]) == "seqlen"` is False). DeepSpeed's `config["curriculum_type"] == "seqlen"`
                return 0
            if any(f & TENSOR for f in fs) and not any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in e.ops):
                return TENSOR | BOOL
            if any(f & STRUCT for f in fs) and all(isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for op in e.ops):
                return TENSOR | BOOL  # a ModelOutput, tuple or dict cannot be ordered against a number: a tensor
            if len(e.ops) == 1 and not isinstance(e.ops[0], (ast.Is, ast.IsNot, ast.In, ast.NotIn)) and not all(
                    isinstance(x, ast.Constant) for x in [e.left, *e.comparators]):
                return MAYBE_MASK
            return 0
        if isinstance(e, ast.BoolOp):
            for operand in e.values:
                self.expr(operand)
            return 0
        if isinstance(e, ast.IfExp):
            self.expr(e.test)
            a, c = self.expr(e.body), self.expr(e.orelse)
            return a & c
        if isinstance(e, (ast.Tuple, ast.List)):
            return _per_step_numbers([self.expr(elt) for elt in e.elts])
        if isinstance(e, ast.Starred):
            self.expr(e.value)
            return 0
        if isinstance(e, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            saved = dict(self.env)
            for gen in e.generators:
                it = self.expr(gen.iter)
                flags = TENSOR if _dict_values(gen.iter, self) else _item_flags(it, gen.iter, self)
                if (isinstance(gen.iter, ast.Call) and isinstance(gen.iter.func, ast.Name)
                        and gen.iter.func.id == "enumerate" and gen.iter.args
                        and isinstance(gen.target, ast.Tuple) and len(gen.target.elts) == 2):
                    self.bind(gen.target.elts[0], 0, None)  # the index; the item as for the loop statement
                    arg = gen.iter.args[0]
                    self.bind(gen.target.elts[1], _item_flags(self.b.out.of(arg), arg, self), None)
                elif _dict_items(gen.iter, self) and isinstance(gen.target, ast.Tuple) and len(gen.target.elts) == 2:
                    # {k: v.cpu() for k, v in metrics.items()}: the key, and the tensor (as the loop statement)
                    held = self.b.out.of(gen.iter.func.value) & CPU  # type: ignore[attr-defined]
                    self.bind(gen.target.elts[0], 0, None)
                    self.bind(gen.target.elts[1], TENSOR | held, None)
                else:
                    self.bind(gen.target, flags, gen.iter)
                for cond in gen.ifs:
                    self.expr(cond)
            parts = [self.expr(part) for part in ((e.key, e.value) if isinstance(e, ast.DictComp) else (e.elt,))]
            self.env = saved  # comprehension variables do not leak
            if isinstance(e, ast.DictComp) and parts[1] & TENSOR:
                # {k: v.detach() for k, v in logged.items()}: every value a proven tensor, as a dict display's
                return TENSOR_DICT | parts[1] & CPU
            return _per_step_numbers(parts) if isinstance(e, (ast.ListComp, ast.GeneratorExp)) else 0
        if isinstance(e, ast.Dict):
            vals = [self.expr(v) for v in e.values]
            for k in e.keys:
                if k is not None:
                    self.expr(k)
            if vals and all(v & TENSOR for v in vals) and None not in e.keys:
                return TENSOR_DICT | (CPU if all(v & CPU for v in vals) else 0)
            return 0
        if isinstance(e, ast.Lambda):
            return 0
        for child in ast.iter_child_nodes(e):
            if isinstance(child, ast.expr):
                self.expr(child)
        return 0

    def _submodule_forward(self, f: ast.expr) -> list[FunctionInfo]:
        """``self.block(x)`` where this class built ``self.block = Block(...)``, a same-file nn.Module:
        Block.forward, whose parameters get what is passed here."""
        if self.cls is None or not _self_attr(f):
            return []
        built = self.cls.attrs.get(f.attr)  # type: ignore[attr-defined]
        if not (isinstance(built, ast.Call) and isinstance(built.func, ast.Name)
                and built.func.id in self.b.module_classes):
            return []
        return [m for c in self.b.facts.classes if c.node.name == built.func.id
                for name, m in c.methods.items() if name == "forward"][:1]

    def _sequential_forwards(self, f: ast.expr, args: list[int]) -> list[tuple[FunctionInfo, int]]:
        """``self.body(x)`` where this class built ``self.body = nn.Sequential(...)``: the forward of each
        same-file nn.Module among its items, with what its first parameter gets: the first item what is
        passed here, a later one the output of the item before it (a module output, a tensor after a
        ``torch.nn`` layer that returns one)."""
        if self.cls is None or not _self_attr(f) or not args:
            return []
        built = self.cls.attrs.get(f.attr)  # type: ignore[attr-defined]
        if not (isinstance(built, ast.Call) and self.b.resolve(built.func) == "torch.nn.Sequential") \
                or any(isinstance(a, ast.Starred) for a in built.args):
            return []
        out: list[tuple[FunctionInfo, int]] = []
        for i, item in enumerate(built.args):
            if isinstance(item, ast.Call) and isinstance(item.func, ast.Name):
                before = built.args[i - 1] if i else None
                if before is None:
                    flags = args[0]
                elif isinstance(before, ast.Call) and (self.b.resolve(before.func) or "").startswith("torch.nn.") \
                        and (self.b.resolve(before.func) or "").rsplit(".", 1)[-1] not in _MULTI_OUTPUT_LAYERS:
                    flags = TENSOR | GRAD
                else:
                    flags = OUT | GRAD
                out += [(m, flags) for m in self.b._class_forward(item.func.id)]
        return out

    def _settle_mask(self, index: ast.expr) -> None:
        """A proven tensor (or model output) is indexed by ``index``, a comparison of unproven values:
        it is a boolean tensor mask, here and wherever the name holding it is read later."""
        out = self.b.out
        out.flags[id(index)] = out.of(index) | TENSOR | BOOL
        if isinstance(index, ast.Name) and self.env.get(index.id, 0) & MAYBE_MASK:
            self.env[index.id] = TENSOR | BOOL

    def call(self, c: ast.Call) -> int:
        flags = self._call(c)
        return flags if flags else self.returned(c)

    def returned(self, c: ast.Call, target: FunctionInfo | None = None) -> int:
        """What a same-file function returns to this call (``loss = masked_mean(loss, m)``; ``loss, acc =
        compute_loss(model, x, y)``; with ``target``, the forward a same-file module call runs): its body
        walked with the flags of what the call passes, outside any step (nothing recorded, no flags kept),
        once per function and argument flags. Returns that are ``None`` are left out (the caller tests
        for them); the rest must agree: a tensor only if every one is. Each item of a tuple every return
        builds is kept for unpacking (``items_of``)."""
        b = self.b
        if target is None:
            hits = b._lookup(c.func)
            if len(hits) != 1 or hits[0].name in ("forward", "__init__"):
                return 0
            target = hits[0]
        node = target.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or id(node) in b.returning \
                or len(b.returning) >= 3:
            return 0
        params = [a.arg for a in node.args.posonlyargs + node.args.args]
        if params and params[0] == "self" and isinstance(c.func, ast.Attribute):
            params = params[1:]
        passed = {p: b.out.of(a) for p, a in zip(params, c.args) if not isinstance(a, ast.Starred)}
        passed.update((k.arg, b.out.of(k.value)) for k in c.keywords if k.arg)
        key = (id(node), tuple(sorted(passed.items())))
        if key not in b.returns:
            b.returns[key] = (0, None)
            b.returns[key] = self._walk_returns(target, passed)
        flags, items = b.returns[key]
        if items is not None:
            b.items_of[id(c)] = items
        return flags

    def _walk_returns(self, target: FunctionInfo, passed: dict[str, int]) -> tuple[int, list[int] | None]:
        b, node = self.b, target.node
        assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))  # (returned() walks no lambda)
        stmts = list(own_statements(node.body))
        values = [s.value for s in stmts if isinstance(s, ast.Return) and s.value is not None
                  and not (isinstance(s.value, ast.Constant) and s.value.value is None)]
        if not values or any(isinstance(n, (ast.Yield, ast.YieldFrom)) for s in stmts for n in walk(s)
                             if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))):
            return 0, None
        proven = b._used_as_tensor(node)
        env = {a.arg: passed.get(a.arg, 0) | proven.get(a.arg, 0)
               for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs}
        for name in env:
            if name in b.module_names and (name != "self" or b._self_is_module(node)):
                env[name] |= MODULE
        saved = b.out.flags, b.out.call_ops
        b.out.flags, b.out.call_ops = ChainMap({}, saved[0]), ChainMap({}, saved[1])  # type: ignore[assignment]
        b.returning.add(id(node))
        try:
            _Walker(b, [], env, owner_class(target)).run(node)
            got = [b.out.of(v) for v in values]
            tuples = [v for v in values if isinstance(v, ast.Tuple)]
            if len(tuples) == len(values) and len({len(v.elts) for v in tuples}) == 1:
                return 0, [_agree([b.out.of(v.elts[i]) for v in tuples]) for i in range(len(tuples[0].elts))]
            return _agree(got), None
        finally:
            b.returning.discard(id(node))
            b.out.flags, b.out.call_ops = saved

    def _call(self, c: ast.Call) -> int:
        b = self.b
        f = c.func
        recv = self.expr(f.value) if isinstance(f, ast.Attribute) else 0
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self":
            self.expr(f)  # self.layer: a module attribute?
        args = [self.expr(a) for a in c.args]
        for kw in c.keywords:
            self.expr(kw.value)
        if isinstance(f, ast.Attribute) and f.attr == "backward" and isinstance(f.value, ast.Name) and not c.args \
                and not recv & (TENSOR | MODULE):
            # loss = loss_fn(out, y); loss.backward(): only a tensor has a backward pass (accelerator.backward(loss)
            # and Function.backward(ctx, g) take arguments); from here on the name is one
            self.env[f.value.id] = recv | TENSOR | GRAD
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and not c.keywords:
            # losses.append(loss), .insert(0, loss), .extend([loss, aux]) into losses = []
            added = {"append": c.args[:1] if len(c.args) == 1 else [], "insert": c.args[1:] if len(c.args) == 2 else [],
                     "extend": _display_items(c.args[0]) if len(c.args) == 1 else []}.get(f.attr, [])
            self._fill(f.value.id, added)
        name = b.resolve(f)
        if name is not None and name.startswith("torch."):
            b.out.call_ops[id(c)] = name
        elif isinstance(f, ast.Attribute) and (recv & TENSOR or recv & MAYBE_MASK and f.attr in _MASK_METHODS
                                               or recv & STRUCT and f.attr in proving_methods()
                                               or recv & STRUCT and not recv & CPU and f.attr in _MASK_METHODS
                                               or f.attr in proving_methods() and _array_index(f.value)
                                               and not recv & MODULE):
            # (a module output or batch item with a method only tensors have, ``h.masked_scatter(m, v)``: a tensor;
            # also ``row.nonzero()`` over the rows of a model input: no container has it, and what a module is
            # handed or returns is a torch tensor, not the NumPy array that shares the name; and such a method of
            # a multi-axis slice, ``t[:, None, :].expand(-1, n, -1)``: only an array takes that index, and NumPy's
            # has no such method)
            b.out.call_ops[id(c)] = "Tensor." + f.attr
        # same-file function called from step code: its parameters get what is passed here
        if self.active:
            targets = b._lookup(f) + self._submodule_forward(f)
            root_target = None
            if not targets and isinstance(f, ast.Name) and (f.id in b.module_names or f.id in _MODEL_NAMES
                                                             or self.env.get(f.id, 0) & MODULE) \
                    and (root := b.root_forward()) is not None and any(a & STEP_ARG for a in args):
                targets = [root]  # model(ids, seq_len): the file's model, whose forward gets seq_len
                root_target = root
            if not targets and not recv & (TENSOR | STRUCT | MODULE | OPTIMIZER | LOADER | TENSOR_DICT) \
                    and not (isinstance(f, ast.Name) and (self.env.get(f.id, 0) or f.id in b.module_names
                                                          or f.id in _MODEL_NAMES)) \
                    and any(a & (TENSOR | OUT) for a in args) and (loose := b.loose_method(f)) is not None:
                targets = [loose]  # metric.update(preds, y): tensors handed to the one class with that method
                b.late.append((loose, called_from_step(self.active[-1].why, " with tensors")))
            for target in targets:
                node = target.node
                if isinstance(node, ast.Lambda):
                    continue
                params = [a.arg for a in node.args.posonlyargs + node.args.args]
                if params and params[0] == "self" and (isinstance(f, ast.Attribute) or target is root_target):
                    params = params[1:]
                proven = {p: a for p, a in zip(params, args)}
                for kw in c.keywords:
                    if kw.arg:
                        proven[kw.arg] = self.b.out.of(kw.value) if kw.value is not None else 0
                b.pass_params(node, proven)
            for target, flags in self._sequential_forwards(f, args):
                fn = target.node
                assert not isinstance(fn, ast.Lambda)
                b.pass_params(fn, {p: flags for p in [a.arg for a in fn.args.posonlyargs + fn.args.args][1:2]})
        if is_tokenizer(f) and any(k.arg == "return_tensors" and isinstance(k.value, ast.Constant)
                                   and k.value.value == "pt" for k in c.keywords):
            return BATCH | CPU  # tokenizer(texts, return_tensors="pt"): a BatchEncoding of CPU tensors
        if b.loss_built(f):
            return TENSOR | GRAD  # loss = self.criterion(logits, y): a torch.nn loss module returns one tensor
        if name is not None:
            flags = self.named_call(name, c, args)
            if flags & TENSOR and (not b.default_device or _names_device(c)) and (
                    _built_on_cpu(name, c) or name == "torch.tensor" and _host_data(c, b.out.of)):
                # (a file that sets a default device: only a factory told ``device="cpu"`` builds on the CPU)
                return flags | CPU
            return flags
        if _self_attr(f) and self.cls is not None and f.attr in b.unmoved_attrs(self.cls):  # type: ignore[attr-defined]
            tensors = [a for a in [*args, *(self.b.out.of(k.value) for k in c.keywords)] if a & (TENSOR | STRUCT)]
            if tensors and all(a & CPU for a in tensors):
                return OUT | GRAD | CPU  # self.classifier(**tokenizer(texts, return_tensors="pt")): all on the CPU
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self" and (
                f.attr in b.module_names or b.out.of(f) & MODULE or f.attr in _MODEL_NAMES):
            return OUT | GRAD  # self.layer(x), self.model(x)
        if isinstance(f, ast.Attribute) and f.attr in b.submodule_attrs and (recv & MODULE or (
                isinstance(f.value, ast.Name) and f.value.id in _MODEL_NAMES and not recv & (TENSOR | STRUCT))):
            return OUT | GRAD  # model.cell(h): a submodule that the file's nn.Module classes build under that name
        if isinstance(f, ast.Attribute) and f.attr in _DRAW_METHODS \
                and not recv & (TENSOR | STRUCT):
            return STEP_INT  # rng.randrange(...), rng.uniform(...) on a random.Random / numpy Generator
        if isinstance(f, ast.Attribute):
            m = f.attr
            if m in ("to", "type") and _bool_dtype_argument(c, b.resolve, positional=True) and not recv & MODULE:
                # x.to(torch.bool), mask.type(torch.bool), x.to(device, dtype=torch.bool): a bool tensor; of an
                # unproven value, a mask once it indexes a tensor (as ``.bool()``)
                return TENSOR | BOOL if recv & (TENSOR | STRUCT) else MAYBE_MASK
            if m == "to" or m in ("cuda", "xla"):
                if recv & MODULE:
                    return MODULE
                if recv & (TENSOR | STRUCT):
                    if m == "to" and _moves_to_cpu(c):
                        return recv | CPU  # t.to("cpu"): the copy on the host; reading it runs no graph
                    return recv & ~CPU if m != "to" or moves_off_cpu(c) else recv
                if c.args and (self.b.out.of(c.args[0]) & DEVICE or (b.resolve(c.args[0]) or "") in XLA_DEVICE_CALLS):
                    return BATCH  # x.to(device): a tensor or a batch of tensors (BatchEncoding)
                return 0
            if m == "per_device_loader":
                return LOADER
            if m in ("item", "numpy") and recv & (TENSOR | STRUCT):
                if isinstance(f.value, ast.Call) and (b.resolve(f.value.func) or "").startswith("torch.") \
                        and (b.resolve(f.value.func) or "").rsplit(".", 1)[-1] in FACTORIES_RANDOM:
                    # torch.randint(0, 8, (1,)).item(), int(torch.rand(()).numpy() * n): a new number at every call
                    return STEP_INT
                if m == "item":
                    return HOST
            if recv & MAYBE_MASK and not recv & TENSOR and m in _MASK_METHODS:
                # `(labels != -100).nonzero()`: the comparison was a tensor (a Python bool has no such method;
                # in step code the receiver is a torch mask, not a NumPy one)
                return TENSOR | LONG if m in ("nonzero", "argwhere") else TENSOR
            if recv & MAYBE_MASK and not recv & TENSOR and m in tensor_methods() and m not in _BOOL_ATTRIBUTES \
                    and self._structure_compared(f.value):
                # `(labels != -100).sum()`, `mask = y == 0; mask.all()` with `labels`/`y` a batch item or a module
                # output: the comparison of a structure would be a Python bool, which has no such method
                return TENSOR | (BOOL if m in ("any", "all", "bool") else LONG if m in ("sum", "long") else 0)
            if m == "bool" and not recv & (TENSOR | STRUCT) and not c.args:
                return MAYBE_MASK  # `attention_mask.bool()` of an unproven value
            if m == "tolist" and recv & (TENSOR | BATCH) and not c.args:
                # the values of a step's tensor as Python ints (per-example lengths, split sizes): new
                # with every batch (torch_xla_recompile.json: int_split_sections, int_in_factory_size)
                return STEP_INT
            if m == "cpu" and recv & (TENSOR | STRUCT) and not c.args and not c.keywords:
                return recv | CPU  # t.cpu(): as t.to("cpu"), the copy on the host; reading it runs no graph
            if m in ("tolist", "numpy", "cpu") or m in NON_TENSOR_METHODS:
                return 0
            if not recv & (TENSOR | STRUCT) and isinstance(f.value, ast.Name) \
                    and b._instances().get(f.value.id) and b._lookup(f):
                # solver.t(sigma) with every binding of `solver` a same-file class that defines `t`: that method
                # (what its returns are, in call()), not Tensor.t; an object of a same-file class is no tensor
                return 0
            if recv & TENSOR or (recv & STRUCT and (m in tensor_methods() or m in _CASTS)) or m in proving_methods():
                if m in ("bool",) or m in ("eq", "ne", "gt", "lt", "ge", "le", "isnan", "isinf", "isfinite",
                                           "logical_and", "logical_or", "logical_not", "isin") \
                        or "Tensor." + m in bool_results() \
                        or m in ("new_zeros", "new_ones", "new_empty", "new_full", "new_tensor") \
                        and _bool_dtype_argument(c, b.resolve, positional=False):
                    return TENSOR | BOOL
                if m in ("long", "int", "argmax", "argmin", "argsort", "nonzero"):
                    return TENSOR | LONG
                if m in tensor_methods():
                    return TENSOR | (recv & BOOL if m in ("clone", "detach", "view", "reshape", "flatten", "to",
                                                         "contiguous", "squeeze", "unsqueeze", "expand", "t", "transpose", "permute") else 0)
                return TENSOR if recv & TENSOR or m in _CASTS else 0
            if recv & MODULE:
                if m in ("forward", "__call__"):
                    return OUT | GRAD
                if m in ("generate",):
                    return TENSOR | LONG
                return 0
            return 0
        if isinstance(f, ast.Name):
            if f.id in b.module_classes:
                return MODULE
            if f.id in b.module_names or self.env.get(f.id, 0) & MODULE or (
                    f.id in _MODEL_NAMES and not self.env.get(f.id, 0) & (TENSOR | STRUCT)):
                tensors = [a for a in [*args, *(self.b.out.of(k.value) for k in c.keywords)] if a & (TENSOR | STRUCT)]
                if f.id in self.unmoved and tensors and all(a & CPU for a in tensors):
                    return OUT | GRAD | CPU  # a module nothing moves, on CPU inputs: its output is on the CPU
                return OUT | GRAD
            if f.id in ("int", "float", "bool") and args and args[0] & (TENSOR | HOST):
                inner = c.args[0]
                inner_name = b.resolve(inner.func) or "" if isinstance(inner, ast.Call) else ""
                if inner_name.startswith("torch.") and inner_name.rsplit(".", 1)[-1] not in RANDOM_OPS \
                        and _built_from_sizes(inner, self.size):  # type: ignore[arg-type]
                    # int(torch.div(h, 2)) with h from a shape: the same number at every step (a draw,
                    # int(torch.randint(0, 8, (1,))), is a new number at every call)
                    return 0
                return STEP_INT if f.id == "int" else HOST
            if f.id in ("len", "max", "min", "sum", "abs", "round", "int", "sorted") \
                    and any(a & STEP_INT for a in args):
                return STEP_INT
            if f.id == "len" and len(c.args) == 1 and isinstance(c.args[0], ast.Name) and self.active and \
                    c.args[0].id in _grown_in(self.active[-1].node) and \
                    c.args[0].id not in _rebuilt_in(self.active[-1].node):
                # len() of a container the step grows and keeps across steps: a new value every step
                # (one the step builds afresh, ``laterals = [...]; laterals.append(p)``, has one length)
                return STEP_INT
            if f.id in ("max", "min") and any(a & (HOST) for a in args):
                return HOST
            if f.id == "sum" and len(c.args) == 1 and isinstance(c.args[0], (ast.GeneratorExp, ast.ListComp)):
                # sum() of device tensors adds them lazily: a device tensor (torch_xla_host.json measured
                # builtins.sum reading nothing; Python adds the items with Tensor.__add__)
                items = self.b.out.of(c.args[0].elt)
                if items & TENSOR and not items & (CPU | STRUCT):
                    return TENSOR
        if isinstance(f, (ast.Name, ast.Attribute)) and recv == 0 and self.env.get(getattr(f, "id", ""), 0) & MODULE:
            return OUT | GRAD
        if isinstance(f, ast.Name) and not self.env.get(f.id, 0) and (hits := b._lookup(f)) \
                and _returns_random_draw(hits[0].node, b.resolve):
            return STEP_INT  # rx, ry, rw, rh = rand_bbox(h, w, lam): a helper returning host random draws
        return 0

    def _plain_loader(self, c: ast.Call) -> bool:
        """A DataLoader whose batches stay on the CPU: no ``collate_fn`` (one may move them), and no
        argument that mentions a device or moves a tensor (``TensorDataset(x.to(device))``)."""
        if any(k.arg == "collate_fn" or k.arg is None for k in c.keywords):
            return False
        seen: set[str] = set()
        todo: list[ast.expr] = [*c.args, *(k.value for k in c.keywords)]
        while todo:
            for n in walk(todo.pop()):
                if isinstance(n, ast.Attribute) and n.attr in ("to", "cuda", "xla", "device"):
                    return False
                if _names_a_device(n, lambda name: self.env.get(name.id, 0)):
                    return False
                if isinstance(n, ast.Name) and n.id not in seen:
                    # a dataset bound to a name first (``ds = TensorDataset(x.to(device))``): what the
                    # file assigns to that name counts too
                    seen.add(n.id)
                    todo.extend(v for v in self.b.assigned_values(n.id))
        return True

    def named_call(self, name: str, c: ast.Call, args: list[int]) -> int:
        if name in XLA_DEVICE_CALLS:
            return DEVICE
        if name in ("math.ceil", "math.floor", "math.trunc") and any(a & (STEP_INT | HOST) for a in args):
            return STEP_INT  # math.ceil(total / chunk): a chunk count from a per-step value
        if number_of_step_number(name, args):
            return STEP_INT
        if name in _LOADER_CALLS:
            return LOADER | CPU if name == "torch.utils.data.DataLoader" and self._plain_loader(c) else LOADER
        if name in _RANDOM_INT_CALLS or scalar_draw(name, c):
            return STEP_INT
        if name.startswith("torch.optim.") and name.rsplit(".", 1)[-1][:1].isupper():
            return OPTIMIZER
        if name in ("torch.nn.Parameter", "torch.nn.parameter.Parameter"):
            return TENSOR | GRAD
        if name in ("torch.nn.Transformer.generate_square_subsequent_mask",
                    "torch.nn.modules.transformer.Transformer.generate_square_subsequent_mask"):
            # a factory (torch.triu of torch.full): a tensor; on the device it is given, else on the CPU
            return TENSOR if any(k.arg == "device" for k in c.keywords) else TENSOR | CPU
        if name.startswith("torch.nn.") and not name.startswith("torch.nn.functional.") and not name.startswith("torch.nn.utils."):
            leaf = name.rsplit(".", 1)[-1]
            if leaf[:1].isupper():
                return MODULE
            return 0
        if name.startswith("transformers.") and name.endswith(".from_pretrained"):
            return MODULE if "Tokenizer" not in name and "Config" not in name and "Processor" not in name else 0
        if name in _NON_TENSOR_TORCH:
            return 0
        if name == "torch.nn.utils.clip_grad_norm_":
            return TENSOR
        if name.startswith("torch.") and (name in op_table()["ops"] or name.startswith(_ND_NAMESPACES)
                                          or name.rsplit(".", 1)[-1] in ("tensor", "as_tensor", "from_numpy")):
            leaf = name.rsplit(".", 1)[-1]
            if leaf in ("eq", "ne", "gt", "lt", "ge", "le", "isnan", "isinf", "isfinite", "isin", "logical_and",
                        "logical_or", "logical_not", "isclose", "bernoulli") and leaf != "bernoulli" \
                    or name in bool_results() or _bool_dtype_argument(c, self.b.resolve, positional=False):
                return TENSOR | BOOL  # a comparison or predicate, or a factory given dtype=torch.bool
            if leaf in ("argmax", "argmin", "argsort", "randint", "randperm", "nonzero", "multinomial", "arange"):
                return TENSOR | LONG
            if name in ("torch.max", "torch.min", "torch.sort", "torch.topk", "torch.kthvalue", "torch.median", "torch.mode") \
                    and len(c.args) + len(c.keywords) > 1:
                return OUT  # (values, indices)
            if name in ("torch.split", "torch.chunk", "torch.unbind", "torch.meshgrid", "torch.where") and not (
                    name == "torch.where" and len(c.args) == 3):
                return OUT
            return TENSOR
        return 0


_RETURNED = TENSOR | BOOL | LONG | GRAD | CPU | OUT | TENSOR_DICT | STEP_INT | ZERO_D  # what a return carries back


def _agree(flags: list[int]) -> int:
    """The flags every one of several returned values has (a tensor only if each return is one)."""
    out = _RETURNED
    for f in flags:
        out &= f
    return out if out & (TENSOR | OUT | TENSOR_DICT | STEP_INT) else 0


def _per_step_numbers(items: list[int]) -> int:
    """A list or tuple of Python numbers one of which changes every step (``(sz, sz)``, ``[math.ceil(x * sf)
    for x in shape]`` with ``sz``/``sf`` drawn per step) changes with it: STEP_INT, when no item is a
    tensor or a structure of them."""
    if any(f & (TENSOR | OUT | STRUCT | MODULE) for f in items):
        return 0
    return STEP_INT if any(f & (STEP_INT | HOST) for f in items) else 0


def _array_index(e: ast.expr) -> bool:
    """``t[:, None, :]``, ``x[..., 1:]``: an index over several axes with a slice, a ``None`` axis or an
    ellipsis, which no list, tuple, dict or string takes (a dict's tuple key holds no slice); not pandas'
    indexers (``df.loc[:, "a"]``: a Series, whose methods share names with tensors')."""
    return isinstance(e, ast.Subscript) and isinstance(e.slice, ast.Tuple) and any(
        isinstance(p, ast.Slice) or isinstance(p, ast.Constant) and (p.value is None or p.value is Ellipsis)
        for p in e.slice.elts) and not (isinstance(e.value, ast.Attribute) and e.value.attr in _PANDAS_INDEXERS)


_PANDAS_INDEXERS = frozenset({"loc", "iloc", "at", "iat"})


def _operands(e: ast.expr) -> list[ast.expr]:
    """The values an expression computes from (a method call's receiver included)."""
    if isinstance(e, ast.Call):
        recv = [e.func.value] if isinstance(e.func, ast.Attribute) else []
        args = [a.value if isinstance(a, ast.Starred) else a for a in e.args] + [k.value for k in e.keywords]
        return recv + [x for a in args for x in (a.elts if isinstance(a, (ast.List, ast.Tuple)) else [a])]
    return [c for c in ast.iter_child_nodes(e) if isinstance(c, ast.expr)]


def _differentiable(e: ast.expr) -> bool:
    """Not a call that leaves autograd (``.detach()``, ``.item()``, integer casts)."""
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute):
        return e.func.attr not in ("detach", "detach_", "item", "tolist", "long", "int", "bool", "numpy", "cpu")
    return True


_DRAW_METHODS = frozenset({"randint", "randrange", "integers", "uniform", "choice"})


def _is_draw(e: ast.AST, resolve: Callable[[ast.expr], str | None]) -> bool:
    """A host random draw: ``rng.randint(...)``, ``random.randrange(...)``, ``np.random.randint(...)``."""
    return isinstance(e, ast.Call) and (resolve(e.func) in _RANDOM_INT_CALLS or scalar_draw(resolve(e.func), e)
                                        or isinstance(e.func, ast.Attribute)
                                        and e.func.attr in _DRAW_METHODS and resolve(e.func) is None)


def _returns_random_draw(fn: ast.AST, resolve: Callable[[ast.expr], str | None]) -> bool:
    """A plain same-file function (no torch op, no module) every ``return`` of which computes from
    a host random draw made in its own code: its result is a Python number new at every call."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    if any((resolve(n.func) or "").startswith("torch.") for n in walk(fn) if isinstance(n, ast.Call)):
        return False  # it builds tensors: not a host number
    drawn: set[str] = set()
    stmts = list(own_statements(fn.body))

    def bind() -> bool:  # the names only grow, so this settles
        changed = False
        for s in stmts:
            value = getattr(s, "value", None) if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)) else None
            if value is None or not any(_is_draw(n, resolve) or isinstance(n, ast.Name) and n.id in drawn
                                        for n in walk(value)):
                continue
            for t in bound_names(s):
                if t not in drawn:
                    drawn.add(t)
                    changed = True
        return changed

    settle(bind)
    returns = [s for s in stmts if isinstance(s, ast.Return)]
    return bool(returns) and all(
        s.value is not None and any(_is_draw(n, resolve) or isinstance(n, ast.Name) and n.id in drawn
                                    for n in walk(s.value)) for s in returns)


# Reductions that, called without a dimension, give a 0-d tensor; of them, those whose 0-d result is an integer
# (of any tensor, or of an integer or boolean one).
_FULL_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "amax", "amin", "prod", "argmax", "argmin", "norm", "all",
                              "any", "std", "var", "median", "nansum", "nanmean", "count_nonzero"})
_INT_REDUCTIONS = frozenset({"argmax", "argmin", "count_nonzero"})
_INT_OF_INT_REDUCTIONS = frozenset({"sum", "prod", "max", "min", "amax", "amin", "nansum"})
# Tensor methods that keep a 0-d tensor 0-d (elementwise, casts, copies); those that make it an integer
_ELEMENTWISE_0D = frozenset({"long", "int", "short", "float", "double", "half", "bfloat16", "abs", "neg", "clone",
                             "detach", "sqrt", "exp", "log", "round", "floor", "ceil", "clamp", "clamp_min",
                             "clamp_max", "to", "type_as", "reciprocal", "sign", "trunc", "contiguous"})
_INT_CASTS = frozenset({"long", "int", "short"})
_INT_ARITH = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)


def _reduced(m: str, recv: int) -> int:
    """The flags of a full reduction ``m`` (no ``dim``) of a tensor with flags ``recv``: 0-d, an integer or not."""
    whole = m in _INT_REDUCTIONS or m in _INT_OF_INT_REDUCTIONS and bool(recv & (LONG | BOOL)) and m != "nansum"
    return ZERO_D | (LONG if whole else 0)


def _no_dim(c: ast.Call, positional: int) -> bool:
    return len(c.args) == positional and not any(k.arg in ("dim", "axis") for k in c.keywords)


def _int_constant(x: ast.expr) -> bool:
    return isinstance(x, ast.Constant) and type(x.value) is int


def _zero_d(e: ast.expr, out: TorchFacts) -> int:
    """ZERO_D (with LONG for an integer one) when the proven tensor ``e`` is 0-d: see :data:`ZERO_D`."""
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and out.of(e.func.value) & TENSOR:
        m, recv = e.func.attr, out.of(e.func.value)
        if m in _FULL_REDUCTIONS and _no_dim(e, 0):
            return _reduced(m, recv)
        if m in _ELEMENTWISE_0D and recv & ZERO_D and not any(isinstance(a, (ast.Tuple, ast.List)) for a in e.args):
            whole = m in _INT_CASTS or recv & LONG and m in ("abs", "neg", "clone", "detach", "contiguous")
            return ZERO_D | (LONG if whole else 0)
        return 0
    if isinstance(e, ast.Call):  # torch.argmax(scores), torch.sum(mask)
        op = out.call_ops.get(id(e), "")
        if op.startswith("torch.") and op.count(".") == 1 and op[6:] in _FULL_REDUCTIONS and _no_dim(e, 1) \
                and out.of(e.args[0]) & TENSOR:
            return _reduced(op[6:], out.of(e.args[0]))
        return 0
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
        return out.of(e.operand) & (ZERO_D | LONG) if out.of(e.operand) & ZERO_D else 0
    if isinstance(e, ast.BinOp):
        sides = (e.left, e.right)
        if not all(out.of(x) & ZERO_D or isinstance(x, ast.Constant) and type(x.value) in (int, float) for x in sides):
            return 0
        whole = isinstance(e.op, _INT_ARITH) and all(
            out.of(x) & LONG if out.of(x) & ZERO_D else _int_constant(x) for x in sides)
        return ZERO_D | (LONG if whole else 0)
    return 0


def _grown_in(node: ast.AST) -> set[str]:
    """Names of containers that code in ``node`` grows (``xs.append``, ``seen.update`` ...)."""
    return {c.func.value.id for c in _calls_in(node) if isinstance(c.func, ast.Attribute)
            and c.func.attr in ("append", "extend", "add", "update", "insert") and isinstance(c.func.value, ast.Name)}


def _rebuilt_in(node: ast.AST) -> set[str]:
    """Names that code in ``node`` (re)binds with a plain assignment: built afresh at each step."""
    return {t.id for n in walk(node) if isinstance(n, (ast.Assign, ast.AnnAssign))
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)}


def _dict_of_tensors(call: ast.expr | None, w: _Walker, method: str) -> bool:
    return (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == method
            and not call.args and bool(w.b.out.of(call.func.value) & TENSOR_DICT))


def _dict_items(value: ast.expr | None, w: _Walker) -> bool:
    """``d.items()`` of a dict display of tensors: (key, tensor) pairs."""
    return _dict_of_tensors(value, w, "items")


def _dict_values(value: ast.expr | None, w: _Walker) -> bool:
    """``d.values()`` of a dict display of tensors: tensors."""
    return _dict_of_tensors(value, w, "values")


def moves_off_cpu(c: ast.Call) -> bool:
    """``t.to(...)`` names a device that is not the CPU (``.to(torch.float16)`` keeps the device)."""
    return names_off_cpu(_device_arguments(c))


def names_device(c: ast.Call) -> bool:
    """``t.to(...)`` names a device, the CPU included: a positional argument or ``device=`` that is not None
    and not a dtype (``.to(torch.float16)`` keeps the device; an unknown value may be a device or a tensor)."""
    return any(not (isinstance(a, ast.Constant) and a.value is None) and not _torch_dtype(a)
               for a in _device_arguments(c))


def _device_arguments(c: ast.Call) -> list[ast.expr]:
    """The arguments of ``t.to(...)`` that may name its target device: the positional ones and ``device=``
    (``**kwargs`` too)."""
    return [*c.args, *(k.value for k in c.keywords if k.arg in ("device", None))]


def _torch_dtype(a: ast.expr) -> bool:
    """``torch.float16``, ``torch.long``: an attribute of ``torch`` as a ``.to()`` argument names a dtype."""
    return isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) and a.value.id == "torch"


def names_off_cpu(values: Iterable[ast.expr]) -> bool:
    """One of ``values`` (a ``.to(...)``'s arguments, a factory's ``device=``) names a device that is not the CPU:
    not ``"cpu"``, ``torch.device("cpu")``, None or a dtype (``torch.long``); an unknown value is a device."""
    for a in values:
        if isinstance(a, ast.Call) and isinstance(a.func, ast.Attribute) and a.func.attr == "device" \
                and isinstance(a.func.value, ast.Name) and a.func.value.id == "torch" and a.args:
            a = a.args[0]  # torch.device("cpu")
        if isinstance(a, ast.Constant):
            if isinstance(a.value, str) and not a.value.startswith("cpu"):
                return True
            continue
        if _torch_dtype(a):
            continue
        return True  # a device object or name (unknown values: moved, as in step code they are)
    return False


def _size_like(e: ast.expr) -> bool:
    """A static size of a tensor: ``x.shape[-1]``, ``x.size(0)``, ``len(x)``, ``x.numel()``, ``x.dim()``, a literal."""
    if isinstance(e, ast.Constant) or _shape_of(e) or isinstance(e, ast.Subscript) and _shape_of(e.value):
        return True
    return isinstance(e, ast.Call) and (isinstance(e.func, ast.Name) and e.func.id == "len" or isinstance(
        e.func, ast.Attribute) and e.func.attr in ("size", "numel", "dim"))


def _moves_to_cpu(c: ast.Call) -> bool:
    """``t.to("cpu")``, ``t.to(device="cpu")``, ``t.to(torch.device("cpu"))``: a copy on the host (``t.to("cuda")``:
    a copy on a CUDA device, off the XLA device as well)."""
    for a in [*c.args[:1], *(k.value for k in c.keywords if k.arg == "device")]:
        if _names_cuda(a):
            return True
        if isinstance(a, ast.Call) and isinstance(a.func, ast.Attribute) and a.func.attr == "device" and a.args:
            a = a.args[0]
        if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.split(":")[0] == "cpu":
            return True
    return False


def _host_data(c: ast.Call, flags_of: Callable[[ast.AST], int]) -> bool:
    """``torch.tensor(data)`` with no ``device=`` (nor ``**kwargs``) of data none of whose items is a proven
    tensor on a device (Python numbers or lists of them): built on the default device, the CPU.
    (``torch.tensor`` of a device tensor copies it on that device; of a list of device scalars it reads
    each one: that read is no CPU tensor's.)"""
    if any(k.arg in ("device", None) for k in c.keywords) or not c.args or isinstance(c.args[0], ast.Starred):
        return False
    todo, items = [c.args[0]], []
    while todo:
        e = todo.pop()
        if isinstance(e, (ast.List, ast.Tuple)):
            todo.extend(e.elts)
        elif isinstance(e, (ast.ListComp, ast.GeneratorExp)):
            # [b.sum() for b in boxes]: items of a sequence not known to be on the host (a device tensor's, read
            # one by one); [m.shape[-1] for m in masks], [1 if i in ids else 0 for i in range(n)]: Python values
            bound = {n.id for g in e.generators if not flags_of(g.iter) & CPU and not (
                isinstance(g.iter, ast.Call) and isinstance(g.iter.func, ast.Name) and g.iter.func.id == "range")
                for n in walk(g.target) if isinstance(n, ast.Name)}
            root = e.elt
            while isinstance(root, (ast.Attribute, ast.Subscript, ast.Call)):
                root = root.func if isinstance(root, ast.Call) else root.value
            if isinstance(root, ast.Name) and root.id in bound and not _size_like(e.elt):
                return False
            todo.append(e.elt)
        else:
            items.append(e)
    return not any(flags_of(e) & (TENSOR | STRUCT) and not flags_of(e) & CPU for e in items)


def _names_the_cpu(c: ast.Call) -> bool:
    """``torch.device("cpu")`` (``"cpu:0"``), ``torch.device(type="cpu")``."""
    a = c.args[0] if c.args else next((k.value for k in c.keywords if k.arg == "type"), None)
    return isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.split(":")[0] == "cpu"


def _names_device(c: ast.Call) -> bool:
    """The call says where it builds: a ``device=`` keyword (the default device does not apply)."""
    return any(k.arg == "device" for k in c.keywords)


def _sets_default_device(tree: ast.Module, resolve: Callable[[ast.expr], str | None]) -> bool:
    """The file sets torch's default device: ``torch.set_default_device``, ``torch.set_default_tensor_type``,
    or ``with torch.device(d):`` (factories without ``device=`` build on ``d``). Not ``with torch.device("cpu"):``:
    there the default device is the CPU, as it is without it."""
    for n in walk(tree):
        if isinstance(n, ast.Call) and resolve(n.func) in ("torch.set_default_device",
                                                          "torch.set_default_tensor_type"):
            return True
        if isinstance(n, (ast.With, ast.AsyncWith)) and any(
                isinstance(i.context_expr, ast.Call) and resolve(i.context_expr.func) == "torch.device"
                and not _names_the_cpu(i.context_expr)
                for i in n.items):
            return True
    return False


def _names_a_device(n: ast.AST, flags_of: Callable[[ast.Name], int]) -> bool:
    """``n`` is a name that holds a device: one the model knows holds a device (``DEVICE``: a
    ``torch_xla.device()``), or one whose spelling says so (``device``, ``xla_device``,
    ``target_device``: an unknown value there is taken to be a device, as ``moves_off_cpu`` takes
    one). The one test of "this code mentions a device" (a DataLoader's arguments, a torch function's
    operands)."""
    return isinstance(n, ast.Name) and ("device" in n.id or bool(flags_of(n) & DEVICE))


def _rooted_at_self(e: ast.expr) -> bool:
    while isinstance(e, ast.Attribute):
        e = e.value
    return isinstance(e, ast.Name) and e.id == "self"


def _built_on_cpu(name: str, c: ast.Call) -> bool:
    """``torch.from_numpy(a)`` (host memory, no ``device=``), a factory told ``device="cpu"``, and a
    size-taking factory given no ``device=`` (``torch.rand([])``: built on the default device, the CPU).
    A factory told a CUDA device (``device=torch.cuda.current_device()``) counts too: its tensor is not on
    the XLA device either, and reading it runs no XLA graph."""
    if name == "torch.from_numpy":
        return True
    device = [k.value for k in c.keywords if k.arg == "device"]
    if any(k.arg is None for k in c.keywords):
        return False  # (**kwargs may name the device)
    if not device:
        return name.removeprefix("torch.") in FACTORIES_DETERMINISTIC | FACTORIES_RANDOM
    return name.startswith("torch.") and (isinstance(device[0], ast.Constant) and device[0].value == "cpu"
                                          or _names_cuda(device[0]))


def _names_cuda(e: ast.expr) -> bool:
    """A device spelled as a CUDA one: ``"cuda"``, ``"cuda:0"``, ``f"cuda:{rank}"``, ``torch.device("cuda", i)``,
    ``torch.cuda.current_device()`` (an index into CUDA devices). Never the XLA device."""
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "device" and e.args:
        e = e.args[0]  # torch.device("cuda", i)
    if isinstance(e, ast.JoinedStr) and e.values:
        e = e.values[0]  # f"cuda:{rank}"
    if isinstance(e, ast.Constant) and isinstance(e.value, str):
        return e.value.split(":")[0] == "cuda"
    return (isinstance(e, ast.Call) and not e.args and isinstance(e.func, ast.Attribute)
            and e.func.attr == "current_device" and isinstance(e.func.value, ast.Attribute)
            and e.func.value.attr == "cuda")


def _unmoved_modules(owner: ast.AST, module_classes: frozenset[str] | set[str]) -> frozenset[str]:
    """Names ``owner`` binds once, to a module it builds (``seq = Sequence()``, ``loss_fn = nn.MSELoss()``),
    that nothing there (nested functions included) moves or hands on: no ``.to()``/``.cuda()``/``.xla()``/
    ``.to_empty()``/``.apply()`` on it, never an argument, a return value or an item of a display. Its
    parameters stay where they were built: on the CPU."""
    stores: dict[str, int] = {}
    names: set[str] = set()
    for n in walk(owner):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            stores[n.id] = stores.get(n.id, 0) + 1
        elif isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and isinstance(n.value, ast.Call):
            f = n.value.func
            if isinstance(f, ast.Name) and f.id in module_classes or isinstance(f, ast.Attribute) and isinstance(
                    f.value, ast.Name) and f.value.id == "nn" and f.attr[:1].isupper():
                names.add(n.targets[0].id)
    names = {k for k in names if stores.get(k) == 1}
    for n in walk(owner):
        if not names:
            break
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.attr in (
                    "to", "cuda", "xla", "to_empty", "apply", "_apply"):
                names.discard(f.value.id)
            for a in [*n.args, *(k.value for k in n.keywords)]:
                a = a.value if isinstance(a, ast.Starred) else a
                if isinstance(a, ast.Name):
                    names.discard(a.id)
        elif isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom)) and isinstance(n.value, ast.Name):
            names.discard(n.value.id)
        elif isinstance(n, (ast.List, ast.Tuple, ast.Set, ast.Dict)):
            for v in (n.values if isinstance(n, ast.Dict) else n.elts):
                if isinstance(v, ast.Name):
                    names.discard(v.id)
        elif isinstance(n, ast.Assign) and isinstance(n.value, ast.Name):
            names.discard(n.value.id)  # other = seq: an alias that may move
    return frozenset(names)


_NUMBER_ANNOTATIONS = frozenset({"int", "float"})


# (bounded: keyed on the class node, an unbounded cache kept every linted file's classes alive, ~1 MB a file)
@lru_cache(maxsize=256)
def constructor_numbers(cls: ast.ClassDef) -> frozenset[str]:
    """``self.<attr>`` names that hold a Python number fixed when the object is built: every assignment to
    the attribute is in ``__init__`` (none in another method, no ``+=`` outside it), and each assigned value
    is a number literal, an ``__init__`` parameter annotated ``int``/``float`` or defaulting to a number, an
    attribute of a parameter (``config.num_classes``), another such attribute, or arithmetic, ``len()``,
    ``int()``/``float()``/``min()``/``max()`` of them. One value per module instance: a size computed from it
    and from static shapes is the same at every step of one input shape (``num_attrs = self.num_classes + 5``)."""
    init = next((m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and m.name == "__init__"), None)
    if init is None:
        return frozenset()
    a = init.args
    params = {x.arg: x for x in [*a.posonlyargs, *a.args, *a.kwonlyargs][1:]}
    defaults = dict(zip([x.arg for x in [*a.posonlyargs, *a.args]][::-1], a.defaults[::-1]))
    defaults.update({x.arg: d for x, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})

    def number_param(name: str) -> bool:
        x = params.get(name)
        if x is None:
            return False
        if x.annotation is not None:
            return isinstance(x.annotation, ast.Name) and x.annotation.id in _NUMBER_ANNOTATIONS
        d = defaults.get(name)
        return isinstance(d, ast.Constant) and isinstance(d.value, (int, float)) and not isinstance(d.value, bool)

    assigned: dict[str, list[ast.expr | None]] = {}
    elsewhere: set[str] = set()
    for m in cls.body:
        if not isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for n in ast.walk(m):
            targets: list[tuple[ast.expr, ast.expr | None]] = []
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    if isinstance(t, (ast.Tuple, ast.List)):
                        targets += [(x, None) for x in t.elts]
                    else:
                        targets.append((t, n.value))
            elif isinstance(n, (ast.AugAssign, ast.AnnAssign)):
                targets = [(n.target, n.value if isinstance(n, ast.AnnAssign) else None)]
            for t, v in targets:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                    if m is init and not isinstance(n, ast.AugAssign):
                        assigned.setdefault(t.attr, []).append(v)
                    else:
                        elsewhere.add(t.attr)
    known: set[str] = set()

    def number(e: ast.expr | None) -> bool:
        if isinstance(e, ast.Constant):
            return isinstance(e.value, (int, float)) and not isinstance(e.value, bool)
        if isinstance(e, ast.Name):
            return number_param(e.id)
        if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name):
            return e.attr in known if e.value.id == "self" else e.value.id in params
        if isinstance(e, ast.BinOp):
            return number(e.left) and number(e.right)
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
            return number(e.operand)
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and not e.keywords and e.args:
            return e.func.id == "len" or e.func.id in ("int", "float", "min", "max") and all(number(x) for x in e.args)
        return False

    grew = True
    while grew:
        grew = False
        for attr, values in assigned.items():
            if attr not in known and attr not in elsewhere and all(number(v) for v in values):
                known.add(attr)
                grew = True
    return frozenset(known)


def _shape_of(e: ast.expr) -> bool:
    """``x.shape`` or ``x.size()``: a tensor's static sizes (a torch.Size of Python ints)."""
    return (isinstance(e, ast.Attribute) and e.attr == "shape" or isinstance(e, ast.Call) and not e.args
            and not e.keywords and isinstance(e.func, ast.Attribute) and e.func.attr == "size")


def _stays_on_cpu(e: ast.expr, out: TorchFacts, resolve: Callable[[ast.expr], str | None],
                  size: Callable[[ast.expr], bool] = lambda e: False) -> bool:
    """``e`` computes a tensor from CPU tensors alone (see ``CPU``): a method other than a move, an
    attribute or index of one, arithmetic/comparison whose tensor operands are all on the CPU, or a
    ``torch.*`` function of such operands that names no device (``torch.max(lengths)``), or of Python
    sizes alone (``torch.div(h, 2)`` with ``h`` from ``x.shape``: a CPU scalar tensor)."""
    if isinstance(e, ast.Call):
        f = e.func
        if isinstance(f, ast.Attribute) and out.of(f.value) & (TENSOR | STRUCT | CPU):
            return f.attr not in ("to", "cuda", "xla") and bool(out.of(f.value) & CPU)
        if (resolve(f) or "").startswith("torch.") and _device_of_cpu_tensor(e, out):
            return True  # torch.arange(e, device=freqs.device) with freqs on the CPU
        if not (resolve(f) or "").startswith("torch.") or any(k.arg in ("device", None) for k in e.keywords):
            return False
        if (resolve(f) or "").startswith("torch.nn.") and (resolve(f) or "").rsplit(".", 1)[-1][:1].isupper():
            return False  # nn.Parameter(torch.randn(n)), nn.Linear(...): module state moves with .to(device)
        operands = [*e.args, *(k.value for k in e.keywords)]
        # torch.cat([a, b]): the tensors of a list or tuple display are operands too
        operands += [x for a in operands if isinstance(a, (ast.List, ast.Tuple)) for x in a.elts]
        # torch.stack([torch.tensor(u.shape[2:]) for u in xs]): the items a comprehension builds are operands
        operands += [a.elt for a in operands if isinstance(a, (ast.ListComp, ast.GeneratorExp))]
        if any(_names_a_device(n, out.of) for a in operands for n in walk(a)):
            return False
        if any(isinstance(a, ast.Name) and not out.of(a) and not size(a) for a in operands):
            return False  # masked_select(input_ids, cpu_mask): an operand of unknown place may be on the device
        if _built_from_sizes(e, size):
            return True  # torch.div(h, 2), torch.tensor(n): built from Python numbers on the default device
    elif isinstance(e, (ast.Attribute, ast.Subscript)):
        return bool(out.of(e.value) & CPU)
    else:
        operands = ([e.left, e.right] if isinstance(e, ast.BinOp) else [e.left, *e.comparators]
                    if isinstance(e, ast.Compare) else [e.operand] if isinstance(e, ast.UnaryOp) else [])
    tensors = [o for o in operands if out.of(o) & (TENSOR | STRUCT)]
    return bool(tensors) and all(out.of(o) & CPU for o in tensors)


def _device_of_cpu_tensor(e: ast.Call, out: TorchFacts) -> bool:
    """A call told ``device=t.device`` of a tensor known to be on the CPU (``torch.arange(n, device=freqs.device)``
    with ``freqs`` built with ``device="cpu"``): the result lives where ``device=`` says, whatever the operands."""
    device = [k.value for k in e.keywords if k.arg == "device"]
    if len(device) != 1 or any(k.arg is None for k in e.keywords):
        return False
    d = device[0]
    return isinstance(d, ast.Attribute) and d.attr == "device" and bool(out.of(d.value) & CPU) \
        and bool(out.of(d.value) & (TENSOR | STRUCT))


def _built_from_sizes(e: ast.Call, size: Callable[[ast.expr], bool]) -> bool:
    """A call whose arguments are all Python sizes (``torch.div(h, 2, rounding_mode="trunc")``)."""
    return bool(e.args) and all(size(a) for a in e.args) and all(
        k.arg in ("dtype", "rounding_mode") or size(k.value) for k in e.keywords)


def _item_flags(flags: int, value: ast.expr | None, w: _Walker) -> int:
    """What iterating a value (or unpacking it) gives."""
    if flags & TENSOR_LIST:
        return TENSOR  # for l in losses: each a device tensor the step appended
    if isinstance(value, (ast.List, ast.Tuple)) and value.elts \
            and not any(isinstance(x, ast.Starred) for x in value.elts):
        items = [w.b.out.of(x) for x in value.elts]
        if all(f & TENSOR for f in items):
            return TENSOR | (CPU if all(f & CPU for f in items) else 0)  # for l in (loss_a, loss_b): a tensor each
    if flags & MODULE:
        return MODULE  # for layer in self.layers: an nn.ModuleList / Sequential holds modules
    if flags & LOADER:
        return BATCH | (flags & CPU)
    if flags & (BATCH | OUT):
        return BATCH | (flags & CPU)
    if flags & TENSOR:
        return TENSOR | (flags & CPU)
    if flags & STEP_ARG:
        return STEP_ARG  # for beg, end in trim: the items of a Python value handed to the step
    if flags & STEP_INT:
        return STEP_INT  # rx, ry, rw, rh = rand_bbox(...); a, b = lengths.tolist(): numbers new every step
    return 0


def _self_attr_name(e: ast.expr) -> str | None:
    """``self.X`` -> "X"; ``self.X.shape[...]`` / ``self.X.size(...)`` / ``len(self.X)`` -> "X" (what it measures)."""
    if isinstance(e, ast.Subscript):
        e = e.value
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "len" and len(e.args) == 1:
        e = e.args[0]
    elif isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "size":
        e = e.func.value
    if isinstance(e, ast.Attribute) and e.attr == "shape":
        e = e.value
    return e.attr if _self_attr(e) else None  # type: ignore[attr-defined]


def _cache_size_test(test: ast.expr, method: ast.AST | None, numbers: frozenset[str]) -> str | None:
    """The cached ``self.X`` a test rebuilds when it is missing or its size no longer fits, else None:
    ``need > self.X.shape[0]`` (a table that only grows: each rebuild raises the bound, so its sizes are a short
    increasing series), ``self.X is None or b * self.n != self.X.size(0)`` where the needed size is static
    (``b`` bound from a tensor's shape in ``method``, ``self.n`` a number fixed at construction): one size per
    input shape. Every part of an ``or`` must be such a test of the same ``self.X``; ``self.X is None`` alone is
    the plain lazy initialisation the caller reads itself."""
    atoms = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) else [test]
    if not all(isinstance(a, ast.Compare) and len(a.ops) == 1 for a in atoms):
        return None
    shaped = {t.id for a in walk(method) if isinstance(a, ast.Assign) and _static_size(a.value, set(), numbers)
              for t in a.targets if isinstance(t, ast.Name)} if method is not None and any(
        isinstance(a.ops[0], ast.NotEq) for a in atoms) else set()  # type: ignore[attr-defined]
    found: set[str] = set()
    sized = False
    for a in atoms:
        if not (isinstance(a, ast.Compare) and len(a.ops) == 1):
            return None
        op, left, right = a.ops[0], a.left, a.comparators[0]
        if isinstance(op, ast.Is) and isinstance(right, ast.Constant) and right.value is None and _self_attr(left):
            found.add(left.attr)  # type: ignore[attr-defined]
            continue
        if isinstance(op, (ast.Lt, ast.LtE)):
            op, left, right = ast.Gt(), right, left
        cached = _self_attr_name(right) if isinstance(op, (ast.Gt, ast.GtE, ast.NotEq)) else None
        if cached is None and isinstance(op, ast.NotEq):
            cached, left = _self_attr_name(left), right
        if cached is None or isinstance(op, ast.NotEq) and not _static_size(left, shaped, numbers):
            return None
        found.add(cached)
        sized = True
    return found.pop() if sized and len(found) == 1 else None


def _registers(c: ast.Call, attr: str) -> bool:
    """``self.register_buffer("attr", ...)`` (or ``register_parameter``): binds ``self.attr``."""
    return isinstance(c.func, ast.Attribute) and c.func.attr in ("register_buffer", "register_parameter") \
        and isinstance(c.func.value, ast.Name) and c.func.value.id == "self" and bool(c.args) \
        and isinstance(c.args[0], ast.Constant) and c.args[0].value == attr


def _static_size(e: ast.expr, names: set[str], numbers: frozenset[str]) -> bool:
    """Arithmetic of literals, static sizes (``x.size(0)``, ``x.shape[1]``, ``len(x)``), ``names`` and numbers an
    ``nn.Module`` fixes at construction (``self.n``)."""
    if isinstance(e, ast.BinOp):
        return _static_size(e.left, names, numbers) and _static_size(e.right, names, numbers)
    if isinstance(e, ast.Constant):
        return isinstance(e.value, int) and not isinstance(e.value, bool)
    if isinstance(e, ast.Name):
        return e.id in names
    if isinstance(e, ast.Attribute):
        return _self_attr(e) and e.attr in numbers
    if isinstance(e, ast.Subscript):
        return _shape_of(e.value) and not isinstance(e.slice, ast.Slice)
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute):
        return e.func.attr in ("size", "dim", "numel") and len(e.args) <= 1
    return isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "len"


# Reads of a token batch that stay on the host: its static shape, a comparison with ``torch.equal`` (of CPU
# tensors: no XLA op), turning ids back into text
_HOST_TOKEN_ATTRIBUTES = frozenset({"shape", "ndim", "dtype", "size", "numel", "dim"})
_HOST_TOKEN_CALLS = frozenset({"decode", "batch_decode", "convert_ids_to_tokens"})


def tokens_read_on_host_only(index: ScopeTree, call: ast.Call) -> bool:
    """A tokenizer call's PyTorch ids (``return_tensors="pt"``: CPU tensors) that never reach a model or a device:
    the call (or its ``.input_ids`` / ``["input_ids"]``) is bound to a name of the function, and every read of that
    name takes its shape, compares it with ``torch.equal`` or decodes it back to text (diffusers' truncation
    check: ``untruncated_ids = tokenizer(prompt, padding="longest", return_tensors="pt").input_ids``, only to
    warn about what ``max_length`` padding cut off). Such ids are no input shape of any graph."""
    node: ast.AST = call
    parent = index.parent(node)
    if isinstance(parent, ast.Attribute) and parent.attr == "input_ids" or isinstance(parent, ast.Subscript) \
            and parent.value is node and isinstance(parent.slice, ast.Constant) and parent.slice.value == "input_ids":
        node, parent = parent, index.parent(parent)
    if not (isinstance(parent, ast.Assign) and parent.value is node and len(parent.targets) == 1
            and isinstance(parent.targets[0], ast.Name)):
        return False
    name = parent.targets[0].id
    scope = index.scope_of(parent)
    if len(index.own_bindings(scope).get(name, ())) != 1:
        return False
    for load in index.loads_of(name, scope):
        use: ast.AST = load
        up = index.parent(use)
        if isinstance(up, ast.Subscript) and up.value is use:
            use, up = up, index.parent(up)  # ids[:, n - 1 : -1]
        if isinstance(up, ast.Attribute) and up.value is use and up.attr in _HOST_TOKEN_ATTRIBUTES:
            continue
        if isinstance(up, ast.Call) and use in up.args and (
                isinstance(up.func, ast.Attribute) and up.func.attr in _HOST_TOKEN_CALLS
                or isinstance(up.func, ast.Attribute) and up.func.attr == "equal"
                and isinstance(up.func.value, ast.Name) and up.func.value.id == "torch"
                or isinstance(up.func, ast.Name) and up.func.id == "len"):
            continue
        return False
    return True


_HOST_READ_METHODS = frozenset({"item", "tolist", "numpy", "cpu", "to", "__bool__", "__int__", "__float__"})
_HOST_READ_BUILTINS = frozenset({"int", "float", "bool", "print", "len", "list", "tuple", "str", "repr"})


def overwritten_unread(tree: ast.Module, stmt: ast.stmt) -> bool:
    """``t = <expr>`` whose next statement in the same block binds ``t`` again without reading it (StyleTTS2's
    ``t = torch.arange(0, l).expand(l)`` right before ``t = torch.arange(0, l)...to(device)``): nothing reads
    the value. A lazy tensor nothing reads is dropped before any sync, so no graph is built for it. Not when
    ``<expr>`` reads a value on the host (``.item()``, ``int(...)``, ``.cpu()``): that read runs the graph."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        return False
    if any(isinstance(n, ast.Call) and (isinstance(n.func, ast.Attribute) and n.func.attr in _HOST_READ_METHODS
                                        or isinstance(n.func, ast.Name) and n.func.id in _HOST_READ_BUILTINS)
           for n in walk(stmt.value)):
        return False
    name = stmt.targets[0].id
    for node in walk(tree):
        for field_name in ("body", "orelse", "finalbody"):
            block = getattr(node, field_name, None)
            if not isinstance(block, list) or stmt not in block:
                continue
            i = next(k for k, s in enumerate(block) if s is stmt)
            nxt = block[i + 1] if i + 1 < len(block) else None
            return (isinstance(nxt, ast.Assign) and len(nxt.targets) == 1 and isinstance(nxt.targets[0], ast.Name)
                    and nxt.targets[0].id == name
                    and not any(isinstance(n, ast.Name) and n.id == name for n in walk(nxt.value)))
    return False


def build_torch_facts(tree: ast.Module, facts: ModuleFacts, declared: bool = False) -> TorchFacts:
    """The torch adapter's facts for one file (empty unless the file uses torch; no steps in a module
    that nothing in the project runs, ``facts.unreached``)."""
    if facts.unreached is not None:
        return TorchFacts(False, declared)
    if "torch" not in facts.aliases.frameworks and not any(
            v.split(".", 1)[0] == "torch_xla" for v in facts.aliases.names.values()):
        return TorchFacts(False, declared)
    return _Builder(tree, facts, declared).run()
