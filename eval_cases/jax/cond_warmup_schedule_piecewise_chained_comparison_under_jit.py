"""Source: https://github.com/jax-ml/jax/issues/7969 ("Can not jit-compile piecewise linear function": `jnp.piecewise(x, [x < 0, 0 < x < 1], [-x, x])` works eagerly on a scalar but fails under `jax.jit`; the answer explains that a chained comparison `0 < x < 1` is `(0 < x) and (x < 1)`, a Python `and` that needs a concrete bool, and recommends `(0 < x) & (x < 1)`). Here a jitted SGD step scales its learning rate with a piecewise warmup schedule written with a chained comparison on the traced training progress. (Linear regression trained with a warmup learning-rate schedule.)"""
import jax
import jax.numpy as jnp


def warmup_factor(progress):
    return jnp.piecewise(progress, [progress < 0.0, 0.0 < progress < 0.1],  # XLA: cond
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
