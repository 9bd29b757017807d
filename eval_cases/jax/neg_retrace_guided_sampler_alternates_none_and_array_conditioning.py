"""Source: https://github.com/jax-ml/jax/issues/2720 (`None` changes the argument's tree structure and so the compiled version; passing an array in every case keeps one structure). Here the diffusion sampler looks its class embedding up in an embedding table whose row 0 is the learned "null" class used for unconditional steps, and the jitted denoiser step takes the class id (0 for unconditional steps) and does the lookup itself, so it gets arguments of one structure and type from the first step on."""
import jax
import jax.numpy as jnp

NUM_CLASSES, DIM = 6, 8
CLASS_TABLE = jnp.linspace(-0.3, 0.3, NUM_CLASSES * DIM).reshape(NUM_CLASSES, DIM).at[0].set(0.0)


@jax.jit
def denoise_step(x, t, label):
    h = jnp.tanh(x * (1.0 - t))
    h = h + CLASS_TABLE[label]
    return x - 0.1 * h


def sampler_step(x, t, label):
    return denoise_step(x, t, label)


# --- oracle ---
WRAP = False


def ENTRY():
    return sampler_step, (jnp.linspace(-1.0, 1.0, 8), jnp.float32(0.9), 0)


def ALT_ARGS():
    return [(jnp.linspace(-0.9, 1.1, 8), jnp.float32(0.8), 3),
            (jnp.linspace(-0.8, 1.2, 8), jnp.float32(0.7), 5)]
