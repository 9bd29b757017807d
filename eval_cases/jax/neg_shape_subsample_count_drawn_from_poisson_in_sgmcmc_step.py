"""Source: https://github.com/jax-ml/jax/issues/5100 ("Array Shape as Random Variable": inside a jitted function the number of subsampled rows is `jax.random.poisson(...).sum()` and is passed as a dimension of `jax.random.randint`'s shape, which raises "Shapes must be 1D sequences of concrete values of integer type"; the suggested workaround is a fixed maximum size with the first n entries used). This is that workaround: the indices are drawn at a fixed maximum size and a mask keeps the first `counts.sum()` rows. Here a stochastic-gradient Langevin step draws a random number of data rows per step for its gradient estimate."""
import jax
import jax.numpy as jnp

MAX_ROWS = 32


def log_likelihood(theta, rows, weights):
    pred = rows[..., :-1] @ theta
    return -0.5 * jnp.sum(weights * (rows[..., -1] - pred) ** 2)


@jax.jit
def sgld_step(theta, data, rng_key, step_size):
    n = data.shape[0]
    count_key, idx_key, noise_key = jax.random.split(rng_key, 3)
    counts = jax.random.poisson(count_key, 4.0, (2,))
    size = jnp.clip(counts.sum(), 1, MAX_ROWS)
    idx = jax.random.randint(idx_key, (MAX_ROWS,), 0, n)
    weights = (jnp.arange(MAX_ROWS) < size).astype(data.dtype)
    batch = data[idx]
    grad = jax.grad(log_likelihood)(theta, batch, weights) * n / size
    noise = jax.random.normal(noise_key, theta.shape) * jnp.sqrt(2.0 * step_size)
    return theta + step_size * (grad - theta) + noise


# --- oracle ---
def ENTRY():
    data = jnp.concatenate([jnp.linspace(-1.0, 1.0, 30).reshape(10, 3), jnp.arange(10.0)[:, None] * 0.1], axis=1)
    return sgld_step, (jnp.zeros(3), data, jax.random.PRNGKey(0), 1e-3)
