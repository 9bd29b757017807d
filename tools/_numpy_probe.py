"""What the JAX and TensorFlow table generators share to ask which NumPy/SciPy functions accept a
traced value: the functions probed, the calls tried, and the verdicts.

Each public callable of NumPy (with ``linalg``, ``fft``, ``random`` and its generator classes) and of
SciPy's ``linalg``, ``special``, ``signal`` and ``ndimage`` is called in the first of
:data:`NUMPY_FORMS` that works on NumPy values, then in the same form on traced values (a framework's
``run``: jax.jit, or tf.function). ``traceable``: the traced call works (NumPy hands the value to its
own method: ``np.sum(x)`` is ``x.sum()`` on a JAX array); ``fails``: it raises the framework's
"no concrete value" error (``fails(error)`` decides); anything else (an output the framework cannot
return, another error) is in neither, as is a function no form fits.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from typing import Any

# The probing calls, tried in this order until one works on NumPy values; each names what is traced:
# "array" fn(x); "array,array" fn(x, x); "[array,array]" fn([x, x]); "array,-1" fn(x, -1) (a shape or
# axis argument, closed over); "seed" fn(s) with an int32 scalar (a random generator's seed:
# np.random.RandomState, np.random.default_rng).
NUMPY_FORMS = ("array", "array,array", "[array,array]", "array,-1", "seed")

# NumPy with its linalg, fft, random and testing modules, and SciPy's modules that numerical code calls
# (linalg solves, special functions, signal windows and filters, ndimage).
NUMPY_NAMESPACES = ("numpy", "numpy.linalg", "numpy.fft", "numpy.random", "numpy.testing", "scipy.linalg",
                    "scipy.special", "scipy.signal", "scipy.ndimage")

# Namespaces probed only for the names with one of these prefixes: numpy.testing's assertions
# (np.testing.assert_allclose on a tracer in a jitted step); its runners (run_module_suite, rundocs,
# measure) execute code and are never called.
NUMPY_NAMESPACE_PREFIXES = {"numpy.testing": ("assert_",)}

# Classes the probe calls: NumPy's random generators, seeded with a traced value in model code.
NUMPY_CLASSES = frozenset({"np.random.RandomState", "np.random.Generator"})

# NumPy callables that print, read files or block on input: never called by the probe
NUMPY_SKIP = {"info", "show_config", "show_runtime", "load", "loadtxt", "genfromtxt", "fromfile", "save", "savez",
              "savez_compressed", "savetxt", "tofile", "test", "printoptions", "set_printoptions", "setbufsize",
              "seterr", "seterrcall", "source", "lookfor", "who", "memmap", "get_include", "deprecate",
              "deprecate_with_doc", "getbufsize", "geterr", "geterrcall", "get_printoptions"}


def probe(run: Callable[[Callable[..., Any], tuple[Any, ...]], None], fails: Callable[[BaseException], bool],
          only: list[str] | None = None) -> dict[str, Any]:
    """``{"traceable": [...], "fails": [...], "called_with": {name: form}}`` (the form where it is not
    one array). ``run(call, values)`` calls ``call`` on ``values`` (NumPy values) made traced; ``fails``
    says whether an error is the framework's "no concrete value" error."""
    import numpy as np

    host = np.arange(1, 5, dtype=np.float32).reshape(2, 2) / 4.0
    seed = np.int32(7)
    traceable, failing, called_with = [], [], {}
    for name, fn in numpy_callables(np, only):
        form = _host_form(fn, host, seed, np)
        if form is None:
            continue  # no probing call works on NumPy values: not probed
        try:
            run(lambda *v, fn=fn, form=form: fn(*call_args(form, v)), _values(form, host, seed))
            traceable.append(name)
        except Exception as error:  # noqa: BLE001 - the error class is the verdict
            if not fails(error):
                continue
            failing.append(name)
        if form != "array":
            called_with[name] = form
    return {"traceable": traceable, "fails": failing, "called_with": dict(sorted(called_with.items())),
            "stores": probe_stores(run)}


