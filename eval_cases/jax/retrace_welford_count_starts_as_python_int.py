"""Source: https://github.com/jax-ml/jax/issues/1239 (a warmup adapter's Welford state starts with a Python int count `0`; the first jitted update sees a weakly typed scalar, the state it returns holds an int32 array, so the next step compiles again)."""
import jax
import jax.numpy as jnp


def init_state(size):
    return jnp.zeros(size), jnp.zeros(size), 0


@jax.jit
def update(sample, state):
    mean, m2, n = state
    n = n + 1
    delta_pre = sample - mean
    mean = mean + delta_pre / n
    m2 = m2 + delta_pre * (sample - mean)
    return mean, m2, n


def adapt(samples, state):
    for s in samples:
        state = update(s, state)  # XLA: retrace
    return state


# --- oracle ---
WRAP = False


def ENTRY():
    return adapt, ([jnp.array([1.0, 2.0])], init_state(2))


def ALT_ARGS():
    state = (jnp.array([1.0, 2.0]), jnp.zeros(2), jnp.int32(1))
    return [([jnp.array([3.0, 1.0])], state)]
