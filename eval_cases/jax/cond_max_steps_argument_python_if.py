"""Source: https://github.com/patrick-kidger/diffrax/issues/379 (`if max_steps == 1:` raised TracerBoolConversionError once max_steps was passed as a jit argument)."""
import jax
import jax.numpy as jnp


@jax.jit
def integrate(y0, dt, max_steps):
    if max_steps == 1:  # XLA: cond
        return y0 + dt * (-y0)
    return jax.lax.fori_loop(0, 4, lambda i, y: y + dt * (-y), y0)


# --- oracle ---
def ENTRY():
    return integrate, (jnp.array([1.0, 2.0]), jnp.array(0.1), jnp.array(4))
