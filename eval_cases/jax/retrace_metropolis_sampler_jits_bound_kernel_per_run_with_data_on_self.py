"""Source: https://github.com/pyro-ppl/numpyro/issues/441 ("Avoid recompilation in MCMC.run with new data": the sampler kept the model data on the object and jitted its sample kernel as a bound method, so running it again on new data of the same shape compiled everything again; the data had become a constant of the compiled kernel. numpyro#456 fixed it by passing the model arguments to one jitted kernel, `jit_model_args`). Here a random-walk Metropolis sampler for a Gaussian mean stores each new dataset on `self` and jits its bound kernel in `run`, so every run on new data compiles again."""
import jax
import jax.numpy as jnp


class MeanSampler:
    def __init__(self, step_size=0.3, num_steps=25):
        self.step_size = step_size
        self.num_steps = num_steps
        self.data = None

    def log_density(self, mu):
        return -0.5 * jnp.sum((self.data - mu) ** 2) - 0.5 * mu ** 2

    def kernel(self, key, mu):
        def step(carry, k):
            mu, logp = carry
            k1, k2 = jax.random.split(k)
            proposal = mu + self.step_size * jax.random.normal(k1)
            logp_new = self.log_density(proposal)
            accept = jnp.log(jax.random.uniform(k2)) < logp_new - logp
            mu = jnp.where(accept, proposal, mu)
            return (mu, jnp.where(accept, logp_new, logp)), mu

        _, chain = jax.lax.scan(step, (mu, self.log_density(mu)), jax.random.split(key, self.num_steps))
        return chain

    def run(self, key, data):
        self.data = data
        return jax.jit(self.kernel)(key, jnp.float32(0.0))  # XLA: retrace


_KEEP = []


# --- oracle ---
WRAP = False


def ENTRY():
    sampler = MeanSampler()
    _KEEP.append(sampler)
    return sampler.run, (jax.random.PRNGKey(0), jnp.linspace(0.5, 1.5, 8))


def ALT_ARGS():
    return [(jax.random.PRNGKey(0), jnp.linspace(-1.0, 0.0, 8)), (jax.random.PRNGKey(0), jnp.linspace(2.0, 3.0, 8))]
