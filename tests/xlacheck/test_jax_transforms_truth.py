"""Values that reach a trace through JAX transformations, pytree maps, reductions in helpers, packed
array-method arguments and the newly probed lax/jnp size arguments, checked against jax itself: each
snippet is linted as a plain file (no declaration), then run; a flagged one must fail while tracing,
an unflagged one must run. Written here (jax15), not copied from a case. Skipped without JAX."""

from __future__ import annotations

import os
import textwrap

import pytest

os.environ.setdefault("JAX_PLATFORMS", "cpu")
jax = pytest.importorskip("jax")

from xlacheck.engine import check_source  # noqa: E402

_HEAD = "import jax\nimport jax.numpy as jnp\nfrom jax import lax\nfrom functools import partial\n"

_LOSS = """
        def loss(w, x):
            l = jnp.mean((x @ w) ** 2)
            if l > 10.0:
                l = jnp.sqrt(l)
            return l
"""

# name -> (source defining run(), the code expected, or None for no finding)
SNIPPETS: dict[str, tuple[str, str | None]] = {
    "vmap_body_under_jit": ("""
        def per_example(x):
            if x.sum() > 0:
                return x
            return -x

        @jax.jit
        def run(xs):
            return jax.vmap(per_example)(xs)
        """, "XLA101"),
    "grad_of_loss_under_jit": (_LOSS + """
        @jax.jit
        def run(w, x):
            return w - 0.1 * jax.grad(loss)(w, x)
        """, "XLA101"),
    # grad alone keeps concrete primal values: Python control flow works
    "grad_of_loss_eager": (_LOSS + """
        def run(w, x):
            return w - 0.1 * jax.grad(loss)(w, x)
        """, None),
    "vmap_decorated": ("""
        @jax.vmap
        def per_example(x):
            if x.sum() > 0:
                return x
            return -x

        def run(xs):
            return per_example(xs)
        """, "XLA101"),
    # an in_axes=None argument is passed through: the Python int stays one
    "vmap_in_axes_none_under_jit": ("""
        def scaled(x, n):
            if n > 2:
                return x * 2
            return x

        @jax.jit
        def run(xs):
            return jax.vmap(scaled, in_axes=(0, None))(xs, 3)
        """, None),
    "tree_map_named_function": ("""
        def shrink(g):
            if jnp.abs(g).max() > 1.0:
                return g * 0.5
            return g

        @jax.jit
        def run(grads):
            return jax.tree.map(shrink, grads)
        """, "XLA101"),
    "helper_count_sizes_a_shape": ("""
        def count(mask):
            return mask.sum()

        @jax.jit
        def run(mask):
            return jnp.full((count(mask),), 1.0)
        """, "XLA207"),
    "reshape_packed_traced_dim": ("""
        @jax.jit
        def run(x, lengths):
            return x.reshape(lengths.shape[0], jnp.max(lengths))
        """, "XLA207"),
    "reshape_packed_static_dims": ("""
        @jax.jit
        def run(x, lengths):
            return x.reshape(lengths.shape[0], -1)
        """, None),
    "pad_traced_width": ("""
        @jax.jit
        def run(x, lengths):
            return jnp.pad(x, (0, jnp.max(lengths) - x.shape[0]))
        """, "XLA207"),
    "dynamic_slice_traced_size": ("""
        @jax.jit
        def run(x, lengths):
            return lax.dynamic_slice(x, (0,), (jnp.max(lengths),))
        """, "XLA207"),
    "dynamic_slice_traced_start": ("""
        @jax.jit
        def run(x, lengths):
            return lax.dynamic_slice(x, (jnp.max(lengths),), (2,))
        """, None),
    "scan_traced_length": ("""
        @jax.jit
        def run(x, lengths):
            return lax.scan(lambda c, _: (c * 2, c), x, None, length=jnp.max(lengths))
        """, "XLA207"),
    "truth_of_jit_argument": ("""
        @jax.jit
        def run(x, flag):
            if not flag:
                return x
            return -x
        """, "XLA101"),
    "truth_of_static_argument": ("""
        @partial(jax.jit, static_argnames=("flag",))
        def run(x, flag):
            if not flag:
                return x
            return -x
        """, None),
    # static arguments named through a variable: any parameter may be static
    "truth_of_argument_static_by_name": ("""
        STATIC = ("flag",)

        @partial(jax.jit, static_argnames=STATIC)
        def run(x, flag):
            if not flag:
                return x
            return -x
        """, None),
    "truth_of_item_of_jit_argument": ("""
        @jax.jit
        def run(x, mask):
            total = 0.0
            for i in range(x.shape[0]):
                if mask[i]:
                    total = total + x[i]
            return total
        """, "XLA101"),
    # reports22-jax (dm-haiku#187): the jitted function hands its flag whole to a helper / a __call__
    "truth_of_jit_argument_in_helper": ("""
        def forward(x, is_training):
            if is_training:
                x = x * 0.9
            return x

        @jax.jit
        def run(x, is_training):
            return forward(x, is_training).sum()
        """, "XLA101"),
    "truth_of_jit_argument_in_instance_call": ("""
        class Net:
            def __call__(self, x, is_training):
                if is_training:
                    x = x * 0.9
                return x

        net = Net()

        @jax.jit
        def run(x, is_training):
            return net(x, is_training).sum()
        """, "XLA101"),
    "truth_of_static_argument_in_helper": ("""
        def forward(x, is_training):
            if is_training:
                x = x * 0.9
            return x

        @partial(jax.jit, static_argnames=("is_training",))
        def run(x, is_training):
            return forward(x, is_training).sum()
        """, None),
    # review22: the jitted function also hands the argument to a library function: a list of arrays, whose
    # truth is a Python bool in the helper (traces and runs)
    "truth_of_jit_list_argument_in_helper": ("""
        def forward(x, flags):
            if flags:
                x = x * 0.9
            return x

        @jax.jit
        def run(x, flags):
            return forward(x, flags).sum() + jnp.stack(flags).sum()
        """, None),
}

