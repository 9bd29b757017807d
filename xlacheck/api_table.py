"""What a public TensorFlow / Keras callable returns and what XLA needs of its arguments, read from
data that the frameworks themselves produced.

The data file ``xlacheck/data/tf_api.json`` is written by ``python tools/generate_api_table.py``
(TensorFlow, tf-keras and Keras 3 installed): every public callable of ``tf.*``,
``tf.compat.v1.*``, ``tf.raw_ops.*``, ``tf.keras.*`` and ``keras.*`` (``keras.ops``,
``keras.backend``, ...), with

* ``returns``: ``"tensor"``, ``"string_tensor"``, ``"variable"``, ``"static_shape"`` (a
  ``TensorShape`` or a tuple of ints), ``"python"`` (a Python/NumPy value: on a symbolic input
  it is computed at trace time), ``"layer"``, ``"object"``, ``"none"`` or ``"unknown"``; and
  ``returns_by``, how that was decided: ``"call"`` (called on symbolic inputs inside a
  ``tf.function``), ``"op_def"`` (a raw op's registered outputs), ``"class"`` (a class: what its
  instances are) or ``"doc"`` (the docstring's Returns section). Trust ``call`` and ``op_def``;
  ``doc`` is a hint.
* ``const_args``: arguments that XLA needs as compile-time constants (compiling the function with
  that argument fed as a value-less tensor failed with "must be a compile-time constant");
  ``py_args``: arguments that cannot be tensors at all; ``const_inputs`` for raw ops.
* ``xla`` (the forward compiled with small inputs), ``grad_xla`` (its gradient compiled;
  ``False`` with ``grad_unsupported`` naming the ops without a kernel), ``dynamic_shape`` (the
  result has a data-dependent dimension).
* ``grad_conditions``: argument values under which the gradient compiles differently
  (:meth:`ApiFact.grad_unsupported_for`); Keras upsampling/resizing layers carry ``grad_xla`` too.
* ``xla_values`` (seeded random APIs): whether XLA returns the values TensorFlow returns without
  it for the same seed, per variant of the call (:meth:`ApiFact.xla_values_differ`).

``jax.numpy.*`` and ``jax.lax.*`` names are answered from ``xlacheck/data/jax_api.json``
(``python tools/generate_jax_api_table.py``): ``returns`` by calling on small inputs (a
collective that needs a bound axis, ``lax.axis_size``, inside a ``jax.vmap`` naming it; a class
built under ``jax.jit`` from a traced array's dtype, ``returns_by`` ``"class_jit"``: ``jnp.iinfo``),
``const_args`` = arguments ``jax.jit`` needs as static (concrete) values, ``xla`` = the call
compiles under ``jax.jit`` with its array arguments traced, and ``dynamic_shape`` = it fails there
with a concretization error because its result shape depends on the data (``jnp.nonzero``). Those
facts hold for the probing call (``called_with`` in the file): ``jax.numpy.where`` was probed with
one array, the data-dependent form.

Names that are the same Python object as another (``tf.compat.v1.reshape`` is ``tf.reshape``)
resolve to the canonical entry (``canonical``). This module only reads the file (json +
functools.cache, on first use): no TensorFlow import, so the linter stays fast. The kernel table
(which raw ops have an XLA kernel, per public function) stays in :mod:`xlacheck.op_table`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from xlacheck._data import load_json

T = TypeVar("T")

RETURN_KINDS = frozenset({"tensor", "string_tensor", "variable", "static_shape", "python", "layer", "object",
                          "none", "unknown"})
_V2_PREFIX = "tf.compat.v2."


@dataclass(frozen=True)
class ApiFact:
    """Facts about one public callable. ``None`` means "not measured"."""

    name: str
    canonical: str
    returns: str
    returns_by: str
    const_args: tuple[str, ...] = ()
    py_args: tuple[str, ...] = ()
    const_inputs: tuple[str, ...] = ()
    xla: bool | None = None
    grad_xla: bool | None = None
    grad_unsupported: tuple[str, ...] = ()
    grad_const: bool = False  # the gradient fails to compile on a value it needs at compile time (keras.ops.nanmedian)
    # the gradient fails with "XLA compilation requires a fixed tensor list size": the TensorList a loop in the
    # function accumulates for the backward pass (tf.linalg.expm)
    grad_list_size: bool = False
    has_gradient: bool | None = None
    dynamic_shape: bool = False
    unsupported: tuple[str, ...] = ()
    params: tuple[str, ...] = ()
    called_with: tuple[str, ...] | None = None
    const_unless: tuple[tuple[str, tuple[str, ...]], ...] = ()
    data_dependent_shape: bool | None = None
    const_in_default_call: bool = False
    dtype: str | None = None  # "bool": every tensor the probing call returned is boolean
    # "list": the probing call returned a Python list of tensors (``by: "doc"`` entries: the docstring's
    # Returns section says "A list ...", as tf.compat.v1.tpu.replicate's, which needs a TPU to call)
    structure: str | None = None
    sized_by: tuple[str, ...] = ()  # JAX: optional arguments that give a data-dependent result a static size
    # JAX: (option, value) pairs that make a data-dependent call compile (assume_unique_indices=True)
    lifted_by: tuple[tuple[str, bool], ...] = ()
    # JAX: the arguments that drive a data-dependent result's shape (traced alone, the call still fails):
    # jnp.delete's `obj`, both operands of jnp.setdiff1d; () when not measured
    shape_args: tuple[str, ...] = ()
    # JAX: optional array arguments under which the data-dependent verdict was measured to hold (bincount's weights)
    holds_with: tuple[str, ...] = ()
    jit_error: str | None = None  # JAX: the error class jax.jit raised on the probing call
    # JAX: (argument, error class) for each static argument, what tracing raised once it was traced
    # (ValueError for functions jitted with static_argnames: jax.scipy.linalg.hilbert's `n`)
    static_errors: tuple[tuple[str, str], ...] = ()
    # "unary"/"binary": TensorFlow dispatches it elementwise (a ragged input gives a ragged result)
    elementwise: str | None = None
    # seeded random APIs: (variant, "matches"/"differs"), variants "default", "constant_seed",
    # "alg=philox", "alg=philox+constant_seed", ...: XLA's values against TensorFlow's for one seed
    xla_values: tuple[tuple[str, str], ...] = ()
    # (argument, value, grad_xla, grad_unsupported): argument values under which the gradient
    # compiles differently from the probing call's (tf.image.resize method="nearest")
    grad_conditions: tuple[tuple[str, Any, bool, tuple[str, ...]], ...] = ()
    # (dtype, grad_xla, grad_unsupported, compiler's error line): the gradient measured with the probing
    # call's float inputs made that dtype (complex64), where it differs from the float gradient
    # (tf.linalg.eigh of a complex Hermitian matrix: "Binary op add with different element types")
    grad_dtypes: tuple[tuple[str, bool, tuple[str, ...], str], ...] = ()

    def grad_failure_for_dtype(self, dtype: str) -> tuple[tuple[str, ...], str] | None:
        """(ops without a kernel, the compiler's error line) when the gradient with ``dtype`` inputs
        was measured not to compile; None when it compiles or was not measured for ``dtype``."""
        for name, compiles, unsupported, error in self.grad_dtypes:
            if name == dtype and not compiles:
                return unsupported, error
        return None

    @property
    def returns_operation_when_traced(self) -> bool:
        """A raw op whose definition has no outputs (``tf.raw_ops.AssignVariableOp``, ``NoOp``):
        eagerly the call returns None, traced it returns the ``tf.Operation`` it adds to the graph."""
        return self.returns == "none" and self.returns_by == "op_def"

    @property
    def is_tensor_valued(self) -> bool:
        """Known (by calling it or from the op definition) to return a tensor in compiled code."""
        return self.returns in {"tensor", "string_tensor"} and self.returns_by in {"call", "op_def", "named_axis"}

    def needs_constant(self, argument: str) -> bool:
        """True when XLA needs ``argument`` as a compile-time constant (or a Python value)."""
        return argument in self.const_args or argument in self.py_args or argument in self.const_inputs

    def bind(self, args: Sequence[T], keywords: Mapping[str, T]) -> dict[str, T]:
        """:func:`bind_arguments` with this callable's parameter order (``params``; for JAX
        entries without it, the probing call's arguments, which it passed in order)."""
        return bind_arguments(self.params or self.called_with or (), args, keywords)

    def static_args(self, given: set[str] | frozenset[str]) -> tuple[str, ...]:
        """The arguments XLA needs as compile-time constants in a call that passes ``given``
        (parameter names): ``const_args``/``py_args``/``const_inputs``, less those measured as
        constant only while another argument is omitted (``const_unless``) when that one is given."""
        unless = dict(self.const_unless)
        out = []
        for name in (*self.const_args, *self.py_args, *self.const_inputs):
            if name not in out and not given.intersection(unless.get(name, ())):
                out.append(name)
        return tuple(out)

    def holds_for(self, given: set[str] | frozenset[str]) -> bool:
        """A fact measured on the probing call holds for a call that passes ``given``: it passes no
        argument the probing call left out, besides names, dtypes and axes (unknown: assumed)."""
        if self.called_with is None:
            return True
        return not given.difference(self.called_with, self.holds_with).difference(_SHAPE_NEUTRAL_ARGS)

    def shape_depends_on_data(self, given: set[str] | frozenset[str]) -> bool:
        """The result has a data-dependent dimension in a call that passes ``given``: measured with
        every constant argument a Python value (``data_dependent_shape``; ``dynamic_shape`` where
        the call had none), and only for calls that pass no argument the probing call left out
        besides names, dtypes and axes (``tf.where(c)`` is data-dependent, ``tf.where(c, x, y)`` not)."""
        if not self.dynamic_shape:
            return False
        data_dependent = self.data_dependent_shape
        if data_dependent is None:
            data_dependent = not (self.const_args or self.py_args or self.const_in_default_call)
        return data_dependent and self.holds_for(given)

    def grad_unsupported_for(self, literals: Mapping[str, Any]) -> tuple[str, ...]:
        """Ops without an XLA kernel in the gradient of a call whose arguments include
        ``literals`` (name -> Python value): the probing call's verdict, or that of the measured
        argument value the call passes (``grad_conditions``); () when it compiles or is unknown."""
        for argument, value, grad_xla, unsupported in self.grad_conditions:
            if argument in literals and literals[argument] == value:
                return () if grad_xla else unsupported
        return self.grad_unsupported if self.grad_xla is False else ()

    def xla_values_differ(self, alg: str | None, constant_seed: bool) -> bool | None:
        """Whether XLA draws other values than TensorFlow for the same seed in a call with ``alg``
        (None: not given) and a seed that is (or is not) a Python constant; None if not measured."""
        verdicts = dict(self.xla_values)
        key = f"alg={alg}" if alg is not None else ""
        if constant_seed:
            key = f"{key}+constant_seed" if key else "constant_seed"
        verdict = verdicts.get(key or "default")
        return None if verdict is None else verdict == "differs"


@cache
def _entries() -> dict[str, dict[str, Any]]:
    entries: dict[str, dict[str, Any]] = load_json("tf_api.json")["entries"]
    return entries


def bind_arguments(params: Sequence[str], args: Sequence[T], keywords: Mapping[str, T]) -> dict[str, T]:
    """Map a call's positional ``args`` and ``keywords`` to parameter names (``params`` in order).
    Positional arguments past the known parameters are kept as ``"#<index>"`` (an argument the
    table does not name); pass only the arguments before a ``*args`` splat."""
    bound = {params[i] if i < len(params) else f"#{i}": value for i, value in enumerate(args)}
    bound.update(keywords)
    return bound


# Arguments that name, type or orient a result but never change how many elements it has.
_SHAPE_NEUTRAL_ARGS = frozenset({"name", "dtype", "out_idx", "out_type", "axis", "validate_indices"})

_DATA_DEPENDENT_ERRORS = frozenset({"ConcretizationTypeError", "NonConcreteBooleanIndexError"})


@cache
def _jax_table() -> dict[str, Any]:
    table: dict[str, Any] = load_json("jax_api.json")
    return table


@cache
def jax_table_modules() -> tuple[str, ...]:
    """The module prefixes whose public callables the JAX table probed (``"jax.numpy."``,
    ``"jax.lax."``, ...), with the spellings :mod:`xlacheck.analysis.imports` gives them (``"jnp."``,
    ``"lax."``): a name under one of them that the table lacks is not public there; a ``jax.*`` name
    elsewhere (``jax.sharding``, ``jax.experimental``) was never probed."""
    modules = {name.rsplit(".", 1)[0] + "." for name in _jax_table()["entries"]}
    aliases = {prefix for prefix, table in _CANONICAL_TO_TABLE for t in table if t in modules}
    return tuple(sorted(modules | aliases))


@cache
def numpy_traceable_under_jit() -> frozenset[str]:
    """NumPy functions (``np.sum``) that accept a traced array under ``jax.jit``: NumPy hands it to
    the array's own method (``x.sum()``). Measured by the JAX table's generator (``numpy_on_tracer``)."""
    return frozenset(_jax_table().get("numpy_on_tracer", {}).get("traceable", ()))


@cache
def numpy_fails_on_symbolic() -> frozenset[str]:
    """NumPy and SciPy functions (``np.mean``, ``np.linalg.norm``) that raise "Cannot convert a
    symbolic tf.Tensor to a numpy array" when a symbolic tensor reaches them inside a ``tf.function``,
    while the same call works on NumPy values. Measured by the TF table's generator
    (``numpy_on_symbolic``: nearly every function; ``np.shape``/``np.ndim`` read the tensor's own
    attributes)."""
    return frozenset(load_json("tf_api.json").get("numpy_on_symbolic", {}).get("fails", ()))


def numpy_fails_under_jit() -> frozenset[str]:
    """NumPy and SciPy functions (``np.exp``, ``np.linalg.norm``, ``scipy.linalg.solve``,
    ``np.random.RandomState``) that raise a tracer error (TracerArrayConversionError,
    TracerIntegerConversionError) when a traced array reaches them under ``jax.jit``, while the same
    call works on NumPy values. Measured by the JAX table's generator (``numpy_on_tracer``)."""
    return frozenset(_jax_table().get("numpy_on_tracer", {}).get("fails", ()))


@cache
def jax_host_conversions() -> frozenset[str]:
    """JAX functions (``jnp.array_repr``, ``jnp.array_str``) whose probing call fails under ``jax.jit`` with
    TracerArrayConversionError and no data-dependent shape: they convert the array to a host (NumPy) value,
    as NumPy functions do. Spelled as xlacheck canonicalises them (``jnp.``). Measured by the JAX table's
    generator (``jit: false``, ``jit_error``)."""
    names = set()
    for name, entry in _jax_table()["entries"].items():
        if entry.get("jit") is False and entry.get("jit_error") == "TracerArrayConversionError" \
                and not entry.get("data_dependent_shape"):
            names.add("jnp." + name[len("jax.numpy."):] if name.startswith("jax.numpy.") else name)
    return frozenset(names)


@cache
def numpy_store_errors(jax: bool) -> dict[str, str]:
    """``{form: error class}`` for the item assignments into a NumPy array that fail when the value
    (or, ``"[i]=constant"``, the index) is traced: under ``jax.jit`` when ``jax`` (TracerArrayConversionError),
    else in a ``tf.function`` (NotImplementedError: "Cannot convert a symbolic tf.Tensor to a numpy
    array"). Forms: ``"[:]=array"``, ``"[:]=scalar"``, ``"[0]=row"``, ``"[0,0]=scalar"``,
    ``"[i]=constant"``, ``"[:]+=array"``. Measured by the table generators (``tools/_numpy_probe.py``, ``stores``)."""
    section = _jax_table().get("numpy_on_tracer", {}) if jax else load_json("tf_api.json").get("numpy_on_symbolic", {})
    return {form: verdict for form, verdict in section.get("stores", {}).items()
            if verdict not in ("traceable", "untested")}


@cache
def jax_array_methods() -> frozenset[str]:
    """The public methods of a traced ``jax.Array`` (``reshape``, ``sum``, ``nonzero``): ``x.m(...)``
    is ``jnp.m(x, ...)`` only for these. Measured by the JAX table's generator (``array_methods``)."""
    return frozenset(_jax_table().get("array_methods", ()))


def jax_array_packed_methods() -> frozenset[str]:
    """The traced array's methods that take their shape or axes as separate arguments:
    ``x.reshape(b, t)`` is ``jnp.reshape(x, (b, t))``. Measured (``array_methods_packed``)."""
    return frozenset(_jax_table().get("array_methods_packed", ()))


@cache
def tensor_member_names() -> frozenset[str]:
    """Every public attribute and method name of any measured kind of traced value (``tf.Tensor``,
    ``tf.Variable``, ``tf.RaggedTensor``, ``tf.SparseTensor``, ``jax.Array``): ``dir()`` of each, as
    ``tools/generate_tensor_members_table.py`` read it (``xlacheck/data/tensor_members.json``). A
    method outside this set cannot be called on a TensorFlow or JAX tensor (``rng.random()``)."""
    names: set[str] = set()
    for members in load_json("tensor_members.json")["probes"].values():
        names.update(members)
    return frozenset(names)


@cache
def tensor_python_members() -> tuple[frozenset[str], frozenset[str]]:
    """(attributes, no-argument methods) of a traced tensor that are Python values while tracing, on
    every kind of traced value that has them (``x.shape``, ``rt.ragged_rank``, ``v.trainable``;
    ``v.ref()``, the hashable reference TensorFlow documents for keying a dict by a tensor). A name
    that is a tensor, an object or unset (``None``) on any measured kind is left out. Measured by
    ``tools/generate_tensor_members_table.py`` (``xlacheck/data/tensor_members.json``)."""
    kinds: dict[str, set[str]] = {}
    for members in load_json("tensor_members.json")["probes"].values():
        for name, kind in members.items():
            kinds.setdefault(name, set()).add(kind)
    attrs = frozenset(n for n, k in kinds.items() if k == {"python"})
    methods = frozenset(n for n, k in kinds.items() if k and k <= {"method:python", "method:reference"})
    return attrs, methods


@cache
def tensor_host_read_methods(jax: bool) -> frozenset[str]:
    """No-argument methods of a traced value that need its concrete value, so tracing fails when they
    are called (``"method:host_read"``): on a ``jax.Array`` tracer under ``jax.jit`` when ``jax``
    (``item``, ``tolist``, ``delete``, ``tobytes``, ``nonzero`` without ``size=``:
    ConcretizationTypeError), else on a symbolic TensorFlow value (``rt.to_list()``, ``v.numpy()``:
    "only supported in eager mode"). Measured by ``tools/generate_tensor_members_table.py``
    (``xlacheck/data/tensor_members.json``)."""
    return frozenset(name for probe, members in load_json("tensor_members.json")["probes"].items()
                     if probe.startswith("jax.") == jax
                     for name, kind in members.items() if kind == "method:host_read")


@cache
def _jax_entries() -> dict[str, dict[str, Any]]:
    raw: dict[str, dict[str, Any]] = _jax_table()["entries"]
    entries: dict[str, dict[str, Any]] = {}
    for name, entry in raw.items():
        if "alias_of" in entry:
            entries[name] = entry
            continue
        converted: dict[str, Any] = {"returns": entry.get("returns", "unknown"), "by": entry.get("by", "none")}
        if "jit" in entry:
            converted["xla"] = entry["jit"]
        if entry.get("static_args"):
            converted["const_args"] = entry["static_args"]
        if entry.get("static_unless"):
            converted["const_unless"] = entry["static_unless"]
        # the generator measures the cause (the eager result's shapes follow the values); the error
        # class counts only with a measured size argument (jnp.setdiff1d, probed on one array twice,
        # keeps its shape on zeros): jnp.choose's ConcretizationTypeError is its bounds check
        if entry.get("data_dependent_shape") or (entry.get("jit_error") in _DATA_DEPENDENT_ERRORS
                                                 and entry.get("sized_by")):
            converted["dynamic_shape"] = True
            converted["data_dependent_shape"] = True
        for key in ("params", "called_with", "sized_by", "lifted_by", "shape_args", "holds_with", "jit_error",
                    "static_errors"):
            if key in entry:
                converted[key] = entry[key]
        entries[name] = converted
    return entries


@cache
def lookup(name: str) -> ApiFact | None:
    """Facts for a public dotted name (``"tf.shape"``, ``"tf.keras.backend.int_shape"``,
    ``"keras.ops.shape"``, ``"tf.raw_ops.Reshape"``), or None when the table does not hold it."""
    if name.startswith(_V2_PREFIX):
        name = "tf." + name[len(_V2_PREFIX):]
    entries = _jax_entries() if name.startswith("jax.") else _entries()
    entry = entries.get(name)
    if entry is None:
        return None
    canonical = name
    seen = {name}
    while "alias_of" in entry:
        canonical = entry["alias_of"]
        if canonical in seen or canonical not in entries:
            return None
        seen.add(canonical)
        entry = entries[canonical]
    has_gradient = None
    if entry.get("grad") == "none":
        has_gradient = False
    elif "grad_xla" in entry:
        has_gradient = True
    return ApiFact(
        name=name,
        canonical=canonical,
        returns=entry.get("returns", "unknown"),
        returns_by=entry.get("by", "none"),
        const_args=tuple(entry.get("const_args", ())),
        py_args=tuple(entry.get("py_args", ())),
        const_inputs=tuple(entry.get("const_inputs", ())),
        xla=entry.get("xla"),
        grad_xla=entry.get("grad_xla"),
        grad_unsupported=tuple(entry.get("grad_unsupported", ())),
        grad_const=bool(entry.get("grad_const", False)),
        grad_list_size=bool(entry.get("grad_list_size", False)),
        has_gradient=has_gradient,
        dynamic_shape=bool(entry.get("dynamic_shape", False)),
        unsupported=tuple(entry.get("unsupported", ())),
        params=tuple(entry.get("params", ())),
        called_with=tuple(entry["called_with"]) if "called_with" in entry else None,
        const_unless=tuple(sorted((arg, tuple(others)) for arg, others in entry.get("const_unless", {}).items())),
        data_dependent_shape=entry.get("data_dependent_shape"),
        const_in_default_call=bool(entry.get("const_in_default_call", False)),
        dtype=entry.get("dtype"),
        structure=entry.get("structure"),
        sized_by=tuple(entry.get("sized_by", ())),
        lifted_by=tuple(sorted(entry.get("lifted_by", {}).items())),
        shape_args=tuple(entry.get("shape_args", ())),
        holds_with=tuple(entry.get("holds_with", ())),
        jit_error=entry.get("jit_error"),
        static_errors=tuple(sorted(entry.get("static_errors", {}).items())),
        elementwise=entry.get("elementwise"),
        xla_values=tuple(sorted(entry.get("xla_values", {}).items())),
        grad_conditions=tuple((c["argument"], c["value"], bool(c["grad_xla"]), tuple(c.get("grad_unsupported", ())))
                              for c in entry.get("grad_conditions", ())),
        grad_dtypes=tuple((dtype, bool(f["grad_xla"]), tuple(f.get("grad_unsupported", ())), f.get("grad_error", ""))
                          for dtype, f in sorted(entry.get("grad_dtypes", {}).items())),
    )


# xlacheck's canonical prefixes (:mod:`xlacheck.analysis.imports`) -> the table's names, tried in
# order: ``keras`` is canonicalised to ``tf.keras``, whose ``ops`` only Keras 3 has.
_CANONICAL_TO_TABLE: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("tf.keras.ops.", ("keras.ops.",)),
    ("tf.keras.random.", ("keras.random.",)),
    ("tf.keras.", ("tf.keras.", "keras.")),
    ("tnp.", ("tf.experimental.numpy.",)),
    ("jnp.", ("jax.numpy.",)),
    ("lax.", ("jax.lax.",)),
)


