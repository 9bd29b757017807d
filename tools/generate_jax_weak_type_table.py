"""Generate xlacheck/data/jax_weak_types.json: which JAX functions return a weakly typed array, measured
on the installed JAX (CPU).

    python tools/generate_jax_weak_type_table.py            # a second or two, needs jax
    python tools/generate_jax_weak_type_table.py --check    # exit 1 when the file is out of date

A Python number passed to ``jax.jit`` (or mixed into ``jnp`` arithmetic) is a *weakly typed* value, and
``jax.jit`` keys its cache on the weak type: a step that starts from a weakly typed value and returns a
strongly typed one compiles twice. Whether a function's result is weakly typed depends on the
function, so each entry below is measured twice, inside ``jax.jit`` as a step computes it:

* ``from_weak``: the result's ``weak_type`` when every numeric argument is weakly typed (a Python
  number, or ``jnp.asarray(0.5)``); a random draw gets only its key and shape;
* ``from_strong``: the result's ``weak_type`` when the first numeric argument is a strongly typed
  ``float32`` array and the others are weakly typed.

* ``integer``: whether the result is an integer or boolean array when every numeric argument is a
  strongly typed ``int32`` array (a random draw: its default dtype); absent when the call raises. A
  strongly typed integer result does not decide the weak type of arithmetic with a Python float
  (``jnp.sum(mask) + 0.5`` is a weakly typed ``float32``), so the evaluator needs it.
* ``int_then_weak_float`` / ``weak_float_then_int`` (functions of two numeric arguments): the result's
  ``weak_type`` when one argument is a strongly typed ``int32`` array and the other a weakly typed float
  (first / second). Mostly weakly typed, but not always: inside ``jax.jit``, ``0.9 ** count`` with an
  ``int32`` count is a strongly typed ``float32`` (``jnp.power``), while ``0.5 * count`` is weakly typed.

``kind`` sums the two up: ``strong`` (never weakly typed: random draws, reductions that fix a dtype),
``propagates`` (weakly typed exactly when every numeric input is: elementwise math, most reductions),
or ``weak`` (weakly typed even from a strongly typed input). xlacheck reads the file through
:mod:`xlacheck.analysis.weak_types` (no JAX import there).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "jax_weak_types.json"
SCHEMA_VERSION = 2

# name -> (arity of numeric arguments, call(jax, jnp, key, *numeric)). Names are spelled as xlacheck
# resolves them (`jnp.` for jax.numpy).
_UNARY = ("exp", "exp2", "expm1", "log", "log1p", "log2", "log10", "sqrt", "cbrt", "tanh", "sinh", "cosh",
          "sin", "cos", "tan", "arctan", "arcsin", "arccos", "abs", "absolute", "square", "negative", "sign",
          "floor", "ceil", "round", "reciprocal", "sum", "mean", "prod", "max", "min", "amax", "amin", "std", "var",
          "nansum", "nanmean", "cumsum", "cumprod", "median", "ravel", "squeeze", "atleast_1d", "copy",
          "asarray", "array")
_BINARY = ("add", "subtract", "multiply", "divide", "true_divide", "power", "maximum", "minimum", "logaddexp",
           "arctan2", "hypot", "fmax", "fmin", "dot", "matmul", "inner", "outer", "vdot", "append")
_NN = ("sigmoid", "softplus", "relu", "gelu", "silu", "tanh", "log_sigmoid", "log_softmax", "softmax",
       "logsumexp", "elu")
_DRAWS = ("normal", "uniform", "gumbel", "exponential", "laplace", "logistic", "truncated_normal", "bernoulli",
          "randint", "poisson", "categorical", "gamma", "beta", "dirichlet", "cauchy", "t", "choice",
          "permutation", "rademacher", "ball", "orthogonal")


def _entries() -> dict[str, tuple[int, Callable[..., Any]]]:
    entries: dict[str, tuple[int, Callable[..., Any]]] = {}
    for f in _UNARY:
        entries[f"jnp.{f}"] = (1, lambda jax, jnp, key, a, f=f: getattr(jnp, f)(jnp.broadcast_to(a, (3,))))
    for f in _BINARY:
        entries[f"jnp.{f}"] = (2, lambda jax, jnp, key, a, b, f=f: getattr(jnp, f)(
            jnp.broadcast_to(a, (3,)), jnp.broadcast_to(b, (3,))))
    entries["jnp.where"] = (2, lambda jax, jnp, key, a, b: jnp.where(jnp.arange(3) > 0, jnp.broadcast_to(a, (3,)), b))
    entries["jnp.clip"] = (2, lambda jax, jnp, key, a, b: jnp.clip(jnp.broadcast_to(a, (3,)), b, 10.0))
    entries["jnp.take"] = (1, lambda jax, jnp, key, a: jnp.take(jnp.broadcast_to(a, (3,)), jnp.array([0, 2])))
    entries["jnp.concatenate"] = (2, lambda jax, jnp, key, a, b: jnp.concatenate(
        [jnp.broadcast_to(a, (3,)), jnp.broadcast_to(b, (2,))]))
    entries["jnp.stack"] = (2, lambda jax, jnp, key, a, b: jnp.stack([a, b]))
    for f in _NN:
        entries[f"jax.nn.{f}"] = (1, lambda jax, jnp, key, a, f=f: getattr(jax.nn, f)(jnp.broadcast_to(a, (3,))))
    entries["jax.scipy.special.logsumexp"] = (1, lambda jax, jnp, key, a: jax.scipy.special.logsumexp(
        jnp.broadcast_to(a, (3,))))
    draws: dict[str, Callable[..., Any]] = {
        "normal": lambda jax, key: jax.random.normal(key, (3,)),
        "uniform": lambda jax, key: jax.random.uniform(key, (3,)),
        "gumbel": lambda jax, key: jax.random.gumbel(key, (3,)),
        "exponential": lambda jax, key: jax.random.exponential(key, (3,)),
        "laplace": lambda jax, key: jax.random.laplace(key, (3,)),
        "logistic": lambda jax, key: jax.random.logistic(key, (3,)),
        "truncated_normal": lambda jax, key: jax.random.truncated_normal(key, -1.0, 1.0, (3,)),
        "bernoulli": lambda jax, key: jax.random.bernoulli(key, 0.5, (3,)),
        "randint": lambda jax, key: jax.random.randint(key, (3,), 0, 5),
        "poisson": lambda jax, key: jax.random.poisson(key, 2.0, (3,)),
        "categorical": lambda jax, key: jax.random.categorical(key, jax.numpy.zeros(3)),
        "gamma": lambda jax, key: jax.random.gamma(key, 2.0, (3,)),
        "beta": lambda jax, key: jax.random.beta(key, 2.0, 3.0, (3,)),
        "dirichlet": lambda jax, key: jax.random.dirichlet(key, jax.numpy.ones(3)),
        "cauchy": lambda jax, key: jax.random.cauchy(key, (3,)),
        "t": lambda jax, key: jax.random.t(key, 3.0, (3,)),
        "choice": lambda jax, key: jax.random.choice(key, 5, (3,)),
        "permutation": lambda jax, key: jax.random.permutation(key, 5),
        "rademacher": lambda jax, key: jax.random.rademacher(key, (3,)),
        "ball": lambda jax, key: jax.random.ball(key, 3),
        "orthogonal": lambda jax, key: jax.random.orthogonal(key, 3),
    }
    for f in _DRAWS:
        entries[f"jax.random.{f}"] = (0, lambda jax, jnp, key, f=f: draws[f](jax, key))
    return entries


def measure() -> dict[str, Any]:
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax
    import jax.numpy as jnp

    key = jax.random.PRNGKey(0)
    functions: dict[str, Any] = {}
    for name, (arity, call) in sorted(_entries().items()):
        def weak_type(strong_first: bool, arity: int = arity, call: Callable[..., Any] = call) -> bool:
            def f(key: Any) -> Any:
                args = [jnp.asarray(0.5) for _ in range(arity)]
                if strong_first and args:
                    args[0] = jnp.float32(0.5) * jnp.ones((), jnp.float32)
                return call(jax, jnp, key, *args)
            return bool(jax.jit(f)(key).weak_type)

        def integer(arity: int = arity, call: Callable[..., Any] = call) -> bool | None:
            def f(key: Any) -> Any:
                return call(jax, jnp, key, *[jnp.ones((), jnp.int32) for _ in range(arity)])
            try:
                dtype = jax.jit(f)(key).dtype
            except Exception:  # noqa: BLE001 - a function that takes no integer input: no measurement
                return None
            return bool(jnp.issubdtype(dtype, jnp.integer) or jnp.issubdtype(dtype, jnp.bool_))

        def mixed(int_first: bool, call: Callable[..., Any] = call) -> bool | None:
            def f(key: Any) -> Any:
                integer, weak = jnp.ones((), jnp.int32) * 2, jnp.asarray(0.5)
                return call(jax, jnp, key, *((integer, weak) if int_first else (weak, integer)))
            try:
                return bool(jax.jit(f)(key).weak_type)
            except Exception:  # noqa: BLE001 - a function that does not take the pair: no measurement
                return None

        from_weak = weak_type(False)
        from_strong = weak_type(True) if arity else from_weak
        kind = "strong" if not from_weak else "propagates" if not from_strong else "weak"
        functions[name] = {"from_weak": from_weak, "from_strong": from_strong, "kind": kind}
        measured = integer()
        if measured is not None:
            functions[name]["integer"] = measured
        if arity == 2:
            for field, int_first in (("int_then_weak_float", True), ("weak_float_then_int", False)):
                weak = mixed(int_first)
                if weak is not None:
                    functions[name][field] = weak
    return {
        "schema_version": SCHEMA_VERSION,
        "framework": f"jax {jax.__version__}",
        "generated_by": "tools/generate_jax_weak_type_table.py",
        "functions": functions,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true", help="exit 1 when the file differs from a new measurement")
    args = parser.parse_args(argv)
    table = measure()
    text = json.dumps(table, indent=1, sort_keys=True) + "\n"
    if args.check:
        current = args.out.read_text() if args.out.exists() else ""
        if json.loads(current or "{}").get("functions") != table["functions"]:
            print(f"{args.out} is out of date: run tools/generate_jax_weak_type_table.py", file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text)
    print(f"wrote {args.out}: {len(table['functions'])} functions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
