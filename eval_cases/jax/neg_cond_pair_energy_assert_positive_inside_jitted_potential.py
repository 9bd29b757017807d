"""Source: https://github.com/jax-ml/jax/pull/8947 (near miss: the jitted potential only asserts on the static number of particles, which is a Python int read from `.shape`, and keeps the positivity check out of Python control flow with `jnp.where`). Here the soft-sphere energy asserts the particle count and clamps the total with `jnp.where` instead of asserting on the traced value."""
import jax
import jax.numpy as jnp


def pair_term(ri, rj, sigma=1.0, eps=1.0):
    d = jnp.sqrt(jnp.sum((ri - rj) ** 2) + 1e-6)
    return eps * jnp.maximum(1.0 - d / sigma, 0.0) ** 2 + 1e-3


@jax.jit
def soft_sphere_energy(positions):
    n = positions.shape[0]
    assert n > 1, "need at least two particles"
    total = sum(pair_term(positions[i], positions[j]) for i in range(n) for j in range(i + 1, n))
    return jnp.where(total > 0, total, jnp.nan)


# --- oracle ---
def ENTRY():
    return soft_sphere_energy, (jnp.array([[0.0, 0.0], [0.5, 0.1], [1.2, -0.3], [0.2, 0.9]]),)
