"""Source: https://github.com/asantini29/phentax/pull/28 ("guard jnp calls and assertions against JIT tracing in initial_processing": calling the waveform model inside `jax.jit` raises `ConcretizationTypeError` because `int(jnp.ceil(T / delta_t))` cannot make the traced duration concrete; the fix computes it with `math.ceil` on Python floats). Here a ringdown waveform sizes its time grid from the duration passed to the jitted likelihood."""
import jax
import jax.numpy as jnp


def ringdown(t, amp, freq, tau):
    return amp * jnp.exp(-t / tau) * jnp.cos(2.0 * jnp.pi * freq * t)


@jax.jit
def log_likelihood(theta, data, duration, delta_t):
    n_samples = int(jnp.ceil(duration / delta_t))  # XLA: shape
    t = jnp.arange(n_samples) * delta_t
    h = ringdown(t, theta[0], theta[1], theta[2])
    return -0.5 * jnp.sum((data[:n_samples] - h) ** 2)


# --- oracle ---
def ENTRY():
    data = jnp.cos(jnp.linspace(0.0, 6.0, 32))
    return log_likelihood, (jnp.array([1.0, 2.0, 0.5]), data, 0.25, 1.0 / 64.0)
