"""Source: https://github.com/aesara-devs/aesara/issues/702 ("Errors with `jax.random.normal`'s `shape` parameter in version 0.2.26": the JAX backend passed the random variable's `size`, held as an array, to `jax.random.normal(key, shape=size)` inside the jitted graph; jax raised "Shapes must be 1D sequences of concrete values of integer type, got (Traced<ShapedArray(int64[])>...)"; the fix keeps sizes as Python tuples). Here a jitted simulator of a noisy linear observation model takes the number of draws as an array and passes it to `jax.random.normal` as the shape."""
import jax
import jax.numpy as jnp


@jax.jit
def simulate_observations(key, weights, design, size):
    noise = jax.random.normal(key, shape=(size[0], design.shape[0]))  # XLA: shape
    mean = design @ weights
    return mean[None, :] + 0.1 * noise


# --- oracle ---
COMPARE = False


def ENTRY():
    design = jnp.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])
    return simulate_observations, (jax.random.PRNGKey(0), jnp.array([0.3, -0.7]), design,
                                   jnp.array([4], jnp.int32))
