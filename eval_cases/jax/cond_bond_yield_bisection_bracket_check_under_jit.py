"""Source: https://github.com/google/jaxopt/issues/422 ("jaxopt.Bisection not jittable, vmappable": `jax.vmap` of a bisection root finder raises ConcretizationTypeError "The problem arose with the `bool` function", because the solver checks in Python that the initial bracket changes sign; the answer is `check_bracket=False`). Here a jitted bond-yield solver calls a hand-written bisection, which checks the bracket with a Python `if` before its `fori_loop`."""
import jax
import jax.numpy as jnp
from jax import lax

CASHFLOWS = jnp.array([5.0, 5.0, 5.0, 105.0])
TIMES = jnp.array([1.0, 2.0, 3.0, 4.0])


def bond_price(rate):
    return jnp.sum(CASHFLOWS * jnp.exp(-rate * TIMES))


def bisect(f, lower, upper, n_iter=40, check_bracket=True):
    if check_bracket and f(lower) * f(upper) > 0:  # XLA: cond
        raise ValueError("the root is not bracketed")

    def body(i, bounds):
        lo, hi = bounds
        mid = 0.5 * (lo + hi)
        same_sign = f(lo) * f(mid) > 0
        return jnp.where(same_sign, mid, lo), jnp.where(same_sign, hi, mid)

    lo, hi = lax.fori_loop(0, n_iter, body, (lower, upper))
    return 0.5 * (lo + hi)


@jax.jit
def implied_yield(price):
    return bisect(lambda r: bond_price(r) - price, 0.0, 1.0)


# --- oracle ---
def ENTRY():
    return implied_yield, (jnp.float32(98.0),)
