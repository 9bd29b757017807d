"""Source: https://github.com/patrick-kidger/equinox/issues/987 (the fix proposed there: select the branch with `lax.cond` on the flag; originally: "equinox.nn.Dropout is incompatible with jax.lax.scan": an RL rollout `jax.lax.scan(_env_step, runner_state, None, config.num_steps)` carries the actor network, whose dropout layer holds an `inference` flag; inside the scan the flag is a traced bool and `if inference:` raises TracerBoolConversionError). Here the dropout layer chooses between identity and dropout with `jax.lax.cond` on the carried flag."""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Dropout(NamedTuple):
    p: float
    inference: bool


class Actor(NamedTuple):
    w1: jax.Array
    w2: jax.Array
    dropout: Dropout


def dropout_apply(layer, x, key):
    def _identity(x):
        return x

    def _dropout(x):
        q = 1.0 - jax.lax.stop_gradient(layer.p)
        mask = jax.random.bernoulli(key, q, x.shape)
        return jnp.where(mask, x / q, 0.0)

    return jax.lax.cond(layer.inference, _identity, _dropout, x)


def actor_logits(actor, obs, key):
    h = jnp.tanh(obs @ actor.w1)
    h = dropout_apply(actor.dropout, h, key)
    return h @ actor.w2


def env_dynamics(obs, action):
    return 0.9 * obs + 0.1 * jnp.tanh(action.astype(jnp.float32))[..., None]


def rollout(actor, obs0, key, num_steps=5):
    def _env_step(runner_state, _):
        actor, obs, key = runner_state
        key, k_drop, k_act = jax.random.split(key, 3)
        logits = actor_logits(actor, obs, k_drop)
        action = jax.random.categorical(k_act, logits)
        next_obs = env_dynamics(obs, action)
        return (actor, next_obs, key), (obs, action)

    (_, last_obs, _), trajectory = jax.lax.scan(_env_step, (actor, obs0, key), None, num_steps)
    return last_obs, trajectory


# --- oracle ---
def ENTRY():
    actor = Actor(jnp.full((4, 8), 0.1), jnp.full((8, 3), 0.2), Dropout(0.1, True))
    return rollout, (actor, jnp.ones((2, 4)), jax.random.PRNGKey(0))
