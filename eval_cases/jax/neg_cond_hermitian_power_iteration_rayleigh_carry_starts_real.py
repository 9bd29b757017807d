"""Source: https://github.com/jax-ml/jax/issues/3112 (comment in "sparse solvers": a complex64 LOBPCG loop state initialised with a real float32 entry fails the `while_loop` carry type check). Near miss / documented fix: the Rayleigh-quotient carry is initialised with the matrix's own complex dtype, so the body's complex output matches it."""
import jax
import jax.numpy as jnp
from jax import lax


def top_eigenpair(h, v0, tol=1e-5, max_iter=50):
    def cond(state):
        i, _, lam, lam_prev = state
        return (i < max_iter) & (jnp.abs(lam - lam_prev)[0, 0] > tol)

    def body(state):
        i, v, lam, _ = state
        w = h @ v
        w = w / jnp.linalg.norm(w)
        rayleigh = jnp.vdot(w, h @ w).reshape(1, 1)
        return i + 1, w, rayleigh, lam

    init = (0, v0, jnp.zeros((1, 1), dtype=h.dtype), jnp.full((1, 1), jnp.inf, dtype=h.dtype))
    _, v, lam, _ = lax.while_loop(cond, body, init)
    return lam[0, 0], v


@jax.jit
def coupling_mode(h, v0):
    return top_eigenpair(h, v0)


# --- oracle ---
def ENTRY():
    a = jnp.arange(16, dtype=jnp.float32).reshape(4, 4) / 10.0
    h = (a + 1j * a.T).astype(jnp.complex64)
    h = 0.5 * (h + jnp.conj(h.T))
    v0 = jnp.ones(4, dtype=jnp.complex64) / 2.0
    return coupling_mode, (h, v0)
