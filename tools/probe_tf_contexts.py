"""Probe xlacheck's TF/Keras recall and precision per context: table facts placed where model code puts them.

Sinks come from the generated tables, not from cases: ops without an XLA kernel for a float input
(``xlacheck/data/tf_xla_ops.json`` ``unsupported``, elementwise unary in ``tf_api.json``, with each alias
spelling the table lists, and Keras 3 ``keras.ops``) and for a dtype (``dtypes.fail``), the API case
generator's call forms of table functions (``tools/generate_api_cases.py`` ``PROBES``, with and without a
kernel), arguments that must be compile-time constants fed a value computed from the data (``tf_api.json``
``const_args``, ``tf.*`` and ``keras.ops``), functions whose result shape depends on the data
(``data_dependent_shape``), and ops whose XLA result differs from eager on an edge input made inside the
model (``xlacheck/data/tf_xla_divergence.json`` outcomes ``differs``/``xla_error``: a NaN from an empty
masked mean, an integer overflow, a narrowing cast). Each table fact needs a call form (``CALLS``: how
model code calls the function on the hidden state ``h``); a fact without one is counted, not probed.
Candidates for the divergence table (every elementwise unary function and reduction of ``tf_api.json`` on
the NaN row, the reductions on an empty axis) run in the plain jit context: a wrong result of a function
the divergence table does not list is a fact it misses.

Contexts are the ways model code reaches the compiled program: the TF form matrix's paths
(``tools/generate_form_cases_tf.py`` ``PATHS``: helpers, sub-layer methods, Sequential/functional
models, Lambda layers, ``Model.compile(jit_compile=True)`` call/train_step/losses/metrics,
map_fn/while_loop/cond bodies, ``functools.partial``, ``strategy.run``, value flows), plus a
``tf.function(jit_compile=True)`` helper called from a compiled function, a method of a plain class
called from ``call``, a ``test_step`` override, the Keras paths spelled ``from tensorflow import keras``
and ``import keras`` (Keras 3), the op spelled by each alias the table lists, and two contexts that are
never compiled (a plain eager function, a ``tf.data`` map), where a compile finding is a false alarm.

The compiler labels every probe (``--label``, needs TensorFlow; probes run in worker processes, a
few dozen per process): eagerly, then under ``tf.function(jit_compile=True)`` as the oracle wraps an
entry (``../shared/eval/xla_cases/oracle.py``, whose functions do each step), compared with the oracle's
tolerance, then compiled with only the argument shapes (``value_specialized`` when XLA needed values). A probe whose
eager run raises has no reference and is dropped; a context whose neutral probe (the sink replaced by
a plain sum) fails under XLA is broken and dropped with its probes. Labels are kept in
``benchmarks/results/tf_context_probes.json`` (keyed by probe name and text hash), so scoring needs no
TensorFlow: each probe is linted as ``benchmarks/xla_cases_score.py`` lints a case (declared
jit-compiled) and as plain code (contexts inferred), and the table gives recall and false alarms per
context and per sink family.

    python tools/probe_tf_contexts.py --label [--only REGEX]   # label the probes that have no label yet
    python tools/probe_tf_contexts.py                          # score xlacheck on the labelled probes
    python tools/probe_tf_contexts.py --misses [--only REGEX]  # list missed failures and false alarms
    python tools/probe_tf_contexts.py --write DIR [--only REGEX]   # write the probe files, to read one
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate_api_cases as api_cases  # noqa: E402  (tools/ is not a package)
import generate_form_cases_tf as forms  # noqa: E402
import generate_op_table as op_table  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "xlacheck" / "data"
LABELS = ROOT / "benchmarks" / "results" / "tf_context_probes.json"
FAIL_LABELS = ("compile_error", "crash", "wrong_result", "timeout", "value_specialized")  # the oracle's
PER_WORKER = 80
TIMEOUT_S = 90

# A hidden state with one row whose values never exceed 2.0: a mean over ``h > 2.0`` is 0/0 there. The
# NaN goes between values (the divergence table's probes put it there: an op that orders values may
# treat a NaN at either end alike in both modes).
NAN_ROW = ("big = tf.cast(h > 2.0, h.dtype)\n"
           "mean_big = tf.reduce_sum(h * big, axis=-1, keepdims=True) / tf.reduce_sum(big, axis=-1, keepdims=True)\n"
           "v = tf.concat([h[..., :3], mean_big, h[..., 3:]], axis=-1)\n")
# A data-dependent int scalar (4 on the probe input), and a data-dependent axis (0).
DATA_INT = "n = tf.cast(tf.reduce_max(h), tf.int32) + 1\n"
DATA_AXIS = "a = tf.cast(tf.reduce_max(h) < 0.0, tf.int32)\n"
# How ``r`` reaches the output: only through its shape for the compile-time facts (a compile error
# needs no value), with its values for a data-dependent shape (XLA pads it to a bound: values can differ).
# The NaN at either end of the row (an op that orders values may treat an end NaN differently), and an int32 row
# holding the type's edges (INT_MIN has no positive counterpart; INT_MAX + 1 wraps).
NAN_ENDS = {"nan_first": "v = tf.concat([mean_big, h], axis=-1)\n",
            "nan_last": "v = tf.concat([h, mean_big], axis=-1)\n"}
INT_EDGES = ("vi = tf.concat([tf.cast(h, tf.int32), tf.fill([2, 1], tf.int32.min), tf.fill([2, 1], tf.int32.max)], "
             "axis=-1)\n")
KEEP = "out = tf.reduce_sum(h, axis=-1) + 0.0 * tf.reduce_sum(tf.cast(r, h.dtype))\n"
KEEP_VALUES = "out = tf.reduce_sum(h, axis=-1) + tf.reduce_sum(tf.cast(r, h.dtype))\n"

# How model code calls a table function: a statement prefix (made of the names above) and the call,
# which assigns ``r`` (the generic ``KEEP`` line then ties it to the output) or ``out`` itself.
# Keys: (table family, api) -> code; the families read the facts, this only spells the call.
CALLS: dict[tuple[str, str], str] = {
    # const_args: the argument gets ``n`` or ``a``
    ("const", "tf.one_hot"): DATA_INT + "r = tf.one_hot(tf.cast(h, tf.int32), n)\n",
    ("const", "tf.eye"): DATA_INT + "r = tf.eye(n)\n",
    ("const", "tf.ones"): DATA_INT + "r = tf.ones([n, 2])\n",
    ("const", "tf.zeros"): DATA_INT + "r = tf.zeros([2, n]) + 1.0\n",
    ("const", "tf.fill"): DATA_INT + "r = tf.fill([n], 0.5)\n",
    ("const", "tf.tile"): DATA_INT + "r = tf.tile(h, [1, n])\n",
    ("const", "tf.broadcast_to"): DATA_INT + "r = tf.broadcast_to(h[..., :1], [2, n])\n",
    ("const", "tf.repeat"): DATA_INT + "r = tf.repeat(h, n, axis=-1)\n",
    ("const", "tf.linspace"): DATA_INT + "r = tf.linspace(0.0, 1.0, n)\n",
    ("const", "tf.signal.hann_window"): DATA_INT + "r = tf.signal.hann_window(n)\n",
    ("const", "tf.signal.hamming_window"): DATA_INT + "r = tf.signal.hamming_window(n)\n",
    ("const", "tf.math.unsorted_segment_sum"):
        DATA_INT + "r = tf.math.unsorted_segment_sum(tf.transpose(h), tf.range(6) % 2, n)\n",
    ("const", "tf.math.unsorted_segment_max"):
        DATA_INT + "r = tf.math.unsorted_segment_max(tf.transpose(h), tf.range(6) % 2, n)\n",
    ("const", "tf.keras.backend.one_hot"): DATA_INT + "r = tf.keras.backend.one_hot(tf.cast(h, tf.int32), n)\n",
    ("const", "tf.keras.backend.repeat"): DATA_INT + "r = tf.keras.backend.repeat(h, n)\n",
    ("const", "tf.reshape"): DATA_INT + "r = tf.reshape(h, [n, -1])\n",
    ("const", "tf.random.categorical"): DATA_INT + "r = tf.random.categorical(tf.math.log(h), n)\n",
    ("const", "tf.reduce_sum"): DATA_AXIS + "r = tf.reduce_sum(h, axis=a)\n",
    ("const", "tf.reduce_max"): DATA_AXIS + "r = tf.reduce_max(h, axis=a)\n",
    ("const", "tf.reduce_mean"): DATA_AXIS + "r = tf.reduce_mean(h, axis=a)\n",
    ("const", "tf.argmax"): DATA_AXIS + "r = tf.argmax(h, axis=a)\n",
    ("const", "tf.cumsum"): DATA_AXIS + "r = tf.cumsum(h, axis=a)\n",
    ("const", "tf.reverse"): DATA_AXIS + "r = tf.reverse(h, axis=[a])\n",
    ("const", "tf.expand_dims"): DATA_AXIS + "r = tf.expand_dims(h, axis=a)\n",
    ("const", "tf.gather"): DATA_AXIS + "r = tf.gather(h, [0, 1], axis=a)\n",
    ("const", "tf.nn.l2_normalize"): DATA_AXIS + "r = tf.nn.l2_normalize(h, axis=a)\n",
    ("const", "tf.keras.backend.sum"): DATA_AXIS + "r = tf.keras.backend.sum(h, axis=a)\n",
    ("const", "tf.keras.activations.softmax"): DATA_AXIS + "r = tf.keras.activations.softmax(h, axis=a)\n",
    # the same facts spelled with Keras 3's keras.ops (tf_api.json measures them with the TF backend)
    ("const", "keras.ops.one_hot"): DATA_INT + "r = keras.ops.one_hot(tf.cast(h, tf.int32), n)\n",
    ("const", "keras.ops.arange"): DATA_INT + "r = keras.ops.arange(n)\n",
    ("const", "keras.ops.ones"): DATA_INT + "r = keras.ops.ones([n, 2])\n",
    ("const", "keras.ops.repeat"): DATA_INT + "r = keras.ops.repeat(h, n, axis=-1)\n",
    ("const", "keras.ops.broadcast_to"): DATA_INT + "r = keras.ops.broadcast_to(h[..., :1], [2, n])\n",
    ("const", "keras.ops.sum"): DATA_AXIS + "r = keras.ops.sum(h, axis=a)\n",
    ("const", "keras.ops.argmax"): DATA_AXIS + "r = keras.ops.argmax(h, axis=a)\n",
    ("op", "keras.ops.i0"): "r = keras.ops.i0(h)\n",
    ("op", "keras.ops.det"): "r = keras.ops.det(tf.reshape(h[..., :4], [-1, 2, 2]))\n",
    ("op", "keras.ops.slogdet"): "r = keras.ops.slogdet(tf.reshape(h[..., :4], [-1, 2, 2]))[1]\n",
    ("shape", "keras.ops.nonzero"): "r = tf.math.cumsum(keras.ops.nonzero(h > 1.0)[0])\n",
    # data_dependent_shape: the result is reduced, as model code reduces a selection
    ("shape", "tf.boolean_mask"): "r = tf.math.cumsum(tf.boolean_mask(h, h > 1.0))\n",
    ("shape", "tf.unique"): "r = tf.math.cumsum(tf.unique(tf.reshape(tf.round(h), [-1])).y)\n",
    ("shape", "tf.unique_with_counts"): "r = tf.unique_with_counts(tf.reshape(tf.round(h), [-1])).count\n",
    ("shape", "tf.where"): "r = tf.math.cumsum(tf.where(h > 1.0)[:, 0])\n",
    ("shape", "tf.math.bincount"): "r = tf.math.bincount(tf.cast(h, tf.int32))\n",
    ("shape", "tf.math.segment_sum"):
        "r = tf.math.segment_sum(tf.reshape(h, [-1]), tf.cast(tf.reshape(h, [-1]), tf.int32))\n",
    ("shape", "tf.dynamic_partition"):
        "r = tf.math.cumsum(tf.dynamic_partition(tf.reshape(h, [-1]), "
        "tf.cast(tf.reshape(h, [-1]) > 1.0, tf.int32), 2)[1])\n",
    # divergence: the edge input is made in the model (NAN_ROW), the op's result reaches the output
    ("divergence", "tf.math.argmax"): NAN_ROW + "out = tf.cast(tf.math.argmax(v, axis=-1), h.dtype)\n",
    ("divergence", "tf.math.argmin"): NAN_ROW + "out = tf.cast(tf.math.argmin(v, axis=-1), h.dtype)\n",
    ("divergence", "tf.argsort"):
        NAN_ROW + "out = tf.cast(tf.reduce_sum(tf.argsort(v, axis=-1) * tf.range(7), axis=-1), h.dtype)\n",
    ("divergence", "tf.math.reduce_max"): NAN_ROW + "out = tf.math.reduce_max(v, axis=-1)\n",
    ("divergence", "tf.math.reduce_min"): NAN_ROW + "out = tf.math.reduce_min(v, axis=-1)\n",
    ("divergence", "tf.math.maximum"): NAN_ROW + "out = tf.reduce_sum(tf.math.maximum(v, 1.0), axis=-1)\n",
    ("divergence", "tf.math.minimum"): NAN_ROW + "out = tf.reduce_sum(tf.math.minimum(v, 1.0), axis=-1)\n",
    ("divergence", "tf.nn.softmax"): NAN_ROW + "out = tf.reduce_max(tf.nn.softmax(v, axis=-1), axis=-1)\n",
    ("divergence", "tf.sort"): NAN_ROW + "s = tf.sort(v, axis=-1)\nout = s[..., 0]\n",
    ("divergence", "tf.math.top_k"): NAN_ROW + "out = tf.reduce_sum(tf.math.top_k(v, k=2).values, axis=-1)\n",
    ("divergence", "tf.math.in_top_k"):
        NAN_ROW + "out = tf.cast(tf.math.in_top_k(tf.zeros([2], tf.int32), tf.reshape(v, [2, 7]), 1), h.dtype)\n",
    ("divergence", "tf.searchsorted"):
        NAN_ROW + "out = tf.cast(tf.reduce_sum(tf.searchsorted(tf.sort(v, axis=-1), "
                  "tf.reshape(h[..., :2], [-1, 2])), axis=-1), h.dtype)\n",
    ("divergence", "tf.math.unsorted_segment_max"):
        NAN_ROW + "out = tf.reduce_sum(tf.math.unsorted_segment_max(tf.transpose(v), tf.range(7) % 2, 2), axis=0)\n",
    ("divergence", "tf.cast"): NAN_ROW + "out = tf.reduce_sum(tf.cast(tf.cast(v * 4.0, tf.int32), h.dtype), axis=-1)\n",
    ("divergence", "tf.math.square"):
        "big = tf.cast(h * 30000.0, tf.int32)\nout = tf.cast(tf.reduce_sum(tf.math.square(big), axis=-1), h.dtype)\n",
    ("divergence", "tf.math.multiply"):
        "big = tf.cast(h * 30000.0, tf.int32)\n"
        "out = tf.cast(tf.reduce_sum(tf.math.multiply(big, big), axis=-1), h.dtype)\n",
    ("divergence", "tf.math.pow"):
        "big = tf.cast(h * 4.0, tf.int32)\nout = tf.cast(tf.reduce_sum(tf.math.pow(big, 20), axis=-1), h.dtype)\n",
    ("divergence", "tf.math.reduce_euclidean_norm"):
        "kept = tf.cast(h > 5.0, h.dtype)\n"
        "out = tf.reduce_sum(h, axis=-1) + tf.math.reduce_euclidean_norm(h[:, :0], axis=-1)\n",
}


# The API case generator's call forms (tools/generate_api_cases.py PROBES) read ``x`` of one input kind
# (its INPUTS); each kind made from the hidden state ``h`` ([2, 6], values 0.25 .. 3.0).
FROM_H = {
    "pos": "x = h\n",
    "unit": "x = h / 4.0\n",
    "img": "x = tf.reshape(tf.tile(h, [1, 12]), [2, 6, 6, 2]) / 3.0\n",
    "seq": "x = tf.tile(h, [1, 3])[:, :16] / 3.0\n",
    "spd": "a = tf.reshape(tf.tile(h, [1, 2])[:, :9], [2, 3, 3]) / 3.0\n"
           "x = tf.matmul(a, a, transpose_b=True) + tf.eye(3)\n",
}


# The generic call writer: a table row without a ``CALLS`` entry is called with the arguments the table's
# generators traced it with (``generate_op_table.ARG_OVERRIDES``, else ``synthetic_value`` of each
# ``called_with`` parameter for one argument profile), spelled as model code; each argument in ``const_args``
# gets the same value computed from the data (``z`` is 0 on every input). Which profile a function accepts is
# the eager run's to say: one probe per profile, a probe whose eager run raises has no label.
DATA_ZERO = "z = tf.cast(tf.reduce_max(h) < 0.0, tf.int32)\n"
GEN_PROFILES = (op_table.FLOAT_MATRIX, op_table.F(1, 4, 4, 3), op_table.F(4), op_table.F(2, 3, 4),
                op_table.I(2, 2))


def _tensor_src(arg: Any, data: bool = False) -> str | None:
    """Model code that builds ``arg`` (a ``TensorArg``) from constants and ``h``; ``data``: its values from ``z``."""
    shape = [2 if d is None else d for d in arg.shape]
    size = 1
    for d in shape:
        size *= d
    if arg.kind == "ragged":
        flat = _tensor_src(op_table.TensorArg(arg.dtype, (3,)), data)
        return f"tf.RaggedTensor.from_row_lengths({flat}, tf.constant([2, 1], tf.int64))"
    if arg.kind == "sparse":
        return f"tf.sparse.from_dense({_tensor_src(op_table.TensorArg(arg.dtype, tuple(shape)), data)})"
    if arg.dtype == "string":
        return f"tf.reshape(tf.constant([\"ab\"] * {size}), {shape})"
    # numbers and flags come from ``h`` (``h[0, 0]`` is 0.25): a value the compiler cannot fold, as in a model
    if arg.dtype == "bool":
        return f"tf.logical_and(tf.reshape(tf.range({size}) % 2 == 0, {shape}), h[0, 0] > 0.0)"
    if arg.dtype.startswith(("int", "uint")):
        base = (f"tf.cast(tf.reshape(tf.range({size}) % 2, {shape}), tf.{arg.dtype})"
                f" * tf.cast(h[0, 0] * 4.0, tf.{arg.dtype})")
        return f"({base} + tf.cast(z, tf.{arg.dtype}))" if data else base
    if arg.dtype.startswith("complex"):
        return None
    return f"tf.cast(tf.reshape(tf.linspace(0.25, 1.0, {size}), {shape}) * h[0, 0] * 4.0, tf.{arg.dtype})"


def _value_src(value: Any, data: bool = False) -> str | None:
    """Model code for a traced argument value (``data``: the value computed from ``z``); None: cannot spell it."""
    if isinstance(value, op_table.TensorArg):
        return _tensor_src(value, data)
    if isinstance(value, bool) or value is None:
        return None if data else repr(value)
    if isinstance(value, int):
        return (f"z + {value}" if value else "z") if data else repr(value)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, int) and not isinstance(v, bool)
                                                          for v in value):
        head = _value_src(value[0], data)
        return f"[{head}, {', '.join(map(repr, value[1:]))}]".replace(", ]", "]")
    if data:
        return None
    if isinstance(value, (list, tuple)):
        parts = [_value_src(v) for v in value]
        return None if None in parts else "[" + ", ".join(p for p in parts if p is not None) + "]"
    if value == "dtype:float32":
        return "tf.float32"
    if value == "callable":
        return "lambda t: t"
    if isinstance(value, (str, float)):
        return repr(value)
    return None  # Lazy, dicts of specs


def generic_calls(name: str, rec: dict[str, Any], family: str) -> dict[str, str]:
    """One call per argument profile: ``{variant: code}`` assigning ``r`` (or ``{}`` when no argument
    can be spelled). ``const``: each of ``const_args`` gets a value computed from the data."""
    const = rec.get("const_args") or [] if family == "const" else []
    if name in op_table.ARG_OVERRIDES:
        profiles: tuple[Any, ...] = (None,)
    else:
        preferred = [pp for prefixes, pp in op_table.PREFERRED_PROFILES if name.startswith(prefixes)]
        profiles = (*(preferred[0] if preferred else ()), *GEN_PROFILES)
    params = list(rec.get("called_with") or rec.get("params", [])[:1] or ["input"])
    out: dict[str, str] = {}
    for profile in profiles:
        if profile is None:
            args = dict(op_table.ARG_OVERRIDES[name])
        else:
            args = {p: op_table.synthetic_value(p, profile) for p in params}
        for p in const:
            if p not in args and p in rec.get("params", ()):
                args[p] = op_table.synthetic_value(p, profile or op_table.FLOAT_MATRIX)
        for p, v in args.items():  # one index or split of a batch of 1 partitions nothing: zero rows, a static shape
            if p in op_table.INT_PARAMS and isinstance(v, op_table.TensorArg) and v.shape == (1,):
                args[p] = op_table.I(2)
        parts: list[str] = []
        by_keyword = False  # once one argument is passed by keyword, the rest are too
        for p, v in args.items():
            src = _value_src(v, data=p in const)
            if src is None:
                break
            by_keyword = by_keyword or p in const or params[len(parts):len(parts) + 1] != [p]
            parts.append(f"{p}={src}" if by_keyword else src)
        else:
            if const and not any(p in const for p in args):
                continue
            call = f"{name}({', '.join(parts)})"
            if rec.get("returns") == "string_tensor":
                call = f"tf.strings.length({call})"
            elif rec.get("structure") or family == "shape":
                call = f"tf.nest.flatten({call}, expand_composites=True)[0]"
            variant = "gen" if profile is None else "gen-" + profile.dtype + "x".join(map(str, profile.shape))
            code = f"{DATA_ZERO if 'z' in ''.join(parts) else ''}r = {call}\n"
            if code not in out.values():
                out[variant] = code
    return out


@dataclass(frozen=True)
class Sink:
    name: str        # family:api[:variant]
    family: str      # op / opdtype / const / shape / divergence
    api: str         # the table row
    code: str        # assigns ``out`` from ``h``
    core: bool       # probed in every context (one per family); the others only in CORE_CONTEXTS


@dataclass(frozen=True)
class Context:
    name: str
    template: str        # a forms.Path_ template: {dec}, {sink4}/{sink8}/{sink12}
    entry: str
    compiled: bool = True
    header: str = "import tensorflow as tf\n"


def _tables() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    ops = json.loads((DATA / "tf_xla_ops.json").read_text())["api"]
    api = json.loads((DATA / "tf_api.json").read_text())["entries"]
    div = json.loads((DATA / "tf_xla_divergence.json").read_text())["entries"]
    return ops, api, div


def _spellings(api_table: dict[str, Any], name: str) -> list[str]:
    """The name and the public aliases the table lists for it (``alias_of``), shortest first."""
    aliases = sorted((k for k, v in api_table.items() if v.get("alias_of") == name and "." in k
                      and k.split(".")[0] in ("tf", "keras") and "python" not in k), key=len)
    return [name, *aliases[:3]]


def sinks() -> tuple[list[Sink], dict[str, list[str]]]:
    """Every sink the tables give, and per family the table rows that have no call form (not probed)."""
    ops, api, div = _tables()
    out: list[Sink] = []
    uncovered: dict[str, list[str]] = {}
    first: set[str] = set()

    def add(family: str, api_name: str, code: str, variant: str = "") -> None:
        core = family not in first and not variant and family not in (*CANDIDATES, "op_api")
        if core:
            first.add(family)
        name = f"{family}:{api_name}" + (f":{variant}" if variant else "")
        if "out = " not in code:
            code += KEEP_VALUES if family == "shape" else KEEP
        out.append(Sink(name, family, api_name, code, core))

    # ops without a kernel for a float input: elementwise unary functions, called on h
    for name, rec in sorted(ops.items()):
        if not rec.get("unsupported") or "alias_of" in rec or name.startswith(("tf.raw_ops", "tf.compat")):
            continue
        if api.get(name, {}).get("elementwise") != "unary":
            continue
        if name.startswith(("tf.strings", "tf.io")):  # string inputs: the generic writer's string profile
            written = generic_calls(name, {**api.get(name, {}), **rec}, "op")
            if not written:
                uncovered.setdefault("op", []).append(name)
            for variant, text in written.items():
                add("op", name, text, variant=variant)
            continue
        call = "tf.strings.length(tf.as_string(h))" if name == "tf.as_string" else f"{name}(h)"
        for i, spelled in enumerate(_spellings(api, name)):
            add("op", name, f"r = {call.replace(name, spelled, 1)}\n", variant=spelled if i else "")
    for name, rec in sorted(api.items()):  # Keras 3 ops the API table measured without a kernel
        if name.startswith("keras.ops.") and rec.get("unsupported") and "alias_of" not in rec:
            code = CALLS.get(("op", name))
            if code is None:
                uncovered.setdefault("op", []).append(name)
            else:
                add("op", name, code)
    # the API case generator's call forms of table functions (with and without a kernel), in model contexts
    for probe in api_cases.PROBES:
        if probe.grad or probe.kind not in FROM_H:
            continue
        variant = "_".join(f"{k}={v}" for k, v in probe.when)
        add("op_api", probe.api, FROM_H[probe.kind] + f"r = {probe.reduce.format(probe.expr)}\n" + KEEP_VALUES,
            variant=variant)
    # ops without a kernel for one dtype: the first non-complex dtype the table says fails
    for name, rec in sorted(ops.items()):
        dt = rec.get("dtypes")
        if not dt or "alias_of" in rec or name.startswith("tf.compat"):
            continue
        fail = [d for d in dt.get("fail", {}) if not d.startswith("complex")]
        called = api.get(name, {}).get("called_with") or []
        if not fail or dt.get("position") != 0 or len(called) != 1:
            uncovered.setdefault("opdtype", []).append(name)
            continue
        add("opdtype", name, f"r = {name}(tf.cast(h * 4.0, tf.{fail[0]}))\n")
    for family, key in (("const", "const_args"), ("shape", "data_dependent_shape")):
        for name, rec in sorted(api.items(), key=lambda item: (item[0].startswith("keras."), item[0])):
            if not rec.get(key) or "alias_of" in rec or not name.startswith(("tf.", "keras.ops.")):
                continue
            code = CALLS.get((family, name))
            if code is not None:
                add(family, name, code)
                continue
            written = generic_calls(name, rec, family)
            if not written:
                uncovered.setdefault(family, []).append(name)
            for variant, text in written.items():
                add(family, name, text, variant=variant)
    # candidates for the divergence table: every elementwise unary function and every reduction of the API
    # table on the NaN row, and the reductions on an empty axis, in the plain jit context only; a wrong
    # result of a function the divergence table does not list is a fact it misses
    for name, rec in sorted(api.items()):
        if "alias_of" in rec or not name.startswith("tf.") or name.startswith(("tf.compat", "tf.raw_ops")):
            continue
        if ops.get(name, {}).get("unsupported"):
            continue  # fails to compile: the op family's
        if rec.get("elementwise") == "unary" and not name.startswith(("tf.strings", "tf.io", "tf.as_string")):
            add("nan_candidate", name, NAN_ROW + f"out = tf.cast({name}(v), h.dtype)\n")
            add("int_edge_candidate", name, INT_EDGES + f"out = tf.reduce_sum(tf.cast({name}(vi), h.dtype), axis=-1)\n")
        elif name.startswith(("tf.math.reduce_", "tf.reduce_")):
            add("nan_candidate", name, NAN_ROW + f"out = tf.cast({name}(v, axis=-1), h.dtype)\n")
            nan_row = NAN_ROW.rsplit("v = ", 1)[0]
            for where, row in NAN_ENDS.items():
                add("nan_candidate", name, nan_row + row + f"out = tf.cast({name}(v, axis=-1), h.dtype)\n", where)
            add("int_edge_candidate", name, INT_EDGES + f"out = tf.cast({name}(vi, axis=-1), h.dtype)\n")
            add("empty_candidate", name,
                f"out = tf.reduce_sum(h, axis=-1) + tf.cast({name}(h[..., :0], axis=-1), h.dtype)\n")
    for name, rec in sorted(div.items()):
        if not any(p["outcome"] in ("differs", "xla_error") for ps in rec["probes"].values() for p in ps):
            continue
        code = CALLS.get(("divergence", name))
        if code is None:
            uncovered.setdefault("divergence", []).append(name)
            continue
        add("divergence", name, code)
    return out, uncovered


def _keras_spelling(ctx: Context, how: str) -> Context:
    """The same Keras context written with ``from tensorflow import keras`` or ``import keras``."""
    template = ctx.template.replace("tf.keras.", "keras.")
    entry = ctx.entry.replace("tf.keras.", "keras.")
    header = ("from tensorflow import keras\n" if how == "from_tf" else "import keras\n") + ctx.header
    return Context(f"{ctx.name}@{how}", template, entry, header=header)


NEW_CONTEXTS = (
    Context("nested_jit", "@tf.function(jit_compile=True)\ndef features(h):\n{sink4}    return out\n\n\n"
            "{dec}\ndef forward(x):\n    return features(x) * 2.0\n", "return forward, ({x},)"),
    Context("plain_class_method",
            "class Scorer:\n    def __init__(self, scale):\n        self.scale = scale\n\n"
            "    def score(self, h):\n        h = h * self.scale\n{sink8}        return out\n\n\n"
            "class Block(tf.keras.layers.Layer):\n    def __init__(self):\n        super().__init__()\n"
            "        self.scorer = Scorer(1.0)\n\n    def call(self, x):\n        return self.scorer.score(x)\n\n\n"
            "block = Block()\n\n\n{dec}\ndef forward(x):\n    return block(x)\n", "return forward, ({x},)"),
    Context("test_step",
            "class FeatureModel(tf.keras.Model):\n    def __init__(self):\n        super().__init__()\n"
            f"        self.dense = {forms.IDENTITY}\n\n    def call(self, x):\n        return self.dense(x)\n\n"
            "    def test_step(self, data):\n        x, y = data\n        h = self(x, training=False)\n{sink8}"
            "        loss = tf.reduce_mean(tf.square(out - y))\n        return {{\"loss\": loss}}\n\n\n"
            "def build_model():\n    model = FeatureModel()\n"
            '    model.compile(optimizer="sgd", loss="mse", jit_compile=True)\n    return model\n',
            "model = build_model()\n    _KEEP.append(model)\n    return model.test_step, (({x}, tf.ones([2])),)"),
    Context("layer_in_jit_step",
            "class Feature(tf.keras.layers.Layer):\n    def build(self, input_shape):\n"
            "        self.w = self.add_weight(name=\"w\", shape=(input_shape[-1],), initializer=\"ones\")\n\n"
            "    def call(self, x):\n        h = x * self.w\n{sink8}        return out\n\n\n"
            "layer = Feature()\nopt = tf.keras.optimizers.SGD(0.1)\n\n\n"
            "{dec}\ndef forward(x):\n    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(layer(x))\n"
            "    return tape.gradient(loss, layer.trainable_variables)[0]\n", "return forward, ({x},)"),
    # never compiled: a finding that says the code fails under XLA is a false alarm here
    Context("eager_only", "def features(h):\n{sink4}    return out\n\n\ndef forward(x):\n    return features(x)\n",
            "return forward, ({x},)", compiled=False),
    Context("dataset_map",
            "def features(h):\n{sink4}    return out\n\n\ndef forward(x):\n"
            "    ds = tf.data.Dataset.from_tensors(x).map(features)\n    return next(iter(ds))\n",
            "return forward, ({x},)", compiled=False),
)
# The parameter-valued family (tfrecall33): a const sink's size ``n`` (DATA_INT's value, 4 on the probe input) is
# a parameter instead of a value computed from the data: of the jit entry, of a Keras layer's ``call`` that the
# jit entry hands its own argument, of a subclassed Model's ``call`` compiled as the entry (the oracle wraps the
# model, as the held-out cases' ENTRY does); and, as negatives, of a layer's ``call`` that the jit entry passes a
# static shape entry or a literal (Python ints: the trace bakes them in, nothing is an input value). Each context
# names ``n`` in its signature; the sink's DATA_INT line is dropped.
PARAM_LAYER = "class Feature(tf.keras.layers.Layer):\n    def call(self, h, n):\n{sink8}        return out\n\n\n"
PARAM_CONTEXTS = (
    Context("param_jit_arg", "{dec}\ndef forward(h, n):\n{sink4}    return out\n",
            "return forward, ({x}, tf.constant(4))"),
    Context("param_layer_arg", PARAM_LAYER + "layer = Feature()\n\n\n{dec}\ndef forward(x, n):\n"
            "    return layer(x, n)\n", "return forward, ({x}, tf.constant(4))"),
    Context("param_model_call",
            "class FeatureModel(tf.keras.Model):\n    def call(self, h, n):\n{sink8}        return out\n",
            "model = FeatureModel()\n    _KEEP.append(model)\n    return model, ({x}, tf.constant(4))"),
    Context("param_layer_static", PARAM_LAYER + "layer = Feature()\n\n\n{dec}\ndef forward(x):\n"
            "    return layer(x, x.shape[-1] - 2)\n", "return forward, ({x},)"),
    Context("param_layer_literal", PARAM_LAYER + "layer = Feature()\n\n\n{dec}\ndef forward(x):\n"
            "    return layer(x, 4)\n", "return forward, ({x},)"),
)


def param_sinks(all_sinks: list[Sink]) -> list[Sink]:
    """The const sinks whose size is DATA_INT's ``n``, with that line dropped (the context passes ``n``)."""
    return [Sink(s.name, s.family, s.api, s.code[len(DATA_INT):], s.core) for s in all_sinks
            if s.family == "const" and s.code.startswith(DATA_INT) and ":gen" not in s.name]


