"""Source: https://github.com/google-deepmind/mujoco/issues/1207 ("[MJX] Choice of implementation in solver.py": `jax.grad` of a function that steps an MJX model raised "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic start/stop values", because the constraint solver iterates with a `while_loop` until its improvement falls below a tolerance; the reporter points at the `scan` implementation of the same solver, which is differentiable). Here a differentiable physics step solves a small contact problem by projected gradient iterations until convergence, and its final position is differentiated with respect to the initial velocity."""
import jax
import jax.numpy as jnp
from jax import lax


def solve_contacts(A, b, tolerance=1e-6, max_iterations=50):
    step = 1.0 / jnp.linalg.norm(A, ord=2)

    def cond_fn(state):
        i, _, improvement = state
        return (i < max_iterations) & (improvement > tolerance)

    def body_fn(state):
        i, force, _ = state
        new_force = jnp.maximum(force - step * (A @ force + b), 0.0)
        return i + 1, new_force, jnp.sum((new_force - force) ** 2)

    _, force, _ = lax.while_loop(cond_fn, body_fn, (0, jnp.zeros_like(b), jnp.asarray(jnp.inf, b.dtype)))
    return force


def physics_step(qvel, qpos, contact_jac, dt=0.01):
    A = contact_jac @ contact_jac.T + 1e-3 * jnp.eye(contact_jac.shape[0])
    b = contact_jac @ (qvel + dt * jnp.array([0.0, -9.81]))
    force = solve_contacts(A, b)
    qvel = qvel + dt * jnp.array([0.0, -9.81]) + contact_jac.T @ force
    return qpos + dt * qvel


@jax.jit
def position_gradient(qvel, qpos, contact_jac):
    return jax.grad(lambda v: physics_step(v, qpos, contact_jac)[0])(qvel)  # XLA: op


# --- oracle ---
def ENTRY():
    jac = jnp.array([[0.0, 1.0], [0.3, 0.9]])
    return position_gradient, (jnp.array([0.5, -1.0]), jnp.array([0.0, 0.05]), jac)
