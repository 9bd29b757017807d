"""Which TensorFlow ops have no XLA kernel, read from data that TensorFlow itself produced.

The data file ``xlacheck/data/tf_xla_ops.json`` is written by ``python tools/generate_op_table.py``
(see docs/op-table.md): it asks TensorFlow's kernel registry which raw ops have an ``XLA_CPU_JIT``
kernel and traces the public API (``tf.linalg.det`` ...) to the raw ops it creates. This module
only reads that file (json + functools.cache): no TensorFlow import, so the linter stays fast.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from xlacheck._data import load_json

RAW_OPS_PREFIX = "tf.raw_ops."
V1_RAW_OPS_PREFIX = "tf.compat.v1.raw_ops."
V2_PREFIX = "tf.compat.v2."  # the same API as tf.*; tf.compat.v1 names have their own entries or alias_of


@dataclass(frozen=True)
class Condition:
    """An argument value under which a function compiles differently from its default call.

    ``tf.image.resize(..., method="bicubic")`` creates ``ResizeBicubic``; with the default method
    it does not. ``unsupported`` is the full set for that call (the other arguments at defaults).
    ``position`` is the parameter's positional index (None: keyword-only or not recorded).
    Where the default call and the variant create only ops with a kernel, the generator compiled
    both: ``compiles`` is False when the variant's forward fails although it runs eagerly
    (``compile_error`` says how), and ``grad_unsupported`` (None: as the default's) names the ops
    without a kernel that its gradient needs, () when its gradient compiles and the default's does
    not (``K.resize_images(..., interpolation="bilinear")``).
    """

    argument: str
    value: Any
    raw_ops: tuple[str, ...]
    unsupported: tuple[str, ...]
    position: int | None = None
    compiles: bool | None = None
    compile_error: str = ""
    grad_unsupported: tuple[str, ...] | None = None


@dataclass(frozen=True)
class OpVerdict:
    """The raw ops a public TensorFlow function creates with default arguments, and which lack an XLA kernel.

    ``source`` says how the ops were found: ``"trace"`` (the function was traced into a graph with
    sample arguments), ``"generated"`` (a generated op wrapper: exactly one op), ``"static"`` (the
    function could not be traced; these are the ops its source *may* create), or ``"raw_op"``
    (``tf.raw_ops.X``). ``conditions`` lists argument values that change ``unsupported``.
    """

    api_name: str
    raw_ops: tuple[str, ...]
    unsupported: tuple[str, ...]
    source: str = "trace"
    conditions: tuple[Condition, ...] = ()
    # A state the ops depend on: "default_writer" (tf.summary.*: ops only while a default summary
    # writer is set, none otherwise); None: always.
    when: str | None = None
    # Ops without a kernel that the gradient adds (Keras objects and the swept tf.compat.v1/Keras
    # functions, differentiated by the generator and confirmed by compiling); tf.* functions keep
    # their gradient facts in the API table (xlacheck.api_table).
    grad_unsupported: tuple[str, ...] = ()

    def unsupported_for(self, arguments: dict[str, Any]) -> tuple[str, ...]:
        """Unsupported ops for a call whose literal keyword arguments are known.

        ``arguments`` maps argument names to literal values seen in the source; arguments not
        in it are assumed to be at their defaults. Several matching conditions are
        combined as independent changes (each adds and removes what it did alone).
        """
        default = set(self.unsupported)
        result = set(default)
        for condition in self.conditions:
            if condition.argument in arguments and arguments[condition.argument] == condition.value:
                changed = set(condition.unsupported)
                # Each condition was measured with only its own argument changed; treat the
                # effects of several arguments as independent.
                result = (result - (default - changed)) | (changed - default)
        return tuple(sorted(result))

    def positions(self) -> dict[int, str]:
        """Positional index -> parameter name, for the parameters the conditions measured."""
        return {c.position: c.argument for c in self.conditions if c.position is not None}

    def selected(self, arguments: dict[str, Any]) -> tuple[Condition, ...]:
        """The conditions the literal ``arguments`` select."""
        return tuple(c for c in self.conditions if c.argument in arguments and arguments[c.argument] == c.value)

    def grad_unsupported_for(self, arguments: dict[str, Any]) -> tuple[str, ...] | None:
        """Ops without a kernel that the gradient of a call with these literal arguments needs, as
        measured for the selected variants; None when no selected variant measured its gradient apart
        (the default call's gradient facts hold)."""
        measured = [c.grad_unsupported for c in self.selected(arguments) if c.grad_unsupported is not None]
        if not measured:
            return None
        return tuple(sorted(set().union(*measured)))


@dataclass(frozen=True)
class DtypeVerdict:
    """Which dtypes of a public function's first tensor argument compile under XLA:CPU, measured
    by compiling the function with that argument (and its other tensor arguments of the same
    dtype) in each dtype it accepts eagerly (``tools/generate_op_table.py``, the table's
    ``api[name]["dtypes"]``). Only functions where some accepted dtypes compile and others fail
    have one.

    ``param`` is the argument's name, ``position`` its positional index (None: keyword only);
    ``compile`` the dtypes that compiled; ``fail`` (dtype, ops the compiler named) for the rest;
    ``rejected`` (dtype, the compiler's sentence) where the op has a kernel for the dtype but
    tf2xla rejects the element type ("Complex types not supported" for ``Bitcast`` to complex64).
    """

    api_name: str
    param: str
    position: int | None
    compile: tuple[str, ...]
    fail: tuple[tuple[str, tuple[str, ...]], ...]
    rejected: tuple[tuple[str, str], ...] = ()

    def failing_ops(self, dtype: str) -> tuple[str, ...]:
        """The ops the compiler named for ``dtype``; () if it compiled or was not measured."""
        return next((ops for name, ops in self.fail if name == dtype), ())

    def rejection(self, dtype: str) -> str | None:
        """The compiler's sentence when tf2xla rejected ``dtype`` itself (not a missing kernel)."""
        return next((sentence for name, sentence in self.rejected if name == dtype), None)


@cache
def _table() -> dict[str, Any]:
    table: dict[str, Any] = load_json("tf_xla_ops.json")
    return table


@cache
def unsupported_raw_ops() -> frozenset[str]:
    """Raw ops with no XLA_CPU_JIT kernel (graph plumbing such as ``Placeholder`` included:
    inside a compiled function it fails like any other op without a kernel), less those that run
    only on a TPU (:func:`tpu_only_raw_ops`)."""
    return frozenset(op for op, record in _table()["raw_ops"].items()
                     if not record["xla_cpu_jit"] and op not in tpu_only_raw_ops())


@cache
def tpu_only_raw_ops() -> frozenset[str]:
    """Raw ops with an XLA kernel in TensorFlow's TPU build and no kernel of any kind in the CPU/GPU
    build (``CollectivePermute``, ``AllToAll``, ``CrossReplicaSum``, infeed/outfeed): code holding one
    can only run on a TPU, where it compiles. ``InplaceAdd`` is not one: it runs on CPU/GPU, where it
    does not compile."""
    return frozenset(op for op, record in _table()["raw_ops"].items()
                     if record.get("xla_tpu_jit") and record.get("kernel_devices") == [])


@cache
def lookup(api_name: str) -> OpVerdict | None:
    """The verdict for a canonical public name (``"tf.linalg.det"``, ``"tf.raw_ops.MatrixDeterminant"``), or None."""
    if api_name.startswith(V2_PREFIX):
        verdict = lookup("tf." + api_name[len(V2_PREFIX):])
        return None if verdict is None else replace(verdict, api_name=api_name)
    if api_name.startswith(V1_RAW_OPS_PREFIX):  # the same op wrappers as tf.raw_ops
        verdict = lookup(RAW_OPS_PREFIX + api_name[len(V1_RAW_OPS_PREFIX):])
        return None if verdict is None else replace(verdict, api_name=api_name)
    if api_name.startswith(RAW_OPS_PREFIX):
        op = api_name[len(RAW_OPS_PREFIX):]
        if op not in _table()["raw_ops"]:
            return None
        unsupported = (op,) if op in unsupported_raw_ops() else ()
        return OpVerdict(api_name, (op,), unsupported, source="raw_op")
    entry = _table()["api"].get(api_name)
    if entry is None:
        return None
    if "alias_of" in entry:  # tf.compat.v1.X that is tf.X, K.x that is tf.x: one record per object
        verdict = lookup(entry["alias_of"]) if entry["alias_of"] != api_name else None
        return None if verdict is None else replace(verdict, api_name=api_name)
    return OpVerdict(
        api_name=api_name,
        raw_ops=tuple(entry["raw_ops"]),
        unsupported=tuple(entry["unsupported"]),
        source=entry["source"],
        conditions=tuple(
            Condition(c["argument"], c["value"], tuple(c["raw_ops"]), tuple(c["unsupported"]), c.get("position"),
                      c.get("compiles"), c.get("compile_error", ""),
                      tuple(c["grad_unsupported"]) if "grad_unsupported" in c else None)
            for c in entry.get("conditions", ())
        ),
        when=entry.get("when"),
        grad_unsupported=tuple(entry.get("grad_unsupported", ())),
    )


@cache
def probed_classes() -> frozenset[str]:
    """Classes whose objects the table probes (``tf.lookup.StaticHashTable``, ``tf.queue.FIFOQueue``,
    ``tf.linalg.LinearOperatorFullMatrix``, ``tf.data.Iterator``, ``tf.keras.optimizers.Adam``):
    the ``X`` of every ``X.method`` entry whose ``X`` names a class (a capitalized last part)."""
    out = set()
    for name in _table()["api"]:
        owner = name.rsplit(".", 1)[0]
        if owner != name and owner.rsplit(".", 1)[-1][:1].isupper():
            out.add(owner)
    return frozenset(out)


@cache
def gradient_sensitive_names() -> frozenset[str]:
    """Public names (aliases included) whose gradient needs an op without an XLA kernel according
    to this table (``grad_unsupported``: Keras objects and the swept tf.compat.v1/Keras functions,
    ``K.resize_images``); the API table keeps the tf.* functions' gradient facts."""
    api = _table()["api"]
    out = set()
    for name in api:
        verdict = lookup(name)
        if verdict is not None and verdict.grad_unsupported:
            out.add(name)
    return frozenset(out)


@cache
def dtype_verdict(api_name: str) -> DtypeVerdict | None:
    """The measured dtypes of a canonical public name's first tensor argument, or None when
    every dtype it accepts compiles alike (or the function was not probed)."""
    return _dtype_record(api_name, "dtypes")


@cache
def dtype_argument_verdict(api_name: str) -> DtypeVerdict | None:
    """The same for the function's dtype argument (``dtype=``, ``out_type=``, ``output_type=``,
    ``type=`` ...): ``tf.random.truncated_normal(..., dtype=tf.float16)`` fails on
    ``TruncatedNormal``, ``tf.bitcast(x, tf.complex64)`` on ``Bitcast`` (a rejected type)."""
    return _dtype_record(api_name, "dtype_arguments")


def _dtype_record(api_name: str, key: str) -> DtypeVerdict | None:
    if api_name.startswith(V2_PREFIX):
        verdict = _dtype_record("tf." + api_name[len(V2_PREFIX):], key)
        return None if verdict is None else replace(verdict, api_name=api_name)
    entry = _table()["api"].get(api_name)
    probe = entry.get(key) if entry else None
    if probe is None:
        return None
    return DtypeVerdict(api_name, probe["param"], probe["position"], tuple(probe["compile"]),
                        tuple((dtype, tuple(ops)) for dtype, ops in sorted(probe["fail"].items())),
                        tuple(sorted(probe.get("rejected", {}).items())))


@cache
def xla_type_constraints(op: str) -> dict[str, tuple[str, ...]]:
    """Type attribute -> the dtypes the op's XLA_CPU_JIT kernel accepts (``{"T": ("bfloat16", ...)}``);
    {} for an op without a kernel or without type constraints."""
    record = _table()["raw_ops"].get(op) or {}
    return {attr: tuple(types) for attr, types in record.get("xla_cpu_jit_types", {}).items()}


@cache
def switch_unsupported(api_name: str) -> tuple[str, ...]:
    """Ops without an XLA kernel that a global switch (``tf.debugging.enable_check_numerics``)
    adds to every function traced after it, per the table's ``switches``; () if none or unknown."""
    entry = _table().get("switches", {}).get(api_name)
    return tuple(entry["unsupported"]) if entry else ()


@cache
def vectorized_map_unsupported(api_name: str) -> tuple[str, ...]:
    """Ops the compiler rejected in ``tf.vectorized_map`` of a function that runs the loop API
    ``api_name`` (``tf.scan``: pfor's TensorListReserve over variant lists), per the table's
    ``under_vectorized_map``; () if it compiled or is unknown."""
    entry = _table().get("under_vectorized_map", {}).get(api_name)
    return tuple(entry["unsupported"]) if entry and not entry["compiled"] else ()


def switch_names() -> frozenset[str]:
    """The global switches the table probed."""
    return frozenset(_table().get("switches", {}))


def table_info() -> dict[str, Any]:
    """Where the table came from: ``tensorflow_version``, ``generated`` (ISO date), ``command``,
    ``backends`` (ops with a kernel per XLA device), ``keras_version`` (the Keras whose layers were probed)."""
    table = _table()
    keys = ("tensorflow_version", "generated", "command", "backends", "keras_version", "schema")
    return {key: table.get(key) for key in keys}


def api_names() -> frozenset[str]:
    """Every public API name the table maps (``tf.raw_ops.*`` excluded)."""
    return frozenset(_table()["api"])
