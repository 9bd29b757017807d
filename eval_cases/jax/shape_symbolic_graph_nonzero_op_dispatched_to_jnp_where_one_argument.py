"""Source: https://github.com/pymc-devs/pytensor/issues/1062 ("JAX dispatch for `pt.where` is broken": a symbolic graph library translated its `where` op to `jnp.where`, and the single-argument form, which is `nonzero`, cannot be compiled by `jax.jit` because its output shape depends on the data; the maintainers note there is nothing to do about the static size limitation in that case). Here a graph compiler lowers each node of a small symbolic graph to a JAX function and jit-compiles the result; a `nonzero` node is dispatched to one-argument `jnp.where` and its indices gather the selected observations. (Symbolic-graph to JAX backend for a censored-data likelihood.)"""
import jax
import jax.numpy as jnp

DISPATCH = {
    "gt": lambda a, b: a > b,
    "nonzero": lambda m: jnp.where(m)[0],  # XLA: shape
    "take": lambda x, i: jnp.take(x, i),
    "sum": jnp.sum,
    "log": jnp.log,
}

GRAPH = [
    ("mask", "gt", ("y", "threshold")),
    ("idx", "nonzero", ("mask",)),
    ("obs", "take", ("y", "idx")),
    ("logy", "log", ("obs",)),
    ("out", "sum", ("logy",)),
]


def compile_graph(graph):
    def fn(y, threshold):
        env = {"y": y, "threshold": threshold}
        for name, op, args in graph:
            env[name] = DISPATCH[op](*(env[a] for a in args))
        return env["out"]
    return jax.jit(fn)


# --- oracle ---
WRAP = False


def ENTRY():
    return compile_graph(GRAPH), (jnp.array([0.5, 2.0, 3.0, 0.1, 4.0]), jnp.array(1.0))
