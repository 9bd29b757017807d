"""Source: https://github.com/jax-ml/jax/issues/3180 ("Cast breaks jit": casting with `jnp.float32(x)` inside a jitted function raised "Tracer can't be used with raw numpy functions", while `jnp.asarray(x, dtype=jnp.float32)` worked). Here a warm-up/cosine learning-rate schedule casts the traced integer step with `jnp.float32(step)` inside a jitted SGD update. On jax 0.10.2 (CPU) `jnp.float32` accepts a tracer and the update compiles: the report no longer reproduces, so this is a negative."""
import jax
import jax.numpy as jnp

WARMUP, TOTAL, PEAK_LR = 10, 100, 0.1


def learning_rate(step):
    step = jnp.float32(step)
    warm = PEAK_LR * step / WARMUP
    progress = jnp.clip((step - WARMUP) / (TOTAL - WARMUP), 0.0, 1.0)
    cosine = 0.5 * PEAK_LR * (1.0 + jnp.cos(jnp.pi * progress))
    return jnp.where(step < WARMUP, warm, cosine)


@jax.jit
def sgd_update(params, grads, step):
    lr = learning_rate(step)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads), lr


# --- oracle ---
def ENTRY():
    params = {"w": jnp.array([[0.5, -0.3], [0.1, 0.2]]), "b": jnp.array([0.0, 0.1])}
    grads = {"w": jnp.array([[0.1, 0.2], [-0.3, 0.05]]), "b": jnp.array([0.01, -0.02])}
    return sgd_update, (params, grads, jnp.array(25, dtype=jnp.int32))
