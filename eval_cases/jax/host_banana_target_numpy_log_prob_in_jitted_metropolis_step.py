"""Source: https://github.com/tensorflow/probability/issues/1986 (Inference Gym targets used from numpyro: the target keeps NumPy arrays and NumPy math, so evaluating its log-density on the sampler's traced position raises a tracer conversion error under jit). Here a banana-shaped target written with NumPy is evaluated inside a jitted random-walk Metropolis step."""
import jax
import jax.numpy as jnp
import numpy as np


class BananaTarget:
    def __init__(self, ndims=3, curvature=0.03):
        self.curvature = curvature
        scale = np.ones(ndims, dtype=np.float32)
        scale[0] = 10.0
        self.scale = scale

    def unnormalized_log_prob(self, x):
        x = np.asarray(x)  # XLA: host
        y = x.copy()
        y[1] = x[1] - self.curvature * (x[0] ** 2 - 100.0)
        return -0.5 * np.sum((y / self.scale) ** 2)


TARGET = BananaTarget()


@jax.jit
def metropolis_step(key, position, log_prob, step_size):
    k_prop, k_acc = jax.random.split(key)
    proposal = position + step_size * jax.random.normal(k_prop, position.shape)
    proposal_log_prob = TARGET.unnormalized_log_prob(proposal)
    accept = jnp.log(jax.random.uniform(k_acc)) < proposal_log_prob - log_prob
    return jnp.where(accept, proposal, position), jnp.where(accept, proposal_log_prob, log_prob)


# --- oracle ---
def ENTRY():
    position = jnp.array([1.0, 2.0, -0.5])
    return metropolis_step, (jax.random.PRNGKey(0), position, jnp.float32(-3.0), jnp.float32(0.5))
