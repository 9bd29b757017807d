"""Generate xlacheck/data/torch_xla_ops.json: which PyTorch ops torch_xla lowers, asked of torch_xla.

One command (needs torch and torch_xla; xlacheck itself never imports them):

    PJRT_DEVICE=CPU nice python tools/generate_torch_table.py     # writes the JSON and docs/torch-op-table.md
    python tools/generate_torch_table.py --check [--sample N]      # reruns a sample, compares (exit 1: stale)

What it records, and where each fact comes from:

* ``ops``: every public ``torch.*``, ``torch.linalg.*``, ``torch.fft.*``, ``torch.special.*``,
  ``Tensor.*`` and ``torch.nn.functional.*`` callable that could be called. Arguments come from
  the op's ATen schemas (``torch._C._jit_get_schemas_for_operator``: each required argument is
  filled by its declared type, tensors from a few shape/dtype variants) or, for Python-level
  functions such as ``F.interpolate``, from ``inspect.signature`` and the parameter names. The
  first argument set that runs eagerly on the CPU is replayed on the XLA device between
  ``met.clear_all()`` and ``torch_xla.sync()``. Status: ``lowered`` (no ``aten::`` counter
  moved), ``fallback`` (an ``aten::`` counter moved, ``aten::_local_scalar_dense`` aside: that
  one is a value read, recorded as ``reads_value``), ``xla_error`` (the CPU call ran, the XLA one
  raised). Ops whose output shape changed between two CPU inputs of the same shape are
  ``data_dependent_shape``.
* ``argument_dependent``: explicit probes where the lowering depends on an argument (``num_samples``
  of ``multinomial``, the ``output_size`` of adaptive pooling, ``interpolate``'s ``mode`` ...); each
  variant is run like the ops above and keeps its own status.
* ``not_exercised``: every candidate that could not be called, with the reason (no argument set
  ran on the CPU, no schema and no signature, a factory or I/O function that takes no tensor ...).

* ``backward`` / ``backward_aten`` / ``backward_error`` / ``backward_reason`` on the ``torch.*`` and
  ``torch.nn.functional.*`` entries whose forward lowered: the first argument set whose forward and
  backward run on the CPU, its floating-point tensors made leaves that require grad, forward and
  ``sum().backward()`` replayed on the XLA device. Every outcome is recorded: ``lowered``;
  ``fallback`` when an ``aten::`` counter moved (a backward kernel such as ``aten::glu_backward`` ran
  on the CPU while the forward lowered); ``xla_error`` when the XLA device raised where the CPU did
  not (``backward_error``: the exception's class and first line); ``not_exercised`` with the reason
  (no argument set ran on the CPU, the forward of that set did not lower, the process crashed).
  ``Tensor.*`` methods share the ``torch.*`` function's backward. The argument-dependent probes of
  adaptive pooling run forward and backward together.

Each batch of ops runs in a subprocess, so a crash costs one op, which is recorded.
``--phase backward`` reruns only the backward probes and merges them into the existing JSON.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _table_check  # noqa: E402  (tools/ is not a package)

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "torch_xla_ops.json"
DEFAULT_DOC = REPO_ROOT / "docs" / "torch-op-table.md"
COMMAND = "PJRT_DEVICE=CPU python tools/generate_torch_table.py"
SCHEMA_VERSION = 1

# Names that are not ops (I/O, configuration, RNG state, type queries, Python utilities): never probed.
_SKIP_PREFIXES = ("set_", "get_", "is_", "use_", "manual_seed", "seed", "initial_seed", "load", "save",
                  "compile", "jit", "vmap", "cond", "export", "from_", "can_cast", "promote_types", "result_type",
                  "typename", "sym_", "empty_", "_")
_SKIP_NAMES = frozenset({
    "Generator", "Size", "Tensor", "autocast", "enable_grad", "no_grad", "inference_mode", "device", "dtype",
    "layout", "memory_format", "finfo", "iinfo", "numel", "typename", "classproperty", "chunk_size",
    "align_tensors", "broadcast_shapes", "block_diag", "cpu", "cuda", "mps", "xpu", "data_ptr", "storage",
    "untyped_storage", "pin_memory", "share_memory_", "record_stream", "register_hook", "backward", "numpy",
    "tolist", "item", "to", "type", "element_size", "dim", "size", "stride", "storage_offset", "is_contiguous",
    "get_device", "new_tensor", "apply_", "map_", "map2_", "requires_grad_", "retain_grad", "detach_",
    "to_sparse", "to_dense", "to_mkldnn", "dequantize", "q_scale", "q_zero_point", "int_repr",
})
F_SKIP = frozenset({"handle_torch_function", "has_torch_function", "has_torch_function_unary",
                    "has_torch_function_variadic", "boolean_dispatch", "assert_int_or_pair", "Callable",
                    "Optional", "Union", "List", "Tuple", "TYPE_CHECKING", "importlib", "math", "warnings",
                    "DType", "BroadcastingList1", "BroadcastingList2", "BroadcastingList3", "Tensor"})

# Tensor variants tried in order for Tensor arguments: (shape, dtype kind).
TENSOR_VARIANTS = (((3, 4), "float"), ((4, 4), "float"), ((2, 3, 8, 8), "float"), ((6,), "float"),
                   ((3, 4), "long"), ((3, 4), "bool"), ((2, 3, 8), "float"), ((4, 4), "complex"))


# ---------------------------------------------------------------------------------------------
# argument generation (runs inside the worker, torch imported)
# ---------------------------------------------------------------------------------------------
def _tensor(torch: Any, shape: tuple[int, ...], kind: str, seed: int) -> Any:
    g = torch.Generator().manual_seed(seed)
    if kind == "long":
        return torch.randint(0, 3, shape, generator=g)
    if kind == "bool":
        return torch.rand(shape, generator=g) > 0.5
    if kind == "complex":
        return torch.complex(torch.rand(shape, generator=g), torch.rand(shape, generator=g))
    base = torch.rand(shape, generator=g) * 0.8 + 0.1
    if seed % 2:  # second input: same shape, about half the values zero (moves data-dependent shapes)
        base = base * (torch.rand(shape, generator=g) > 0.5)
    if len(shape) == 2 and shape[0] == shape[1]:
        base = base + torch.eye(shape[0]) * shape[0]  # well conditioned for linalg
    return base


def _schema_value(torch: Any, arg: Any, variant: tuple, seed: int) -> tuple[bool, Any]:
    """(supplied, value) for one schema argument; (False, None) leaves it at its default."""
    t = str(arg.type)
    name = arg.name
    if t.startswith("Optional[") or arg.default_value is not None or arg.kwarg_only and arg.default_value is not None:
        return False, None  # optional or defaulted: leave it at its default
    t = {"List[int]": "int[]", "List[Tensor]": "Tensor[]", "List[float]": "float[]", "List[Optional[Tensor]]": "Tensor?[]",
         "number": "Scalar", "Device": "Device"}.get(t, t)
    if t == "Device":
        raise TypeError("device argument")
    shape, kind = variant
    if t in ("Tensor", "Tensor?"):
        if name in ("index", "indices") and kind != "long":
            return True, torch.zeros(shape, dtype=torch.long)
        if name in ("target", "labels"):
            return True, torch.zeros(shape[:1], dtype=torch.long)
        return True, _tensor(torch, shape, kind, seed)
    if t in ("Tensor[]", "Tensor?[]", "List[Tensor]", "List[Optional[Tensor]]"):
        return True, [_tensor(torch, shape, kind, seed), _tensor(torch, shape, kind, seed + 2)]
    if t in ("int", "SymInt"):
        return True, {"dim": 0, "num_samples": 1, "k": 1, "diagonal": 0, "n": 2, "groups": 1,
                      "repeats": 2, "chunks": 2, "sections": 2, "split_size": 2, "p": 2}.get(name, 1)
    if t == "float[]":
        return True, [0.5]
    if t.startswith(("int[", "SymInt[")):
        return True, {"size": [2, 2], "dim": [0], "dims": [0], "kernel_size": [2, 2], "output_size": [1, 1],
                      "stride": [1, 1], "padding": [0, 0], "dilation": [1, 1], "shape": [-1],
                      "repeats": [1, 1], "pad": [1, 1], "perm": [1, 0], "normalized_shape": [shape[-1]]}.get(name, [1])
    if t in ("float", "Scalar", "number"):
        return True, 0.5 if name not in ("p",) else 2.0
    if t == "bool":
        return True, False
    if t == "ScalarType":
        return True, torch.float32
    if t == "str":
        return True, {"reduce": "sum", "reduction": "mean", "mode": "reflect", "approximate": "none",
                      "rounding_mode": "floor", "side": "left", "equation": "ij->ji", "norm": "backward"}.get(name, "sum")
    raise TypeError(f"no value for {t}")


def _schema_calls(torch: Any, op: str, seed: int) -> list[tuple[list, dict, str]]:
    """Candidate (args, kwargs, description) lists for an ATen op, one per overload and variant."""
    out = []
    for schema in torch._C._jit_get_schemas_for_operator(f"aten::{op}"):
        if schema.overload_name.startswith("out") or schema.overload_name.endswith("_out") or "out" in [a.name for a in schema.arguments if a.kwarg_only]:
            continue
        for variant in TENSOR_VARIANTS:
            args: list = []
            kwargs: dict = {}
            try:
                for a in schema.arguments:
                    supplied, value = _schema_value(torch, a, variant, seed)
                    if not supplied:
                        continue
                    if a.kwarg_only:
                        kwargs[a.name] = value
                    else:
                        args.append(value)
            except TypeError:
                break
            out.append((args, kwargs, f"{schema.overload_name or 'default'} {variant[0]} {variant[1]}"))
    return out


_F_TENSOR_NAMES = ("input", "x", "weight", "target", "tensor", "log_probs", "targets", "anchor", "positive",
                   "negative", "input1", "input2", "x1", "x2", "query", "key", "value", "theta", "grid", "A", "B",
                   "tensor1", "tensor2", "indices", "offsets", "bias", "other", "running_mean", "running_var")


def _signature_calls(torch: Any, fn: Any, seed: int) -> list[tuple[list, dict, str]]:
    """Candidate calls from a Python signature: parameters without defaults, filled by name."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return []
    out = []
    for variant in TENSOR_VARIANTS[:4]:
        shape, kind = variant
        args: list = []
        ok = True
        for p in sig.parameters.values():
            if p.default is not inspect.Parameter.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            n = p.name
            if n in ("target", "targets") and kind == "float" and "loss" in fn.__name__ and "nll" in fn.__name__ or fn.__name__ in ("cross_entropy",):
                args.append(torch.zeros(shape[:1], dtype=torch.long) if n == "target" else _tensor(torch, shape, kind, seed))
            elif n in ("indices",):
                args.append(torch.zeros(shape, dtype=torch.long))
            elif n in _F_TENSOR_NAMES or n.startswith("input") or n.startswith("tensor"):
                args.append(_tensor(torch, shape, kind, seed))
            elif n in ("num_classes", "output_size", "kernel_size", "size", "normalized_shape", "dim", "pad",
                       "upscale_factor", "downscale_factor", "groups", "num_groups", "stride", "p", "lambd"):
                args.append({"normalized_shape": [shape[-1]], "pad": (1, 1), "num_groups": 1, "p": 0.5,
                             "lambd": 0.5, "dim": 0}.get(n, 1 if n != "kernel_size" else 2))
            else:
                ok = False
                break
        if ok:
            out.append((args, {}, f"signature {shape} {kind}"))
    return out


