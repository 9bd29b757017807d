"""Source: https://github.com/jax-ml/jax/issues/1406 ("'JaxprTracer' object cannot be interpreted as an integer": `def foo(num): for _ in range(num): ...` works without `jit` but `jit(foo)(0)` fails, because the loop count is a traced argument; the answer is `static_argnums` or a `lax.fori_loop`). Here a jitted denoiser applies a number of smoothing passes given by its `num_passes` argument with a Python `for` over `range`."""
import jax
import jax.numpy as jnp


def smooth_once(x):
    padded = jnp.pad(x, (1, 1), mode="edge")
    return 0.25 * padded[:-2] + 0.5 * padded[1:-1] + 0.25 * padded[2:]


@jax.jit
def denoise(signal, num_passes):
    x = signal
    for _ in range(num_passes):  # XLA: cond
        x = smooth_once(x)
    return x, jnp.mean((x - signal) ** 2)


# --- oracle ---
def ENTRY():
    sig = jnp.sin(jnp.linspace(0.0, 6.0, 32)) + 0.1 * jnp.cos(jnp.linspace(0.0, 60.0, 32))
    return denoise, (sig, 3)
