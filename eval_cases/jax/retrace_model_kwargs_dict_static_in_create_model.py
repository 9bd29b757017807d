"""Source: https://github.com/google/flax/issues/587 ("example/wmt broken by passing dict as static arg to jitted function": `@functools.partial(jax.jit, static_argnums=(1, 2, 3)) def create_model(key, input_shape, target_shape, model_kwargs)` raises `ValueError: Non-hashable static arguments are not supported` for the `model_kwargs` dict; the workaround converts it to a tuple). Here a translation model's parameters are created by a jitted function that takes the model settings as a static dict."""
import functools

import jax
import jax.numpy as jnp


def init_transformer(key, vocab_size, emb_dim, num_layers, mlp_dim):
    keys = jax.random.split(key, 1 + 2 * num_layers)
    params = {"embed": 0.02 * jax.random.normal(keys[0], (vocab_size, emb_dim))}
    for i in range(num_layers):
        params[f"mlp_in_{i}"] = 0.02 * jax.random.normal(keys[1 + 2 * i], (emb_dim, mlp_dim))
        params[f"mlp_out_{i}"] = 0.02 * jax.random.normal(keys[2 + 2 * i], (mlp_dim, emb_dim))
    return params


@functools.partial(jax.jit, static_argnums=(1, 2, 3))
def create_model(key, input_shape, target_shape, model_kwargs):
    params = init_transformer(key, **model_kwargs)
    dummy = jnp.zeros(input_shape, jnp.int32)
    logits = params["embed"][dummy] @ params["embed"].T
    return params, logits.shape[-1] == target_shape[-1]


def setup(key):
    model_kwargs = {"vocab_size": 64, "emb_dim": 16, "num_layers": 2, "mlp_dim": 32}
    return create_model(key, (2, 8), (2, 64), model_kwargs)  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    return setup, (jax.random.PRNGKey(0),)