# no table fact: the compiler's label is the discovery
CANDIDATES = ("nan_candidate", "empty_candidate", "int_edge_candidate")
CORE_CONTEXTS = ("direct", "train_step")  # where every sink is probed; the core sinks go everywhere


def contexts() -> list[Context]:
    out = []
    for p in forms.PATHS:
        if p.grad:
            continue
        ctx = Context(p.name, p.template, p.entry)
        out.append(ctx)
        if p.keras or p.name in ("sequential", "lambda_layer"):
            out += [_keras_spelling(ctx, "from_tf"), _keras_spelling(ctx, "keras3")]
    out += NEW_CONTEXTS
    out += [_keras_spelling(c, "from_tf") for c in NEW_CONTEXTS if c.name in ("test_step", "plain_class_method")]
    return out


NEUTRAL = Sink("neutral", "neutral", "", "out = tf.reduce_sum(h, axis=-1)\n", True)


def render(sink: Sink, ctx: Context) -> str:
    ind = forms._ind
    body = ctx.template.format(dec=forms.JIT, sink4=ind(sink.code, 4), sink8=ind(sink.code, 8),
                               sink12=ind(sink.code, 12))
    imports = "".join(f"import {m}\n" for m in ("collections", "functools") if f"{m}." in body)
    if "keras.ops." in body and "keras" not in ctx.header:
        imports += "import keras\n"
    if "K." in body:
        imports += "from tensorflow.keras import backend as K\n"
    keep = "_KEEP = []\n" if "_KEEP" in ctx.entry else ""
    return (f'"""Probe {sink.name} in {ctx.name} (tools/probe_tf_contexts.py)."""\n{imports}{ctx.header}\n\n'
            f"{body}\n\n# --- oracle ---\n{keep}\n\ndef ENTRY():\n    {ctx.entry.format(x=forms.X)}\n")


