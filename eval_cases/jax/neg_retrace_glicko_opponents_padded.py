"""Source: https://github.com/jax-ml/jax/issues/817 (the fix discussed there: pad the opponent arrays to a fixed maximum and mask the padding, so the rating update compiles once for every number of opponents)."""
import jax
import jax.numpy as jnp

MAX_OPPONENTS = 8


@jax.jit
def approximate_likelihood(mu, opponent_mu, opponent_phi, scores, played):
    g = 1.0 / jnp.sqrt(1.0 + 3.0 * opponent_phi ** 2 / jnp.pi ** 2)
    expected = 1.0 / (1.0 + jnp.exp(-g * (mu - opponent_mu)))
    variance = 1.0 / jnp.sum(played * g ** 2 * expected * (1.0 - expected))
    return variance * jnp.sum(played * g * (scores - expected))


# --- oracle ---
def _games(n):
    pad = MAX_OPPONENTS - n
    return (jnp.pad(jnp.linspace(-0.5, 0.5, n), (0, pad)), jnp.pad(jnp.full((n,), 0.3), (0, pad)),
            jnp.pad(jnp.arange(n) % 2 * 1.0, (0, pad)), jnp.pad(jnp.ones(n), (0, pad)))


def ENTRY():
    return approximate_likelihood, (jnp.array(0.1), *_games(3))


def ALT_ARGS():
    return [(jnp.array(0.1), *_games(4)), (jnp.array(0.2), *_games(6))]
