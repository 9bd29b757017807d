"""Source: https://github.com/jax-ml/jax/issues/7969 (fix twin: the answer's `(0 < x) & (x < 1)` instead of the chained comparison). The same jitted SGD step builds the warmup condition with the element-wise `&` of two comparisons, which stays an array under `jax.jit`. (Linear regression trained with a warmup learning-rate schedule.)"""
import jax
import jax.numpy as jnp


def warmup_factor(progress):
    return jnp.piecewise(progress, [progress < 0.0, (0.0 < progress) & (progress < 0.1)],
                         [0.0, lambda p: p / 0.1, 1.0])


@jax.jit
def sgd_step(w, x, y, progress, base_lr=0.1):
    def loss(w):
        return jnp.mean((x @ w - y) ** 2)
    g = jax.grad(loss)(w)
    return w - base_lr * warmup_factor(progress) * g


# --- oracle ---
def ENTRY():
    x = jnp.linspace(-1.0, 1.0, 24).reshape(8, 3)
    y = x @ jnp.array([0.5, -1.0, 2.0])
    return sgd_step, (jnp.zeros(3), x, y, jnp.float32(0.05))
