"""Source: https://github.com/jax-ml/jax/issues/817 (JAX slow compared to numba for a Glicko rating update: "the vast majority of time here is spent recompiling the jitted functions for new argument shapes", one per number of opponents)."""
import jax
import jax.numpy as jnp


@jax.jit
def approximate_likelihood(mu, opponent_mu, opponent_phi, scores):  # XLA: retrace
    g = 1.0 / jnp.sqrt(1.0 + 3.0 * opponent_phi ** 2 / jnp.pi ** 2)
    expected = 1.0 / (1.0 + jnp.exp(-g * (mu - opponent_mu)))
    variance = 1.0 / jnp.sum(g ** 2 * expected * (1.0 - expected))
    return variance * jnp.sum(g * (scores - expected))


# --- oracle ---
def _games(n):
    return jnp.linspace(-0.5, 0.5, n), jnp.full((n,), 0.3), jnp.arange(n) % 2 * 1.0


def ENTRY():
    return approximate_likelihood, (jnp.array(0.1), *_games(3))


def ALT_ARGS():
    return [(jnp.array(0.1), *_games(4)), (jnp.array(0.2), *_games(6))]
