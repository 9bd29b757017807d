"""Source: https://github.com/patrick-kidger/equinox/issues/307 (the fix the reporter found: jit the whole update once at module level instead of the loss defined inside it, so later episodes reuse the compiled update; originally: a policy-gradient agent: `train(...)` is called once per episode and defines its `loss_fn` inside with a jit decorator on it; "the code ran significantly slower", because every call of `train` makes a new function that is traced and compiled again). Here the loss is a module-level function and the update is jitted once."""
import jax
import jax.numpy as jnp


def policy_logits(params, states):
    return jnp.tanh(states @ params["w"] + params["b"]) @ params["out"]


def discounted_returns(rewards, gamma=0.99):
    def back(carry, r):
        carry = r + gamma * carry
        return carry, carry

    _, rets = jax.lax.scan(back, jnp.zeros(()), rewards[::-1])
    return rets[::-1]


def loss_fn(p, s, a, r):
    logp = jax.nn.log_softmax(policy_logits(p, s))
    chosen = jnp.take_along_axis(logp, a[:, None], axis=1)[:, 0]
    adv = discounted_returns(r)
    return -jnp.mean(chosen * (adv - adv.mean()))


@jax.jit
def train(params, states, actions, rewards, lr=0.01):
    loss, grads = jax.value_and_grad(loss_fn)(params, states, actions, rewards)
    params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    return loss, params


# --- oracle ---
WRAP = False


def _params():
    k1, k2 = jax.random.split(jax.random.PRNGKey(1))
    return {"w": 0.3 * jax.random.normal(k1, (4, 16)), "b": jnp.zeros(16),
            "out": 0.3 * jax.random.normal(k2, (16, 2))}


def ENTRY():
    states = jnp.linspace(-1.0, 1.0, 24).reshape(6, 4)
    return train, (_params(), states, jnp.array([0, 1, 1, 0, 1, 0]), jnp.ones(6))


def ALT_ARGS():
    states = jnp.linspace(-0.5, 1.0, 24).reshape(6, 4)
    return [(_params(), states, jnp.array([1, 1, 0, 0, 1, 0]), jnp.array([1.0, 0.0, 1.0, 1.0, 0.0, 1.0]))]
