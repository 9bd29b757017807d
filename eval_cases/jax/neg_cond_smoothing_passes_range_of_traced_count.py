"""Source: https://github.com/jax-ml/jax/issues/1406 ("'JaxprTracer' object cannot be interpreted as an integer"; the documented ways out: mark the loop count static, or loop with `lax.fori_loop`, which accepts a traced trip count). Here the same jitted denoiser runs its smoothing passes with `jax.lax.fori_loop(0, num_passes, ...)`."""
import jax
import jax.numpy as jnp


def smooth_once(x):
    padded = jnp.pad(x, (1, 1), mode="edge")
    return 0.25 * padded[:-2] + 0.5 * padded[1:-1] + 0.25 * padded[2:]


@jax.jit
def denoise(signal, num_passes):
    x = jax.lax.fori_loop(0, num_passes, lambda i, x: smooth_once(x), signal)
    return x, jnp.mean((x - signal) ** 2)


# --- oracle ---
def ENTRY():
    sig = jnp.sin(jnp.linspace(0.0, 6.0, 32)) + 0.1 * jnp.cos(jnp.linspace(0.0, 60.0, 32))
    return denoise, (sig, 3)
