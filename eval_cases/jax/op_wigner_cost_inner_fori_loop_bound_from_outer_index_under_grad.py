"""Source: https://github.com/dynamiqs/dynamiqs/pull/917 ("Fix differentiability of `dq.wigner`": `jax.grad` of a cost built on the Wigner function raised "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic start/stop values", because an inner `fori_loop` ran up to the outer loop's index; the fix made the inner bounds static). Here a phase-space cost sums Laguerre-weighted products of Fock amplitudes with an inner `fori_loop` bounded by the outer index, and the cost is differentiated."""
import jax
import jax.numpy as jnp


def laguerre_weight(m, n, x=0.7):
    return jnp.exp(-x) * (x ** (n - m)) / (1.0 + n + m)


def quasi_probability(psi):
    dim = psi.shape[0]

    def outer(n, acc):
        def inner(m, a):
            return a + psi[m] * psi[n] * laguerre_weight(m, n)
        return jax.lax.fori_loop(0, n, inner, acc)  # XLA: op

    return jax.lax.fori_loop(0, dim, outer, 0.0)


def wigner_cost(psi):
    return quasi_probability(psi / jnp.linalg.norm(psi)) ** 2


# --- oracle ---
def ENTRY():
    return jax.grad(wigner_cost), (jnp.linspace(1.0, 0.2, 6),)
