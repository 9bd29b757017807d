"""Source: https://github.com/jax-ml/jax/issues/17629 ("Unexpected exception from jax.lax.fori_loop": "the input carry component loop_carry[1][3].positions has type float32[0] but the corresponding output carry component has type float32[10,3], so the shapes do not match"; a jitted controller rollout carried a positions history whose shape at loop entry differed from the one the body returns). Here the jitted rollout loss starts the trajectory history as an empty `(0, 3)` array and the loop body appends each new position with `jnp.concatenate`, so the carry grows by one row per step."""
import jax
import jax.numpy as jnp
from jax import lax

TIMESTEPS = 10
DT = 0.02
GRAVITY = jnp.array([0.0, 0.0, -9.81])


def physics_step(pos, vel, force):
    vel = vel + DT * (force + GRAVITY)
    pos = pos + DT * vel
    return pos, vel


@jax.jit
def rollout_loss(w, pos0, vel0):
    history0 = jnp.zeros((0, 3), jnp.float32)

    def step(i, carry):
        history, pos, vel = carry
        force = 10.0 * jnp.tanh(jnp.concatenate([pos, vel]) @ w)
        pos, vel = physics_step(pos, vel, force)
        history = jnp.concatenate([history, pos[None, :]], axis=0)
        return history, pos, vel

    history, _, _ = lax.fori_loop(0, TIMESTEPS, step, (history0, pos0, vel0))  # XLA: cond
    return jnp.mean((history[:, 2] - 1.0) ** 2)


# --- oracle ---
def ENTRY():
    w = jnp.linspace(-0.3, 0.3, 18).reshape(6, 3)
    return rollout_loss, (w, jnp.array([0.0, 0.0, 1.0]), jnp.array([0.1, 0.0, 0.0]))
