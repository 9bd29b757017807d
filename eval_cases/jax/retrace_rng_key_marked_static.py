"""Source: https://github.com/google/flax/issues/2410 ("Can we use TrainState with pad_shard_unpad?": `static_argnums` covered the argument that receives the PRNG key, and jax.jit raised "Non-hashable static arguments are not supported" for the key array)."""
import jax
import jax.numpy as jnp


def _train_step(lr, rng, params, batch):
    noise = 0.01 * jax.random.normal(rng, params.shape)
    grads = jax.grad(lambda p: jnp.mean((batch @ p) ** 2))(params)
    return params - lr * grads + noise


train_step = jax.jit(_train_step, static_argnums=(0, 1))


def fit(params, batches, seed=0):
    rng = jax.random.PRNGKey(seed)
    for batch in batches:
        rng, step_rng = jax.random.split(rng)
        params = train_step(0.1, step_rng, params, batch)  # XLA: retrace
    return params


# --- oracle ---
WRAP = False
COMPARE = False


def ENTRY():
    return fit, (jnp.ones(3), [jnp.eye(3), jnp.ones((3, 3))])