@cache
def fact_for(canonical: str) -> ApiFact | None:
    """Facts for a name as :mod:`xlacheck.analysis.imports` spells it (``tf.keras.ops.zeros`` is
    Keras 3's ``keras.ops.zeros``, ``jnp.reshape`` is ``jax.numpy.reshape``), or None."""
    for prefix, table_prefixes in _CANONICAL_TO_TABLE:
        if canonical.startswith(prefix):
            for table_prefix in table_prefixes:
                fact = lookup(table_prefix + canonical[len(prefix):])
                if fact is not None:
                    return fact
            return None
    return lookup(canonical)


@cache
def gradient_sensitive_names() -> frozenset[str]:
    """Every TensorFlow/Keras name (aliases included) whose gradient has no XLA kernel for the
    probing call or for a measured argument value (``grad_xla: false`` or ``grad_conditions``):
    a cheap pre-filter for the rules that read :meth:`ApiFact.grad_unsupported_for`."""
    entries = _entries()
    out = set()
    for name, entry in entries.items():  # aliases follow their canonical entry, as lookup() does
        seen = {name}
        while "alias_of" in entry and entry["alias_of"] not in seen and entry["alias_of"] in entries:
            seen.add(entry["alias_of"])
            entry = entries[entry["alias_of"]]
        if "alias_of" not in entry and (entry.get("grad_xla") is False or entry.get("grad_conditions")):
            out.add(name)
    return frozenset(out)


def alias_target(name: str) -> str | None:
    """The name that the table records ``name`` as the same object as (``alias_of``, followed to
    its end: ``tf.compat.v1.math.bessel_i0`` -> ``tf.math.bessel_i0``), or None when ``name`` is
    not an alias (or not in the table). ``lookup`` follows the chain."""
    fact = lookup(name)
    return fact.canonical if fact is not None and fact.canonical != fact.name else None


def returns(name: str) -> str | None:
    """The return kind of ``name`` (see the module docstring), or None when unknown to the table."""
    fact = lookup(name)
    return None if fact is None else fact.returns


def names() -> frozenset[str]:
    """Every name the tables hold (TensorFlow/Keras and JAX), aliases included."""
    return frozenset(_entries()) | frozenset(_jax_entries())


def table_info() -> dict[str, Any]:
    """Where the table came from: versions, ``generated`` date, ``command``, ``stats``."""
    return {key: value for key, value in load_json("tf_api.json").items() if key != "entries"}
