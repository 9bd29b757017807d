"""Source: https://github.com/jax-ml/jax/issues/2720 (`None` changes the argument's tree structure and so the compiled version; passing an array in every case keeps one structure). Here the diffusion sampler passes a zero class embedding (`jnp.zeros`) for its unconditional steps and an embedding made with `jnp.full(8, 0.2)` later, so the tree structure no longer changes, but the later embedding is weakly typed (a Python scalar fill value) while the first was not. Written as a near miss; the oracle measured a new compilation on the later calls (weak vs strong float32 is part of the cache key), so it is a recompile case."""
import jax
import jax.numpy as jnp


@jax.jit
def denoise_step(x, t, class_emb):
    h = jnp.tanh(x * (1.0 - t))
    h = h + class_emb
    return x - 0.1 * h


def sampler_step(x, t, class_emb):
    return denoise_step(x, t, class_emb)  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    return sampler_step, (jnp.linspace(-1.0, 1.0, 8), jnp.float32(0.9), jnp.zeros(8))


def ALT_ARGS():
    return [(jnp.linspace(-0.9, 1.1, 8), jnp.float32(0.8), jnp.full(8, 0.2)),
            (jnp.linspace(-0.8, 1.2, 8), jnp.float32(0.7), jnp.full(8, 0.3))]
