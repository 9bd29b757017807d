"""Source: https://github.com/reservoirpy/reservoirpy/issues/235 (fix twin: the JAX FAQ's first strategy, a jitted function of explicit arguments, so the adapted gain and bias reach the compiled step as traced arguments on every call). The same reservoir node with intrinsic plasticity calls a module-level jitted step with `a` and `b` passed in. (Echo-state reservoir with intrinsic plasticity, trained online.)"""
import jax
import jax.numpy as jnp


@jax.jit
def reservoir_step(W, Win, a, b, state, x):
    pre = W @ state + Win @ x
    return pre, jnp.tanh(a * pre + b)


class IPReservoir:
    def __init__(self, units=6, inputs=2, lr=0.05, mu=0.2, sigma=0.5):
        self.W = 0.5 * jnp.cos(jnp.arange(units * units, dtype=jnp.float32).reshape(units, units))
        self.Win = jnp.sin(jnp.arange(units * inputs, dtype=jnp.float32).reshape(units, inputs))
        self.a = jnp.ones(units)
        self.b = jnp.zeros(units)
        self.state = jnp.zeros(units)
        self.lr, self.mu, self.sigma = lr, mu, sigma

    def partial_fit(self, x):
        pre, y = reservoir_step(self.W, self.Win, self.a, self.b, self.state, x)
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
