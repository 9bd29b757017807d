"""Source: https://github.com/jax-ml/jax/issues/17629 ("Unexpected exception from jax.lax.fori_loop": a `fori_loop` carry must keep its shape from loop entry to loop exit; the usual fix is to preallocate the history buffer at its final size and write each step into it). Near miss: the jitted rollout loss preallocates a `(TIMESTEPS, 3)` history and the body writes row `i` with `.at[i].set`."""
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
    history0 = jnp.zeros((TIMESTEPS, 3), jnp.float32)

    def step(i, carry):
        history, pos, vel = carry
        force = 10.0 * jnp.tanh(jnp.concatenate([pos, vel]) @ w)
        pos, vel = physics_step(pos, vel, force)
        history = history.at[i].set(pos)
        return history, pos, vel

    history, _, _ = lax.fori_loop(0, TIMESTEPS, step, (history0, pos0, vel0))
    return jnp.mean((history[:, 2] - 1.0) ** 2)


# --- oracle ---
def ENTRY():
    w = jnp.linspace(-0.3, 0.3, 18).reshape(6, 3)
    return rollout_loss, (w, jnp.array([0.0, 0.0, 1.0]), jnp.array([0.1, 0.0, 0.0]))
