"""Source: https://github.com/rlouf/mcx/issues/58 ("non-hashable static_argnums are not supported in Jax 0.2.6": mcx's warmup `run()` in `longest_batch_before_turn()` marked arrays as static arguments of a jitted function, which JAX stopped accepting: "This means that arrays cannot be set as static arguments in jitted functions"). Here a HMC leapfrog integrator is jitted with the inverse mass matrix, an array, among its static arguments."""
from functools import partial

import jax
import jax.numpy as jnp


def potential(q):
    return 0.5 * jnp.sum(q ** 2) + 0.1 * jnp.sum(q ** 4)


@partial(jax.jit, static_argnums=(2, 3))
def leapfrog(q, p, inverse_mass_matrix, num_steps, step_size):
    grad_u = jax.grad(potential)
    p = p - 0.5 * step_size * grad_u(q)
    for _ in range(num_steps):
        q = q + step_size * inverse_mass_matrix * p
        p = p - step_size * grad_u(q)
    p = p + 0.5 * step_size * grad_u(q)
    return q, p


def hmc_proposal(q, p, inverse_mass_matrix, step_size):
    return leapfrog(q, p, inverse_mass_matrix, 5, step_size)  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    return hmc_proposal, (jnp.array([0.5, -0.3, 1.0]), jnp.array([0.1, 0.2, -0.1]), jnp.ones(3), 0.1)
