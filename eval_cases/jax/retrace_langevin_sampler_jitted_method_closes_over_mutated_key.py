"""Source: https://github.com/jax-ml/jax/issues/12773 ("Jax functions getting mixed": a sampler class updates `self.key` in place in `random_sample` and then calls a function jitted in `__init__` that reads `self` implicitly; the answer explains that the cached compiled function does not see the update, because the closed-over attributes were baked in when it was traced, and that mutating side effects void the `jax.jit` warranty). Here a Langevin sampler splits its key on the object before each step and calls a jitted bound method that draws the step's noise from `self.key`. (Unadjusted Langevin sampler for a Gaussian score model.)"""
import jax
import jax.numpy as jnp


class LangevinSampler:
    def __init__(self, mean, step_size=0.05, seed=0):
        self.mean = mean
        self.step_size = step_size
        self.key = jax.random.PRNGKey(seed)
        self.langevin_fn = jax.jit(self._langevin)

    def _score(self, x):
        return -(x - self.mean)

    def _langevin(self, x):
        noise = jax.random.normal(self.key, x.shape)  # XLA: retrace
        return x + self.step_size * self._score(x) + jnp.sqrt(2 * self.step_size) * noise

    def random_sample(self, x):
        self.key, _ = jax.random.split(self.key)
        return self.langevin_fn(x)


# --- oracle ---
WRAP = False


def ENTRY():
    sampler = LangevinSampler(jnp.array([1.0, -1.0, 0.5]))
    return sampler.random_sample, (jnp.zeros((4, 3)),)


def ALT_ARGS():
    return [(jnp.full((4, 3), 0.1 * t, dtype=jnp.float32),) for t in range(1, 4)]
