"""Source: https://github.com/LARG/jax-aht/pull/112 ("Reuse XLA compilations across heldout eval partners": held-out partner parameters were closed over as jit constants, so every partner triggered its own ~16 s XLA compile even when partners shared a policy, and `run_episodes` built a fresh `jax.jit` object per call with an empty cache; the fix passes the parameters as arguments and memoizes the compiled function on its static key). Here an ad-hoc teamwork evaluation rolls out an ego agent with each held-out partner in a small cooperative environment."""
import jax
import jax.numpy as jnp
from jax import lax


def policy(params, obs):
    return jnp.tanh(obs @ params["w"] + params["b"])


def env_step(state, ego_action, partner_action):
    state = 0.9 * state + 0.1 * (ego_action + partner_action)
    reward = -jnp.sum((state - 1.0) ** 2)
    return state, reward


def run_episodes(ego_params, partner_params, key, num_steps=16):
    def rollout(key):
        def step(carry, _):
            state, key = carry
            key, noise_key = jax.random.split(key)
            obs = state + 0.01 * jax.random.normal(noise_key, state.shape)
            state, reward = env_step(state, policy(ego_params, obs), policy(partner_params, obs))
            return (state, key), reward

        _, rewards = lax.scan(step, (jnp.zeros(2), key), None, length=num_steps)
        return rewards.sum()

    return jax.jit(rollout)(key)  # XLA: retrace


def evaluate_partner(ego_params, partner_params, key):
    return run_episodes(ego_params, partner_params, key)


# --- oracle ---
WRAP = False


def _params(scale):
    return {"w": jnp.eye(2) * scale, "b": jnp.full((2,), 0.1 * scale, jnp.float32)}


def ENTRY():
    return evaluate_partner, (_params(0.5), _params(0.3), jax.random.PRNGKey(0))


def ALT_ARGS():
    return [(_params(0.5), _params(0.7), jax.random.PRNGKey(0)), (_params(0.5), _params(-0.2), jax.random.PRNGKey(0))]
