"""Source: https://github.com/jax-ml/jax/issues/4531 ("Regarding Jax static argnum and jit": `sol_x[0:n_rob*nvar]` with the robot count passed as a traced argument raises an index error under jit)."""
import jax
import jax.numpy as jnp


@jax.jit
def robot_trajectories(P, sol_x, n_rob):
    nvar = P.shape[1]
    primal = sol_x[0:n_rob * nvar]  # XLA: shape
    return jnp.dot(P, primal.reshape(n_rob, nvar).T).T


# --- oracle ---
def ENTRY():
    return robot_trajectories, (jnp.ones((4, 3)), jnp.arange(9.0), 2)
