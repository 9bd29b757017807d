"""Source: https://github.com/jax-ml/jax/issues/15412 (the usual answer to recompiles over varying matrix sizes: pad every problem to one maximum size and mask the padding, so the jitted solve sees one shape)."""
import jax
import jax.numpy as jnp

MAX_N = 6


@jax.jit
def normal_equations(L, d, n):
    rows = (jnp.arange(MAX_N) < n)[:, None]
    L = jnp.where(rows, L, 0.0)
    A = L @ L.T + jnp.eye(MAX_N)
    return jnp.sum(jnp.where(rows[:, 0], jnp.linalg.solve(A, L @ d), 0.0))


def solve_all(key, sizes, n_obs=6):
    out = []
    for n in sizes:
        L = jax.random.uniform(key, (MAX_N, n_obs))
        out.append(normal_equations(L, jnp.ones(n_obs), n))
    return jnp.stack(out)


# --- oracle ---
WRAP = False


def ENTRY():
    return solve_all, (jax.random.PRNGKey(0), [3, 4])


def ALT_ARGS():
    return [(jax.random.PRNGKey(1), [5, 2])]
