"""Source: https://github.com/jax-ml/jax/issues/5013 (the workaround there: keep the block lengths static Python ints; originally: "Masking + Jit to deal with dynamic/variable shape arrays?": in numpyro's HMC-ECS subsampling, `u = random.randint(rng_key, (jnp.sum(block_lengths), m), 0, m)` under jit fails with "Shapes must be 1D sequences of concrete values of integer type" because the sum of the block lengths is traced). Here the block lengths are a tuple of Python ints closed over by the jitted step, summed with `sum`."""
import jax
import jax.numpy as jnp


def sample_u_blocks(key, block_lengths, num_data):
    n_total = sum(block_lengths)
    return jax.random.randint(key, (n_total,), 0, num_data)


BLOCK_LENGTHS = (2, 3, 3)


def subsample_log_likelihood(key, theta, x, y):
    idx = sample_u_blocks(key, BLOCK_LENGTHS, x.shape[0])
    xb, yb = x[idx], y[idx]
    logits = xb @ theta
    ll = yb * jax.nn.log_sigmoid(logits) + (1 - yb) * jax.nn.log_sigmoid(-logits)
    return x.shape[0] * jnp.mean(ll)


# --- oracle ---
COMPARE = False


def ENTRY():
    x = jnp.linspace(-1.0, 1.0, 60).reshape(20, 3)
    y = (x[:, 0] > 0).astype(jnp.float32)
    return subsample_log_likelihood, (jax.random.PRNGKey(0), jnp.ones(3), x, y)
