"""Source: https://github.com/pyro-ppl/numpyro/issues/441 (the fix of numpyro#456, `jit_model_args`: the model data is an argument of one jitted kernel, so a new dataset of the same shape reuses the compiled kernel). Here the random-walk Metropolis sampler jits its kernel once in `__init__` and passes each dataset to it as an argument."""
import jax
import jax.numpy as jnp


class MeanSampler:
    def __init__(self, step_size=0.3, num_steps=25):
        self.step_size = step_size
        self.num_steps = num_steps
        self._kernel = jax.jit(self.kernel)

    def log_density(self, mu, data):
        return -0.5 * jnp.sum((data - mu) ** 2) - 0.5 * mu ** 2

    def kernel(self, key, mu, data):
        def step(carry, k):
            mu, logp = carry
            k1, k2 = jax.random.split(k)
            proposal = mu + self.step_size * jax.random.normal(k1)
            logp_new = self.log_density(proposal, data)
            accept = jnp.log(jax.random.uniform(k2)) < logp_new - logp
            mu = jnp.where(accept, proposal, mu)
            return (mu, jnp.where(accept, logp_new, logp)), mu

        _, chain = jax.lax.scan(step, (mu, self.log_density(mu, data)), jax.random.split(key, self.num_steps))
        return chain

    def run(self, key, data):
        return self._kernel(key, jnp.float32(0.0), data)


_KEEP = []


# --- oracle ---
WRAP = False


def ENTRY():
    sampler = MeanSampler()
    _KEEP.append(sampler)
    return sampler.run, (jax.random.PRNGKey(0), jnp.linspace(0.5, 1.5, 8))


def ALT_ARGS():
    return [(jax.random.PRNGKey(0), jnp.linspace(-1.0, 0.0, 8)), (jax.random.PRNGKey(0), jnp.linspace(2.0, 3.0, 8))]