def probes(only: str | None = None) -> dict[str, tuple[Sink, Context, str]]:
    all_sinks, _ = sinks()
    out = {}
    for ctx in contexts():
        for sink in [NEUTRAL, *all_sinks]:
            if not (sink.core or ctx.name in CORE_CONTEXTS) or sink.family in CANDIDATES and ctx.name != "direct":
                continue
            if ":gen" in sink.name and ctx.name != "direct":
                continue  # one probe per argument profile: the call form is the question, not the context
            if ctx.name in [p.name for p in forms.PATHS if p.value] and sink.family not in ("const", "neutral"):
                continue  # the value-flow paths matter for sinks that read a value (the form matrix's rule)
            name = f"{ctx.name}|{sink.name}"
            if only and not re.search(only, name):
                continue
            out[name] = (sink, ctx, render(sink, ctx))
    for ctx in PARAM_CONTEXTS:
        for sink in [NEUTRAL, *param_sinks(all_sinks)]:
            name = f"{ctx.name}|{sink.name}"
            if not only or re.search(only, name):
                out[name] = (sink, ctx, render(sink, ctx))
    return out


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:12]


# ---------------------------------------------------------------- labelling (TensorFlow, worker process)
def _oracle() -> Any:
    """The shared oracle (``oracle.py``): its loading, wrapping, comparison and compiler-IR steps label a
    probe exactly as they label a case."""
    import importlib.util

    sys.path.insert(0, str(ROOT))
    from benchmarks.xla_cases_score import SHARED_EVAL

    spec = importlib.util.spec_from_file_location("xla_oracle", SHARED_EVAL / "xla_cases" / "oracle.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _label_one(oracle: Any, path: str, tag: str, compiled: bool) -> dict[str, Any]:
    """Eager reference, then the XLA run (compiled contexts wrapped as the oracle wraps an entry, the
    others run as they are), then for a compiled run that worked the compile with only the argument
    shapes (``value_specialized`` when XLA needed the values)."""
    import tensorflow as tf

    try:
        oracle._seed()
        fn, args = oracle._load_module(path, f"probe_e{tag}").ENTRY()
        tf.config.run_functions_eagerly(True)
        try:
            ref = oracle._to_numpy_list(fn(*args))
        finally:
            tf.config.run_functions_eagerly(False)
    except Exception as e:  # noqa: BLE001 - any eager failure: no reference
        return {"label": "eager_error", "error": oracle._err(e)["key"][:200]}
    try:
        oracle._seed()
        fn, args = oracle._load_module(path, f"probe_x{tag}").ENTRY()
        g, _ = oracle._make_xla_callable(fn, True) if compiled else (fn, None)
        got = oracle._to_numpy_list(g(*args))
    except Exception as e:  # noqa: BLE001 - the compiler's refusal is the label
        kind = "timeout" if isinstance(e, TimeoutError) else "compile_error"
        return {"label": kind, "error": oracle._err(e)["key"][:200]}
    same, _, why = oracle._compare(ref, got, oracle.LABEL_RTOL, oracle.LABEL_ATOL)
    if not same:
        return {"label": "wrong_result", "error": why}
    if compiled:
        hlo, _, static_error = oracle._compiler_ir(fn, g, args, "static")
        if hlo is None and static_error is not None and "compile-time constant" in str(static_error):
            return {"label": "value_specialized", "error": oracle._err(static_error)["key"][:200]}
    return {"label": "ok"}


def _worker(batch_path: str, out_path: str) -> None:
    import signal
    import tempfile

    oracle = _oracle()
    import tensorflow  # noqa: F401 - imported before the first probe's alarm is set (slow on a busy machine)

    def alarm(signum: int, frame: Any) -> None:
        raise TimeoutError("probe timed out")

    signal.signal(signal.SIGALRM, alarm)
    batch = [json.loads(line) for line in Path(batch_path).read_text().splitlines()]
    with open(out_path, "a") as out, tempfile.TemporaryDirectory() as tmp:
        for i, rec in enumerate(batch):
            path = Path(tmp) / f"probe_{i}.py"
            path.write_text(rec["text"])
            signal.alarm(TIMEOUT_S)
            try:
                res = _label_one(oracle, str(path), str(i), rec["compiled"])
            except TimeoutError:
                res = {"label": "timeout"}
            signal.alarm(0)
            out.write(json.dumps({"name": rec["name"], "digest": rec["digest"], **res}) + "\n")
            out.flush()


def label(only: str | None, jobs: int) -> int:
    old = json.loads(LABELS.read_text())["probes"] if LABELS.exists() else {}
    todo = [(n, s, c, t) for n, (s, c, t) in probes(only).items()
            if old.get(n, {}).get("digest") != _digest(t)]
    print(f"{len(todo)} probes to label", flush=True)
    work = Path(os.environ.get("TMPDIR", "/tmp")) / f"tf_context_probes_{os.getpid()}"
    work.mkdir(parents=True, exist_ok=True)
    chunks = [todo[i:i + PER_WORKER] for i in range(0, len(todo), PER_WORKER)]
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", TF_USE_LEGACY_KERAS="1")
    t0 = time.time()
    pending = list(enumerate(chunks))
    running: list[tuple[subprocess.Popen[bytes], list[Any], Path]] = []
    results: dict[str, dict[str, Any]] = {}
    while pending or running:
        while pending and len(running) < jobs:
            k, chunk = pending.pop(0)
            batch, outp = work / f"batch{k}.jsonl", work / f"out{k}.jsonl"
            batch.write_text("".join(json.dumps({"name": n, "digest": _digest(t), "text": t,
                                                 "compiled": c.compiled}) + "\n" for n, s, c, t in chunk))
            proc = subprocess.Popen([sys.executable, __file__, "--worker", str(batch), str(outp)], env=env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            running.append((proc, chunk, outp))
        time.sleep(1.0)
        for item in list(running):
            proc, chunk, outp = item
            if proc.poll() is None:
                continue
            running.remove(item)
            done = [json.loads(x) for x in outp.read_text().splitlines()] if outp.exists() else []
            for r in done:
                results[r["name"]] = r
            if len(done) < len(chunk):  # the process died on probe len(done): a crash, the rest again
                n, s, c, t = chunk[len(done)]
                results[n] = {"name": n, "digest": _digest(t), "label": "crash", "error": f"rc={proc.returncode}"}
                rest = chunk[len(done) + 1:]
                if rest:
                    outp.unlink(missing_ok=True)
                    pending.append((len(chunks) + len(pending) + len(running) + 1000 + len(results), rest))
            print(f"{len(results)}/{len(todo)} labelled, {time.time() - t0:.0f} s", flush=True)
    every = probes()
    keep = {n: r for n, r in old.items() if n in every}
    keep.update({n: {k: v for k, v in r.items() if k != "name"} for n, r in results.items()})
    LABELS.write_text(json.dumps({"generated_by": "python tools/probe_tf_contexts.py --label",
                                  "probes": dict(sorted(keep.items()))}, indent=0) + "\n")
    print(f"wrote {LABELS}")
    return 0


# ---------------------------------------------------------------- scoring (no TensorFlow)
def _lint(text: str, name: str, declared: bool) -> list[str]:
    sys.path.insert(0, str(ROOT))
    from benchmarks.xla_cases_score import strip_case_source
    from xlacheck.engine import check_source

    res = check_source(strip_case_source(text), "probe_" + _digest(name) + ".py", jit_compiled=declared)
    return [f"{d.line}:{d.code}" for d in res.diagnostics]


def _scored(only: str | None) -> Iterator[tuple[str, Sink, Context, str, list[str], list[str]]]:
    """(probe, sink, context, label, declared findings, plain findings) for each usable labelled probe."""
    labels = json.loads(LABELS.read_text())["probes"] if LABELS.exists() else {}
    every = probes(only)
    broken = {n.split("|")[0] for n, r in labels.items() if n.endswith("|neutral") and r["label"] != "ok"}
    for name, (sink, ctx, text) in every.items():
        rec = labels.get(name)
        if rec is None or rec["digest"] != _digest(text) or rec["label"] == "eager_error" or ctx.name in broken:
            continue
        yield name, sink, ctx, rec["label"], _lint(text, name, True), _lint(text, name, False)


Tally = dict[str, list[int]]  # key -> failures, flagged declared, flagged plain, compiling, false declared, plain


def tally(only: str | None = None) -> tuple[Tally, Tally, list[str]]:
    """Per context and per sink family: the labelled failures, those flagged (linted declared jit-compiled
    as the case scorer does, and as plain code), the probes that compile, the findings on them (declared
    counts only where the context compiles); and one line per missed failure or false alarm."""
    rows: Tally = {}
    fams: Tally = {}
    wrong: list[str] = []
    for name, sink, ctx, lab, declared, plain in _scored(only):
        fail = lab in FAIL_LABELS
        cells = (fail, fail and bool(declared), fail and bool(plain), not fail,
                 not fail and bool(declared) and ctx.compiled, not fail and bool(plain))
        for acc in (rows.setdefault(ctx.name, [0] * 6), fams.setdefault(sink.family, [0] * 6),
                    fams.setdefault("all", [0] * 6)):
            for i, c in enumerate(cells):
                acc[i] += int(c)
        if (fail and not (declared and plain)) or (not fail and (plain or declared and ctx.compiled)):
            wrong.append(f"{'MISS' if fail else 'FALSE'} {name} [{lab}] declared={declared} plain={plain}")
    return rows, fams, wrong


def score(only: str | None, misses: bool) -> int:
    rows, fams, wrong = tally(only)
    if misses:
        print("\n".join(wrong))

    def line(key: str, r: list[int]) -> str:
        rec = lambda k: f"{r[k]}/{r[0]}" if r[0] else "-"  # noqa: E731
        return (f"| {key} | {r[0]} | {rec(1)} | {rec(2)} | {r[3]} | {r[4] if r[3] else '-'} | "
                f"{r[5] if r[3] else '-'} |")

    head = ("| {} | failures | flagged (declared) | flagged (plain) | compile | false alarms (declared) "
            "| false alarms (plain) |\n|---|---|---|---|---|---|---|")
    print(head.format("context"))
    for key, r in rows.items():
        print(line(key, r))
    print()
    print(head.format("sink family"))
    for key, r in sorted(fams.items(), key=lambda item: (item[0] == "all", item[0])):
        print(line(key, r))
    _, uncovered = sinks()
    print("\ntable rows without a call form (not probed): "
          + ", ".join(f"{k} {len(v)}" for k, v in sorted(uncovered.items())))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--label", action="store_true", help="label the probes without a current label (TensorFlow)")
    ap.add_argument("--misses", action="store_true", help="list the missed failures and false alarms")
    ap.add_argument("--write", metavar="DIR", help="write the probe files into DIR")
    ap.add_argument("--only", help="a regex over probe names (context|family:api)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        _worker(*args.worker)
        return 0
    if args.write:
        d = Path(args.write)
        d.mkdir(parents=True, exist_ok=True)
        for name, (_, _, text) in probes(args.only).items():
            (d / (re.sub(r"\W+", "_", name) + ".py")).write_text(text)
        return 0
    if args.label:
        return label(args.only, args.jobs)
    return score(args.only, args.misses)


if __name__ == "__main__":
    raise SystemExit(main())
