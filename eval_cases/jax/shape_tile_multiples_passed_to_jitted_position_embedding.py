"""Source: https://github.com/jax-ml/jax/issues/16994 ("Possible bug of `jnp.tile()`": porting a Keras example to a backend-agnostic model, `jnp.tile(a, b)` works eagerly but fails under `jax.jit` because the repetition counts `b = np.array([64, 1, 1])` are an argument of the jitted function, so they arrive traced and `tile` cannot use them as a static shape). Here a patch encoder tiles a learned position table over the batch with repetitions passed into the jitted forward pass."""
import jax
import jax.numpy as jnp
import numpy as np


def init_encoder(key, num_patches, dim):
    k1, k2 = jax.random.split(key)
    return {
        "proj": jax.random.normal(k1, (dim, dim)) * 0.05,
        "pos": jax.random.normal(k2, (1, num_patches, dim)) * 0.02,
    }


@jax.jit
def encode_patches(params, patches, multiples):
    tokens = patches @ params["proj"]
    pos = jnp.tile(params["pos"], multiples)  # XLA: shape
    return jax.nn.gelu(tokens + pos)


# --- oracle ---
def ENTRY():
    params = init_encoder(jax.random.PRNGKey(0), 20, 16)
    patches = jnp.linspace(-1.0, 1.0, 4 * 20 * 16).reshape(4, 20, 16)
    return encode_patches, (params, patches, np.array([4, 1, 1]))
