"""Source: https://github.com/jax-ml/jax/issues/7461 ("Odd output from jax.ops.index_update when jitted": `index_update(x, slice(1, None), 1 + x[:-1])` gave `[0, 1, 1, ...]` op-by-op but `[0, 1, 2, 3, ...]` under `jax.jit` on CPU, an input/output aliasing bug of XLA:CPU in which the update read values it had already written). On jax 0.10.2 CPU the jitted and op-by-op results agree, so the report no longer reproduces and this is a negative. Here an event-count feature shifts a counter by one step and adds one, with `.at[1:].set(...)` in a jitted preprocessing step."""
import jax
import jax.numpy as jnp


@jax.jit
def shifted_counts(counts, events):
    counts = counts.at[1:].set(1 + counts[:-1])
    return counts * events


# --- oracle ---
def ENTRY():
    return shifted_counts, (jnp.zeros(8), jnp.array([1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0]))
