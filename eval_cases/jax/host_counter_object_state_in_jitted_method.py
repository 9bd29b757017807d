"""Source: https://github.com/jax-ml/jax/pull/20732 (the stateful-computations tutorial: a Counter whose jitted count() method increments self.n; the attribute update happens only at trace time, so the compiled method returns the same count on every call)."""
import jax
import jax.numpy as jnp


class Counter:
    def __init__(self):
        self.n = 0

    def count(self, x):
        self.n += 1  # XLA: host
        return x + self.n


counter = Counter()
count_fast = jax.jit(counter.count)


def next_id(x):
    return count_fast(x)


# --- oracle ---
WRAP = False


def ENTRY():
    return count_fast, (jnp.int32(0),)


def ALT_ARGS():
    return [(jnp.int32(0),), (jnp.int32(0),)]
