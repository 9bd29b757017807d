"""Source: https://github.com/jax-ml/jax/issues/4645 ("Curious jit behavior in nested class functions": an agent's `take_action(self, obs)` defines `@jit def _take_action(params, obs)` inside the method; factored out of the method it is much faster, because the nested function is a new function at every call and is compiled again). Here a DQN-style agent picks actions with a jitted helper nested in the method."""
import jax
import jax.numpy as jnp


def q_network(params, obs):
    h = jax.nn.relu(obs @ params["w1"] + params["b1"])
    return h @ params["w2"]


class Agent:
    def __init__(self, params):
        self.params = params

    def take_action(self, obs):
        @jax.jit  # XLA: retrace
        def _take_action(params, obs):
            logits = q_network(params, obs)
            probs = jax.nn.softmax(logits.ravel())
            top2 = jnp.sort(probs)[-2:]
            return jnp.argmax(logits), top2[1] - top2[0]

        return _take_action(self.params, obs)


_KEEP = []


def act(obs):
    return _KEEP[0].take_action(obs)


# --- oracle ---
WRAP = False


def ENTRY():
    k1, k2 = jax.random.split(jax.random.PRNGKey(2))
    params = {"w1": jax.random.normal(k1, (4, 32)), "b1": jnp.zeros(32),
              "w2": jax.random.normal(k2, (32, 3))}
    _KEEP[:] = [Agent(params)]
    return act, (jnp.array([0.1, -0.2, 0.3, 0.05]),)


def ALT_ARGS():
    return [(jnp.array([0.4, 0.1, -0.3, 0.2]),)]
