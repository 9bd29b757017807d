"""Source: https://github.com/jax-ml/jax/issues/3163 ("Double jit-compilation in loop when passing plain types": the accumulator starts as a Python int, traced as a weakly typed int32, and comes back from the jitted function as a strongly typed array, so the second call traces and compiles again)."""
import jax
import jax.numpy as jnp


@jax.jit
def accumulate(total, step_value):  # XLA: retrace
    return total + step_value


def run(values):
    total = 0
    for v in values:
        total = accumulate(total, v)
    return total


# --- oracle ---
def ENTRY():
    return accumulate, (0, jnp.int32(3))


def ALT_ARGS():
    return [(jnp.int32(3), jnp.int32(4))]
