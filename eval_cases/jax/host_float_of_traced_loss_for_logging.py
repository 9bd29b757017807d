"""Source: https://github.com/jax-ml/jax/pull/2602 ("make float and complex builtins error on Tracers", cf. jax#2508): a jitted training step that converts its loss with `float()` for logging fails under jit with a ConcretizationTypeError."""
import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def train_step(w, x, y, history, lr=0.1):
    loss, grad = jax.value_and_grad(loss_fn)(w, x, y)
    history.append(float(loss))  # XLA: host
    return w - lr * grad


# --- oracle ---
def ENTRY():
    return lambda w, x, y: train_step(w, x, y, []), (jnp.zeros(3), jnp.ones((4, 3)), jnp.ones(4))