# Item assignments into a NumPy array inside traced code, each named by what is stored where:
# "[:]=array" buf[:] = x; "[:]=scalar" buf[:] = x[0, 0]; "[0]=row" buf[0] = x[0]; "[0,0]=scalar"
# buf[0, 0] = x[0, 0]; "[i]=constant" buf[i] = 1.0 with a traced index i; "[:]+=array" buf[:] += x.
STORE_FORMS = ("[:]=array", "[:]=scalar", "[0]=row", "[0,0]=scalar", "[i]=constant", "[:]+=array")


def _store(form: str, buf: Any, x: Any, i: Any) -> None:
    if form == "[:]=array":
        buf[:] = x
    elif form == "[:]=scalar":
        buf[:] = x[0, 0]
    elif form == "[0]=row":
        buf[0] = x[0]
    elif form == "[0,0]=scalar":
        buf[0, 0] = x[0, 0]
    elif form == "[i]=constant":
        buf[i] = 1.0
    else:
        buf[:] += x


def probe_stores(run: Callable[[Callable[..., Any], tuple[Any, ...]], None]) -> dict[str, str]:
    """``{form: verdict}`` for each of :data:`STORE_FORMS` written into a NumPy array built in the
    traced function: ``"traceable"``, or the class of the error tracing raises (each form works on
    NumPy values: checked first, else ``"untested"``)."""
    import numpy as np

    host, index = np.arange(1, 5, dtype=np.float32).reshape(2, 2) / 4.0, np.int32(1)
    verdicts: dict[str, str] = {}
    for form in STORE_FORMS:
        def store(x: Any, i: Any, form: str = form) -> Any:
            _store(form, np.zeros((2, 2), np.float32), x, i)
            return x

        try:
            store(host, index)
        except Exception:  # noqa: BLE001 - the form does not work on NumPy values: no verdict
            verdicts[form] = "untested"
            continue
        try:
            run(store, (host, index))
            verdicts[form] = "traceable"
        except Exception as error:  # noqa: BLE001 - the error class is the verdict
            verdicts[form] = type(error).__name__
    return verdicts


def call_args(form: str, values: tuple[Any, ...]) -> tuple[Any, ...]:
    """The call's arguments in ``form`` from the values that are traced."""
    if form == "[array,array]":
        return (list(values),)
    if form == "array,-1":
        return (values[0], -1)
    return values


def _values(form: str, host: Any, seed: Any) -> tuple[Any, ...]:
    if form == "seed":
        return (seed,)
    return (host,) * (1 if form in ("array", "array,-1") else 2)


def _host_form(fn: Any, host: Any, seed: Any, np: Any) -> str | None:
    """The first of :data:`NUMPY_FORMS` that works on NumPy values (warnings silenced: a warning is no failure)."""
    for form in NUMPY_FORMS:
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                fn(*call_args(form, _values(form, host, seed)))
        except Exception:  # noqa: BLE001 - the form does not fit: try the next
            continue
        return form
    return None


def numpy_callables(np: Any, only: list[str] | None) -> list[tuple[str, Any]]:
    """(public name as xlacheck spells it: ``np.linalg.norm``, ``scipy.linalg.solve``; callable)."""
    found: list[tuple[str, Any]] = []
    for module_name in NUMPY_NAMESPACES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        prefix = "np" + module_name[len("numpy"):] if module_name.startswith("numpy") else module_name
        for attr in sorted(dir(module)):
            fn = getattr(module, attr, None)
            name = f"{prefix}.{attr}"
            if only is not None and name not in only:
                continue
            if attr.startswith("_") or not callable(fn) or attr in NUMPY_SKIP or isinstance(fn, type(np)):
                continue
            if module_name in NUMPY_NAMESPACE_PREFIXES and not attr.startswith(NUMPY_NAMESPACE_PREFIXES[module_name]):
                continue
            if isinstance(fn, type) and name not in NUMPY_CLASSES:
                continue
            found.append((name, fn))
    return found