def _shapes(torch: Any, value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return tuple(value.shape)
    if isinstance(value, (tuple, list)):
        return [_shapes(torch, v) for v in value]
    return type(value).__name__


def _to(torch: Any, value: Any, device: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, list):
        return [_to(torch, v, device) for v in value]
    if isinstance(value, tuple):
        return tuple(_to(torch, v, device) for v in value)
    if isinstance(value, dict):
        return {k: _to(torch, v, device) for k, v in value.items()}
    return value


def _xla_run(torch: Any, met: Any, torch_xla: Any, call: Any) -> dict:
    """Run ``call()`` on the XLA device; the aten counters that moved say whether it fell back."""
    torch_xla.sync()
    met.clear_all()
    try:
        result = call()
        torch_xla.sync()
    except Exception as exc:  # noqa: BLE001 - every failure is a table fact
        return {"status": "xla_error", "error": f"{type(exc).__name__}: "
                                                f"{str(exc).splitlines()[0][:160] if str(exc) else ''}"}
    counters = {n: met.counter_value(n) for n in met.counter_names() if n.startswith("aten::")}
    fallback = sorted(n for n in counters if n != "aten::_local_scalar_dense")
    rec: dict = {"status": "fallback" if fallback else "lowered"}
    if fallback:
        rec["aten"] = fallback
    if "aten::_local_scalar_dense" in counters:
        rec["reads_value"] = True
    del result
    return rec


def _resolve(torch: Any, qual: str) -> Any:
    if qual.startswith("Tensor."):
        return getattr(torch.Tensor, qual.split(".", 1)[1])
    obj: Any = torch
    for part in qual.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def _aten_name(qual: str) -> str:
    ns, _, leaf = qual.rpartition(".")
    prefix = {"torch.linalg": "linalg_", "torch.fft": "fft_", "torch.special": "special_"}.get(ns, "")
    return prefix + leaf


def explicit_calls(torch: Any, qual: str, seed: int) -> list[tuple[list, dict, str]]:
    """Hand-written arguments for ops the schema/signature generator cannot call (wrappers whose
    ATen op has another name, ops that need index tensors or matching shapes)."""
    ids = torch.tensor([0, 2, 1, 2, 0, 3]) if seed % 2 == 0 else torch.tensor([1, 1, 1, 1, 1, 1])
    x = _tensor(torch, (2, 3, 8, 8), "float", seed)
    table = {
        "torch.unique": ([ids], {}), "Tensor.unique": ([ids], {}), "torch.unique_consecutive": ([ids], {}),
        "Tensor.unique_consecutive": ([ids], {}), "torch.bincount": ([ids], {}), "Tensor.bincount": ([ids], {}),
        "torch.nn.functional.grid_sample": ([x, torch.zeros(2, 4, 4, 2)], {"align_corners": False}),
        "torch.nn.functional.ctc_loss": ([torch.randn(6, 2, 5).log_softmax(2), torch.tensor([[1, 2], [3, 1]]),
                                          torch.tensor([6, 6]), torch.tensor([2, 2])], {}),
        "torch.nn.functional.embedding_bag": ([torch.tensor([[0, 1], [2, 3]]), torch.rand(5, 4)], {}),
        "torch.nn.functional.embedding": ([torch.tensor([[0, 1], [2, 3]]), torch.rand(5, 4)], {}),
        "torch.masked_select": ([x, x > 0.5], {}), "Tensor.masked_select": ([x, x > 0.5], {}),
        "torch.nn.functional.cross_entropy": ([torch.rand(4, 3), torch.tensor([0, 1, 2, 0])], {}),
        "torch.nn.functional.nll_loss": ([torch.rand(4, 3), torch.tensor([0, 1, 2, 0])], {}),
        "torch.nn.functional.one_hot": ([ids], {"num_classes": 4}),
        # a float input and source under a bool mask (the schema generator fills every argument alike)
        "torch.masked_scatter": ([x, x > 0.5, torch.rand(x.numel())], {}),
        "Tensor.masked_scatter": ([x, x > 0.5, torch.rand(x.numel())], {}),
        # shapes as the call spells them (the schema's SymInt[] gets no value that fits the input)
        "Tensor.view": ([x, (2, 3, 64)], {}), "Tensor.expand": ([x[:1], (2, 3, 8, 8)], {}),
    }
    table.update(_more_explicit(torch, seed))
    if qual not in table:
        return []
    args, kwargs = table[qual]
    return [(args, kwargs, "explicit")]


def _more_explicit(torch: Any, seed: int) -> dict[str, tuple[list, dict]]:
    """Arguments for ops whose schema/signature arguments never ran on the CPU (``not_exercised``
    in the table of 2026-11-25): matching matmul shapes, an STFT frame length that fits the signal,
    a complex spectrogram for ``istft``, LU factors for the solvers. Each entry is the call as
    model code spells it."""
    def t(*shape: int) -> Any:
        return _tensor(torch, shape, "float", seed)

    sig, win = t(2, 64), torch.hann_window(16)
    spec = torch.stft(sig, 16, hop_length=4, window=win, return_complex=True)
    stft_kw = {"n_fft": 16, "hop_length": 4, "window": win}
    lu, piv = torch.linalg.lu_factor(t(3, 3))
    sq = torch.eye(6) * 6 + t(6, 6)
    idx = torch.tensor([0, 2, 1, 2])
    out: dict[str, tuple[list, dict]] = {
        "torch.stft": ([sig], {**stft_kw, "return_complex": True}),
        "Tensor.stft": ([sig], {**stft_kw, "return_complex": True}),
        "torch.istft": ([spec], stft_kw), "Tensor.istft": ([spec], stft_kw),
        "torch.ctc_loss": ([torch.randn(6, 2, 5).log_softmax(2), torch.tensor([[1, 2], [3, 1]]),
                            torch.tensor([6, 6]), torch.tensor([2, 2])], {}),
        "torch.bmm": ([t(2, 3, 4), t(2, 4, 5)], {}), "Tensor.bmm": ([t(2, 3, 4), t(2, 4, 5)], {}),
        "torch.baddbmm": ([t(2, 3, 5), t(2, 3, 4), t(2, 4, 5)], {}),
        "Tensor.baddbmm": ([t(2, 3, 5), t(2, 3, 4), t(2, 4, 5)], {}),
        "torch.addbmm": ([t(3, 5), t(2, 3, 4), t(2, 4, 5)], {}),
        "Tensor.addbmm": ([t(3, 5), t(2, 3, 4), t(2, 4, 5)], {}),
        "torch.mv": ([t(3, 4), t(4)], {}), "Tensor.mv": ([t(3, 4), t(4)], {}),
        "torch.addmv": ([t(3), t(3, 4), t(4)], {}), "Tensor.addmv": ([t(3), t(3, 4), t(4)], {}),
        "torch.einsum": (["bij,bjk->bik", t(2, 3, 4), t(2, 4, 5)], {}),
        "torch.tensordot": ([t(3, 4, 5), t(4, 5, 6)], {"dims": 2}),
        "torch.chain_matmul": ([t(3, 4), t(4, 5), t(5, 2)], {}),
        "torch.clamp": ([t(3, 4)], {"min": 0.2, "max": 0.7}), "Tensor.clamp": ([t(3, 4)], {"min": 0.2, "max": 0.7}),
        "torch.clip": ([t(3, 4)], {"min": 0.2, "max": 0.7}), "Tensor.clip": ([t(3, 4)], {"min": 0.2, "max": 0.7}),
        "torch.broadcast_to": ([t(1, 4), (3, 4)], {}), "Tensor.broadcast_to": ([t(1, 4), (3, 4)], {}),
        "torch.bilinear": ([t(2, 3), t(2, 4), t(5, 3, 4)], {}),
        "torch.conv3d": ([t(1, 2, 4, 4, 4), t(3, 2, 3, 3, 3)], {}),
        "torch.conv_transpose1d": ([t(1, 2, 8), t(2, 3, 3)], {}),
        "torch.conv_transpose2d": ([t(1, 2, 6, 6), t(2, 3, 3, 3)], {}),
        "torch.conv_transpose3d": ([t(1, 2, 4, 4, 4), t(2, 3, 3, 3, 3)], {}),
        "torch.prelu": ([t(2, 3, 4), t(3)], {}), "Tensor.prelu": ([t(2, 3, 4), t(3)], {}),
        "torch.kl_div": ([t(3, 4).log(), t(3, 4)], {}),
        "torch.cartesian_prod": ([t(3), t(2)], {}),
        "torch.index_reduce": ([t(5, 3), 0, idx, t(4, 3), "amax"], {}),
        "Tensor.index_reduce": ([t(5, 3), 0, idx, t(4, 3), "amax"], {}),
        "torch.segment_reduce": ([t(6), "sum"], {"lengths": torch.tensor([2, 1, 3])}),
        "torch.select_scatter": ([t(3, 4), t(4), 0, 1], {}), "Tensor.select_scatter": ([t(3, 4), t(4), 0, 1], {}),
        "torch.diagonal_scatter": ([t(3, 3), t(3)], {}), "Tensor.diagonal_scatter": ([t(3, 3), t(3)], {}),
        "torch.split_with_sizes": ([t(5, 3), [2, 3]], {}), "Tensor.split_with_sizes": ([t(5, 3), [2, 3]], {}),
        "torch.unflatten": ([t(2, 6), 1, (2, 3)], {}), "Tensor.unflatten": ([t(2, 6), 1, (2, 3)], {}),
        "torch.view_as_complex": ([t(3, 2)], {}),
        "torch.linalg.cross": ([t(4, 3), t(4, 3)], {}),
        "torch.linalg.householder_product": ([t(4, 3), t(3)], {}),
        "torch.orgqr": ([t(4, 3), t(3)], {}), "Tensor.orgqr": ([t(4, 3), t(3)], {}),
        "torch.lu_unpack": ([lu, piv], {}),
        "torch.linalg.lu_solve": ([lu, piv, t(3, 2)], {}),
        "torch.lu_solve": ([t(3, 2), lu, piv], {}), "Tensor.lu_solve": ([t(3, 2), lu, piv], {}),
        "torch.linalg.tensorinv": ([sq[:4, :4].reshape(4, 2, 2)], {"ind": 1}),
        "torch.linalg.tensorsolve": ([sq.reshape(2, 3, 6), t(2, 3)], {}),
        "Tensor.polygamma": ([t(3, 4), 1], {}),
        "torch.nn.functional.fold": ([t(1, 12, 9)], {"output_size": (4, 4), "kernel_size": 2}),
        "torch.nn.functional.max_pool1d": ([t(2, 3, 8), 2], {}), "torch.max_pool1d": ([t(2, 3, 8), 2], {}),
        "torch.nn.functional.max_pool2d": ([t(2, 3, 8, 8), 2], {}),
        "torch.nn.functional.max_pool3d": ([t(1, 2, 4, 4, 4), 2], {}), "torch.max_pool3d": ([t(1, 2, 4, 4, 4), 2], {}),
        "torch.avg_pool1d": ([t(2, 3, 8), 2], {}),
        "torch.nn.functional.fractional_max_pool2d": ([t(1, 2, 8, 8), 2], {"output_size": 4}),
        "torch.nn.functional.fractional_max_pool3d": ([t(1, 2, 6, 6, 6), 2], {"output_size": 3}),
        "torch.nn.functional.multi_margin_loss": ([t(4, 3), torch.tensor([0, 1, 2, 0])], {}),
        "torch.nn.functional.multilabel_margin_loss": ([t(2, 4), torch.tensor([[3, 0, -1, 1], [0, 1, 2, 3]])], {}),
        "torch.nn.functional.cosine_embedding_loss": ([t(3, 4), t(3, 4), torch.tensor([1, -1, 1])], {}),
        "torch.nn.functional.affine_grid": ([t(2, 2, 3), [2, 3, 4, 4]], {"align_corners": False}),
        "torch.nn.functional.batch_norm": ([t(4, 3, 5), torch.zeros(3), torch.ones(3)], {"training": True}),
        "torch.linspace": ([0.0, 1.0, 5], {}), "torch.logspace": ([0.0, 1.0, 5], {}),
    }
    out.update(_functional_explicit(torch, t))
    return out


def _functional_explicit(torch: Any, t: Any) -> dict[str, tuple[list, dict]]:
    """``torch.nn.functional`` ops, in-place clamps and dtype casts still ``not_exercised`` in the table of
    2026-11-28 (torch-reports26): the generator builds no arguments for the functional wrappers (no ATen
    schema of that name) and none ran for the casts, so a call was neither reported nor known to give a
    tensor. Each entry is the call as model code spells it."""
    img, seq, vol = t(2, 4, 8, 8), t(2, 4, 8), t(1, 2, 4, 4, 4)
    q = t(2, 2, 5, 4)
    f = "torch.nn.functional."
    out: dict[str, tuple[list, dict]] = {
        f + "conv1d": ([seq, t(3, 4, 3)], {"padding": 1}), f + "conv2d": ([img, t(3, 4, 3, 3)], {"padding": 1}),
        f + "conv3d": ([vol, t(3, 2, 3, 3, 3)], {}),
        f + "conv_transpose1d": ([seq, t(4, 3, 3)], {}), f + "conv_transpose2d": ([img, t(4, 3, 3, 3)], {}),
        f + "conv_transpose3d": ([vol, t(2, 3, 3, 3, 3)], {}),
        f + "linear": ([t(3, 4), t(5, 4), t(5)], {}), f + "bilinear": ([t(2, 3), t(2, 4), t(5, 3, 4)], {}),
        f + "avg_pool1d": ([seq, 2], {}), f + "avg_pool2d": ([img, 2], {}), f + "avg_pool3d": ([vol, 2], {}),
        f + "lp_pool1d": ([seq, 2.0, 2], {}), f + "lp_pool2d": ([img, 2.0, 2], {}),
        f + "lp_pool3d": ([vol, 2.0, 2], {}),
        f + "gelu": ([img], {}), f + "softplus": ([img], {}), f + "logsigmoid": ([img], {}),
        f + "hardshrink": ([img], {}), f + "softshrink": ([img], {}), f + "threshold": ([img, 0.1, 0.0], {}),
        f + "prelu": ([img, t(4)], {}),
        f + "relu_": ([t(3, 4)], {}), f + "elu_": ([t(3, 4)], {}), f + "leaky_relu_": ([t(3, 4)], {}),
        f + "hardtanh_": ([t(3, 4)], {}), f + "selu_": ([t(3, 4)], {}), f + "celu_": ([t(3, 4)], {}),
        f + "rrelu_": ([t(3, 4)], {}), f + "threshold_": ([t(3, 4), 0.1, 0.0], {}),
        f + "cosine_similarity": ([t(4, 6), t(4, 6)], {}), f + "pairwise_distance": ([t(4, 6), t(4, 6)], {}),
        f + "pdist": ([t(5, 3)], {}),
        f + "pixel_shuffle": ([img, 2], {}), f + "pixel_unshuffle": ([img, 2], {}),
        f + "channel_shuffle": ([img, 2], {}), f + "native_channel_shuffle": ([img, 2], {}),
        f + "gumbel_softmax": ([t(4, 5)], {"tau": 0.5}),
        f + "gaussian_nll_loss": ([t(4, 3), t(4, 3), t(4, 3) + 0.5], {}),
        f + "scaled_dot_product_attention": ([q, q, q], {"is_causal": True}),
        f + "upsample": ([img], {"scale_factor": 2, "mode": "nearest"}),
        f + "upsample_nearest": ([img], {"scale_factor": 2}),
        f + "upsample_bilinear": ([img], {"scale_factor": 2}),
        f + "fractional_max_pool2d_with_indices": ([t(1, 2, 8, 8), 2], {"output_size": 4}),
        "Tensor.clamp_": ([t(3, 4)], {"min": 0.2, "max": 0.7}), "Tensor.clip_": ([t(3, 4)], {"min": 0.2, "max": 0.7}),
        "torch.clamp_": ([t(3, 4)], {"min": 0.2, "max": 0.7}), "torch.clip_": ([t(3, 4)], {"min": 0.2, "max": 0.7}),
        "Tensor.sum_to_size": ([t(3, 4), 1, 4], {}),
        "torch.broadcast_tensors": ([t(1, 4), t(3, 1)], {}),
        "torch.unravel_index": ([torch.tensor([0, 5, 11]), (3, 4)], {}),
        "torch.binary_cross_entropy_with_logits": ([t(4, 3), t(4, 3)], {}),
    }
    for cast in ("float", "half", "double", "bfloat16", "long", "int", "short", "char", "byte", "bool"):
        out["Tensor." + cast] = ([t(3, 4) * 4], {})
    return out


def probe_op(torch: Any, met: Any, torch_xla: Any, qual: str) -> dict:
    fn = _resolve(torch, qual)
    method = qual.startswith("Tensor.")
    is_functional = qual.startswith("torch.nn.functional.")
    cands = explicit_calls(torch, qual, 0)
    if cands:
        return _probe_calls(torch, met, torch_xla, qual, fn, method, cands,
                            lambda: explicit_calls(torch, qual, 1)[0])
    cands = [] if is_functional else _schema_calls(torch, _aten_name(qual), 0)
    if not cands:
        cands = _signature_calls(torch, fn, 0)
        if not cands:
            return {"status": "not_exercised", "reason": "no ATen schema and no usable signature"}
    return _probe_calls(torch, met, torch_xla, qual, fn, method, cands, None)


def _op_candidates(torch: Any, qual: str) -> list[tuple[list, dict, str]]:
    """The argument sets probe_op tries, in its order."""
    cands = explicit_calls(torch, qual, 0)
    if cands:
        return cands
    cands = [] if qual.startswith("torch.nn.functional.") else _schema_calls(torch, _aten_name(qual), 0)
    return cands or _signature_calls(torch, _resolve(torch, qual), 0)


def _float_leaves(torch: Any, value: Any, out: list) -> Any:
    """A copy of ``value`` whose floating-point tensors are new leaves that require grad (kept in ``out``)."""
    if isinstance(value, torch.Tensor) and value.dtype.is_floating_point:
        leaf = value.detach().clone().requires_grad_(True)
        out.append(leaf)
        return leaf
    if isinstance(value, list):
        return [_float_leaves(torch, v, out) for v in value]
    if isinstance(value, tuple):
        return tuple(_float_leaves(torch, v, out) for v in value)
    return value


def _grad_outputs(torch: Any, value: Any) -> list:
    if isinstance(value, torch.Tensor):
        return [value] if value.requires_grad and value.dtype.is_floating_point else []
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _grad_outputs(torch, v)]
    return []


