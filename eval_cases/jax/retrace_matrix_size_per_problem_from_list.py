"""Source: https://github.com/jax-ml/jax/issues/15412 ("Recompile slow down the code performance in JAX on GPU, given the different shapes of input array": matrices are built with a new size for every problem in a loop, so the jitted solve compiles again for each size)."""
import jax
import jax.numpy as jnp


@jax.jit
def normal_equations(L, d):
    return jnp.linalg.solve(L @ L.T + jnp.eye(L.shape[0]), L @ d)


def solve_all(key, sizes, n_obs=6):
    out = []
    for n in sizes:
        L = jax.random.uniform(key, (n, n_obs))
        d = jnp.ones(n_obs)
        out.append(normal_equations(L, d).sum())  # XLA: retrace
    return jnp.stack(out)


# --- oracle ---
WRAP = False


def ENTRY():
    return solve_all, (jax.random.PRNGKey(0), [3, 4])


def ALT_ARGS():
    return [(jax.random.PRNGKey(1), [5, 2])]
