"""Source: https://github.com/Physical-Intelligence/openpi/pull/550 ("Fixing nonzero temperature sampling for pi0_FAST with jax JIT"; the documented fix: the decode step no longer branches in Python on the traced temperature, it computes both the greedy and the sampled token and selects with `jnp.where(temperature > 0, ...)`). Here the same action-token decoder selects the sampled or greedy token with `jnp.where`, so a non-zero traced temperature compiles."""
import functools

import jax
import jax.numpy as jnp


class TokenDecoder:
    def __init__(self, key, vocab=16, hidden=8):
        k1, k2 = jax.random.split(key)
        self.embed = jax.random.normal(k1, (vocab, hidden)) * 0.3
        self.out = jax.random.normal(k2, (hidden, vocab)) * 0.3

    def logits(self, token, state):
        state = jnp.tanh(state + self.embed[token])
        return state @ self.out, state


decoder = TokenDecoder(jax.random.PRNGKey(0))


@functools.partial(jax.jit, static_argnames=("max_tokens",))
def sample_actions(rng, prefix_state, max_tokens=6, temperature=0.0):
    tokens = jnp.zeros((max_tokens,), jnp.int32)

    def cond(carry):
        _, _, _, step = carry
        return step < max_tokens

    def step(carry):
        rng, state, tokens, i = carry
        prev = jnp.where(i > 0, tokens[jnp.maximum(i - 1, 0)], 0)
        logits, state = decoder.logits(prev, state)
        rng, sub = jax.random.split(rng)
        safe_t = jnp.maximum(temperature, 1e-6)
        sampled = jax.random.categorical(sub, logits / safe_t)
        token = jnp.where(temperature > 0.0, sampled, jnp.argmax(logits))
        tokens = tokens.at[i].set(token.astype(jnp.int32))
        return rng, state, tokens, i + 1

    _, _, tokens, _ = jax.lax.while_loop(cond, step, (rng, prefix_state, tokens, 0))
    return tokens


def infer(rng, prefix_state):
    return sample_actions(rng, prefix_state, temperature=0.7)


# --- oracle ---
WRAP = False
COMPARE = False


def ENTRY():
    return infer, (jax.random.PRNGKey(1), jnp.linspace(-0.5, 0.5, 8))