def probe_backward(torch: Any, met: Any, torch_xla: Any, qual: str) -> dict:
    """Forward and backward of the first argument set whose backward runs on the CPU, on the XLA
    device; ``aten::`` counters that the forward alone does not move are backward fallbacks."""
    fn = _resolve(torch, qual)
    dev = torch_xla.device()
    for args, kwargs, desc in _op_candidates(torch, qual)[:24]:
        def make(device: Any, backward: bool, a0: list = args, k0: dict = kwargs) -> Any:
            def run() -> Any:
                leaves: list = []
                a = _float_leaves(torch, _to(torch, a0, device), leaves)
                k = {key: _float_leaves(torch, _to(torch, v, device), leaves) for key, v in k0.items()}
                out = fn(*a, **k)
                grads = _grad_outputs(torch, out)
                if not leaves or not grads:
                    raise TypeError("no differentiable output")
                if backward:
                    sum(g.sum() for g in grads).backward()
                return out
            return run
        try:
            make(torch.device("cpu"), True)()
        except Exception:  # noqa: BLE001 - the next argument set, or not exercised
            continue
        fwd = _xla_run(torch, met, torch_xla, make(dev, False))
        if fwd["status"] != "lowered":
            return {"status": "not_exercised", "reason": f"the forward of this argument set is {fwd['status']}"}
        both = _xla_run(torch, met, torch_xla, make(dev, True))
        extra = sorted(set(both.get("aten", [])) - set(fwd.get("aten", [])))
        rec: dict = {"status": "fallback" if extra else ("lowered" if both["status"] == "lowered" else both["status"]),
                     "args": desc}
        if extra:
            rec["aten"] = extra
        if "error" in both:
            rec["error"] = both["error"]
        return rec
    return {"status": "not_exercised", "reason": "no argument set ran forward and backward on the CPU"}


def _probe_calls(torch: Any, met: Any, torch_xla: Any, qual: str, fn: Any, method: bool, cands: list,
                 second_input: Any) -> dict:
    cpu = torch.device("cpu")
    dev = torch_xla.device()
    errors = []
    for args, kwargs, desc in cands[:24]:
        if method and (not args or not isinstance(args[0], torch.Tensor)):
            continue
        factory = not method and not any(isinstance(a, (torch.Tensor, list)) for a in list(args) + list(kwargs.values()))

        def make(a: list, k: dict, device: Any) -> Any:
            a, k = _to(torch, a, device), _to(torch, k, device)
            if method:
                return lambda: getattr(a[0], qual.split(".", 1)[1])(*a[1:], **k)
            if factory:
                k = {**k, "device": device}  # a factory: create the result on the device under test
            return lambda: fn(*a, **k)

        try:
            with torch.no_grad():
                first = make(args, kwargs, cpu)()
        except Exception as exc:  # noqa: BLE001
            errors.append(f"{type(exc).__name__}")
            continue
        rec = _xla_run(torch, met, torch_xla, make(args, kwargs, dev))
        rec["args"] = desc
        # a second CPU input of the same shapes with other values: does the output shape move?
        try:
            if second_input is not None:
                args2, kwargs2, _ = second_input()
            else:
                args2 = [_reseed(torch, a) for a in args]
                kwargs2 = {k: _reseed(torch, v) for k, v in kwargs.items()}
            with torch.no_grad():
                second = make(args2, kwargs2, cpu)()
            if _shapes(torch, first) != _shapes(torch, second):
                rec["data_dependent_shape"] = True
        except Exception:  # noqa: BLE001 - the second input is only a probe
            pass
        return rec
    return {"status": "not_exercised", "reason": "no argument set ran on the CPU (" + ",".join(sorted(set(errors))[:4]) + ")"}


def _reseed(torch: Any, value: Any) -> Any:
    if isinstance(value, torch.Tensor) and value.dtype.is_floating_point:
        g = torch.Generator().manual_seed(1)
        return value * (torch.rand(value.shape, generator=g) > 0.5)
    if isinstance(value, torch.Tensor) and value.dtype == torch.bool:
        return torch.zeros_like(value).index_fill_(0, torch.tensor([0]), True) if value.dim() else value
    if isinstance(value, list):
        return [_reseed(torch, v) for v in value]
    return value