_ARGS = {
    "vmap_body_under_jit": lambda jnp: (jnp.ones((2, 3)),),
    "grad_of_loss_under_jit": lambda jnp: (jnp.ones(3), jnp.ones((2, 3))),
    "grad_of_loss_eager": lambda jnp: (jnp.ones(3), jnp.ones((2, 3))),
    "vmap_decorated": lambda jnp: (jnp.ones((2, 3)),),
    "vmap_in_axes_none_under_jit": lambda jnp: (jnp.ones((2, 3)),),
    "tree_map_named_function": lambda jnp: ({"w": jnp.ones(3) * 2},),
    "helper_count_sizes_a_shape": lambda jnp: (jnp.array([1, 1, 0]),),
    "reshape_packed_traced_dim": lambda jnp: (jnp.ones(6), jnp.array([3, 3])),
    "reshape_packed_static_dims": lambda jnp: (jnp.ones(6), jnp.array([3, 3])),
    "pad_traced_width": lambda jnp: (jnp.ones(3), jnp.array([4, 5])),
    "dynamic_slice_traced_size": lambda jnp: (jnp.ones(4), jnp.array([1, 2])),
    "dynamic_slice_traced_start": lambda jnp: (jnp.ones(4), jnp.array([1, 2])),
    "scan_traced_length": lambda jnp: (jnp.ones(3), jnp.array([1, 2])),
    "truth_of_jit_argument": lambda jnp: (jnp.ones(3), True),
    "truth_of_static_argument": lambda jnp: (jnp.ones(3), True),
    "truth_of_argument_static_by_name": lambda jnp: (jnp.ones(3), True),
    "truth_of_item_of_jit_argument": lambda jnp: (jnp.ones(3), jnp.array([True, False, True])),
    "truth_of_jit_argument_in_helper": lambda jnp: (jnp.ones(3), True),
    "truth_of_jit_argument_in_instance_call": lambda jnp: (jnp.ones(3), True),
    "truth_of_static_argument_in_helper": lambda jnp: (jnp.ones(3), True),
    "truth_of_jit_list_argument_in_helper": lambda jnp: (jnp.ones(3), [jnp.ones(()), jnp.ones(())]),
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_flagged_iff_tracing_fails(name: str) -> None:
    body, code = SNIPPETS[name]
    src = _HEAD + textwrap.dedent(body)
    result = check_source(src, "snippet.py")
    assert result.error is None
    codes = {d.code for d in result.diagnostics}
    if code is None:
        assert not codes, f"{name}: {result.diagnostics}"
    else:
        assert code in codes, f"{name}: {result.diagnostics}"
    namespace: dict = {}
    exec(compile(src, "snippet.py", "exec"), namespace)  # noqa: S102 - our own snippet
    args = _ARGS[name](jax.numpy)
    if code is None:
        jax.block_until_ready(namespace["run"](*args))
    else:
        with pytest.raises((jax.errors.TracerBoolConversionError, jax.errors.ConcretizationTypeError, TypeError)):
            jax.block_until_ready(namespace["run"](*args))
