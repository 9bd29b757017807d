"""Source: https://github.com/pyro-ppl/numpyro/issues/853 ("Array boolean indices must be concrete": a NumPyro model sizes a parameter vector with `jnp.unique(volume).size`, which has no static value inside the jitted sampler)."""
import jax
import jax.numpy as jnp


@jax.jit
def log_joint(a, volume, survived, density):
    s = jnp.zeros((jnp.unique(volume).size,))  # XLA: shape
    logits = a + s[volume]
    return jnp.sum(survived * jax.nn.log_sigmoid(logits) + (density - survived) * jax.nn.log_sigmoid(-logits))


# --- oracle ---
def ENTRY():
    volume = jnp.array([0, 1, 1, 0])
    return log_joint, (jnp.array([0.1, -0.2, 0.3, 0.0]), volume, jnp.array([3.0, 5.0, 2.0, 4.0]),
                       jnp.array([10.0, 10.0, 10.0, 10.0]))