# ---------------------------------------------------------------------------------------------
# argument-dependent probes: the same op, different literal arguments
# ---------------------------------------------------------------------------------------------
def arg_probes(torch: Any) -> dict[str, list[tuple[dict, Any]]]:
    """op -> [(condition, make(device) -> thunk)]; the condition names the literal arguments."""
    F = torch.nn.functional

    def t(*shape: int) -> Any:
        return _tensor(torch, shape, "float", 0)

    def grad(fn: Any) -> Any:  # forward and backward
        def run(x: Any) -> Any:
            x = x.clone().requires_grad_(True)
            y = fn(x)
            y.sum().backward()
            return x.grad
        return run

    def on(make: Any) -> Any:
        return make

    def wrapped(name: str, device: Any, backward: bool) -> Any:  # a wrapped nn.Linear: forward (and backward)
        layer = _resolve(torch, name)(torch.nn.Linear(4, 3)).to(device)
        with torch.set_grad_enabled(backward):
            out = layer(t(2, 4).to(device))
        if backward:
            out.sum().backward()
        return out

    p = torch.softmax(t(4, 10), -1)
    img = t(2, 3, 8, 8)
    img9 = t(2, 3, 9, 9)  # the same output size on an input it divides: the condition is divisibility
    seq = t(2, 3, 8)
    vol = t(1, 2, 8, 8, 8)
    x = t(3, 4)
    probes: dict[str, list[tuple[dict, Any]]] = {
        "torch.multinomial": [
            ({"num_samples": 1}, on(lambda d: lambda: torch.multinomial(p.to(d), 1))),
            ({"num_samples": 2}, on(lambda d: lambda: torch.multinomial(p.to(d), 2))),
            ({"num_samples": 2, "replacement": True}, on(lambda d: lambda: torch.multinomial(p.to(d), 2, True))),
        ],
        "torch.nn.functional.adaptive_avg_pool2d": [
            ({"output_size": 1}, on(lambda d: lambda: grad(lambda z: F.adaptive_avg_pool2d(z, 1))(img.to(d)))),
            ({"output_size": "divides input (8->4)"}, on(lambda d: lambda: grad(lambda z: F.adaptive_avg_pool2d(z, 4))(img.to(d)))),
            ({"output_size": "does not divide input (8->3)"}, on(lambda d: lambda: grad(lambda z: F.adaptive_avg_pool2d(z, 3))(img.to(d)))),
            ({"output_size": "divides input (9->3)"}, on(lambda d: lambda: grad(lambda z: F.adaptive_avg_pool2d(z, 3))(img9.to(d)))),
        ],
        "torch.nn.functional.adaptive_max_pool2d": [
            ({"output_size": 1}, on(lambda d: lambda: F.adaptive_max_pool2d(img.to(d), 1))),
            ({"output_size": "divides input (8->4)"}, on(lambda d: lambda: F.adaptive_max_pool2d(img.to(d), 4))),
            ({"output_size": "does not divide input (8->3)"}, on(lambda d: lambda: F.adaptive_max_pool2d(img.to(d), 3))),
            ({"output_size": "divides input (9->3)"}, on(lambda d: lambda: F.adaptive_max_pool2d(img9.to(d), 3))),
        ],
        "torch.nn.functional.adaptive_avg_pool1d": [
            ({"output_size": 1}, on(lambda d: lambda: F.adaptive_avg_pool1d(seq.to(d), 1))),
            ({"output_size": "does not divide input (8->3)"}, on(lambda d: lambda: F.adaptive_avg_pool1d(seq.to(d), 3))),
            ({"output_size": "divides input (8->4)"},
             on(lambda d: lambda: F.adaptive_avg_pool1d(seq.to(d), 4))),
        ],
        # the rest of the adaptive family, the same three output sizes (the 3-d ones on an 8x8x8 volume)
        **{f"torch.nn.functional.adaptive_{kind}_pool{rank}d": [
            (when, on(lambda d, kind=kind, rank=rank, n=n: lambda: (grad if kind == "avg" else (lambda f: f))(
                lambda z: getattr(F, f"adaptive_{kind}_pool{rank}d")(z, n))((seq if rank == 1 else vol).to(d))))
            for when, n in (({"output_size": 1}, 1), ({"output_size": "divides input (8->4)"}, 4),
                            ({"output_size": "does not divide input (8->3)"}, 3))]
           for kind, rank in (("max", 1), ("avg", 3), ("max", 3))},
        "torch.nn.functional.interpolate": [
            ({"mode": m}, on(lambda d, m=m: lambda: F.interpolate(img.to(d), size=(5, 5), mode=m)))
            for m in ("nearest", "bilinear", "bicubic", "area", "nearest-exact")
        ] + [  # forward and backward (a training step): the backward kernel can fall back alone
            ({"mode": m, "pass": "backward"},
             on(lambda d, m=m: lambda: grad(lambda z: F.interpolate(z, size=(5, 5), mode=m))(img.to(d))))
            for m in ("nearest", "bilinear")
        ] + [  # the modes that name their rank: linear (N, C, L), trilinear (N, C, D, H, W)
            ({"mode": m} | ({"pass": "backward"} if backward else {}),
             on(lambda d, m=m, x=x, backward=backward: lambda: (grad if backward else (lambda f: f))(
                 lambda z: F.interpolate(z, scale_factor=2, mode=m))(x.to(d))))
            for m, x in (("linear", seq), ("trilinear", t(2, 3, 4, 4, 4))) for backward in (False, True)
        ],
        # module wrappers that recompute a module's weight at every forward (nn.Linear alone lowers)
        **{name: [({"wraps": "torch.nn.Linear"}, on(lambda d, name=name: lambda: wrapped(name, d, False))),
                  ({"wraps": "torch.nn.Linear", "pass": "backward"},
                   on(lambda d, name=name: lambda: wrapped(name, d, True)))]
           for name in ("torch.nn.utils.weight_norm", "torch.nn.utils.parametrizations.weight_norm",
                        "torch.nn.utils.spectral_norm", "torch.nn.utils.parametrizations.spectral_norm",
                        "torch.nn.utils.parametrizations.orthogonal")},
        "torch.nn.functional.pad": [
            ({"mode": m}, on(lambda d, m=m: lambda: F.pad(img.to(d), (1, 1, 1, 1), mode=m)))
            for m in ("constant", "reflect", "replicate", "circular")
        ],
        "torch.nn.functional.one_hot": [
            ({"num_classes": "given"}, on(lambda d: lambda: F.one_hot(torch.tensor([0, 2, 1]).to(d), 4))),
            ({"num_classes": "absent"}, on(lambda d: lambda: F.one_hot(torch.tensor([0, 2, 1]).to(d)))),
        ],
        "torch.repeat_interleave": [
            ({"repeats": "int"}, on(lambda d: lambda: torch.repeat_interleave(x.to(d), 2, dim=0))),
            ({"repeats": "tensor"}, on(lambda d: lambda: torch.repeat_interleave(x.to(d), torch.tensor([1, 2, 1]).to(d), dim=0))),
        ],
        "torch.where": [
            ({"arguments": 3}, on(lambda d: lambda: torch.where(x.to(d) > 0.5, x.to(d), 0.0))),
            ({"arguments": 1}, on(lambda d: lambda: torch.where(x.to(d) > 0.5))),
        ],
        "Tensor.__getitem__": [
            ({"index": "int slice"}, on(lambda d: lambda: x.to(d)[1:3])),
            ({"index": "long tensor"}, on(lambda d: lambda: x.to(d)[torch.tensor([0, 2]).to(d)])),
            ({"index": "bool tensor"}, on(lambda d: lambda: x.to(d)[x.to(d) > 0.5])),
        ],
        "Tensor.__setitem__": [
            ({"index": "bool tensor"}, on(lambda d: lambda: x.to(d).clone().__setitem__(x.to(d) > 0.5, 0.0))),
            ({"index": "long tensor"}, on(lambda d: lambda: x.to(d).clone().__setitem__(torch.tensor([0, 2]).to(d), 0.0))),
        ],
        "torch.topk": [
            ({"k": "literal"}, on(lambda d: lambda: torch.topk(x.to(d), 2))),
        ],
        "torch.max": [
            ({"dim": "absent"}, on(lambda d: lambda: torch.max(x.to(d)))),
            ({"dim": "given"}, on(lambda d: lambda: torch.max(x.to(d), 1))),
        ],
        # ``max_norm`` renormalises the looked-up rows in place before the lookup (torch.embedding_renorm_)
        "torch.nn.functional.embedding": [
            ({"max_norm": "absent"},
             on(lambda d: lambda: F.embedding(torch.tensor([[0, 1], [2, 3]]).to(d), t(5, 4).to(d)))),
            ({"max_norm": "given"},
             on(lambda d: lambda: F.embedding(torch.tensor([[0, 1], [2, 3]]).to(d), t(5, 4).to(d), max_norm=1.0))),
        ],
        "torch.nn.functional.embedding_bag": [
            ({"mode": m}, on(lambda d, m=m: lambda: F.embedding_bag(torch.tensor([[0, 1], [2, 3]]).to(d), t(5, 4).to(d), mode=m)))
            for m in ("sum", "mean", "max")
        ],
    }
    return probes


# ---------------------------------------------------------------------------------------------
# variants: the same op with each documented choice of its string/bool keyword arguments
# ---------------------------------------------------------------------------------------------
# Parameters that select no other kernel (shape bookkeeping, deprecated aliases, in-place/out
# plumbing, sparse-gradient storage) or that name a dimension: never varied.
_VARIANT_SKIP = frozenset({"dim", "dims", "out", "inplace", "keepdim", "requires_grad", "pin_memory", "non_blocking",
                           "copy", "size_average", "_stacklevel", "sparse", "as_tuple", "names",
                           "memory_format", "layout", "device", "generator", "check_errors", "unsafe",
                           "return_complex", "onesided", "center", "normalized", "_random_samples",
                           "recompute_scale_factor"})
_MAX_COMBINATIONS = 48  # above this, each parameter is varied alone from the defaults

# Base calls for ops whose table argument set does not reach their variants (interpolate needs a
# size; an image batch where the op takes one).
_VARIANT_BASES = ("torch.nn.functional.interpolate", "torch.nn.functional.upsample", "torch.nn.functional.grid_sample",
                  "torch.nn.functional.affine_grid", "torch.nn.functional.max_pool2d", "torch.nn.functional.avg_pool2d",
                  "torch.nn.functional.max_pool1d", "torch.nn.functional.avg_pool1d", "torch.nn.functional.pad",
                  "torch.nn.functional.embedding_bag", "torch.nn.functional.cross_entropy",
                  "torch.nn.functional.nll_loss", "torch.searchsorted", "torch.bucketize", "torch.unique",
                  "torch.gelu", "torch.nn.functional.gelu")


def _variant_base(torch: Any, qual: str) -> list[tuple[list, dict, str]]:
    img = _tensor(torch, (2, 3, 8, 8), "float", 0)
    table = {
        "torch.nn.functional.interpolate": ([img], {"size": (5, 5)}),
        "torch.nn.functional.upsample": ([img], {"size": (5, 5)}),
        "torch.nn.functional.grid_sample": ([img, torch.rand(2, 4, 4, 2) * 2 - 1], {}),
        "torch.nn.functional.affine_grid": ([torch.eye(2, 3).expand(2, 2, 3).contiguous(), [2, 3, 8, 8]], {}),
        "torch.nn.functional.max_pool2d": ([img, 2], {}), "torch.nn.functional.avg_pool2d": ([img, 2], {}),
        "torch.nn.functional.max_pool1d": ([img[0], 2], {}), "torch.nn.functional.avg_pool1d": ([img[0], 2], {}),
        "torch.nn.functional.pad": ([img, (1, 1, 1, 1)], {}),
        "torch.nn.functional.embedding_bag": ([torch.tensor([[0, 1], [2, 3]]), torch.rand(5, 4)], {}),
        "torch.nn.functional.cross_entropy": ([torch.rand(4, 3), torch.tensor([0, 1, 2, 0])], {}),
        "torch.nn.functional.nll_loss": ([torch.rand(4, 3), torch.tensor([0, 1, 2, 0])], {}),
        "torch.searchsorted": ([torch.tensor([0.1, 0.4, 0.7, 0.9]), torch.rand(3, 5)], {}),
        "torch.bucketize": ([torch.rand(3, 5), torch.tensor([0.1, 0.4, 0.7, 0.9])], {}),
        "torch.unique": ([torch.tensor([0, 2, 1, 2, 0, 3])], {}),
        "torch.gelu": ([img], {}), "torch.nn.functional.gelu": ([img], {}),
    }
    if qual in table:
        args, kwargs = table[qual]
        return [(args, kwargs, "variant base")]
    return _op_candidates(torch, qual)


