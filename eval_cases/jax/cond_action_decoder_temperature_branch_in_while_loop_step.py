"""Source: https://github.com/Physical-Intelligence/openpi/pull/550 ("Fixing nonzero temperature sampling for pi0_FAST with jax JIT": the action-token sampler ran its decode loop as `jax.lax.while_loop(cond, step, ...)` inside a jitted `sample_actions`, and the step chose between greedy and sampled tokens with a Python `if temperature > 0:`; passing a non-zero `temperature` keyword made it a traced value and the step raised a TracerBoolConversionError; the fix selects with `jnp.where`/`lax.cond` on the traced temperature). Here a small autoregressive action-token decoder samples a fixed number of tokens in a `while_loop` whose step branches on the temperature it receives."""
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
        if temperature > 0.0:  # XLA: cond
            token = jax.random.categorical(sub, logits / temperature)
        else:
            token = jnp.argmax(logits)
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
