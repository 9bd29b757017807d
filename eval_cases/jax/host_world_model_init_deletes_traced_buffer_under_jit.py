"""Source: https://github.com/danijar/dreamerv3/issues/5 (the jitted `init` of the agent fails with ConcretizationTypeError "The delete() method was called on the JAX Tracer object": code meant to free a device buffer calls `.delete()` on a value that is traced under jit). Here a world model's jitted initialiser runs a dummy batch through its encoder and frees the dummy activations with `.delete()`."""
import jax
import jax.numpy as jnp


def init_layer(key, n_in, n_out):
    return {"w": jax.random.normal(key, (n_in, n_out)) / jnp.sqrt(n_in), "b": jnp.zeros(n_out)}


@jax.jit
def init_world_model(key, dummy_obs):
    k_enc, k_dyn, k_dec = jax.random.split(key, 3)
    params = {"enc": init_layer(k_enc, dummy_obs.shape[-1], 16),
              "dyn": init_layer(k_dyn, 16, 16),
              "dec": init_layer(k_dec, 16, dummy_obs.shape[-1])}
    embed = jnp.tanh(dummy_obs @ params["enc"]["w"] + params["enc"]["b"])
    scale = jnp.std(embed)
    embed.delete()  # XLA: host
    params["dyn"]["w"] = params["dyn"]["w"] / (scale + 1.0)
    return params


# --- oracle ---
def ENTRY():
    return init_world_model, (jax.random.PRNGKey(0), jnp.ones((4, 8)))
