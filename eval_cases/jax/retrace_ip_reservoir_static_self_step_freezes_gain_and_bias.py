"""Source: https://github.com/reservoirpy/reservoirpy/issues/235 ("jax backend: IPReservoir intrinsic plasticity has no effect (jitted _step with static self freezes a/b)": `_step` is jitted with `static_argnums=(0,)`, so `self.a` and `self.b` are baked into the compiled step as constants on the first call; `fit` then updates them on the object, but later calls hit the cache with the same `self` and keep the old values, so training diverges from the NumPy backend). Here a reservoir node with intrinsic plasticity runs its state update through a method jitted with a static `self` and adapts its gain and bias after each step. (Echo-state reservoir with intrinsic plasticity, trained online.)"""
from functools import partial

import jax
import jax.numpy as jnp


class IPReservoir:
    def __init__(self, units=6, inputs=2, lr=0.05, mu=0.2, sigma=0.5):
        self.W = 0.5 * jnp.cos(jnp.arange(units * units, dtype=jnp.float32).reshape(units, units))
        self.Win = jnp.sin(jnp.arange(units * inputs, dtype=jnp.float32).reshape(units, inputs))
        self.a = jnp.ones(units)
        self.b = jnp.zeros(units)
        self.state = jnp.zeros(units)
        self.lr, self.mu, self.sigma = lr, mu, sigma

    @partial(jax.jit, static_argnums=(0,))
    def _step(self, state, x):
        pre = self.W @ state + self.Win @ x
        return pre, jnp.tanh(self.a * pre + self.b)  # XLA: retrace

    def partial_fit(self, x):
        pre, y = self._step(self.state, x)
        s2 = self.sigma ** 2
        db = -self.lr * (-self.mu / s2 + (y / s2) * (2 * s2 + 1 - y ** 2 + self.mu * y))
        self.a = self.a + self.lr / self.a + db * pre
        self.b = self.b + db
        self.state = y
        return y


# --- oracle ---
WRAP = False


def _x(t):
    return jnp.array([jnp.sin(0.3 * t), jnp.cos(0.2 * t)], dtype=jnp.float32)


def ENTRY():
    node = IPReservoir()
    return node.partial_fit, (_x(0),)


def ALT_ARGS():
    return [(_x(t),) for t in range(1, 5)]
