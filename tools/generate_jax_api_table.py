"""Generate xlacheck/data/jax_api.json: for every public function of ``jax.numpy`` (with its ``fft``
and ``linalg`` submodules), ``jax.lax``, ``jax.random``, ``jax.nn``, ``jax.ops`` and ``jax.dtypes``,
what it returns and which arguments jax.jit needs as concrete (static) values, asked of JAX.

    python tools/generate_jax_api_table.py        # ~2 min, needs jax
    python tools/generate_jax_api_table.py --check [--sample N]  # re-probes a sample, compares (exit 1: stale)

Per function (``by`` says how each fact was decided):

* ``returns``: ``tensor`` (a jax Array or a tuple of them), ``python``, ``none``, ``object``,
  ``unknown``; decided by calling the function on small synthetic inputs (``by: "call"``), or not
  at all (``by: "none"``: no synthetic arguments fit). A collective that needs a bound axis
  (``axis_name``: ``lax.axis_size``, ``axis_index``, ``psum``) is called inside ``jax.vmap`` with
  that axis name (``by: "named_axis"``; ``jit`` and ``static_args`` are not probed for it).
* ``jit``: ``true`` when the call compiles under ``jax.jit`` with every array argument traced and
  every integer argument a Python value (closed over); ``false`` with ``jit_error`` (the error
  class) otherwise. ``ConcretizationTypeError`` / ``NonConcreteBooleanIndexError`` there means
  the result has a data-dependent shape (``jnp.nonzero``, ``jnp.unique`` without ``size=``).
* ``data_dependent_shape``: ``true`` when the call fails under jax.jit and its eager result's
  shapes change once every array argument is replaced by zeros of the same shape: the cause of
  the failure whatever the error class (``jnp.extract`` raises ``TracerBoolConversionError``).
  Functions that take vectors (``jnp.compress``) are called on 1-D arrays when no 2-D call fits, then
  on integer vectors (``jnp.bincount``).
* ``called_with``: the arguments of the probing call (``"array"`` for a positional array); ``jit``
  and ``static_args`` hold for that call (``jnp.where(x)`` with one array has a data-dependent
  shape, ``jnp.where(c, x, y)`` does not).
* ``static_args``: integer arguments that must be concrete: the call compiles with the argument
  closed over as a Python int, and fails once it is passed as a traced array; optional integer,
  axis and shape parameters (``jnp.squeeze``'s ``axis``, ``jnp.fft.rfft``'s ``n``) are probed the
  same way, one at a time on top of the probing call. ``static_errors``: ``{argument: error class}``,
  what tracing raised once it was traced (``ConcretizationTypeError`` for ``jnp.zeros``'s ``shape``;
  ``ValueError``, an unhashable static argument, for functions jitted with ``static_argnames`` such
  as ``jax.scipy.linalg.hilbert``'s ``n``).

* ``static_unless``: ``{argument: [other, ...]}``: a static argument that compiles traced once the
  optional integer parameter ``other`` is passed (``jnp.repeat``'s ``repeats`` with
  ``total_repeat_length``): static only while ``other`` is left out. ``--refresh-static`` probes
  again only the entries with ``static_args`` (about 200 of 740) into the existing file.

* ``sized_by``: for a data-dependent result, the optional integer parameters that give it a
  static size (``jnp.nonzero``'s ``size``): the probing call compiles once one is passed. Those
  that fail again when passed as a traced array are the entry's ``static_args`` too
  (``jax.ops.segment_sum``'s ``num_segments``). ``--refresh-sized`` probes again only the entries
  with ``sized_by`` into the existing file.
  ``lifted_by``: ``{parameter: value}`` for the optional boolean parameters whose other value
  makes it compile (``jnp.delete``'s ``assume_unique_indices: true``).
  ``shape_args``: the array arguments that drive the shape: traced alone, every other array
  argument closed over as a concrete value, the call still fails (``jnp.delete``: ``obj``, so
  ``jnp.delete(x, 0)`` compiles; ``jnp.setdiff1d``: ``ar1`` and ``ar2``, so ``jnp.setdiff1d(x, 0)``
  does not). ``holds_with``: optional array parameters (default None) passed traced under which
  the call still fails and ``sized_by`` still lifts it (``jnp.bincount``'s ``weights``).

* ``params``: the positional parameter names in order (``inspect.signature``), for entries with
  ``static_args`` or a data-dependent result, so a linter can map ``jnp.reshape(x, s)``'s second
  argument to ``shape``. ``--refresh-params`` fills them into the existing file without probing.

* classes: ``returns: "object"``, ``by: "class"`` (what their instances are, not probed), unless
  the class, built under ``jax.jit`` from a traced array's dtype (``jnp.iinfo(x.dtype)``,
  ``jnp.finfo(x.dtype)``), gives an instance that is no array and whose public attributes are none
  either (``.max``, ``.eps``, ``.bits``: Python or NumPy values at trace time): ``returns:
  "python"``, ``by: "class_jit"``, with ``attributes`` the attribute names probed.
  ``--refresh-classes`` probes only the classes into the existing file; ``--refresh-module jax.ops``
  probes only one namespace's entries (a namespace added to :func:`modules`) into it.

* ``numpy_on_tracer`` (top level): public NumPy functions (``np.*``, ``np.linalg.*``, ``np.fft.*``,
  ``np.random.*`` and its generator classes) and SciPy functions (``scipy.linalg``, ``special``,
  ``signal``, ``ndimage``) called with traced arrays under jax.jit. Each is called in the first of a
  few forms that works on NumPy values (``tools/_numpy_probe.py``: one array; two; a list of two; an array
  and ``-1``; an int32 seed), ``called_with`` naming the form where it is not one array.
  ``traceable``: the call compiles (NumPy hands the array to its own method: ``np.sum(x)`` is
  ``x.sum()``, ``np.reshape(x, -1)`` is ``x.reshape(-1)``); ``fails``: the same call works on NumPy
  values but raises a tracer error (``np.exp(x)``: TracerArrayConversionError;
  ``np.random.RandomState(seed)``: TracerIntegerConversionError). Functions no form fits are in
  neither. ``stores``: item assignments into a NumPy array built in the jitted function
  (``buf[:] = x``, ``buf[0] = x[0]``, ``buf[i] = 1.0`` at a traced index, ``buf[:] += x``), each form
  with the error class tracing raises (``"traceable"`` where none). ``--refresh-numpy`` probes only
  this part into the existing file.

* ``array_methods`` (top level): the public methods of a traced array; ``array_methods_packed``:
  those that take their shape or axes as separate arguments (``x.reshape(2, -1)``: a ``*args``
  parameter in ``jax.Array``'s signature). ``--refresh-methods`` probes only these.

* Functions whose parameters the generic synthetic values cannot fit (padding configurations,
  index tuples, per-dimension sizes: ``jnp.pad``, ``lax.dynamic_slice``, ``lax.broadcast_in_dim``)
  are called with the arguments :func:`probe_arguments` lists, then probed like any other.

xlacheck reads the file through :mod:`xlacheck.api_table` (``lookup("jax.numpy.nonzero")``); no
JAX import there.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _numpy_probe  # noqa: E402
import _table_check  # noqa: E402  (tools/ is not a package)

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "jax_api.json"
SCHEMA_VERSION = 1

INT_PARAMS = {"n", "k", "num", "N", "M", "length", "size", "repeats", "num_segments", "total_repeat_length",
              "shift", "offset", "ndmin", "deg", "dimension", "index", "num_or_size_splits", "indices_or_sections",
              "start_index", "slice_size", "limit", "stop", "start", "step", "kth", "sections", "decimals",
              "reps", "new_sizes", "limit_indices", "start_indices", "strides", "operand_size", "num_classes"}
AXIS_PARAMS = {"axis", "axis1", "axis2", "source", "destination", "dimension", "axes"}
SHAPE_PARAMS = {"shape", "newshape", "new_shape", "sizes", "broadcast_sizes", "out_shape"}
SKIP = {"jax.numpy.load", "jax.numpy.save", "jax.numpy.savez", "jax.numpy.fromfile", "jax.numpy.fromfunction",
        "jax.numpy.frompyfunc", "jax.numpy.vectorize", "jax.numpy.piecewise", "jax.numpy.printoptions",
        "jax.numpy.set_printoptions", "jax.lax.while_loop", "jax.lax.fori_loop", "jax.lax.cond",
        "jax.lax.switch", "jax.lax.map", "jax.lax.custom_root", "jax.lax.custom_linear_solve",
        "jax.lax.associative_scan", "jax.lax.reduce", "jax.lax.reduce_window", "jax.lax.sort_key_val"}


def probe_arguments(name: str, jnp: Any) -> dict[str, Any] | None:
    """Arguments for functions whose parameters the generic synthetic values cannot fit (padding
    configurations, index tuples, sizes per dimension): keyword -> value, an array where the
    function takes data; the probe then asks which of the others must be static, as for any call."""
    array = jnp.reshape(jnp.arange(1, 5, dtype=jnp.float32) / 4.0, (2, 2))
    pairs = (0, 0)
    from jax import lax, random

    vector = jnp.arange(1, 5, dtype=jnp.float32) / 4.0
    ids = jnp.arange(4, dtype=jnp.int32)
    rows = jnp.array([[0], [2]], dtype=jnp.int32)
    image = jnp.ones((1, 1, 4, 4), jnp.float32)
    kernel = jnp.ones((1, 1, 2, 2), jnp.float32)
    heads = jnp.ones((1, 2, 1, 4), jnp.float32)
    key = random.PRNGKey(0)
    table: dict[str, dict[str, Any]] = {
        "jax.numpy.pad": {"array": array, "pad_width": 1},
        "jax.numpy.indices": {"dimensions": (2, 2)},
        "jax.lax.pad": {"operand": array, "padding_value": jnp.float32(0.0), "padding_config": ((1, 1, 0), (0, 0, 0))},
        "jax.lax.dynamic_slice": {"operand": array, "start_indices": pairs, "slice_sizes": (1, 1)},
        "jax.lax.dynamic_update_slice": {"operand": array, "update": array[:1, :1], "start_indices": pairs},
        "jax.lax.slice": {"operand": array, "start_indices": pairs, "limit_indices": (1, 1)},
        "jax.lax.slice_in_dim": {"operand": array, "start_index": 0, "limit_index": 1},
        "jax.lax.index_in_dim": {"operand": array, "index": 0},
        "jax.lax.broadcast_in_dim": {"operand": array, "shape": (3, 2, 2), "broadcast_dimensions": (1, 2)},
        "jax.lax.full": {"shape": (2, 2), "fill_value": jnp.float32(1.0)},
        "jax.lax.reshape": {"operand": array, "new_sizes": (4,)},
        "jax.lax.expand_dims": {"array": array, "dimensions": (0,)},
        "jax.lax.squeeze": {"array": array[None], "dimensions": (0,)},
        "jax.lax.tile": {"operand": array, "reps": (1, 2)},
        "jax.lax.rev": {"operand": array, "dimensions": (0,)},
        "jax.lax.transpose": {"operand": array, "permutation": (1, 0)},
        "jax.lax.split": {"operand": array, "sizes": (1, 1)},
        # segment reductions: the ids are integers (the generic float array is no index)
        **{f"jax.ops.segment_{op}": {"data": array, "segment_ids": jnp.array([0, 1], dtype=jnp.int32)}
           for op in ("sum", "max", "min", "prod")},
        # a loop primitive: only its trip count is asked about (the body is a closed-over function)
        "jax.lax.scan": {"f": lambda carry, x: (carry, carry), "init": array, "xs": None, "length": 2},
        # apicover23: arguments from the signatures and docstrings of the entries no generic call fits
        # (convolutions: NCHW images and OIHW kernels; scatters/gathers: one index per row of a vector)
        **{f"jax.lax.reduce_{op}": {"operand": (array > 0.5) if op in ("and", "or", "xor") else array, "axes": (0,)}
           for op in ("sum", "max", "min", "prod", "and", "or", "xor")},
        **{f"jax.lax.{op}": {"operand": array, "axis": 0, "index_dtype": jnp.int32} for op in ("argmax", "argmin")},
        "jax.lax.bitcast_convert_type": {"operand": array, "new_dtype": jnp.int32},
        "jax.lax.convert_element_type": {"operand": array, "new_dtype": jnp.float16},
        "jax.lax.broadcast_to_rank": {"x": array, "rank": 3},
        "jax.lax.collapse": {"operand": array, "start_dimension": 0, "stop_dimension": 2},
        "jax.lax.integer_pow": {"x": array, "y": 2},
        "jax.lax.reduce_precision": {"operand": array, "exponent_bits": 5, "mantissa_bits": 10},
        "jax.lax.real": {"x": array.astype(jnp.complex64)},
        "jax.lax.imag": {"x": array.astype(jnp.complex64)},
        "jax.lax.full_like": {"x": array, "fill_value": jnp.float32(1.0)},
        "jax.lax.fft": {"x": array.astype(jnp.complex64), "fft_type": "fft", "fft_lengths": (2,)},
        "jax.lax.dot_general": {"lhs": array, "rhs": array, "dimension_numbers": (((1,), (0,)), ((), ()))},
        "jax.lax.conv": {"lhs": image, "rhs": kernel, "window_strides": (1, 1), "padding": "SAME"},
        "jax.lax.conv_general_dilated": {"lhs": image, "rhs": kernel, "window_strides": (1, 1), "padding": "SAME"},
        "jax.lax.conv_transpose": {"lhs": image, "rhs": kernel, "strides": (1, 1), "padding": "SAME",
                                   "dimension_numbers": ("NCHW", "OIHW", "NCHW")},
        "jax.lax.conv_with_general_padding": {"lhs": image, "rhs": kernel, "window_strides": (1, 1),
                                              "padding": ((0, 1), (0, 1)), "lhs_dilation": None, "rhs_dilation": None},
        "jax.lax.conv_general_dilated_patches": {"lhs": image, "filter_shape": (2, 2), "window_strides": (1, 1),
                                                 "padding": "SAME"},
        "jax.lax.gather": {"operand": vector, "start_indices": rows, "slice_sizes": (1,),
                           "dimension_numbers": lax.GatherDimensionNumbers(
                               offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))},
        **{f"jax.lax.scatter{op}": {"operand": vector, "scatter_indices": rows, "updates": vector[:2],
                                    "dimension_numbers": lax.ScatterDimensionNumbers(
                                        update_window_dims=(), inserted_window_dims=(0,),
                                        scatter_dims_to_operand_dims=(0,))}
           for op in ("", "_add", "_sub", "_mul", "_min", "_max")},
        "jax.lax.index_take": {"src": array, "idxs": (ids,), "axes": (0,)},
        "jax.lax.rng_uniform": {"a": jnp.float32(0.0), "b": jnp.float32(1.0), "shape": (2, 2)},
        "jax.lax.rng_bit_generator": {"key": jnp.zeros((4,), jnp.uint32), "shape": (2, 2)},
        "jax.nn.dot_product_attention": {"query": heads, "key": heads, "value": heads},
        "jax.numpy.einsum": {"__0": "ij,jk->ik", "__1": array, "__2": array},
        "jax.numpy.permute_dims": {"__0": array, "axes": (1, 0)},
        "jax.numpy.linalg.cross": {"__0": jnp.ones((2, 3)), "__1": jnp.ones((2, 3))},
        "jax.numpy.linalg.outer": {"__0": vector, "__1": vector},
        "jax.numpy.dsplit": {"ary": array[None], "indices_or_sections": 2},
        "jax.numpy.fill_diagonal": {"a": array, "val": jnp.float32(0.0), "inplace": False},
        "jax.numpy.place": {"arr": array, "mask": array > 0.5, "vals": vector, "inplace": False},
        "jax.numpy.put": {"a": array, "ind": ids[:2], "v": vector[:2], "inplace": False},
        "jax.numpy.put_along_axis": {"arr": array, "indices": jnp.zeros((2, 1), jnp.int32), "values": array[:, :1],
                                     "axis": 1, "inplace": False},
        "jax.numpy.ravel_multi_index": {"multi_index": (ids[:2] % 2, ids[:2] % 2), "dims": (2, 2)},
        "jax.numpy.unpackbits": {"a": ids.astype(jnp.uint8)},
        "jax.numpy.apply_along_axis": {"func1d": jnp.sum, "axis": 0, "arr": array},
        "jax.numpy.apply_over_axes": {"func": jnp.sum, "a": array, "axes": (0,)},
        "jax.numpy.linalg.tensorinv": {"a": jnp.eye(4).reshape(2, 2, 2, 2), "ind": 2},
        "jax.numpy.linalg.tensorsolve": {"a": jnp.eye(4).reshape(2, 2, 2, 2), "b": array},
        "jax.numpy.mask_indices": {"n": 2, "mask_func": jnp.triu},
        "jax.random.fold_in": {"key": key, "data": 1},
        "jax.random.ball": {"key": key, "d": 2},
        "jax.random.generalized_normal": {"key": key, "p": 2.0},
        "jax.random.key_data": {"keys": key},
        "jax.random.wrap_key_data": {"key_bits_array": jnp.zeros((2,), jnp.uint32)},
        "jax.random.PRNGKey": {"seed": 0},
        "jax.random.key": {"seed": 0},
        # jax.scipy / jax.image (lead30): positive arguments where the domain needs them, factor pairs
        # as their solvers take them, an image's target shape
        "jax.scipy.special.multigammaln": {"a": array + 2.0, "d": 2},
        "jax.scipy.special.bessel_jn": {"z": vector, "v": 2},
        "jax.scipy.special.sph_harm_y": {"n": ids[:2], "m": ids[:2] % 2, "theta": vector[:2], "phi": vector[:2]},
        "jax.scipy.linalg.cho_solve": {"c_and_lower": (jnp.eye(2), True), "b": array},
        "jax.scipy.linalg.lu_solve": {"lu_and_piv": (jnp.eye(2), jnp.arange(2, dtype=jnp.int32)), "b": array},
        "jax.scipy.linalg.eigh_tridiagonal": {"d": vector, "e": vector[:3]},
        "jax.scipy.linalg.leslie": {"f": vector, "s": vector[:3]},
        "jax.scipy.linalg.funm": {"A": array, "func": jnp.exp},
        "jax.scipy.ndimage.map_coordinates": {"input": array, "coordinates": (vector[:2], vector[:2]), "order": 1},
        "jax.image.resize": {"image": array, "shape": (4, 4), "method": "linear"},
        "jax.image.scale_and_translate": {"image": array, "shape": (4, 4), "spatial_dims": (0, 1),
                                          "scale": jnp.ones(2), "translation": jnp.zeros(2), "method": "linear"},
    }
    return table.get(name)


def synthetic(param: inspect.Parameter, jnp: Any) -> Any:
    name = param.name
    if name in SHAPE_PARAMS:
        return (2, 2)
    if name in AXIS_PARAMS:
        return 0
    if name in INT_PARAMS:
        return 2
    if name == "dtype":
        return jnp.float32
    if name == "key":
        import jax

        return jax.random.PRNGKey(0)
    if name in ("minval", "maxval"):
        return 0 if name == "minval" else 3
    return jnp.reshape(jnp.arange(1, 5, dtype=jnp.float32) / 4.0, (2, 2))


def kind_of(value: Any, jax: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, jax.Array):
        return "tensor"
    leaves = jax.tree_util.tree_leaves(value) if isinstance(value, (tuple, list)) else []
    if leaves and all(isinstance(v, jax.Array) for v in leaves):
        return "tensor"  # a tuple of arrays, or nested lists of them (histogramdd's edges)
    if isinstance(value, (bool, int, float, complex, str, tuple)):
        return "python"
    return "object"


def probe_class(cls: Any, jax: Any, jnp: Any) -> dict[str, Any]:
    """A class's entry: built under ``jax.jit`` from the dtype of a traced float32 and of a traced int32
    array; ``python`` (``by: "class_jit"``) when a build succeeds (``iinfo`` takes integer dtypes only,
    ``finfo`` float ones) and, for every build that does, neither the instance nor any of its public
    non-callable attributes is an array or a tracer, else ``object`` (``by: "class"``)."""
    attributes: set[str] = set()
    built = 0
    seen: dict[str, bool] = {}

    def build(x: Any) -> Any:
        obj = cls(x.dtype)
        # an instance of the class itself: not a wrapper that hands its argument back (np.object_)
        seen["instance"] = isinstance(obj, cls) and not isinstance(obj, (jax.Array, jax.core.Tracer)) \
            and kind_of(obj, jax) != "tensor"
        for attr in dir(obj):
            if attr.startswith("_"):
                continue
            try:
                value = getattr(obj, attr)
            except Exception:  # noqa: BLE001 - a property that fails: not a value
                continue
            if callable(value):
                continue
            seen[attr] = not isinstance(value, (jax.Array, jax.core.Tracer))
        return x

    traced = jax.jit(build)  # noqa: XLA404 - a probe: one trace per class and dtype is what it measures
    for dtype in (jnp.float32, jnp.int32):
        seen.clear()
        try:
            traced(jnp.zeros((2,), dtype))
        except Exception:  # noqa: BLE001 - not built from this dtype
            continue
        if not seen.get("instance") or not all(seen.values()):
            return {"returns": "object", "by": "class"}
        built += 1
        attributes |= {a for a in seen if a != "instance"}
    if not built or not attributes:
        return {"returns": "object", "by": "class"}
    return {"returns": "python", "by": "class_jit", "attributes": sorted(attributes)}


DATA_DEPENDENT_ERRORS = {"ConcretizationTypeError", "NonConcreteBooleanIndexError"}


def optional_params(fn: Any, given: dict[str, Any]) -> list[inspect.Parameter]:
    """The optional integer/axis/shape parameters a probing call passing ``given`` left out."""
    try:
        return [p for p in inspect.signature(fn).parameters.values() if p.default is not p.empty
                and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
                and p.name in INT_PARAMS | AXIS_PARAMS | SHAPE_PARAMS and p.name not in given]
    except (TypeError, ValueError):
        return []


def array_options(fn: Any, given: dict[str, Any]) -> list[inspect.Parameter]:
    """The optional parameters with default None, not integer/axis/shape/boolean/dtype options, that a
    probing call passing ``given`` left out (``jnp.bincount``'s ``weights``)."""
    try:
        return [p for p in inspect.signature(fn).parameters.values() if p.default is None
                and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in given
                and p.name not in INT_PARAMS | AXIS_PARAMS | SHAPE_PARAMS | {"dtype", "out", "fill_value", "where"}]
    except (TypeError, ValueError):
        return []


def argument_names(fn: Any, given: dict[str, Any]) -> dict[str, str]:
    """The parameter name of each argument of a probing call (``__i`` keys by position)."""
    positional = positional_params(fn) or []
    return {k: (positional[int(k[2:])] if int(k[2:]) < len(positional) else k) if k.startswith("__") else k
            for k in given if not k.startswith("__") or int(k[2:]) < len(positional)}


def numpy_value(value: Any) -> Any:
    """A concrete (NumPy) copy of an array argument: closed over, jax.jit sees its value."""
    import numpy as np

    return np.asarray(value)


def bool_options(fn: Any, given: dict[str, Any]) -> list[inspect.Parameter]:
    """The optional parameters with a boolean default that a probing call passing ``given`` left out."""
    try:
        return [p for p in inspect.signature(fn).parameters.values() if isinstance(p.default, bool)
                and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in given]
    except (TypeError, ValueError):
        return []


def probe(name: str, fn: Any, jax: Any, jnp: Any) -> dict[str, Any]:
    try:
        sig = inspect.signature(fn)
        required = [p for p in sig.parameters.values() if p.default is p.empty
                    and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        # positional-only parameters (``jnp.astype(x, dtype, /)``) go by position ("__i" keys)
        candidates = [{(f"__{i}" if p.kind is p.POSITIONAL_ONLY else p.name): synthetic(p, jnp)
                       for i, p in enumerate(required)}]
    except (TypeError, ValueError):  # ufunc objects (jnp.tanh, jnp.add) have no signature
        candidates = []
    array = jnp.reshape(jnp.arange(1, 5, dtype=jnp.float32) / 4.0, (2, 2))
    candidates += [{"__0": array}, {"__0": array, "__1": array}]
    # the same calls on vectors, tried only after every 2-D call failed (the entries probed before
    # keep their facts): functions that take 1-D data (jnp.compress's condition, jnp.convolve)
    # then on integer vectors, for functions that take counts, ids or bits (jnp.bincount, jnp.gcd)
    vector = jnp.arange(1, 5, dtype=jnp.float32) / 4.0
    ids = jnp.arange(4, dtype=jnp.int32)
    for v1 in (vector, ids):
        candidates += [{k: (v1 if isinstance(v, jax.Array) and v.ndim == 2 else v) for k, v in trial.items()}
                       for trial in candidates[:1]] + [{"__0": v1}, {"__0": v1, "__1": v1}]
    special = probe_arguments(name, jnp)
    if special is not None:
        candidates.insert(0, special)
    out = args = None
    for trial in candidates:
        positional = [v for k, v in trial.items() if k.startswith("__")]
        keywords = {k: v for k, v in trial.items() if not k.startswith("__")}
        try:
            out = fn(*positional, **keywords)
            args = trial
            break
        except Exception:  # noqa: BLE001 - try the next synthetic arguments
            continue
    if args is None:
        return probe_named_axis(fn, jax, jnp)
    entry: dict[str, Any] = {"returns": kind_of(out, jax), "by": "call"}
    # the facts below hold for this call: jnp.where with one array is data-dependent, with three it is not
    entry["called_with"] = [k if not k.startswith("__") else "array" for k in args]
    arrays = {k: v for k, v in args.items() if isinstance(v, jax.Array)}
    statics = {k: v for k, v in args.items() if k not in arrays}

    def call(**kw: Any) -> Any:
        positional = [kw.pop(k) for k in sorted(k for k in kw if k.startswith("__"))]
        return fn(*positional, **kw)

    def run(traced: dict[str, Any], closed: dict[str, Any]) -> str | None:
        try:
            # one probe per op, compiled once on purpose
            jax.jit(lambda **kw: call(**kw, **closed))(**traced)  # noqa: XLA404
            return None
        except Exception as error:  # noqa: BLE001 - the error class is the verdict
            return type(error).__name__

    error = run(arrays, statics)
    entry["jit"] = error is None
    if error is not None:
        entry["jit_error"] = error
        # the cause, not the error class: a result whose shape changes with the values of the
        # arrays (same shapes) cannot be traced (jnp.extract raises TracerBoolConversionError)
        if shape_follows_values(call, arrays, statics, jax, jnp):
            entry["data_dependent_shape"] = True
        if error in DATA_DEPENDENT_ERRORS or entry.get("data_dependent_shape"):
            sized_by = [p for p in optional_params(fn, args) if p.name in INT_PARAMS
                        and run(arrays, {**statics, p.name: synthetic(p, jnp)}) is None]
            if sized_by:
                entry["sized_by"] = [p.name for p in sized_by]
                # a size argument sizes the result only as a Python value: passed traced, the call
                # still fails (jax.ops.segment_sum's num_segments, jnp.nonzero's size), so it is a
                # static argument too (compiles closed over, fails traced: the static_args test)
                size_errors = {p.name: run({**arrays, p.name: jnp.asarray(synthetic(p, jnp))}, statics)
                               for p in sized_by}
                static_sizes = {name: error for name, error in size_errors.items() if error is not None}
                if static_sizes:
                    entry["static_args"] = list(static_sizes)
                    entry["static_errors"] = static_sizes
            # boolean options whose other value makes the call compile (jnp.delete's
            # assume_unique_indices=True, jnp.roots' strip_zeros=False)
            lifted_by = {p.name: not p.default for p in bool_options(fn, args)
                         if run(arrays, {**statics, p.name: not p.default}) is None}
            if lifted_by:
                entry["lifted_by"] = lifted_by
            # which arguments drive the result's shape: traced alone (the others closed over as
            # concrete values) the call still fails (jnp.delete: `obj`, not `arr`; jnp.setdiff1d: both)
            names = argument_names(fn, args)
            shape_args = [names[k] for k in arrays if k in names and run(
                {k: arrays[k]}, {**statics, **{o: numpy_value(v) for o, v in arrays.items() if o != k}}) is not None]
            if shape_args:
                entry["shape_args"] = shape_args
            # optional array parameters under which the verdict holds: passed traced (an array like
            # the first), the call still fails and its size argument still lifts it (jnp.bincount's
            # `weights`)
            first = next(iter(arrays.values()), None)
            holds_with = [p.name for p in array_options(fn, args) if first is not None
                          and run({**arrays, p.name: first}, statics) is not None
                          and all(run({**arrays, p.name: first}, {**statics, q.name: synthetic(q, jnp)}) is None
                                  for q in sized_by)]
            if holds_with:
                entry["holds_with"] = holds_with
        return entry
    # argument -> the error class tracing raised once it was traced; its keys, in probing order, are
    # the entry's static_args
    static_errors: dict[str, str] = {}
    for key, value in statics.items():
        if isinstance(value, bool) or not isinstance(value, (int, tuple)) or key == "dtype":
            continue
        traced = dict(arrays)
        try:
            traced[key] = jnp.asarray(value)
        except (TypeError, ValueError):  # a structure no array can hold (dimension numbers): not asked
            continue
        closed = {k: v for k, v in statics.items() if k != key}
        failed = run(traced, closed)
        if failed is not None:
            static_errors[key] = failed
    # optional integer/axis/shape parameters the probing call left out (jnp.squeeze's axis,
    # jnp.fft.rfft's n): static when the call compiles with the value closed over and fails
    # once it is traced
    optional = optional_params(fn, args)
    # an axis of the (2, 2) probe array may not fit the parameter (jnp.squeeze's axis needs a
    # unit dimension): those are probed again on the arrays with a leading unit axis
    unit = {k: v[None] for k, v in arrays.items()}
    for param in optional:
        value = synthetic(param, jnp)
        for inputs in (arrays, unit):
            if run(inputs, {**statics, param.name: value}) is None:
                failed = run({**inputs, param.name: jnp.asarray(value)}, statics)
                if failed is not None:
                    static_errors[param.name] = failed
                break
    if static_errors:
        entry["static_args"] = list(static_errors)
        entry["static_errors"] = static_errors
        unless = static_unless(run, arrays, statics, list(static_errors), optional, jnp)
        if unless:
            entry["static_unless"] = unless
    return entry


def shape_follows_values(call: Callable[..., Any], arrays: dict[str, Any], statics: dict[str, Any],
                         jax: Any, jnp: Any) -> bool:
    """Whether the eager result's shapes differ when every array argument is replaced by zeros of
    the same shape and dtype (``jnp.nonzero``, ``jnp.extract``: a data-dependent result shape)."""
    def shapes(**kw: Any) -> list[tuple[int, ...]] | None:
        try:
            out = call(**kw, **statics)
        except Exception:  # noqa: BLE001 - no eager result: nothing measured
            return None
        leaves = jax.tree_util.tree_leaves(out)
        if not leaves or not all(isinstance(v, jax.Array) for v in leaves):
            return None
        return [tuple(v.shape) for v in leaves]

    if not arrays:
        return False
    given = shapes(**arrays)
    zeros = shapes(**{k: jnp.zeros_like(v) for k, v in arrays.items()})
    return given is not None and zeros is not None and given != zeros


def static_unless(run: Callable[[dict[str, Any], dict[str, Any]], str | None], arrays: dict[str, Any],
                  statics: dict[str, Any], static_args: list[str], optional: list[inspect.Parameter],
                  jnp: Any) -> dict[str, list[str]]:
    """For each static argument of the probing call, the optional integer parameters that lift it:
    traced, it compiles once that one is passed (``jnp.repeat``'s ``repeats`` with
    ``total_repeat_length``)."""
    out: dict[str, list[str]] = {}
    for key in static_args:
        if key not in statics:
            continue
        traced = {**arrays, key: jnp.asarray(statics[key])}
        closed = {k: v for k, v in statics.items() if k != key}
        lifted = [p.name for p in optional if p.name in INT_PARAMS and p.name != key
                  and run(traced, {**closed, p.name: synthetic(p, jnp)}) is None]
        if lifted:
            out[key] = lifted
    return out




NAMED_AXIS = "i"


def probe_named_axis(fn: Any, jax: Any, jnp: Any) -> dict[str, Any]:
    """A collective that takes ``axis_name`` (``lax.axis_size``, ``axis_index``, ``psum``,
    ``ppermute``) runs only where that axis is bound: called inside ``jax.vmap(...,
    axis_name=NAMED_AXIS)`` over a batch of two probe arrays, with its array parameters the
    batched (traced) values and every other required parameter synthetic. ``returns`` is what it
    gave there (``lax.axis_size``: a Python int; ``axis_index``: a tracer); ``by: "named_axis"``."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return {"returns": "unknown", "by": "none"}
    if "axis_name" not in params:
        return {"returns": "unknown", "by": "none"}
    required = [p for p in params.values() if p.default is p.empty
                and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name != "axis_name"]
    batch = jnp.reshape(jnp.arange(1, 9, dtype=jnp.float32) / 8.0, (2, 2, 2))
    results: list[Any] = []

    def body(x: Any) -> Any:
        kw: dict[str, Any] = {"axis_name": NAMED_AXIS}
        for p in required:
            if p.name == "perm":
                kw[p.name] = [(0, 1), (1, 0)]  # a permutation of the two-member axis
            else:
                value = synthetic(p, jnp)
                kw[p.name] = x if isinstance(value, jax.Array) else value
        results.append(fn(**kw))
        return x

    try:
        jax.vmap(body, axis_name=NAMED_AXIS)(batch)
    except Exception:  # noqa: BLE001 - no synthetic arguments fit: not probed
        return {"returns": "unknown", "by": "none"}
    return {"returns": kind_of(results[0], jax), "by": "named_axis",
            "called_with": [p.name for p in required] + ["axis_name"]}


def probe_numpy_on_tracer(jax: Any, jnp: Any, only: list[str] | None = None) -> dict[str, Any]:
    """Which public NumPy and SciPy functions accept a traced array under jax.jit (see the module
    doc); ``only``: just these names (``np.X``, ``np.linalg.X``, ``scipy.linalg.X``) instead of all."""

    def run(fn: Callable[..., Any], values: tuple[Any, ...]) -> None:
        # one probe per function, compiled once on purpose
        jax.jit(lambda *v: fn(*v))(*(jnp.asarray(v) for v in values))  # noqa: XLA404

    def fails(error: BaseException) -> bool:
        return "Tracer" in type(error).__name__ or type(error).__name__ == "ConcretizationTypeError"

    return _numpy_probe.probe(run, fails, only)


def positional_params(fn: Any) -> list[str] | None:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    return [p.name for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def modules(jax: Any, jnp: Any) -> dict[str, Any]:
    """The probed namespaces, by the prefix of their entries' names."""
    import jax.image
    import jax.scipy.fft
    import jax.scipy.integrate
    import jax.scipy.linalg
    import jax.scipy.ndimage
    import jax.scipy.signal
    import jax.scipy.special

    return {"jax.numpy": jnp, "jax.lax": jax.lax, "jax.numpy.fft": jnp.fft, "jax.numpy.linalg": jnp.linalg,
            "jax.random": jax.random, "jax.nn": jax.nn, "jax.ops": jax.ops, "jax.dtypes": jax.dtypes,
            "jax.scipy.special": jax.scipy.special, "jax.scipy.linalg": jax.scipy.linalg,
            "jax.scipy.signal": jax.scipy.signal, "jax.image": jax.image, "jax.scipy.fft": jax.scipy.fft,
            "jax.scipy.ndimage": jax.scipy.ndimage, "jax.scipy.integrate": jax.scipy.integrate}


def resolve(name: str, jax: Any, jnp: Any) -> Any:
    module_name, attr = name.rsplit(".", 1)
    return getattr(modules(jax, jnp)[module_name], attr)


def add_params(entries: dict[str, Any], jax: Any, jnp: Any) -> int:
    """``params`` for the entries whose argument positions a linter needs."""
    count = 0
    for name, entry in entries.items():
        if "alias_of" in entry or not (entry.get("static_args") or entry.get("data_dependent_shape")
                                       or entry.get("jit_error") in DATA_DEPENDENT_ERRORS):
            continue
        params = positional_params(resolve(name, jax, jnp))
        if params:
            entry["params"] = params
            # the probing call passed its arrays first and by position ("array"): name them
            entry["called_with"] = [params[i] if arg == "array" and i < len(params) else arg
                                    for i, arg in enumerate(entry.get("called_with", []))]
            count += 1
    return count


def probe_array_methods(jax: Any, jnp: Any) -> list[str]:
    """The public methods of a traced array: ``dir()`` of the tracer ``jax.jit`` hands its function
    (``x.reshape``, ``x.sum``; a ``.append`` is never one, so ``obj.append(...)`` is not ``jnp.append``)."""
    found: list[str] = []

    def f(x: Any) -> Any:
        for attr in dir(x):
            if attr.startswith("_"):
                continue
            try:
                value = getattr(x, attr)
            except Exception:  # a concrete-array property (addressable_shards): not on a tracer
                continue
            if callable(value):
                found.append(attr)
        return x

    jax.jit(f)(jnp.zeros((2, 3)))
    return sorted(set(found))


def probe_packed_methods(jax: Any) -> list[str]:
    """The array methods that take their shape or axes as separate positional arguments (a
    ``*args`` parameter in ``jax.Array``'s signature: ``x.reshape(2, -1)`` is ``jnp.reshape(x, (2, -1))``,
    ``x.transpose(1, 0)`` is ``jnp.transpose(x, (1, 0))``)."""
    found: list[str] = []
    for attr in dir(jax.Array):
        if attr.startswith("_"):
            continue
        try:
            params = inspect.signature(getattr(jax.Array, attr)).parameters.values()
        except (TypeError, ValueError):
            continue
        if any(p.kind is p.VAR_POSITIONAL for p in params):
            found.append(attr)
    return sorted(found)


def write(table: dict[str, Any], out: Path) -> None:
    lines = ["{"] + [f" {json.dumps(k)}: {json.dumps(v, sort_keys=True)}," for k, v in table.items() if k != "entries"]
    lines.append(' "entries": {')
    items = sorted(table["entries"].items())
    compact = {"sort_keys": True, "separators": (",", ":")}
    lines += [f"  {json.dumps(n)}: {json.dumps(e, **compact)}{',' if i < len(items) - 1 else ''}"
              for i, (n, e) in enumerate(items)]
    lines += [" }", "}"]
    out.write_text("\n".join(lines) + "\n")


def check_table(jax: Any, jnp: Any, path: Path, sample: int) -> int:
    """Probe a sample of the entries again (as the full run does: ``probe`` then ``add_params``) and
    the same number of ``numpy_on_tracer`` names; compare with the file. Exit status 1 when stale."""
    table = json.loads(path.read_text())
    entries = table["entries"]
    groups: dict[str, list[str]] = {}
    for name, entry in entries.items():
        if entry.get("by") == "call":
            verdict = ("static_args" if entry.get("static_args") else "jit" if entry.get("jit")
                       else entry.get("jit_error", "no_jit"))
            groups.setdefault(verdict, []).append(name)
    differences: list[str] = []
    if (line := _table_check.difference("jax_version", table["jax_version"], jax.__version__)):
        differences.append(line)
    names = _table_check.spread_sample(groups, sample)
    # the collectives probed where their axis is bound: few and cheap, all of them again
    names += sorted(name for name, entry in entries.items() if entry.get("by") == "named_axis")
    # the classes measured as Python values under jax.jit: few, all of them again
    classes = sorted(name for name, entry in entries.items() if entry.get("by") == "class_jit")
    for name in classes:
        if (line := _table_check.difference(name, entries[name], probe_class(resolve(name, jax, jnp), jax, jnp))):
            differences.append(line)
    for name in names:
        measured = {name: probe(name, resolve(name, jax, jnp), jax, jnp)}
        add_params(measured, jax, jnp)
        if (line := _table_check.difference(name, entries[name], measured[name])):
            differences.append(line)
    recorded = table["numpy_on_tracer"]
    verdicts = {name: verdict for verdict in ("traceable", "fails") for name in recorded[verdict]}
    numpy_names = _table_check.spread_sample({v: [n for n, w in verdicts.items() if w == v]
                                              for v in ("traceable", "fails")}, sample)
    got = probe_numpy_on_tracer(jax, jnp, numpy_names)
    measured_verdicts = {name: verdict for verdict in ("traceable", "fails") for name in got[verdict]}
    for name in numpy_names:
        if (line := _table_check.difference(f"numpy_on_tracer {name}", verdicts[name], measured_verdicts.get(name))):
            differences.append(line)
    if (line := _table_check.difference("numpy_on_tracer stores", recorded.get("stores"), got["stores"])):
        differences.append(line)
    if (line := _table_check.difference("array_methods", table.get("array_methods"), probe_array_methods(jax, jnp))):
        differences.append(line)
    return _table_check.report("generate_jax_api_table", 3 + len(names) + len(classes) + len(numpy_names), differences,
                               f"jax {jax.__version__}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--refresh-params", action="store_true", help="fill params into the existing --out file only")
    ap.add_argument("--refresh-numpy", action="store_true",
                    help="probe only numpy_on_tracer into the existing --out file")
    ap.add_argument("--refresh-methods", action="store_true",
                    help="probe only array_methods (a traced array's public methods) into the existing --out file")
    ap.add_argument("--refresh-static", action="store_true",
                    help="probe again only the entries of the existing --out file that have static_args")
    ap.add_argument("--refresh-sized", action="store_true",
                    help="probe again only the entries of the existing --out file that have sized_by")
    ap.add_argument("--refresh-classes", action="store_true",
                    help="probe again only the classes of the existing --out file (probe_class)")
    ap.add_argument("--refresh-module", action="append", metavar="NAME",
                    help="probe only the entries of this namespace (jax.ops), keeping the others of the existing "
                         "--out file (repeatable)")
    ap.add_argument("--check", action="store_true", help="probe a sample again and compare with --out")
    ap.add_argument("--sample", type=int, default=12, help="with --check: how many entries (and NumPy names)")
    args = ap.parse_args(argv)
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import warnings

    warnings.filterwarnings("ignore")
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        if args.check:
            return _table_check.skipped("generate_jax_api_table", "JAX is not installed")
        raise

    if args.check:
        return check_table(jax, jnp, args.out, args.sample)

    if args.refresh_numpy:
        table = json.loads(args.out.read_text())
        table["numpy_on_tracer"] = probe_numpy_on_tracer(jax, jnp)
        print(f"numpy_on_tracer: {len(table['numpy_on_tracer']['traceable'])} traceable, "
              f"{len(table['numpy_on_tracer']['fails'])} fail")
        write(table, args.out)
        return 0
    if args.refresh_methods:
        table = json.loads(args.out.read_text())
        table["array_methods"] = probe_array_methods(jax, jnp)
        table["array_methods_packed"] = probe_packed_methods(jax)
        print(f"array_methods: {len(table['array_methods'])}, packed: {table['array_methods_packed']}")
        write(table, args.out)
        return 0
    if args.refresh_classes:
        table = json.loads(args.out.read_text())
        classes = {name: probe_class(resolve(name, jax, jnp), jax, jnp) for name, entry in table["entries"].items()
                   if entry.get("by") in ("class", "class_jit")}
        table["entries"].update(classes)
        print(f"classes: {len(classes)}, python under jax.jit: "
              f"{sorted(n for n, e in classes.items() if e['returns'] == 'python')}")
        write(table, args.out)
        return 0
    if args.refresh_params:
        table = json.loads(args.out.read_text())
        print(f"params: {add_params(table['entries'], jax, jnp)} entries")
        write(table, args.out)
        return 0

    refresh = frozenset(args.refresh_module or ())
    existing = json.loads(args.out.read_text()) if args.refresh_static or args.refresh_sized or refresh else None
    old = existing["entries"] if existing is not None else {}
    entries: dict[str, Any] = {}
    seen: dict[int, str] = {}
    for module_name, module in modules(jax, jnp).items():
        for attr in sorted(dir(module)):
            if attr.startswith("_"):
                continue
            name = f"{module_name}.{attr}"
            obj = getattr(module, attr)
            if not callable(obj) or name in SKIP:
                continue
            if id(obj) in seen:
                entries[name] = {"alias_of": seen[id(obj)]}
                continue
            seen[id(obj)] = name
            if refresh and module_name not in refresh and name in old:
                entries[name] = old[name]  # --refresh-module: the other namespaces keep their probed facts
                continue
            if isinstance(obj, type):
                entries[name] = probe_class(obj, jax, jnp)
                continue
            if args.refresh_static and name in old and not old[name].get("static_args"):
                entries[name] = old[name]
                continue
            if args.refresh_sized and name in old and not old[name].get("sized_by"):
                entries[name] = old[name]  # --refresh-sized: only the data-dependent entries with a size argument
                continue
            entries[name] = probe(name, obj, jax, jnp)
    stats = {"entries": len(entries),
             "called": sum(e.get("by") == "call" for e in entries.values()),
             "jit_false": sum(e.get("jit") is False for e in entries.values()),
             "static_args": sum(bool(e.get("static_args")) for e in entries.values())}
    table = {"schema": SCHEMA_VERSION, "command": "python tools/generate_jax_api_table.py",
             "jax_version": jax.__version__, "backend": "cpu", "stats": stats, "entries": entries}
    add_params(entries, jax, jnp)
    if (refresh or args.refresh_sized) and existing is not None:
        for key in ("numpy_on_tracer", "array_methods", "array_methods_packed"):
            table[key] = existing[key]
    else:
        table["numpy_on_tracer"] = probe_numpy_on_tracer(jax, jnp)
        table["array_methods"] = probe_array_methods(jax, jnp)
        table["array_methods_packed"] = probe_packed_methods(jax)
    write(table, args.out)
    print(f"wrote {args.out}: {json.dumps(stats)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
