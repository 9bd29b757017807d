"""Source: https://github.com/jax-ml/jax/pull/8947 ("add limit to number of tracer provenance lines": its example is a jitted function that sums terms built from JAX operations in a generator and then checks `assert result > 0`; the assert converts a traced value to a Python bool and raises ConcretizationTypeError under `jit`). Here a pairwise soft-sphere potential sums its pair terms and asserts that the total energy is positive before returning it from the jitted energy function."""
import jax
import jax.numpy as jnp


def pair_term(ri, rj, sigma=1.0, eps=1.0):
    d = jnp.sqrt(jnp.sum((ri - rj) ** 2) + 1e-6)
    return eps * jnp.maximum(1.0 - d / sigma, 0.0) ** 2 + 1e-3


@jax.jit
def soft_sphere_energy(positions):
    n = positions.shape[0]
    total = sum(pair_term(positions[i], positions[j]) for i in range(n) for j in range(i + 1, n))
    assert total > 0, "energy must be positive"  # XLA: cond
    return total


# --- oracle ---
def ENTRY():
    return soft_sphere_energy, (jnp.array([[0.0, 0.0], [0.5, 0.1], [1.2, -0.3], [0.2, 0.9]]),)
