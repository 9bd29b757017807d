"""Source: https://github.com/waymo-research/waymax/issues/37 ("Discrete Wrapper incompatible with jax.lax.scan for PlanningAgent dynamics/environment": updating the simulator state inside a `jax.lax.scan` raised a ConcretizationTypeError only when the `Discretize` dynamics wrapper was applied, because the wrapper turned the traced discrete action into continuous controls with host-side NumPy; a plain Python loop worked). Here a jitted rollout scans a bicycle-model vehicle whose discrete-action wrapper decodes the action index with `np.unravel_index`."""
import jax
import jax.numpy as jnp
import numpy as np


class DiscreteBicycle:
    def __init__(self, n_accel=5, n_steer=5, max_accel=2.0, max_steer=0.3):
        self.shape = (n_accel, n_steer)
        self.accels = jnp.linspace(-max_accel, max_accel, n_accel)
        self.steers = jnp.linspace(-max_steer, max_steer, n_steer)

    def step(self, state, action, dt=0.1):
        i, j = np.unravel_index(action, self.shape)  # XLA: host
        accel, steer = self.accels[i], self.steers[j]
        x, y, yaw, v = state
        return jnp.stack([x + dt * v * jnp.cos(yaw), y + dt * v * jnp.sin(yaw),
                          yaw + dt * v * jnp.tan(steer) / 2.5, v + dt * accel])


dyn = DiscreteBicycle()


@jax.jit
def rollout(state0, actions):
    def body(state, a):
        nxt = dyn.step(state, a)
        return nxt, nxt
    return jax.lax.scan(body, state0, actions)[1]


# --- oracle ---
def ENTRY():
    return rollout, (jnp.array([0.0, 0.0, 0.0, 5.0]), jnp.array([12, 13, 17, 7, 12], jnp.int32))
