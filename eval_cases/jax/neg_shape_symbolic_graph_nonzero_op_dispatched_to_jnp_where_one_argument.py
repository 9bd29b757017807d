"""Source: https://github.com/pymc-devs/pytensor/issues/1062 ("JAX dispatch for `pt.where` is broken": the single-argument `jnp.where` has a data-dependent output shape and cannot be jit-compiled). The fix used here: the graph's selection is dispatched to the three-argument `jnp.where`, which keeps the input's shape and replaces the unselected observations with a neutral value, so the jitted graph compiles. (Symbolic-graph to JAX backend for a censored-data likelihood.)"""
import jax
import jax.numpy as jnp

DISPATCH = {
    "gt": lambda a, b: a > b,
    "select": lambda m, x, fill: jnp.where(m, x, fill),
    "sum": jnp.sum,
    "log": jnp.log,
}

GRAPH = [
    ("mask", "gt", ("y", "threshold")),
    ("obs", "select", ("mask", "y", "one")),
    ("logy", "log", ("obs",)),
    ("out", "sum", ("logy",)),
]


def compile_graph(graph):
    def fn(y, threshold):
        env = {"y": y, "threshold": threshold, "one": jnp.ones_like(y)}
        for name, op, args in graph:
            env[name] = DISPATCH[op](*(env[a] for a in args))
        return env["out"]
    return jax.jit(fn)


# --- oracle ---
WRAP = False


def ENTRY():
    return compile_graph(GRAPH), (jnp.array([0.5, 2.0, 3.0, 0.1, 4.0]), jnp.array(1.0))
