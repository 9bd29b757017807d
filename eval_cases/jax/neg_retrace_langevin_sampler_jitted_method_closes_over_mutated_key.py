"""Source: https://github.com/jax-ml/jax/issues/12773 (fix twin: the answer's advice to jit top-level functions of explicit arguments, so nothing is read from a mutated object). The same Langevin sampler passes the freshly split key and the model mean to a module-level jitted step. (Unadjusted Langevin sampler for a Gaussian score model.)"""
import jax
import jax.numpy as jnp


@jax.jit
def langevin_step(key, x, mean, step_size):
    noise = jax.random.normal(key, x.shape)
    return x + step_size * (-(x - mean)) + jnp.sqrt(2 * step_size) * noise


class LangevinSampler:
    def __init__(self, mean, step_size=0.05, seed=0):
        self.mean = mean
        self.step_size = step_size
        self.key = jax.random.PRNGKey(seed)

    def random_sample(self, x):
        self.key, _ = jax.random.split(self.key)
        return langevin_step(self.key, x, self.mean, self.step_size)


# --- oracle ---
WRAP = False


def ENTRY():
    sampler = LangevinSampler(jnp.array([1.0, -1.0, 0.5]))
    return sampler.random_sample, (jnp.zeros((4, 3)),)


def ALT_ARGS():
    return [(jnp.full((4, 3), 0.1 * t, dtype=jnp.float32),) for t in range(1, 4)]
