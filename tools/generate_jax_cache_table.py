"""Generate xlacheck/data/jax_cache_key.json: which call-to-call differences make ``jax.jit`` trace
and compile again, measured on the installed JAX (CPU, two forced host devices).

    python tools/generate_jax_cache_table.py            # a few seconds, needs jax
    python tools/generate_jax_cache_table.py --check    # exit 1 when the file is out of date

Each probe builds its inputs first, then makes two or more calls that differ in one respect (the
``first`` and ``then`` call forms) and records, for those calls only:

* ``traces``: how many times the Python body of the jitted function ran during the ``then``
  call(s), after the first call (a counter in the body);
* ``compiles``: XLA backend compilations during the ``then`` call(s) (``jax.monitoring`` event
  ``/jax/core/compile/backend_compile_duration``);
* ``recompiles``: ``traces > 0`` or ``compiles > 0`` (the later call did not hit the cache);
* ``calls`` and ``total_compiles``: how many calls the probe makes (two, or three for the
  ``seq.*`` probes, which replay a loop: N = 3) and the XLA compilations over all of them;
* ``error``: the exception class and first line when a call raised (an unhashable static
  argument), else null;
* ``stale``: for probes that change a value the cache key does not see (a closed-over global, an
  attribute of a ``self`` marked static), whether the second call returned the first call's
  result (the compiled function kept the old value).

xlacheck reads the file through :mod:`xlacheck.jax_cache` (no JAX import there); rules
ask ``recompiles("static.new_lambda")`` instead of hard-coding what the cache does.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "xlacheck" / "data" / "jax_cache_key.json"
SCHEMA_VERSION = 1

Probe = tuple[str, str, str, Callable[[Callable[[], None]], list[Callable[[], Any]]]]
PROBES: list[Probe] = []


def probe(key: str, first: str, then: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        PROBES.append((key, first, then, fn))
        return fn
    return register


def build_probes() -> None:  # noqa: C901, PLR0915 - one flat list of probes reads best
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import lax

    x3, x4 = jnp.ones(3), jnp.ones(4)

    def jit(count: Callable[[], None], body: Callable[..., Any], **kw: Any) -> Any:
        def f(*a: Any, **k: Any) -> Any:
            count()
            return body(*a, **k)
        return jax.jit(f, **kw)

    def plain(count: Callable[[], None], **kw: Any) -> Any:
        def f(x: Any, y: Any = 1.0) -> Any:
            count()
            return x * y
        return jax.jit(f, **kw)

    # --- array shape and dtype ---------------------------------------------------------------
    @probe("shape.same", "f(jnp.ones(3))", "f(jnp.ones(3))")
    def _(c):
        f = plain(c)
        y = jnp.zeros(3) + 0
        return [lambda: f(x3), lambda: f(y)]

    @probe("shape.new_length", "f(jnp.ones(3))", "f(jnp.ones(4))")
    def _(c):
        f = plain(c)
        return [lambda: f(x3), lambda: f(x4)]

    @probe("shape.numpy_then_jax_array", "f(np.ones(3, np.float32))", "f(jnp.ones(3))")
    def _(c):
        f, a = plain(c), np.ones(3, np.float32)
        return [lambda: f(a), lambda: f(x3)]

    @probe("shape.jnp_array_of_list_new_length", "f(jnp.array([1., 2.]))", "f(jnp.array([1., 2., 3.]))")
    def _(c):
        f, a, b = plain(c), jnp.array([1.0, 2.0]), jnp.array([1.0, 2.0, 3.0])
        return [lambda: f(a), lambda: f(b)]

    @probe("dtype.float32_then_int32", "f(jnp.ones(3))", "f(jnp.ones(3, jnp.int32))")
    def _(c):
        f, b = plain(c), jnp.ones(3, jnp.int32)
        return [lambda: f(x3), lambda: f(b)]

    @probe("dtype.numpy_float64_then_float32", "f(np.ones(3))  # float64, x64 off", "f(jnp.ones(3))")
    def _(c):
        f, a = plain(c), np.ones(3)
        return [lambda: f(a), lambda: f(x3)]

    @probe("dtype.float32_then_bfloat16", "f(jnp.ones(3))", "f(jnp.ones(3, jnp.bfloat16))")
    def _(c):
        f, b = plain(c), jnp.ones(3, jnp.bfloat16)
        return [lambda: f(x3), lambda: f(b)]

    # --- weak types: Python scalars vs arrays --------------------------------------------------
    @probe("weak.python_float_new_value", "f(x, 1.0)", "f(x, 2.0)")
    def _(c):
        f = plain(c)
        return [lambda: f(x3, 1.0), lambda: f(x3, 2.0)]

    @probe("weak.python_int_then_python_float", "f(x, 1)", "f(x, 1.5)")
    def _(c):
        f = plain(c)
        return [lambda: f(x3, 1), lambda: f(x3, 1.5)]

    @probe("weak.python_float_then_float32_scalar", "f(x, 1.0)", "f(x, jnp.float32(1.0))")
    def _(c):
        f, s = plain(c), jnp.float32(1.0)
        return [lambda: f(x3, 1.0), lambda: f(x3, s)]

    @probe("weak.python_float_then_jnp_asarray", "f(x, 1.0)", "f(x, jnp.asarray(1.0))")
    def _(c):
        f, s = plain(c), jnp.asarray(1.0)
        return [lambda: f(x3, 1.0), lambda: f(x3, s)]

    @probe("weak.python_float_then_numpy_float32", "f(x, 1.0)", "f(x, np.float32(1.0))")
    def _(c):
        f, s = plain(c), np.float32(1.0)
        return [lambda: f(x3, 1.0), lambda: f(x3, s)]

    # a gradient with respect to a weakly typed input is weakly typed (a jitted Adam-style step fed
    # a Python-float leaf returns a weak gradient for it; the leaf turns strong only through a strong operand)
    @probe("weak.python_float_then_jitted_grad", "s = 0.0; f(x, s)",
           "s = jax.jit(jax.grad(h))(s)  # h(v) = jnp.sum(x) * jnp.exp(v); f(x, s)")
    def _(c):
        f = plain(c)
        s = jax.jit(jax.grad(lambda v: jnp.sum(x3) * jnp.exp(v)))(0.0)  # xlacheck: ignore[XLA404] - one setup value
        return [lambda: f(x3, 0.0), lambda: f(x3, s)]

    @probe("weak.python_float_then_jitted_result", "s = 1.0; f(x, s)", "s = g(s)  # jitted s * 0.5; f(x, s)")
    def _(c):
        f = plain(c)
        s = jax.jit(lambda v: v * 0.5)(1.0)  # xlacheck: ignore[XLA404] - one setup value
        return [lambda: f(x3, 1.0), lambda: f(x3, s)]

    @probe("weak.python_float_then_float32_array_result", "s = 1.0; f(x, s)",
           "s = g(s)  # jitted (s * 0.5).astype(jnp.float32); f(x, s)")
    def _(c):
        f = plain(c)
        s = jax.jit(lambda v: (v * 0.5).astype(jnp.float32))(1.0)  # xlacheck: ignore[XLA404] - one setup value
        return [lambda: f(x3, 1.0), lambda: f(x3, s)]

    @probe("weak.python_int_then_python_bool", "f(x, 1)", "f(x, True)")
    def _(c):
        f = plain(c)
        return [lambda: f(x3, 1), lambda: f(x3, True)]

    # --- pytree structure ----------------------------------------------------------------------
    def tree_fn(c: Callable[[], None]) -> Any:
        def total(t: Any) -> Any:
            return sum(jnp.sum(leaf) for leaf in jax.tree_util.tree_leaves(t))
        return jit(c, total)

    @probe("pytree.dict_new_key", "f({'a': x, 'b': x})", "f({'a': x})")
    def _(c):
        f = tree_fn(c)
        return [lambda: f({"a": x3, "b": x3}), lambda: f({"a": x3})]

    @probe("pytree.dict_keys_other_order", "f({'a': x, 'b': x})", "f({'b': x, 'a': x})")
    def _(c):
        f = tree_fn(c)
        return [lambda: f({"a": x3, "b": x3}), lambda: f({"b": x3, "a": x3})]

    @probe("pytree.none_then_array", "f(x, None)", "f(x, x)")
    def _(c):
        f = jit(c, lambda a, b: a if b is None else a + b)
        return [lambda: f(x3, None), lambda: f(x3, x3)]

    @probe("pytree.list_new_length", "f([x, x])", "f([x, x, x])")
    def _(c):
        f = tree_fn(c)
        return [lambda: f([x3, x3]), lambda: f([x3, x3, x3])]

    @probe("pytree.list_same_length_new_values", "f([x, x])", "f([y, y])")
    def _(c):
        f, y = tree_fn(c), x3 * 2
        return [lambda: f([x3, x3]), lambda: f([y, y])]

    @probe("pytree.tuple_then_list", "f((x, x))", "f([x, x])")
    def _(c):
        f = tree_fn(c)
        return [lambda: f((x3, x3)), lambda: f([x3, x3])]

    class Pair(NamedTuple):
        a: Any
        b: Any

    @probe("pytree.namedtuple_new_values", "f(Pair(x, x))", "f(Pair(y, y))")
    def _(c):
        f, y = tree_fn(c), x3 * 2
        return [lambda: f(Pair(x3, x3)), lambda: f(Pair(y, y))]

    @probe("pytree.namedtuple_then_tuple", "f(Pair(x, x))", "f((x, x))")
    def _(c):
        f = tree_fn(c)
        return [lambda: f(Pair(x3, x3)), lambda: f((x3, x3))]

    @probe("pytree.python_scalar_leaf_new_value", "f({'a': x, 'lr': 0.1})", "f({'a': x, 'lr': 0.2})")
    def _(c):
        f = tree_fn(c)
        return [lambda: f({"a": x3, "lr": 0.1}), lambda: f({"a": x3, "lr": 0.2})]

    # a Python-float leaf that a jitted update rebuilds with a strong operand (tree_map(lambda p, m: p - lr * m))
    @probe("pytree.python_float_leaf_then_strong_update", "f({'a': x, 's': 0.0})",
           "f({'a': x, 's': g(0.0, jnp.float32(1.0))})  # g jitted: p - 0.01 * m")
    def _(c):
        f = tree_fn(c)
        s = jax.jit(lambda p, m: p - 0.01 * m)(0.0, jnp.float32(1.0))  # xlacheck: ignore[XLA404] - one setup value
        return [lambda: f({"a": x3, "s": 0.0}), lambda: f({"a": x3, "s": s})]

    # a pytree node whose aux data (the treedef half of tree_flatten) holds a Python float: the
    # treedef is part of the cache key and is compared by equality, so a per-call float in aux data
    # retraces the way a static argument does, while the same float hits the cache
    @jax.tree_util.register_pytree_node_class
    class Scaled:
        def __init__(self, w: Any, scale: float) -> None:
            self.w, self.scale = w, scale

        def tree_flatten(self) -> Any:
            return (self.w,), (self.scale,)

        @classmethod
        def tree_unflatten(cls, aux: Any, children: Any) -> Any:
            return cls(children[0], *aux)

    def aux_fn(c: Callable[[], None]) -> Any:
        return jit(c, lambda t: jnp.sum(t.w) * t.scale)

    @probe("pytree.aux_data_float_new_value", "f(Scaled(x, 0.1))  # scale in aux data",
           "f(Scaled(x, 0.2))")
    def _(c):
        f = aux_fn(c)
        return [lambda: f(Scaled(x3, 0.1)), lambda: f(Scaled(x3, 0.2))]

    @probe("pytree.aux_data_float_same_value", "f(Scaled(x, 0.1))  # scale in aux data",
           "f(Scaled(y, 0.1))")
    def _(c):
        f, y = aux_fn(c), x3 * 2
        return [lambda: f(Scaled(x3, 0.1)), lambda: f(Scaled(y, 0.1))]

    @probe("seq.aux_data_float_new_each_call", "f(Scaled(x, 0.1))  # scale in aux data",
           "f(Scaled(x, 0.2)); f(Scaled(x, 0.3))")
    def _(c):
        f = aux_fn(c)
        return [lambda: f(Scaled(x3, 0.1)), lambda: f(Scaled(x3, 0.2)), lambda: f(Scaled(x3, 0.3))]

    # the same through jax.tree_util.register_dataclass: a meta field is aux data, a data field a leaf
    @functools.partial(jax.tree_util.register_dataclass, data_fields=["w"], meta_fields=["scale"])
    @dataclasses.dataclass
    class MetaScaled:
        w: Any
        scale: float

    @probe("pytree.dataclass_meta_field_float_new_value", "f(MetaScaled(x, 0.1))  # scale a meta field",
           "f(MetaScaled(x, 0.2))")
    def _(c):
        f = aux_fn(c)
        return [lambda: f(MetaScaled(x3, 0.1)), lambda: f(MetaScaled(x3, 0.2))]

    @functools.partial(jax.tree_util.register_dataclass, data_fields=["w", "scale"], meta_fields=[])
    @dataclasses.dataclass
    class DataScaled:
        w: Any
        scale: float

    @probe("pytree.dataclass_data_field_float_new_value", "f(DataScaled(x, 0.1))  # scale a data field",
           "f(DataScaled(x, 0.2))")
    def _(c):
        f = aux_fn(c)
        return [lambda: f(DataScaled(x3, 0.1)), lambda: f(DataScaled(x3, 0.2))]

    # NumPy scalars passed as traced arguments: a new value of the same dtype is only a new buffer
    @probe("weak.numpy_float32_new_value", "f(x, np.float32(0.1))", "f(x, np.float32(0.2))")
    def _(c):
        f = plain(c)
        return [lambda: f(x3, np.float32(0.1)), lambda: f(x3, np.float32(0.2))]

    @probe("weak.numpy_float64_new_value", "f(x, np.float64(0.1))  # x64 off", "f(x, np.float64(0.2))")
    def _(c):
        f = plain(c)
        return [lambda: f(x3, np.float64(0.1)), lambda: f(x3, np.float64(0.2))]

    @probe("weak.numpy_float32_then_python_float", "f(x, np.float32(0.1))", "f(x, 0.2)")
    def _(c):
        f = plain(c)
        return [lambda: f(x3, np.float32(0.1)), lambda: f(x3, 0.2)]

    @probe("weak.numpy_int64_then_python_int", "f(x, np.int64(3))  # x64 off", "f(x, 4)")
    def _(c):
        f = plain(c)
        return [lambda: f(x3, np.int64(3)), lambda: f(x3, 4)]

    # --- static arguments ----------------------------------------------------------------------
    def static_fn(c: Callable[[], None], **kw: Any) -> Any:
        def f(x: Any, n: Any) -> Any:
            c()
            return x * 2
        return jax.jit(f, static_argnums=1, **kw)

    def statics(key: str, first: str, then: str, a: Callable[[], Any], b: Callable[[], Any]) -> None:
        @probe(key, first, then)
        def _(c):
            f, va = static_fn(c), a()
            return [lambda: f(x3, va), lambda: f(x3, b())]

    statics("static.int_same_value", "f(x, 3)", "f(x, 3)", lambda: 3, lambda: 3)
    statics("static.int_new_value", "f(x, 3)", "f(x, 4)", lambda: 3, lambda: 4)
    statics("static.float_new_value", "f(x, 0.1)", "f(x, 0.2)", lambda: 0.1, lambda: 0.2)
    statics("static.str_new_value", "f(x, 'relu')", "f(x, 'gelu')", lambda: "relu", lambda: "gelu")
    statics("static.equal_tuple_new_object", "f(x, (1, 2))", "f(x, (1, 2))", lambda: (1, 2),
            lambda: tuple([1, 2]))
    statics("static.numpy_int_then_python_int", "f(x, np.int32(3))", "f(x, 3)", lambda: np.int32(3), lambda: 3)
    statics("static.list", "f(x, [1, 2])", "f(x, [1, 2])", lambda: [1, 2], lambda: [1, 2])
    statics("static.dict", "f(x, {'a': 1})", "f(x, {'a': 1})", lambda: {"a": 1}, lambda: {"a": 1})
    statics("static.jax_array", "f(x, jnp.array([1, 2]))", "f(x, jnp.array([1, 2]))",
            lambda: jnp.array([1, 2]), lambda: jnp.array([1, 2]))
    statics("static.numpy_array", "f(x, np.array([1, 2]))", "f(x, np.array([1, 2]))",
            lambda: np.array([1, 2]), lambda: np.array([1, 2]))

    class Transform(NamedTuple):
        init: Any
        update: Any

    def momentum(lr: float) -> Transform:
        def init(p: Any) -> Any:
            return p * 0

        def update(g: Any) -> Any:
            return -lr * g
        return Transform(init, update)

    # an optax-style NamedTuple of closures a factory makes per call: equal-looking, unequal keys
    statics("static.namedtuple_of_new_closures", "f(x, momentum(0.1))  # NamedTuple of closures",
            "f(x, momentum(0.1))", lambda: momentum(0.1), lambda: momentum(0.1))

    # --- a traced argument hashed by the body (XLA118): the trace itself raises ---------------------
    scales = {0: 1.0, 1: 0.5}

    @probe("hash.traced_dict_key", "f(x, 0)  # body reads SCALES[k], k traced", "f(x, 1)")
    def _(c):
        f = jit(c, lambda v, k: v * scales[k])
        return [lambda: f(x3, 0), lambda: f(x3, 1)]

    @probe("hash.traced_set_membership", "f(x, 0)  # body tests k in {0, 1}, k traced", "f(x, 1)")
    def _(c):
        f = jit(c, lambda v, k: v * (2.0 if k in {0, 1} else 1.0))
        return [lambda: f(x3, 0), lambda: f(x3, 1)]

    @probe("hash.traced_lru_cache_argument", "f(x, 0)  # body calls an lru_cache helper with k traced", "f(x, 1)")
    def _(c):
        decay = functools.lru_cache(maxsize=None)(lambda n: 1.0 / (n + 1.0))
        f = jit(c, lambda v, k: v * decay(k))
        return [lambda: f(x3, 0), lambda: f(x3, 1)]

    @probe("hash.static_dict_key", "f(x, 0)  # body reads SCALES[k], k static", "f(x, 1)")
    def _(c):
        f = jit(c, lambda v, k: v * scales[k], static_argnums=1)
        return [lambda: f(x3, 0), lambda: f(x3, 1)]

    class Plain:
        def __init__(self, k: float = 2.0) -> None:
            self.k = k

        def scale(self, v: Any) -> Any:
            return v * self.k

    @dataclasses.dataclass(frozen=True)
    class Frozen:
        k: float = 2.0

    @dataclasses.dataclass
    class EqDataclass:
        k: float = 2.0

    class Hashed:
        def __init__(self, k: float = 2.0) -> None:
            self.k = k

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Hashed) and other.k == self.k

        def __hash__(self) -> int:
            return hash(self.k)

    def g(v: Any, k: float = 2.0) -> Any:
        return v * k

    statics("static.new_plain_object", "f(x, Plain())", "f(x, Plain())", Plain, Plain)
    statics("static.same_plain_object", "o = Plain(); f(x, o)", "f(x, o)", lambda: shared_plain,
            lambda: shared_plain)
    statics("static.equal_frozen_dataclass_new_object", "f(x, Frozen(2.0))", "f(x, Frozen(2.0))", Frozen, Frozen)
    statics("static.eq_dataclass", "f(x, EqDataclass())", "f(x, EqDataclass())", EqDataclass, EqDataclass)
    statics("static.equal_object_with_eq_and_hash", "f(x, Hashed(2.0))", "f(x, Hashed(2.0))", Hashed, Hashed)
    statics("static.same_function", "f(x, g)", "f(x, g)", lambda: g, lambda: g)
    statics("static.new_lambda", "f(x, lambda v: v * 2)", "f(x, lambda v: v * 2)",
            lambda: (lambda v: v * 2), lambda: (lambda v: v * 2))

    def local_def() -> Any:
        def h(v: Any) -> Any:
            return v * 2
        return h

    statics("static.new_local_def", "def h(v): ...; f(x, h)  # per call", "def h(v): ...; f(x, h)", local_def,
            local_def)
    statics("static.new_partial", "f(x, partial(g, k=2.0))", "f(x, partial(g, k=2.0))",
            lambda: functools.partial(g, k=2.0), lambda: functools.partial(g, k=2.0))
    statics("static.bound_method_same_instance", "f(x, o.scale)", "f(x, o.scale)", lambda: shared_plain.scale,
            lambda: shared_plain.scale)
    statics("static.bound_method_new_instance", "f(x, Plain().scale)", "f(x, Plain().scale)",
            lambda: Plain().scale, lambda: Plain().scale)
    shared_plain = Plain()

    @probe("static.positional_then_keyword", "f(x, 3)  # static_argnames=('n',)", "f(x, n=3)")
    def _(c):
        def f(x: Any, n: Any) -> Any:
            c()
            return x * n
        j = jax.jit(f, static_argnames=("n",))
        return [lambda: j(x3, 3), lambda: j(x3, n=3)]

    @probe("static.self_attribute_mutated", "o.k = 2.0; o.apply(x)  # static_argnums=0, identity hash",
           "o.k = 3.0; o.apply(x)")
    def _(c):
        class Scaler:
            def __init__(self) -> None:
                self.k = 2.0

            @functools.partial(jax.jit, static_argnums=0)
            def apply(self, v: Any) -> Any:
                c()
                return v * self.k

        o = Scaler()

        def second() -> Any:
            o.k = 3.0
            return o.apply(x3)
        return [lambda: o.apply(x3), second]

    @probe("static.hash_and_eq_by_type_new_data", "f(S(0.1), x)  # static_argnums=0; S hashes and compares by type",
           "f(S(0.5), x)  # other data, equal by S's __eq__")
    def _(c):
        class ByType:
            def __init__(self, k: float) -> None:
                self.k = k

            def __hash__(self) -> int:
                return hash(type(self).__name__)

            def __eq__(self, other: object) -> bool:
                return type(self) is type(other)

        f = jit(c, lambda s, v: v * s.k, static_argnums=0)
        return [lambda: f(ByType(0.1), x3), lambda: f(ByType(0.5), x3)]

    # --- the callable jax.jit wraps --------------------------------------------------------------
    def counted_g(c: Callable[[], None]) -> Callable[[Any], Any]:
        def gg(v: Any) -> Any:
            c()
            return v * 2
        return gg

    @probe("wrap.same_function_rewrapped", "jax.jit(g)(x)", "jax.jit(g)(x)  # a new jit object of the same g")
    def _(c):
        gg = counted_g(c)
        return [lambda: jax.jit(gg)(x3), lambda: jax.jit(gg)(x3)]

    @probe("wrap.new_lambda", "jax.jit(lambda v: v * 2)(x)", "jax.jit(lambda v: v * 2)(x)  # per call")
    def _(c):
        def call() -> Any:
            return jax.jit(lambda v: (c(), v * 2)[1])(x3)  # xlacheck: ignore[XLA404] - the hazard this probe measures
        return [call, call]

    @probe("wrap.new_local_def", "def step(v): ...; jax.jit(step)(x)  # per call", "the same, next call")
    def _(c):
        def call() -> Any:
            def step(v: Any) -> Any:
                c()
                return v * 2
            return jax.jit(step)(x3)  # xlacheck: ignore[XLA404] - the hazard this probe measures
        return [call, call]

    @probe("wrap.new_partial", "jax.jit(partial(g, k=2.0))(x)", "the same, next call")
    def _(c):
        gg = counted_g(c)

        def h(v: Any, k: float) -> Any:
            return gg(v) * k
        return [lambda: jax.jit(functools.partial(h, k=2.0))(x3), lambda: jax.jit(functools.partial(h, k=2.0))(x3)]

    @probe("wrap.bound_method_same_instance", "jax.jit(o.m)(x)", "jax.jit(o.m)(x)")
    def _(c):
        class M:
            def m(self, v: Any) -> Any:
                c()
                return v * 2
        o = M()
        return [lambda: jax.jit(o.m)(x3), lambda: jax.jit(o.m)(x3)]

    @probe("wrap.bound_method_new_instance", "jax.jit(M().m)(x)", "jax.jit(M().m)(x)")
    def _(c):
        class M:
            def m(self, v: Any) -> Any:
                c()
                return v * 2
        return [lambda: jax.jit(M().m)(x3), lambda: jax.jit(M().m)(x3)]

    @probe("wrap.closure_global_changes", "SCALE = 2.0; f(x)  # f reads global SCALE",
           "SCALE = 3.0; f(x)")
    def _(c):
        box = {"scale": 2.0}
        f = jit(c, lambda v: v * box["scale"])

        def second() -> Any:
            box["scale"] = 3.0
            return f(x3)
        return [lambda: f(x3), second]

    @probe("wrap.under_vmap", "jax.vmap(f)(xs)", "jax.vmap(f)(xs)")
    def _(c):
        f, xs = plain(c), jnp.ones((2, 3))
        return [lambda: jax.vmap(f)(xs), lambda: jax.vmap(f)(xs)]

    @probe("wrap.under_grad", "jax.grad(f)(x)", "jax.grad(f)(x)  # f = jax.jit(lambda v: sum(v * 2))")
    def _(c):
        f = jit(c, lambda v: jnp.sum(v * 2))
        return [lambda: jax.grad(f)(x3), lambda: jax.grad(f)(x3)]

    # --- how the call is spelled -----------------------------------------------------------------
    @probe("call.positional_then_keyword", "f(x, y)", "f(x, y=y)")
    def _(c):
        f, y = plain(c), jnp.float32(2.0)
        return [lambda: f(x3, y), lambda: f(x3, y=y)]

    @probe("call.default_then_explicit", "f(x)  # y=1.0 default", "f(x, 1.0)")
    def _(c):
        f = plain(c)
        return [lambda: f(x3), lambda: f(x3, 1.0)]

    @probe("call.donate_same_shape", "f(x)  # donate_argnums=0", "f(x2)")
    def _(c):
        f = jit(c, lambda v: v * 2, donate_argnums=0)
        a, b = jnp.ones(3) + 0, jnp.ones(3) + 0
        return [lambda: f(a), lambda: f(b)]

    # --- devices ---------------------------------------------------------------------------------
    devices = jax.devices()

    @probe("device.other_committed_device", "f(device_put(x, devices[0]))", "f(device_put(x, devices[1]))")
    def _(c):
        f = plain(c)
        a = jax.device_put(np.ones(3, np.float32), devices[0])
        b = jax.device_put(np.ones(3, np.float32), devices[-1])
        return [lambda: f(a), lambda: f(b)]

    @probe("device.uncommitted_then_committed_default", "f(jnp.ones(3))",
           "f(device_put(x, devices[0]))  # same device, committed")
    def _(c):
        f = plain(c)
        b = jax.device_put(np.ones(3, np.float32), devices[0])
        return [lambda: f(x3), lambda: f(b)]

    # --- Python ints that size or index ------------------------------------------------------------
    @probe("index.python_int_traced_index", "f(x, 1)  # x[i]", "f(x, 2)")
    def _(c):
        f = jit(c, lambda v, i: v[i])
        return [lambda: f(x3, 1), lambda: f(x3, 2)]

    @probe("index.static_slice_stop", "f(x, 1)  # x[:n], n static", "f(x, 2)")
    def _(c):
        f = jit(c, lambda v, n: v[:n], static_argnums=1)
        return [lambda: f(x3, 1), lambda: f(x3, 2)]

    @probe("loop.fori_loop_traced_upper", "f(x, 3)  # lax.fori_loop(0, n, ...)", "f(x, 5)")
    def _(c):
        f = jit(c, lambda v, n: lax.fori_loop(0, n, lambda i, a: a + 1.0, v))
        return [lambda: f(x3, 3), lambda: f(x3, 5)]

    @probe("loop.scan_static_length", "f(x, 3)  # lax.scan(..., length=n), n static", "f(x, 5)")
    def _(c):
        f = jit(c, lambda v, n: lax.scan(lambda a, _: (a + 1.0, None), v, None, length=n)[0], static_argnums=1)
        return [lambda: f(x3, 3), lambda: f(x3, 5)]

    # --- three calls in a row (N = 3): the patterns of real loops ---------------------------------
    # Each probe below makes three calls; ``traces``/``compiles`` count the second and third, and
    # ``total_compiles`` all three, so a per-call miss reads 2 and a hit-after-warm-up reads 0.
    def sized_body(c: Callable[[], None]) -> Callable[[Any, Any], Any]:
        def f(key: Any, n: Any) -> Any:
            c()
            return jax.random.normal(key, (n,)).mean()
        return f

    def sized(c: Callable[[], None]) -> Any:
        return jax.jit(sized_body(c), static_argnums=1)

    key0 = jax.random.PRNGKey(0)

    @probe("seq.static_size_new_each_call", "f(key, 3)  # static_argnums=1, (n,) a shape",
           "f(key, 4); f(key, 5)")
    def _(c):
        f = sized(c)
        return [lambda: f(key0, 3), lambda: f(key0, 4), lambda: f(key0, 5)]

    @probe("seq.static_size_same_each_call", "f(key, 4)  # static_argnums=1, (n,) a shape",
           "f(key, 4); f(key, 4)")
    def _(c):
        f = sized(c)
        return [lambda: f(key0, 4), lambda: f(key0, 4), lambda: f(key0, 4)]

    @probe("seq.partial_jit_static_argnames_new_each_call",
           "@partial(jax.jit, static_argnames=('n',)) f(key, n=3)", "f(key, n=4); f(key, n=5)")
    def _(c):
        f = functools.partial(jax.jit, static_argnames=("n",))(sized_body(c))
        return [lambda: f(key0, n=3), lambda: f(key0, n=4), lambda: f(key0, n=5)]

    @probe("seq.python_float_new_each_call", "f(x, 0.1)  # traced, weak float", "f(x, 0.2); f(x, 0.3)")
    def _(c):
        f = plain(c)
        return [lambda: f(x3, 0.1), lambda: f(x3, 0.2), lambda: f(x3, 0.3)]

    @probe("seq.python_int_new_each_call", "f(x, 1)  # traced, weak int", "f(x, 2); f(x, 3)")
    def _(c):
        f = plain(c)
        return [lambda: f(x3, 1), lambda: f(x3, 2), lambda: f(x3, 3)]

    @probe("seq.python_bool_alternating", "f(x, True)  # traced, bool", "f(x, False); f(x, True)")
    def _(c):
        f = jit(c, lambda v, b: jnp.where(b, v, -v))
        return [lambda: f(x3, True), lambda: f(x3, False), lambda: f(x3, True)]

    @probe("seq.batch_length_per_batch", "f(ones((2, 5)))  # unpadded batches", "f(ones((2, 7))); f(ones((2, 3)))")
    def _(c):
        f = jit(c, lambda ids: jnp.mean(ids, axis=1))
        b = [jnp.ones((2, 5)), jnp.ones((2, 7)), jnp.ones((2, 3))]
        return [lambda: f(b[0]), lambda: f(b[1]), lambda: f(b[2])]

    @probe("seq.last_partial_batch", "f(ones((8, 4)))", "f(ones((8, 4))); f(ones((5, 4)))  # the last batch")
    def _(c):
        f = jit(c, lambda v: v.sum(0))
        b = [jnp.ones((8, 4)), jnp.ones((8, 4)) * 2, jnp.ones((5, 4))]
        return [lambda: f(b[0]), lambda: f(b[1]), lambda: f(b[2])]

    @probe("seq.growing_carry", "out = f(x)  # concatenates a row", "out = f(out); out = f(out)")
    def _(c):
        f = jit(c, lambda v: jnp.concatenate([v, v[-1:]]))
        state: list[Any] = [x3]

        def step() -> Any:
            state[0] = f(state[0])
            return state[0]
        return [step, step, step]

    @probe("seq.dtype_int32_then_int64_under_x64", "f(jnp.ones(3, int32))  # jax_enable_x64",
           "f(jnp.ones(3, int64)); f(jnp.ones(3, int32))")
    def _(c):
        f = jit(c, lambda v: v * 2)
        with jax.enable_x64(True):
            i32, i64 = np.ones(3, np.int32), np.ones(3, np.int64)

        def call(v: Any) -> Any:
            with jax.enable_x64(True):
                return f(v)
        return [lambda: call(i32), lambda: call(i64), lambda: call(i32)]

    @probe("seq.weak_then_strong_scalar", "f(x, 1.0)", "f(x, jnp.float32(1.0)); f(x, 2.0)")
    def _(c):
        f = plain(c)
        return [lambda: f(x3, 1.0), lambda: f(x3, jnp.float32(1.0)), lambda: f(x3, 2.0)]

    @probe("seq.dict_keys_change", "f({'a': x})", "f({'a': x, 'b': x}); f({'a': x})")
    def _(c):
        f = tree_fn(c)
        return [lambda: f({"a": x3}), lambda: f({"a": x3, "b": x3}), lambda: f({"a": x3})]

    @probe("seq.optional_none_then_array", "f(x, None)", "f(x, x); f(x, x)")
    def _(c):
        f = jit(c, lambda a, b: a if b is None else a + b)
        return [lambda: f(x3, None), lambda: f(x3, x3), lambda: f(x3, x3)]

    @probe("seq.jit_lambda_in_function_called_in_loop", "def step(x): return jax.jit(lambda v: v * 2)(x)",
           "step(x); step(x)  # a new lambda each call")
    def _(c):
        def step(v: Any) -> Any:
            return jax.jit(lambda u: (c(), u * 2)[1])(v)  # xlacheck: ignore[XLA404] - the hazard this probe measures
        return [lambda: step(x3), lambda: step(x3), lambda: step(x3)]

    @probe("seq.jit_module_function_in_function_called_in_loop", "def step(x): return jax.jit(g)(x)  # g global",
           "step(x); step(x)  # the same g each call")
    def _(c):
        gg = counted_g(c)

        def step(v: Any) -> Any:
            return jax.jit(gg)(v)
        return [lambda: step(x3), lambda: step(x3), lambda: step(x3)]

    @probe("seq.jit_of_closure_over_new_value", "def make(k): return jax.jit(lambda v: v * k); make(1.0)(x)",
           "make(2.0)(x); make(3.0)(x)")
    def _(c):
        def make(k: float) -> Any:
            return jax.jit(lambda v: (c(), v * k)[1])
        return [lambda: make(1.0)(x3), lambda: make(2.0)(x3), lambda: make(3.0)(x3)]

    @probe("seq.jit_of_new_partial_per_call", "jax.jit(partial(g, k=1.0))(x)",
           "jax.jit(partial(g, k=2.0))(x); jax.jit(partial(g, k=3.0))(x)")
    def _(c):
        def gk(v: Any, k: float) -> Any:
            c()
            return v * k
        return [lambda: jax.jit(functools.partial(gk, k=1.0))(x3),
                lambda: jax.jit(functools.partial(gk, k=2.0))(x3),
                lambda: jax.jit(functools.partial(gk, k=3.0))(x3)]

    @probe("seq.jit_of_new_vmap_per_call", "jax.jit(jax.vmap(g))(xs)", "the same, twice more")
    def _(c):
        gg, xs = counted_g(c), jnp.ones((2, 3))
        return [lambda: jax.jit(jax.vmap(gg))(xs), lambda: jax.jit(jax.vmap(gg))(xs),
                lambda: jax.jit(jax.vmap(gg))(xs)]

    @probe("seq.jit_of_new_grad_per_call", "jax.jit(jax.grad(g))(x)", "the same, twice more")
    def _(c):
        def loss(v: Any) -> Any:
            c()
            return jnp.sum(v * 2)
        return [lambda: jax.jit(jax.grad(loss))(x3), lambda: jax.jit(jax.grad(loss))(x3),
                lambda: jax.jit(jax.grad(loss))(x3)]

    @probe("seq.jit_of_new_value_and_grad_per_call", "jax.jit(jax.value_and_grad(g))(x)", "the same, twice more")
    def _(c):
        def loss(v: Any) -> Any:
            c()
            return jnp.sum(v * 2)
        return [lambda: jax.jit(jax.value_and_grad(loss))(x3), lambda: jax.jit(jax.value_and_grad(loss))(x3),
                lambda: jax.jit(jax.value_and_grad(loss))(x3)]

    def loss3(c: Callable[[], None]) -> Callable[[Any], Any]:
        def loss(v: Any) -> Any:
            c()
            return jnp.sum(v * v)
        return loss

    @probe("seq.jit_of_new_jacrev_per_call", "jax.jit(jax.jacrev(g))(x)", "the same, twice more")
    def _(c):
        loss = loss3(c)
        return [lambda: jax.jit(jax.jacrev(loss))(x3) for _ in range(3)]

    @probe("seq.jit_of_new_hessian_per_call", "jax.jit(jax.hessian(g))(x)", "the same, twice more")
    def _(c):
        loss = loss3(c)
        return [lambda: jax.jit(jax.hessian(loss))(x3) for _ in range(3)]

    @probe("seq.jit_of_new_checkpoint_per_call", "jax.jit(jax.checkpoint(g))(x)", "the same, twice more")
    def _(c):
        loss = loss3(c)
        return [lambda: jax.jit(jax.checkpoint(loss))(x3) for _ in range(3)]

    @probe("seq.pmap_of_new_grad_per_call", "jax.pmap(jax.grad(g))(xs)", "the same, twice more")
    def _(c):
        loss, xs = loss3(c), jnp.ones((len(devices), 3))
        return [lambda: jax.pmap(jax.grad(loss))(xs) for _ in range(3)]

    @probe("seq.pmap_same_function_rewrapped", "jax.pmap(g)(xs)", "jax.pmap(g)(xs)  # twice more, same g")
    def _(c):
        gg, xs = counted_g(c), jnp.ones((len(devices), 3))
        return [lambda: jax.pmap(gg)(xs), lambda: jax.pmap(gg)(xs), lambda: jax.pmap(gg)(xs)]

    @probe("seq.pmap_new_lambda_per_call", "jax.pmap(lambda v: v * 2)(xs)", "the same, twice more")
    def _(c):
        xs = jnp.ones((len(devices), 3))

        def call() -> Any:
            return jax.pmap(lambda v: (c(), v * 2)[1])(xs)  # xlacheck: ignore[XLA404] - the hazard this probe measures
        return [call, call, call]

    @probe("seq.bound_method_jitted_per_instance", "jax.jit(M().m)(x)  # a new instance per call",
           "the same, twice more")
    def _(c):
        class M:
            def m(self, v: Any) -> Any:
                c()
                return v * 2
        return [lambda: jax.jit(M().m)(x3), lambda: jax.jit(M().m)(x3), lambda: jax.jit(M().m)(x3)]

    @probe("seq.donated_carry", "x = f(x)  # donate_argnums=0", "x = f(x); x = f(x)")
    def _(c):
        f = jit(c, lambda v: v * 2, donate_argnums=0)
        state: list[Any] = [jnp.ones(3) + 0]

        def step() -> Any:
            state[0] = f(state[0])
            return state[0]
        return [step, step, step]

    @probe("seq.scan_length_static_new_each_call", "f(x, 3)  # lax.scan(length=n), n static",
           "f(x, 4); f(x, 5)")
    def _(c):
        f = jit(c, lambda v, n: lax.scan(lambda a, _: (a + 1.0, None), v, None, length=n)[0], static_argnums=1)
        return [lambda: f(x3, 3), lambda: f(x3, 4), lambda: f(x3, 5)]

    @probe("seq.scan_length_from_traced_int", "f(x, 3)  # lax.scan(length=n), n traced", "f(x, 4); f(x, 5)")
    def _(c):
        f = jit(c, lambda v, n: lax.scan(lambda a, _: (a + 1.0, None), v, None, length=n)[0])
        return [lambda: f(x3, 3), lambda: f(x3, 4), lambda: f(x3, 5)]

    @probe("seq.python_range_over_static_new_each_call", "f(x, 2)  # for _ in range(n): unrolled, n static",
           "f(x, 3); f(x, 4)")
    def _(c):
        def body(v: Any, n: int) -> Any:
            for _ in range(n):
                v = v * 2
            return v
        f = jit(c, body, static_argnums=1)
        return [lambda: f(x3, 2), lambda: f(x3, 3), lambda: f(x3, 4)]

    @probe("seq.vmap_under_jit_new_batch", "jax.jit(jax.vmap(g))(ones((2, 3)))",
           "the same jitted vmap on ones((3, 3)), ones((4, 3))")
    def _(c):
        f = jax.jit(jax.vmap(counted_g(c)))
        b = [jnp.ones((2, 3)), jnp.ones((3, 3)), jnp.ones((4, 3))]
        return [lambda: f(b[0]), lambda: f(b[1]), lambda: f(b[2])]

    # --- functions returned by a transformation, passed to a jitted function (jax#3755) ------
    @probe("seq.vjp_pullback_as_argument_per_call", "_, pb = jax.vjp(g, x); f(pb, 1.0)  # a new pullback",
           "the same with a new x of the same shape, twice more")
    def _(c):
        f = jit(c, lambda pb, t: pb(t)[0])
        xs = [jnp.ones(3), jnp.ones(3) * 2.0, jnp.ones(3) * 3.0]

        def energy(u: Any) -> Any:  # one function object: only the pullback is new per call
            return jnp.sum(jnp.sin(u) * u)

        def call(v: Any) -> Any:
            _, pb = jax.vjp(energy, v)
            return f(pb, 1.0)
        return [lambda: call(xs[0]), lambda: call(xs[1]), lambda: call(xs[2])]

    @probe("seq.vjp_pullback_reused_as_argument", "_, pb = jax.vjp(g, x); f(pb, 1.0)  # built once",
           "f(pb, 2.0); f(pb, 3.0)  # the same pullback object")
    def _(c):
        f = jit(c, lambda pb, t: pb(t)[0])
        _, pb = jax.vjp(lambda u: jnp.sum(jnp.sin(u) * u), jnp.ones(3))
        return [lambda: f(pb, 1.0), lambda: f(pb, 2.0), lambda: f(pb, 3.0)]

    @probe("seq.linearize_jvp_as_argument_per_call", "_, jvp = jax.linearize(g, x); f(jvp, t)  # a new jvp",
           "the same with a new x of the same shape, twice more")
    def _(c):
        f = jit(c, lambda fn, t: fn(t))
        xs = [jnp.ones(3), jnp.ones(3) * 2.0, jnp.ones(3) * 3.0]

        def wave(u: Any) -> Any:
            return jnp.sin(u) * u

        def call(v: Any) -> Any:
            _, jvp = jax.linearize(wave, v)
            return f(jvp, jnp.ones(3))
        return [lambda: call(xs[0]), lambda: call(xs[1]), lambda: call(xs[2])]

    # --- eager (un-jitted) jax.numpy ops: compiled per new operand shape ----------------------
    @probe("eager.stack_list_new_length", "jnp.stack([x] * 1)  # not jitted",
           "jnp.stack([x] * 2); jnp.stack([x] * 3)  # a list of a new length per call")
    def _(c):
        return [lambda: jnp.stack([x3] * 1), lambda: jnp.stack([x3] * 2), lambda: jnp.stack([x3] * 3)]

    @probe("eager.concatenate_grown_accumulator", "acc = jnp.concatenate([acc, x])  # not jitted, host loop",
           "the same twice more: acc one row longer each time")
    def _(c):
        acc: list[Any] = [jnp.zeros((1, 5))]
        row = jnp.ones((1, 5))

        def grow() -> Any:
            acc[0] = jnp.concatenate([acc[0], row])
            return acc[0]
        return [grow, grow, grow]

    @probe("eager.stack_list_same_length", "jnp.stack([x, x])  # not jitted",
           "jnp.stack([y, y]); jnp.stack([z, z])  # new values, same length and shape")
    def _(c):
        ys = [jnp.ones(3) * k for k in (5.0, 6.0, 7.0)]
        return [lambda: jnp.stack([ys[0]] * 2), lambda: jnp.stack([ys[1]] * 2), lambda: jnp.stack([ys[2]] * 2)]

    @probe("eager.mean_new_shape", "jnp.mean(jnp.ones((2, 3)), axis=1)  # not jitted",
           "the same on ones((2, 5)), ones((2, 7))")
    def _(c):
        b = [jnp.ones((2, 3)), jnp.ones((2, 5)), jnp.ones((2, 7))]
        return [lambda: jnp.mean(b[0], axis=1), lambda: jnp.mean(b[1], axis=1), lambda: jnp.mean(b[2], axis=1)]

    # --- eager (un-jitted) lax control flow: traced and compiled per body function object ------------
    # lax.while_loop/scan/fori_loop/cond outside jit trace their body to a jaxpr cached on the body
    # function object, and compile that jaxpr; a body defined in the calling function is a new object
    # on every call (optax#1171: an L-BFGS line search run eagerly per step). ``c`` counts body traces.
    def solver(c: Callable[[], None], loop: str) -> Callable[[Any, float], Any]:
        def solve(v: Any, k: float) -> Any:  # the body is defined anew on every call of solve
            def body(s: Any) -> Any:
                c()
                return (s[0] * k, s[1] + 1)

            def scan_body(a: Any, row: Any) -> Any:
                c()
                return a * k + row, a

            def fori_body(i: Any, a: Any) -> Any:
                c()
                return a * k

            def branch(a: Any) -> Any:
                c()
                return a * k
            if loop == "while_loop":
                return lax.while_loop(lambda s: s[1] < 3, body, (v, 0))[0]
            if loop == "scan":
                return lax.scan(scan_body, v, jnp.ones((3, 3)))[0]
            if loop == "fori_loop":
                return lax.fori_loop(0, 3, fori_body, v)
            return lax.cond(v[0] > 0, branch, lambda a: a, v)
        return solve

    for loop in ("while_loop", "scan", "fori_loop", "cond"):
        @probe(f"eager.{loop}_new_body_per_call", f"solve(x, 0.5)  # not jitted: lax.{loop} of a body defined in solve",
               "solve(x, 0.6); solve(x, 0.7)  # a new body function object per call")
        def _(c, loop=loop):
            solve = solver(c, loop)
            return [lambda: solve(x3, 0.5), lambda: solve(x3, 0.6), lambda: solve(x3, 0.7)]

    @probe("eager.while_loop_same_body", "lax.while_loop(cond, body, (x, 0))  # not jitted, module-level body",
           "the same twice more: one body function object")
    def _(c):
        def body(s: Any) -> Any:
            c()
            return (s[0] * 0.5, s[1] + 1)

        def cond(s: Any) -> Any:
            return s[1] < 3
        return [lambda: lax.while_loop(cond, body, (x3, 0))[0] for _ in range(3)]

    @probe("eager.scan_same_body", "lax.scan(body, x, xs)  # not jitted, module-level body",
           "the same twice more: one body function object")
    def _(c):
        def body(a: Any, row: Any) -> Any:
            c()
            return a * 0.5 + row, a
        rows = jnp.ones((3, 3))
        return [lambda: lax.scan(body, x3, rows)[0] for _ in range(3)]

    @probe("eager.while_loop_new_body_under_jit", "f(x, 0.5)  # jax.jit(solve): the new body is traced inside f",
           "f(x, 0.6); f(x, 0.7)  # f's cache hit: the body is not traced again")
    def _(c):
        f = jax.jit(solver(c, "while_loop"))
        return [lambda: f(x3, 0.5), lambda: f(x3, 0.6), lambda: f(x3, 0.7)]

    @probe("wrap.stored_bound_method_attribute_changes",
           "o.f = jax.jit(o.m) once; o.k = 2.0; o.f(x)  # m reads self.k",
           "o.k = 3.0; o.f(x)  # the same jitted object")
    def _(c):
        class Sampler:
            def __init__(self) -> None:
                self.k = 2.0
                self.f = jax.jit(self.m)

            def m(self, v: Any) -> Any:
                c()
                return v * self.k

        o = Sampler()

        def second() -> Any:
            o.k = 3.0
            return o.f(x3)
        return [lambda: o.f(x3), second]

    @probe("eager.power_concrete_int_exponent_new_value",
           "0.9 ** count  # not jitted, count = jnp.asarray(1, jnp.int32)",
           "the same with count 2, then 3  # integer_pow bakes the exponent in")
    def _(c):
        counts = [jnp.asarray(n, jnp.int32) for n in (1, 2, 3)]
        return [lambda n=n: 0.9 ** n for n in counts]


def measure() -> dict[str, Any]:
    if "jax" in sys.modules:
        raise RuntimeError("measure() sets the device count: run it in a process that has not imported jax")
    flags = os.environ.get("XLA_FLAGS", "")
    os.environ["XLA_FLAGS"] = f"{flags} --xla_force_host_platform_device_count=2".strip()
    os.environ["JAX_PLATFORMS"] = "cpu"
    import jax
    from jax import monitoring

    compiles = [0]

    def listener(event: str, duration_secs: float, **_: str | int) -> None:
        if event == "/jax/core/compile/backend_compile_duration":
            compiles[0] += 1

    monitoring.register_event_duration_secs_listener(listener)
    build_probes()
    out: dict[str, Any] = {}
    for key, first_form, then_form, make in PROBES:
        traces = [0]

        def count(traces: list[int] = traces) -> None:
            traces[0] += 1

        calls = make(count)
        results: list[Any] = []
        error = None
        first = (0, 0)
        for i, call in enumerate(calls):
            if i == 1:
                first = (traces[0], compiles[0])
            if i == 0:
                compiles[0] = 0
            try:
                results.append(call())
            except Exception as e:  # noqa: BLE001 - the error is the measurement
                error = f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"
                break
            jax.block_until_ready(results[-1])
        then = (traces[0] - first[0], compiles[0] - first[1]) if error is None else (0, 0)
        entry: dict[str, Any] = {
            "first": first_form, "then": then_form, "traces": then[0], "compiles": then[1],
            "recompiles": error is None and then != (0, 0), "error": error,
            "calls": len(calls), "total_compiles": compiles[0] if error is None else None,
        }
        if key in ("static.self_attribute_mutated", "wrap.closure_global_changes",
                   "static.hash_and_eq_by_type_new_data", "wrap.stored_bound_method_attribute_changes"):
            entry["stale"] = bool((results[0] == results[1]).all())
        out[key] = entry
    return {"schema_version": SCHEMA_VERSION, "jax_version": jax.__version__, "backend": jax.default_backend(),
            "devices": len(jax.devices()), "probes": out}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true", help="compare with --out instead of writing it")
    args = parser.parse_args(argv)
    table = measure()
    text = json.dumps(table, indent=1, sort_keys=True) + "\n"
    if args.check:
        old = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if old != text:
            stored = json.loads(old)["probes"] if old else {}
            differ = sorted(k for k in set(stored) | set(table["probes"]) if stored.get(k) != table["probes"].get(k))
            print(f"{args.out}: out of date (probes {', '.join(differ) or 'none'}; jax {table['jax_version']}); "
                  "run python tools/generate_jax_cache_table.py", file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({len(table['probes'])} probes, jax {table['jax_version']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