def _doc_choices(fn: Any, name: str, hop: bool = True) -> list[str]:
    """The quoted choices a docstring lists in the paragraph that documents ``name``
    (``mode (str): ``'nearest'`` | ``'linear'`` ...``), or in the docstring it points to
    (``Out-of-place version of :meth:`torch.Tensor.scatter_reduce_```)."""
    import re

    import torch

    doc = inspect.getdoc(fn) or ""
    lines = doc.splitlines()
    ref = re.search(r":(?:meth|func):`(torch\.[\w.]+)`", doc)
    if hop and ref and not any(re.match(rf"\s*{re.escape(name)}\s*(\(|:)", line) for line in lines):
        target: Any = torch
        for part in ref.group(1).split(".")[1:]:
            target = getattr(target, part, None)
        return _doc_choices(target, name, hop=False) if target is not None else []
    for i, line in enumerate(lines):
        if not re.match(rf"\s*{re.escape(name)}\s*(\(|:)", line):
            continue
        indent = len(line) - len(line.lstrip())
        chunk = [line]
        for m in lines[i + 1:]:
            if m.strip() and len(m) - len(m.lstrip()) <= indent and re.match(r"\s*\w+\s*(\(|:)", m):
                break
            chunk.append(m)
        found = [a or b for a, b in re.findall(r"``['\"]([\w\-]+)['\"]``|['\"]([\w\-]+)['\"]", "\n".join(chunk))]
        return list(dict.fromkeys(found))
    return []


