"""Source: https://github.com/jax-ml/jax/issues/3755 ("Nested VJP function always triggers recompilation": the function returned by `jax.vjp`, regenerated every step and passed to a jitted function, is not recognised as the same pytree, so the jitted pullback compiles again)."""
import jax
import jax.numpy as jnp


def energy(x):
    return jnp.sum(jnp.sin(x) * x)


@jax.jit
def apply_pullback(pullback, cotangent):
    (g,) = pullback(cotangent)
    return g


def descend(x, steps=2, lr=0.1):
    for _ in range(steps):
        _, pullback = jax.vjp(energy, x)
        x = x - lr * apply_pullback(pullback, 1.0)  # XLA: retrace
    return x


# --- oracle ---
WRAP = False


def ENTRY():
    return descend, (jnp.array([0.5, 1.0, 1.5]),)


def ALT_ARGS():
    return [(jnp.array([1.0, 0.0, -1.0]),)]
