"""Source: https://github.com/jax-ml/jax/issues/5061 ("Jitted jax.random.categorical inconsistent with the non-jitted version": under jax 0.2.5 the jitted sampler returned 2147483647 for some keys; fixed in 0.2.6). Here a policy samples actions with `jax.random.categorical` inside its jitted act function; with jax 0.10.2 the jitted and eager samples agree."""
import jax
import jax.numpy as jnp


def init_params():
    return {"w": jnp.linspace(-0.5, 0.5, 8).reshape(4, 2), "b": jnp.zeros(2)}


@jax.jit
def act(params, obs, key):
    logits = obs @ params["w"] + params["b"]
    return jax.random.categorical(key, logits)


def rollout(params, obs, key):
    actions = []
    for _ in range(4):
        key, sub = jax.random.split(key)
        actions.append(act(params, obs, sub))
    return jnp.stack(actions)


# --- oracle ---
WRAP = False


def ENTRY():
    obs = jnp.ones((1, 4))
    return rollout, (init_params(), obs, jax.random.PRNGKey(0))