def _variant_params(torch: Any, qual: str) -> tuple[dict[str, list], dict[str, Any], dict[str, int | None]] | None:
    """(choices, defaults, positions) of the string/bool arguments of ``qual`` that can select
    another kernel: from the Python signature (``F.interpolate``) or the ATen schemas (a builtin),
    string choices from the docstring's paragraph on the parameter. Positions count the
    positional parameters of the function form (None where the overloads disagree)."""
    fn = _resolve(torch, qual)
    choices: dict[str, list] = {}
    defaults: dict[str, Any] = {}
    positions: dict[str, int | None] = {}
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        sig = None
    if sig is not None and not qual.startswith("Tensor."):
        params = [p for p in sig.parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        for i, p in enumerate(params):
            ann = str(p.annotation)
            if p.name in _VARIANT_SKIP or p.default is inspect.Parameter.empty or p.name == "reduce" and "bool" in ann:
                continue  # (the losses' deprecated ``reduce=`` flag; scatter_reduce's ``reduce`` is a mode)
            values: list[Any]
            if isinstance(p.default, bool) or p.default is None and "bool" in ann and "str" not in ann:
                values = [p.default, True, False]
            elif isinstance(p.default, str) or p.default is None and "str" in ann:
                values = [p.default] + _doc_choices(fn, p.name)
                if len(values) < 2:
                    continue
            else:
                continue
            choices[p.name] = list(dict.fromkeys(values))
            defaults[p.name] = p.default
            positions[p.name] = i if p.kind is not p.KEYWORD_ONLY else None
        return (choices, defaults, positions) if choices else None
    leaf = qual.split(".", 1)[1] if qual.startswith("Tensor.") else None
    for schema in torch._C._jit_get_schemas_for_operator(f"aten::{leaf or _aten_name(qual)}"):
        args = list(schema.arguments)
        if not args or str(args[0].type) != "Tensor" or "out" in schema.overload_name \
                or any(a.name == "out" for a in args):
            continue
        positional = [a for a in args if not a.kwarg_only]
        for a in args:
            t = str(a.type)
            if a.name in _VARIANT_SKIP or t not in ("bool", "Optional[bool]", "str", "Optional[str]") \
                    or a.name == "reduce" and "bool" in t:
                continue
            required = a.default_value is None and not t.startswith("Optional[")
            if required and t != "str":
                continue  # a required bool: the base call supplies it (or the overload is another one)
            default = a.default_value
            values = []
            if required:  # ``reduce`` of scatter_reduce: each documented choice, no default
                values = _doc_choices(fn, a.name)
                if len(values) < 2:
                    continue
            elif "bool" in t:
                values = [default, True, False]
            else:
                values = [default] + _doc_choices(fn, a.name)
                if len(values) < 2:
                    continue
            choices[a.name] = list(dict.fromkeys(choices.get(a.name, []) + values))
            if not required:
                defaults.setdefault(a.name, default)
            pos = None if a.kwarg_only else positional.index(a) - (1 if leaf else 0)
            positions[a.name] = pos if positions.get(a.name, pos) == pos else None
    return (choices, defaults, positions) if choices else None


def variant_plan(torch: Any, ops: list[str]) -> dict[str, dict]:
    """op -> {"choices", "defaults", "parameters" (positions), "rows": [full assignments]}: the
    cross product of the choices, or (above ``_MAX_COMBINATIONS``) each parameter alone."""
    import itertools

    plan: dict[str, dict] = {}
    for qual in ops:
        try:
            found = _variant_params(torch, qual)
        except Exception:  # noqa: BLE001 - an op without schema or signature has no variants
            found = None
        if found is None:
            continue
        choices, defaults, positions = found
        names = sorted(choices)
        total = 1
        for n in names:
            total *= len(choices[n])
        if total <= _MAX_COMBINATIONS or set(names) - set(defaults):
            rows = [dict(zip(names, combo)) for combo in itertools.product(*(choices[n] for n in names))]
        else:
            rows = [dict(defaults)] + [{**defaults, n: v} for n in names for v in choices[n] if v != defaults[n]]
        plan[qual] = {"choices": choices, "defaults": defaults, "parameters": positions, "rows": rows}
    return plan


def variant_ops(torch: Any, ops: dict[str, dict]) -> list[str]:
    """The ops whose variants are probed: every ``torch.*`` / ``torch.nn.functional.*`` function the
    table ran or that has a base call here, and the ``Tensor.*`` methods without such a function
    (the others share its kernels)."""
    ran = sorted({n for n, e in ops.items() if e["status"] in ("lowered", "fallback")} | set(_VARIANT_BASES))
    functions = {n.rsplit(".", 1)[1] for n in ran if n.startswith("torch.") and n.count(".") == 1}
    return [n for n in ran if not (n.startswith("Tensor.") and n.split(".", 1)[1] in functions)]


def probe_variant(torch: Any, met: Any, torch_xla: Any, qual: str, when: dict) -> dict:
    """Run ``qual`` with the base argument set plus the keyword arguments ``when`` on the CPU, then
    on the XLA device (``not_exercised`` when the CPU call raises: an invalid combination)."""
    fn = _resolve(torch, qual)
    method = qual.startswith("Tensor.")
    dev = torch_xla.device()
    found = _variant_params(torch, qual)
    positions = found[2] if found else {}
    for args, kwargs, _desc in _variant_base(torch, qual)[:12]:
        if method and (not args or not isinstance(args[0], torch.Tensor)):
            continue
        args = list(args)
        given = dict(when)
        for name in list(given):  # a parameter the base call passes by position: replaced there
            pos = positions.get(name)
            pos = None if pos is None else pos + (1 if method else 0)  # (a method's receiver is args[0])
            if pos is not None and pos < len(args):
                args[pos] = given.pop(name)

        def make(device: Any, a0: list = args, k0: dict = kwargs, given: dict = given) -> Any:
            a, k = _to(torch, a0, device), {**_to(torch, k0, device), **given}
            if method:
                return lambda: getattr(a[0], qual.split(".", 1)[1])(*a[1:], **k)
            return lambda: fn(*a, **k)

        try:
            with torch.no_grad():
                make(torch.device("cpu"))()
        except Exception as exc:  # noqa: BLE001 - this argument set or combination does not run
            last = f"{type(exc).__name__}: {str(exc).splitlines()[0][:100] if str(exc) else ''}"
            continue
        with torch.no_grad():
            rec = _xla_run(torch, met, torch_xla, make(dev))
        # the forward again with its floating-point tensors requiring grad (a training step's
        # parameters): autograd can dispatch another kernel (``aten::_embedding_bag`` instead of
        # ``_embedding_bag_forward_only``)
        leaves: list = []

        def with_grad(a0: list = args, k0: dict = kwargs, given: dict = given) -> Any:
            a = _float_leaves(torch, _to(torch, a0, dev), leaves)
            k = {**{key: _float_leaves(torch, _to(torch, v, dev), leaves) for key, v in k0.items()}, **given}
            return getattr(a[0], qual.split(".", 1)[1])(*a[1:], **k) if method else fn(*a, **k)

        grad = _xla_run(torch, met, torch_xla, with_grad)
        if leaves and grad["status"] in ("lowered", "fallback"):
            rec["grad"] = grad["status"]
            if grad.get("aten"):
                rec["grad_aten"] = grad["aten"]
        return rec
    return {"status": "not_exercised", "reason": "CPU run raised" + (f" ({last})" if "last" in locals() else "")}


def variant_rows(plan: dict[str, dict], results: dict[str, dict]) -> tuple[dict[str, dict], int]:
    """The probed ops whose variants do not all share one status (argument-dependent), each row with
    its status (``grad``: the status with its floating-point inputs requiring grad, where that
    run worked); and how many ops were probed."""
    out: dict[str, dict] = {}
    probed = 0
    for op, spec in plan.items():
        rows = []
        for i, when in enumerate(spec["rows"]):
            rec = results.get(f"variant:{op}#{i}", {})
            if rec.get("status") not in ("lowered", "fallback"):
                continue
            row = {"when": when, "status": rec["status"]}
            for k in ("aten", "grad", "grad_aten"):
                if rec.get(k):
                    row[k] = rec[k]
            rows.append(row)
        if rows:
            probed += 1
        if len({r["status"] for r in rows}) > 1 or len({r.get("grad", r["status"]) for r in rows}) > 1:
            out[op] = {"parameters": spec["parameters"], "defaults": spec["defaults"], "rows": rows}
    return out, probed


# ---------------------------------------------------------------------------------------------
# boolean arguments: which tensor arguments torch accepts only as bool (by calling each op)
# ---------------------------------------------------------------------------------------------
def bool_arguments(torch: Any, ops: list[str]) -> dict[str, list[dict]]:
    """op -> [{"name", "position", "min_args", "error"}]: tensor arguments for which the op runs on
    the CPU with a bool tensor and raises with a float and with an integer tensor of the same
    shape (the other arguments float). ``min_args``: the positional arguments of that overload
    (``torch.where(cond)`` takes a float; ``torch.where(cond, x, y)`` does not). Positions count
    the function form's parameters (a method's receiver is position 0)."""
    out: dict[str, list[dict]] = {}
    for qual in ops:
        if qual.startswith("torch.nn.functional."):
            continue
        method = qual.startswith("Tensor.")
        leaf = qual.split(".", 1)[1] if method else _aten_name(qual)
        try:
            fn = _resolve(torch, qual)
            schemas = torch._C._jit_get_schemas_for_operator(f"aten::{leaf}")
        except Exception:  # noqa: BLE001
            continue
        found: dict[str, dict] = {}
        for schema in schemas:
            args = [a for a in schema.arguments if not a.kwarg_only]
            if not args or str(args[0].type) != "Tensor" or "out" in schema.overload_name \
                    or any(a.name == "out" for a in schema.arguments):
                continue
            required = [a for a in args if a.default_value is None and not str(a.type).startswith("Optional[")]
            if any(str(a.type) not in ("Tensor", "Scalar", "number") for a in required):
                continue
            if method and required[0].name != "self":
                continue  # ``x.where(cond, y)``: the receiver is not the schema's first argument
            for i, a in enumerate(required):
                if str(a.type) != "Tensor" or a.name in found:
                    continue

                def call(kind: str, i: int = i, required: list = required) -> Any:
                    vals = [_tensor(torch, (3, 4), kind if j == i else "float", 0) if str(b.type) == "Tensor"
                            else 0.5 for j, b in enumerate(required)]
                    return getattr(vals[0], qual.split(".", 1)[1])(*vals[1:]) if method else fn(*vals)

                try:
                    call("bool")
                except Exception:  # noqa: BLE001 - this overload does not take a bool there
                    continue
                errors = []
                for kind in ("float", "long"):
                    try:
                        call(kind)
                    except Exception as exc:  # noqa: BLE001 - the error is the fact
                        errors.append(f"{type(exc).__name__}: {str(exc).splitlines()[0][:120] if str(exc) else ''}")
                if len(errors) == 2 and "bool" in errors[0].lower():  # torch's own error names the bool requirement
                    found[a.name] = {"name": a.name, "position": i, "min_args": len(required), "error": errors[0]}
        if found:
            out[qual] = sorted(found.values(), key=lambda r: r["position"])
    return out


def bool_results(torch: Any, ops: list[str]) -> list[str]:
    """The ops whose result, on the first argument set the forward probe runs on the CPU (the same
    order as probe_op), is a bool tensor although no argument is bool: comparisons,
    predicates (``isnan``, ``signbit``, ``isin``), reductions to a truth value (``any``, ``all``).
    Their result is a mask, whatever the input; an op that only passes a bool input through
    (``clone`` of a mask) is not listed. Measured on the CPU: a result's dtype does not depend on
    the device."""
    out: list[str] = []
    for qual in ops:
        method = qual.startswith("Tensor.")
        try:
            fn = _resolve(torch, qual)
            cands = _op_candidates(torch, qual)
        except Exception:  # noqa: BLE001 - an op that cannot be called proves nothing
            continue
        for args, kwargs, _desc in cands[:24]:
            if method and (not args or not isinstance(args[0], torch.Tensor)):
                continue
            leaves = [v for v in list(args) + list(kwargs.values()) if isinstance(v, torch.Tensor)]
            leaves += [t for v in list(args) + list(kwargs.values()) if isinstance(v, (list, tuple))
                       for t in v if isinstance(t, torch.Tensor)]
            if any(isinstance(v, bool) or isinstance(v, (list, tuple)) and any(isinstance(t, bool) for t in v)
                   for v in list(args) + list(kwargs.values())):
                break  # ``torch.tensor([True, False])``: a bool result from bool data (the data decide)
            try:
                with torch.no_grad():
                    res = (getattr(args[0], qual.split(".", 1)[1])(*args[1:], **kwargs) if method
                           else fn(*args, **kwargs))
            except Exception:  # noqa: BLE001 - the next argument set, as probe_op does
                continue
            if isinstance(res, torch.Tensor) and res.dtype == torch.bool \
                    and not any(t.dtype == torch.bool for t in leaves):
                out.append(qual)
            break
    return sorted(out)


def rerun_bool_results(path: Path) -> dict:
    """``--phase bool-results``: the list of ops that make a bool tensor from non-bool inputs, merged
    into the table at ``path`` (seconds)."""
    import torch

    table = json.loads(path.read_text())
    ran = [n for n, e in sorted(table["ops"].items()) if e["status"] in ("lowered", "fallback")]
    table["bool_results"] = bool_results(torch, ran)
    return table


def _documented_first_type(fn: Any) -> str | None:
    """The type torch's docstring gives the first parameter of its signature line (``hann_window(
    window_length, ...)`` ... ``window_length (int): ...``), backticks dropped; None when it gives none."""
    doc = (getattr(fn, "__doc__", None) or "").lstrip()
    head = re.match(r"[\w.]+\(\s*\*?(\w+)", doc)
    if not head:
        return None
    typed = re.search(r"\n\s*" + re.escape(head.group(1)) + r"\s*\(([^)]*)\)", doc)
    return typed.group(1).replace("`", "").strip() if typed else None


def not_tensor_first(torch: Any, ops: list[str]) -> list[str]:
    """The ``torch.*`` functions of ``ops`` whose first argument need not be a tensor: torch's own
    documentation types their first parameter as something else (``size (int...)``, ``window_length
    (int)``, ``tensors (sequence of Tensors)``, ``equation (str)``, ``data (array_like)``, ``start
    (float or Tensor)``), or, where it types nothing, no ATen schema (``out`` overloads aside) takes a
    ``Tensor`` first (``polygamma(int n, Tensor self)``). A name passed first to a listed function is
    not thereby a tensor. Ops with neither a documented type nor a schema are left out."""
    out: list[str] = []
    for qual in ops:
        if not qual.startswith("torch.") or qual.startswith("torch.nn."):
            continue
        try:
            documented = _documented_first_type(_resolve(torch, qual))
        except Exception:  # noqa: BLE001 - not a Python function: the schemas alone decide
            documented = None
        if documented is not None:
            if not re.fullmatch(r"\w*Tensor(, optional)?", documented):
                out.append(qual)
            continue
        firsts = [str(positional[0].type) if positional else ""
                  for schema in torch._C._jit_get_schemas_for_operator(f"aten::{_aten_name(qual)}")
                  if not schema.overload_name.startswith("out") and not any(a.name == "out" for a in schema.arguments)
                  for positional in [[a for a in schema.arguments if not a.kwarg_only]]]
        if firsts and "Tensor" not in firsts:
            out.append(qual)
    return sorted(out)


def rerun_not_tensor_first(path: Path) -> dict:
    """``--phase first-arguments``: the list of functions that may take a non-tensor first, merged
    into the table at ``path`` (seconds)."""
    import torch

    table = json.loads(path.read_text())
    table["not_tensor_first"] = not_tensor_first(torch, sorted(table["ops"]))
    return table


def rerun_variants(path: Path, batch: int) -> dict:
    """``--phase variants``: the variant probes of every op the table ran and the boolean-argument
    list, merged into the table at ``path``."""
    import numpy
    import torch

    table = json.loads(path.read_text())
    scratch = Path(os.environ.get("TMPDIR", "/tmp")) / f"torch_table_{os.getpid()}"
    scratch.mkdir(exist_ok=True)
    started = time.time()
    ops = variant_ops(torch, table["ops"])
    plan = variant_plan(torch, ops)
    names = [f"variant:{op}#{i}" for op, spec in plan.items() for i in range(len(spec["rows"]))]
    table["variants"], probed = variant_rows(plan, _run_all(names, scratch, batch))
    table["variants_probed"] = {"ops": probed, "calls": len(names)}
    ran = [n for n, e in sorted(table["ops"].items()) if e["status"] in ("lowered", "fallback")]
    # a method NumPy also has (``a.where``, ``np.where``) proves nothing about its receiver's library
    table["bool_arguments"] = {op: [dict(r, numpy_name=True) for r in rows]
                               if op.startswith("Tensor.") and (hasattr(numpy.ndarray, op.split(".", 1)[1])
                                                                or hasattr(numpy, op.split(".", 1)[1])) else rows
                               for op, rows in bool_arguments(torch, ran).items()}
    table["seconds_variants"] = round(time.time() - started)
    return table


# ---------------------------------------------------------------------------------------------
# enumeration and the worker protocol
# ---------------------------------------------------------------------------------------------
def candidates(torch: Any) -> list[str]:
    names: list[str] = []
    for ns, mod in (("torch", torch), ("torch.linalg", torch.linalg), ("torch.fft", torch.fft),
                    ("torch.special", torch.special), ("torch.nn.functional", torch.nn.functional)):
        for n in sorted(dir(mod)):
            if n.startswith(_SKIP_PREFIXES) or n in _SKIP_NAMES or n in F_SKIP or n[0].isupper():
                continue
            obj = getattr(mod, n, None)
            if not callable(obj) or isinstance(obj, type):
                continue
            if ns == "torch.nn.functional" and getattr(obj, "__module__", "") not in ("torch.nn.functional", "torch._C._nn", None) \
                    and not type(obj).__name__ == "builtin_function_or_method":
                continue
            if ns == "torch" and not (type(obj).__name__ == "builtin_function_or_method"
                                      or getattr(obj, "__module__", "") in ("torch.functional", "torch")):
                continue
            names.append(f"{ns}.{n}")
    for n in sorted(dir(torch.Tensor)):
        if n.startswith("_") or n in _SKIP_NAMES or n.startswith(_SKIP_PREFIXES[:-1]):
            continue
        if callable(getattr(torch.Tensor, n, None)):
            names.append(f"Tensor.{n}")
    return names


def worker(names: list[str], out_path: str) -> None:
    import torch
    import torch_xla
    import torch_xla.debug.metrics as met

    torch_xla.device()  # before any CPU autograd (see eval/torch_xla_cases/README.md)
    import warnings

    warnings.filterwarnings("ignore")
    probes = arg_probes(torch)
    with open(out_path, "a") as out:
        for name in names:
            out.write(json.dumps({"start": name}) + "\n")
            out.flush()
            if name.startswith("probe:"):
                op, index = name[6:].rsplit("#", 1)
                cond, make = probes[op][int(index)]
                rec = _xla_run(torch, met, torch_xla, make(torch_xla.device()))
                rec["when"] = cond
                try:
                    make(torch.device("cpu"))()
                except Exception as exc:  # noqa: BLE001
                    rec = {"status": "not_exercised", "reason": f"CPU run raised {type(exc).__name__}", "when": cond}
            elif name.startswith("variant:"):
                # variant:<op>#<row of the plan>, or variant:<op>@<the arguments as JSON> (the tests)
                op, _, index = name[8:].partition("#") if "@" not in name else (name[8:].split("@")[0], "", "")
                try:
                    when = (json.loads(name.split("@", 1)[1]) if "@" in name
                            else variant_plan(torch, [op])[op]["rows"][int(index)])
                    rec = probe_variant(torch, met, torch_xla, op, when)
                except Exception as exc:  # noqa: BLE001
                    rec = {"status": "not_exercised", "reason": f"probe raised {type(exc).__name__}"}
            elif name.startswith("backward:"):
                try:
                    rec = probe_backward(torch, met, torch_xla, name[9:])
                except Exception as exc:  # noqa: BLE001
                    rec = {"status": "not_exercised", "reason": f"probe raised {type(exc).__name__}"}
            else:
                try:
                    rec = probe_op(torch, met, torch_xla, name)
                except Exception as exc:  # noqa: BLE001
                    rec = {"status": "not_exercised", "reason": f"probe raised {type(exc).__name__}"}
            out.write(json.dumps({"name": name, **rec}) + "\n")
            out.flush()


def _run_all(names: list[str], scratch: Path, batch: int) -> dict[str, dict]:
    results: dict[str, dict] = {}
    todo = list(names)
    while todo:
        chunk, todo = todo[:batch], todo[batch:]
        part = scratch / "part.jsonl"
        part.write_text("")
        (scratch / "names.json").write_text(json.dumps(chunk))
        proc = subprocess.run([sys.executable, __file__, "--worker", str(scratch / "names.json"), str(part)],
                              capture_output=True, text=True, timeout=1800)
        started = None
        for line in part.read_text().splitlines():
            rec = json.loads(line)
            if "start" in rec:
                started = rec["start"]
            else:
                results[rec.pop("name")] = rec
                started = None
        if started is not None:  # the worker died inside this op
            results[started] = {"status": "not_exercised", "reason": f"the process crashed (exit {proc.returncode})"}
        done = {n for n in chunk if n in results}
        todo = [n for n in chunk if n not in done] + todo
        print(f"{len(results)}/{len(names)} ops", file=sys.stderr, flush=True)
    return results


def build(batch: int, limit: int | None) -> dict:
    import torch
    import torch_xla

    names = candidates(torch)
    if limit:
        names = names[:limit]
    probes = arg_probes(torch)
    probe_names = [f"probe:{op}#{i}" for op, variants in probes.items() for i in range(len(variants))]
    scratch = Path(os.environ.get("TMPDIR", "/tmp")) / f"torch_table_{os.getpid()}"
    scratch.mkdir(exist_ok=True)
    started = time.time()
    results = _run_all(names + probe_names, scratch, batch)
    ops: dict[str, dict] = {}
    not_exercised: dict[str, str] = {}
    for name in names:
        rec = results[name]
        if rec["status"] == "not_exercised":
            not_exercised[name] = rec["reason"]
            continue
        entry = {"status": rec["status"]}
        for k in ("aten", "reads_value", "data_dependent_shape", "error"):
            if k in rec:
                entry[k] = rec[k]
        entry["args"] = rec.get("args", "")
        ops[name] = entry
    merge_backward(ops, _run_all(backward_names(ops), scratch, batch))
    return {
        "schema": SCHEMA_VERSION,
        "command": COMMAND,
        "torch_version": torch.__version__,
        "torch_xla_version": torch_xla.__version__,
        "device": "PJRT_DEVICE=" + os.environ.get("PJRT_DEVICE", "?"),
        "generated": _table_check.generated_date(),
        "seconds": round(time.time() - started),
        "ops": ops,
        "argument_dependent": argument_rows(probes, results),
        "modules": module_table(torch),
        "not_exercised": not_exercised,
        "bool_results": bool_results(torch, sorted(n for n, e in ops.items()
                                                   if e["status"] in ("lowered", "fallback"))),
        "not_tensor_first": not_tensor_first(torch, sorted(ops)),
    }


def argument_rows(probes: dict[str, list], results: dict[str, dict]) -> dict[str, list[dict]]:
    arg_dep: dict[str, list[dict]] = {}
    for op, variants in probes.items():
        rows = []
        for i in range(len(variants)):
            rec = results[f"probe:{op}#{i}"]
            row = {"when": rec.pop("when", variants[i][0]), "status": rec["status"]}
            if "aten" in rec:
                row["aten"] = rec["aten"]
            if rec.get("reads_value"):
                row["reads_value"] = True
            rows.append(row)
        arg_dep[op] = rows
    return arg_dep


def module_table(torch: Any) -> dict[str, dict]:
    """``torch.nn.<Module>`` -> the one ``torch.nn.functional`` op its ``forward`` calls, read from
    torch's own source, and which constructor argument (or fixed attribute) sets each of the op's
    parameters: ``nn.Upsample(mode="bilinear")`` runs ``F.interpolate(..., mode="bilinear")``.
    Classes whose forward calls no functional op, or several, are left out."""
    import ast as _ast
    import textwrap

    F = torch.nn.functional
    out: dict[str, dict] = {}
    for name in sorted(dir(torch.nn)):
        cls = getattr(torch.nn, name)
        if not (isinstance(cls, type) and issubclass(cls, torch.nn.Module)) or name[:1] == "_":
            continue
        try:
            tree = _ast.parse(textwrap.dedent(inspect.getsource(cls.forward)))
            init = [p for p in inspect.signature(cls.__init__).parameters.values() if p.name != "self"]
        except (OSError, TypeError, SyntaxError):
            continue
        calls = [c for c in _ast.walk(tree) if isinstance(c, _ast.Call) and isinstance(c.func, _ast.Attribute)
                 and isinstance(c.func.value, _ast.Name) and c.func.value.id == "F"]
        if len({c.func.attr for c in calls}) != 1 or not callable(getattr(F, calls[0].func.attr, None)):
            continue
        call = calls[0]
        try:
            params = [p.name for p in inspect.signature(getattr(F, call.func.attr)).parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
            if not params and callable(getattr(F, call.func.attr + "_with_indices", None)):
                # a boolean_dispatch wrapper (F.adaptive_max_pool2d(*args, **kwargs)): both branches
                # share the parameters of the `_with_indices` one
                params = [p.name for p in inspect.signature(getattr(F, call.func.attr + "_with_indices")).parameters.values()
                          if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        except (TypeError, ValueError):
            continue
        attrs = {params[i]: a.attr for i, a in enumerate(call.args) if i < len(params)
                 and isinstance(a, _ast.Attribute) and isinstance(a.value, _ast.Name) and a.value.id == "self"}
        attrs.update({k.arg: k.value.attr for k in call.keywords
                      if k.arg in params and isinstance(k.value, _ast.Attribute)
                      and isinstance(k.value.value, _ast.Name) and k.value.value.id == "self"})
        init_names = [p.name for p in init]
        fixed: dict[str, Any] = {}
        try:
            instance = cls()
        except Exception:  # noqa: BLE001 - needs constructor arguments: no fixed attributes to read
            instance = None
        for param, attr in attrs.items():
            value = getattr(instance, attr, None) if instance is not None else None
            if attr not in init_names and attr != "training" and isinstance(value, (str, int, float, bool, tuple)):
                fixed[param] = value  # set by the class itself (UpsamplingBilinear2d: mode="bilinear")
        defaults = {param: p.default for param, attr in attrs.items() for p in init
                    if p.name == attr and isinstance(p.default, (str, int, float, bool, tuple))}
        out[f"torch.nn.{name}"] = {
            "function": f"torch.nn.functional.{call.func.attr}",
            "init": init_names,
            "arguments": {param: attr for param, attr in attrs.items() if attr in init_names},
            "fixed": fixed,
            "defaults": defaults,
        }
    return out


def backward_names(ops: dict[str, dict]) -> list[str]:
    """Backward probes for the functions (not Tensor methods: they share the function's kernels)
    whose forward lowered."""
    return [f"backward:{n}" for n, e in sorted(ops.items()) if e["status"] == "lowered" and not n.startswith("Tensor.")]


_BACKWARD_KEYS = {"aten": "backward_aten", "error": "backward_error", "reason": "backward_reason"}


def merge_backward(ops: dict[str, dict], results: dict[str, dict]) -> None:
    """Every backward probe's outcome on its op: ``backward`` is ``lowered``, ``fallback`` (with
    ``backward_aten``), ``xla_error`` (the CPU ran forward and backward, the XLA device raised:
    ``backward_error`` holds the exception's class and first line) or ``not_exercised`` (no argument
    set ran forward and backward on the CPU, or the process crashed: ``backward_reason``)."""
    for key, rec in results.items():
        op = key.removeprefix("backward:")
        if op not in ops:
            continue
        for k in ("backward", *_BACKWARD_KEYS.values()):
            ops[op].pop(k, None)
        ops[op]["backward"] = rec["status"]
        for k, name in _BACKWARD_KEYS.items():
            if rec.get(k):
                ops[op][name] = rec[k]


def rerun_ops(path: Path, batch: int, names: list[str]) -> dict:
    """``--phase ops --only A,B``: the forward probe (and, where it lowers, the backward probe) of the
    named ops only, merged into the table at ``path``: an op whose arguments the generator learned
    to build after the last full run."""
    table = json.loads(path.read_text())
    scratch = Path(os.environ.get("TMPDIR", "/tmp")) / f"torch_table_{os.getpid()}"
    scratch.mkdir(exist_ok=True)
    results = _run_all(names, scratch, batch)
    for name in names:
        rec = results[name]
        if rec["status"] == "not_exercised":
            table["ops"].pop(name, None)
            table["not_exercised"][name] = rec["reason"]
            continue
        table["not_exercised"].pop(name, None)
        entry = {k: rec[k] for k in ("status", "aten", "reads_value", "data_dependent_shape", "error") if k in rec}
        entry["args"] = rec.get("args", "")
        table["ops"][name] = entry
    merge_backward(table["ops"], _run_all([n for n in backward_names(table["ops"]) if n[9:] in names], scratch, batch))
    return table


def rerun_arguments(path: Path, batch: int) -> dict:
    """``--phase arguments``: the argument-dependent probes and the module table only, merged into
    the table at ``path`` (seconds instead of the full run's minutes)."""
    import torch

    table = json.loads(path.read_text())
    scratch = Path(os.environ.get("TMPDIR", "/tmp")) / f"torch_table_{os.getpid()}"
    scratch.mkdir(exist_ok=True)
    probes = arg_probes(torch)
    probe_names = [f"probe:{op}#{i}" for op, variants in probes.items() for i in range(len(variants))]
    table["argument_dependent"] = argument_rows(probes, _run_all(probe_names, scratch, batch))
    table["modules"] = module_table(torch)
    return table


def rerun_backward(path: Path, batch: int) -> dict:
    """``--phase backward``: the backward probes and the argument-dependent probes (a few of which
    run a backward) only, merged into the table at ``path``."""
    import torch

    table = json.loads(path.read_text())
    scratch = Path(os.environ.get("TMPDIR", "/tmp")) / f"torch_table_{os.getpid()}"
    scratch.mkdir(exist_ok=True)
    started = time.time()
    probes = arg_probes(torch)
    probe_names = [f"probe:{op}#{i}" for op, variants in probes.items() for i in range(len(variants))]
    results = _run_all(backward_names(table["ops"]) + probe_names, scratch, batch)
    merge_backward(table["ops"], {k: v for k, v in results.items() if k.startswith("backward:")})
    table["argument_dependent"] = argument_rows(probes, results)
    table["modules"] = module_table(torch)
    table["seconds_backward"] = round(time.time() - started)
    return table


def check_table(path: Path, sample: int, batch: int) -> int:
    """Run a sample of each kind of probe again, as the full run does (forward ops, backward probes,
    argument-dependent probes, string/bool variants; each sample spread over the recorded statuses),
    and compare their facts with the file. Exit status 1 when stale."""
    import tempfile

    import torch
    import torch_xla

    table = json.loads(path.read_text())

    def facts(record: dict, keys: tuple[str, ...]) -> dict:
        return {k: record[k] for k in keys if record.get(k)}  # the generator records a flag only when set

    ops = table["ops"]
    forward, other = ("status", "aten", "reads_value", "data_dependent_shape"), ("status", "aten")
    kinds = [  # (probe name -> the facts the file holds, the keys of the worker's record they came from)
        ({n: facts(e, forward) for n, e in ops.items()}, forward),
        ({f"backward:{n}": facts({"status": e["backward"], "aten": e.get("backward_aten")}, other)
          for n, e in ops.items() if "backward" in e}, other),
        ({f"probe:{op}#{i}": facts(r, other) for op, rows in table["argument_dependent"].items()
          for i, r in enumerate(rows)}, other),
        ({f"variant:{op}@{json.dumps(r['when'])}": facts(r, (*other, "grad"))
          for op, spec in table.get("variants", {}).items() for r in spec["rows"]}, (*other, "grad")),
    ]
    expected: dict[str, tuple[dict, tuple[str, ...]]] = {}
    for rows, keys in kinds:
        groups: dict[str, list[str]] = {}
        for name, recorded in rows.items():
            groups.setdefault(recorded["status"], []).append(name)
        expected.update({n: (rows[n], keys) for n in _table_check.spread_sample(groups, sample)})
    with tempfile.TemporaryDirectory() as scratch:
        results = _run_all(list(expected), Path(scratch), batch)
    differences = [line for key, version in (("torch_version", torch.__version__),
                                             ("torch_xla_version", torch_xla.__version__))
                   if (line := _table_check.difference(key, table[key], version))]
    differences += [line for name, (recorded, keys) in expected.items()
                    if (line := _table_check.difference(name, recorded, facts(results.get(name, {}), keys)))]
    # ops that make a bool tensor from non-bool inputs: a sample of those listed and of those not
    listed = set(table.get("bool_results", []))
    ran = sorted(n for n, e in ops.items() if e["status"] in ("lowered", "fallback"))
    picked = _table_check.spread_sample({"bool": sorted(listed), "other": [n for n in ran if n not in listed]}, sample)
    measured = set(bool_results(torch, picked))
    differences += [line for name in picked
                    if (line := _table_check.difference(f"bool_result:{name}", name in listed, name in measured))]
    expected.update({f"bool_result:{n}": ({}, ()) for n in picked})
    # functions that may take a non-tensor first: read from the schemas, so the whole list is compared
    differences += [line for line in [_table_check.difference(
        "not_tensor_first", table.get("not_tensor_first"), not_tensor_first(torch, sorted(ops)))] if line]
    return _table_check.report("generate_torch_table", 2 + len(expected), differences,
                               f"torch {torch.__version__}, torch_xla {torch_xla.__version__}")


def write_doc(table: dict, path: Path) -> None:
    ops = table["ops"]
    by = {s: sorted(n for n, e in ops.items() if e["status"] == s) for s in ("lowered", "fallback", "xla_error")}
    dd = sorted(n for n, e in ops.items() if e.get("data_dependent_shape"))
    rv = sorted(n for n, e in ops.items() if e.get("reads_value"))
    lines = [
        "# PyTorch ops on torch_xla: lowered or CPU fallback",
        "",
        f"Generated by `{table['command']}` (torch {table['torch_version']}, torch_xla {table['torch_xla_version']}, "
        f"{table['device']}, {table['generated']}, {table['seconds']} s). Data: `xlacheck/data/torch_xla_ops.json`; "
        "rules XLA351 and XLA250 read it. Do not edit by hand: rerun the generator.",
        "",
        "Each op was called once on the XLA device with arguments built from its ATen schema (or its Python "
        "signature) after the same call ran on the CPU. *Fallback*: an `aten::` counter of "
        "`torch_xla.debug.metrics` moved (the op ran on the CPU, its inputs were transferred); "
        "`aten::_local_scalar_dense` alone is a value read (a host sync), listed separately. The statuses below "
        "are the forward call's, with one argument set: an op can lower here and fall back for other dtypes or "
        "arguments. Argument-dependent ops were probed with each listed argument. The `torch.*` and "
        "`torch.nn.functional.*` functions whose forward lowered were also run forward and backward (their "
        "floating-point inputs made leaves that require grad): a backward kernel can fall back, or raise, alone.",
        "",
        "| | count |",
        "|---|---|",
        f"| candidates | {len(ops) + len(table['not_exercised'])} |",
        f"| exercised | {len(ops)} |",
        f"| lowered | {len(by['lowered'])} |",
        f"| CPU fallback | {len(by['fallback'])} |",
        f"| raised on XLA only | {len(by['xla_error'])} |",
        f"| read a value back (`_local_scalar_dense`) | {len(rv)} |",
        f"| data-dependent output shape | {len(dd)} |",
        f"| argument-dependent (probed) | {sum(1 for r in table['argument_dependent'].values() if len({x['status'] for x in r}) > 1)} of {len(table['argument_dependent'])} |",
        f"| not exercised | {len(table['not_exercised'])} |",
        f"| backward probes (forward lowered) | {sum(1 for e in ops.values() if 'backward' in e)} |",
        *(f"| backward {label} | {sum(1 for e in ops.values() if e.get('backward') == s)} |"
          for s, label in (("lowered", "lowered"), ("fallback", "CPU fallback"), ("xla_error", "raised on XLA only"),
                           ("not_exercised", "not exercised"))),
        "",
        "## CPU fallback",
        "",
    ]
    lines += [f"- `{n}` ({', '.join(ops[n].get('aten', []))})" for n in by["fallback"]]
    bwd = sorted(n for n, e in ops.items() if e.get("backward") == "fallback")
    raised = sorted(n for n, e in ops.items() if e.get("backward") == "xla_error")
    probed = sum(1 for e in ops.values() if e.get("backward") in ("lowered", "fallback", "xla_error"))
    unprobed: dict[str, list[str]] = {}
    for n, e in sorted(ops.items()):
        if e.get("backward") == "not_exercised":
            unprobed.setdefault(e.get("backward_reason", ""), []).append(n)
    lines += ["", f"## Backward falls back, forward lowers ({len(bwd)} of {probed} backward probes that ran)", ""]
    lines += [f"- `{n}` ({', '.join(ops[n].get('backward_aten', []))})" for n in bwd]
    lines += ["", f"## Backward raises on XLA only, forward lowers ({len(raised)} of {probed} backward probes that "
                  "ran)", "", "The same forward and backward ran on the CPU; on the XLA device the backward raised "
                  "(the exception's class and first line).", ""]
    lines += [f"- `{n}`: {ops[n].get('backward_error', '')}" for n in raised]
    lines += ["", f"## Backward not exercised ({sum(map(len, unprobed.values()))})", ""]
    lines += [f"- {r}: {len(ns)} (" + ", ".join(f"`{n}`" for n in ns[:40]) + (", ..." if len(ns) > 40 else "") + ")"
              for r, ns in sorted(unprobed.items(), key=lambda kv: (-len(kv[1]), kv[0]))]
    modules = table.get("modules", {})
    lines += ["", f"## `torch.nn` modules and the functional op their forward calls ({len(modules)})", "",
              "Read from torch's source (each module's `forward`); XLA351 checks a module built in a step's class "
              "as this op with the constructor's arguments.", ""]
    lines += [f"- `{m}`: `{spec['function']}`" + (f" (fixed: {spec['fixed']})" if spec["fixed"] else "")
              for m, spec in sorted(modules.items())]
    lines += ["", "## Argument-dependent", ""]
    for op, rows in table["argument_dependent"].items():
        lines.append(f"- `{op}`: " + "; ".join(
            f"{', '.join(f'{k}={v}' for k, v in r['when'].items())}: {r['status']}" for r in rows))
    variants = table.get("variants", {})
    if variants:
        lines += ["", f"## Variants: string/bool arguments that change the lowering ({len(variants)} of "
                      f"{table['variants_probed']['ops']} ops probed, {table['variants_probed']['calls']} calls, "
                      f"{table.get('seconds_variants', '?')} s)", "",
                  "Each documented choice of the op's string and bool keyword arguments (the cross product where "
                  "small), run on the XLA device; listed only where the statuses differ. XLA351 reads them.", ""]
        for op, spec in sorted(variants.items()):
            falls = [r for r in spec["rows"] if r["status"] == "fallback"]
            lines.append(f"- `{op}`: {len(falls)} of {len(spec['rows'])} fall back: " + "; ".join(
                ", ".join(f"{k}={v!r}" for k, v in r["when"].items() if v != spec["defaults"].get(k))
                or "defaults" for r in falls[:8]) + ("; ..." if len(falls) > 8 else ""))
    bools = table.get("bool_arguments", {})
    if bools:
        lines += ["", "## Tensor arguments torch accepts only as bool", "",
                  "Each op called on the CPU with a bool, a float and an integer tensor in the argument; these "
                  "ran with the bool and raised with the others (torch's error names the requirement). The value "
                  "model treats a name passed there as a boolean tensor.", ""]
        lines += [f"- `{op}`: " + ", ".join(f"`{r['name']}` (position {r['position']})" for r in rows)
                  for op, rows in sorted(bools.items())]
    lines += ["", "## Data-dependent output shape", ""] + [f"- `{n}` ({ops[n]['status']})" for n in dd]
    lines += ["", "## Read a value back to the host", ""] + [f"- `{n}`" for n in rv]
    lines += ["", "## Raised on XLA only", ""] + [f"- `{n}`: {ops[n].get('error', '')}" for n in by["xla_error"]]
    lines += ["", "## Not exercised (and why)", ""]
    reasons: dict[str, list[str]] = {}
    for n, r in table["not_exercised"].items():
        reasons.setdefault(r, []).append(n)
    for r, ns in sorted(reasons.items(), key=lambda kv: -len(kv[1])):
        lines.append(f"- {r}: {len(ns)} (" + ", ".join(f"`{n}`" for n in ns[:40]) + (", ..." if len(ns) > 40 else "") + ")")
    lines += ["", "## Lowered", "", ", ".join(f"`{n}`" for n in by["lowered"]), ""]
    path.write_text("\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--doc", type=Path, default=DEFAULT_DOC)
    ap.add_argument("--batch", type=int, default=400, help="ops per worker process")
    ap.add_argument("--limit", type=int, default=None, help="probe only the first N candidates (a quick check)")
    ap.add_argument("--only", default="", help="with --phase ops: comma list of the ops to probe again")
    ap.add_argument("--phase", choices=("all", "backward", "arguments", "variants", "bool-results", "first-arguments",
                                        "ops"),
                    default="all",
                    help="backward: rerun only the backward probes and merge them into --out; arguments: only "
                         "the argument-dependent probes and the module table; variants: only the variant probes "
                         "and the boolean-argument list; bool-results: only the list of ops whose result is a "
                         "bool tensor; first-arguments: only the list of functions that may take a "
                         "non-tensor first (from the ATen schemas); "
                         "ops: only the forward and backward probes of the --only ops")
    ap.add_argument("--check", action="store_true", help="rerun a sample of each kind of probe and compare with --out")
    ap.add_argument("--sample", type=int, default=6, help="with --check: how many probes of each kind")
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(json.loads(Path(args.worker[0]).read_text()), args.worker[1])
        return 0
    if os.environ.get("PJRT_DEVICE") is None:
        os.environ["PJRT_DEVICE"] = "CPU"
    if args.check:
        reason = _table_check.missing("torch_xla")
        if reason:
            return _table_check.skipped("generate_torch_table", reason)
        return check_table(args.out, args.sample, args.batch)
    table = (rerun_backward(args.out, args.batch) if args.phase == "backward"
             else rerun_bool_results(args.out) if args.phase == "bool-results"
             else rerun_not_tensor_first(args.out) if args.phase == "first-arguments"
             else rerun_ops(args.out, args.batch, [n for n in args.only.split(",") if n]) if args.phase == "ops"
             else rerun_variants(args.out, args.batch) if args.phase == "variants"
             else rerun_arguments(args.out, args.batch) if args.phase == "arguments" else build(args.batch, args.limit))
    text = json.dumps(table, separators=(",", ":"), sort_keys=True)
    args.out.write_text(text + "\n")
    write_doc(json.loads(text), args.doc)  # from the file's sorted keys: every phase writes the same page
    print(f"wrote {args.out} ({len(table['ops'])} ops, {len(table['not_exercised'])} not exercised) and {args.doc}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
