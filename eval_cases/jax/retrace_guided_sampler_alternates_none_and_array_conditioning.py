"""Source: https://github.com/jax-ml/jax/issues/2720 ("Jit + Optional argument have slightly surprising behavior": a jitted `f(logits, x_in)` with `if x_in is None` worked for both `h(a, 1.0)` and `h(a, None)`; the maintainers explained that `None` is an empty pytree, so a `None` argument changes the input's tree structure and `jit` traces and compiles a separate version for it, as if it were static). Here a jitted denoiser step of a diffusion sampler takes an optional class embedding: the first, unconditional steps pass `None`, and once guidance starts the sampler passes an embedding, which compiles the step again."""
import jax
import jax.numpy as jnp


@jax.jit
def denoise_step(x, t, class_emb=None):
    h = jnp.tanh(x * (1.0 - t))
    if class_emb is not None:
        h = h + class_emb
    return x - 0.1 * h


def sampler_step(x, t, class_emb):
    return denoise_step(x, t, class_emb)  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    return sampler_step, (jnp.linspace(-1.0, 1.0, 8), jnp.float32(0.9), None)


def ALT_ARGS():
    return [(jnp.linspace(-0.9, 1.1, 8), jnp.float32(0.8), jnp.full(8, 0.2)),
            (jnp.linspace(-0.8, 1.2, 8), jnp.float32(0.7), jnp.full(8, 0.3))]
