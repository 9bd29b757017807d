"""Source: https://github.com/jax-ml/jax/issues/4531 (the fix from the thread: declare the robot count static (static_argnames), so the slice bounds and the reshape are Python ints)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("n_rob",))
def robot_trajectories(P, sol_x, n_rob):
    nvar = P.shape[1]
    primal = sol_x[0:n_rob * nvar]
    return jnp.dot(P, primal.reshape(n_rob, nvar).T).T


# --- oracle ---
def ENTRY():
    return lambda P, s: robot_trajectories(P, s, n_rob=2), (jnp.ones((4, 3)), jnp.arange(9.0))
