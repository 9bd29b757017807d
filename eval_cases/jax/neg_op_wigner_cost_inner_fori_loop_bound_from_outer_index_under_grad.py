"""Source: https://github.com/dynamiqs/dynamiqs/pull/917 (the fix: the inner loop runs over the full static range and masks the terms beyond the outer index, so both loops have static bounds and lower to `scan`). Here the differentiated phase-space cost masks `m >= n` inside an inner `fori_loop(0, dim, ...)`."""
import jax
import jax.numpy as jnp


def laguerre_weight(m, n, x=0.7):
    return jnp.exp(-x) * (x ** jnp.maximum(n - m, 0)) / (1.0 + n + m)


def quasi_probability(psi):
    dim = psi.shape[0]

    def outer(n, acc):
        def inner(m, a):
            return a + jnp.where(m < n, psi[m] * psi[n] * laguerre_weight(m, n), 0.0)
        return jax.lax.fori_loop(0, dim, inner, acc)

    return jax.lax.fori_loop(0, dim, outer, 0.0)


def wigner_cost(psi):
    return quasi_probability(psi / jnp.linalg.norm(psi)) ** 2


# --- oracle ---
def ENTRY():
    return jax.grad(wigner_cost), (jnp.linspace(1.0, 0.2, 6),)
