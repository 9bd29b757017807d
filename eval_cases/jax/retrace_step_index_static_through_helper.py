"""Source: https://github.com/jax-ml/jax/issues/1033 ("jax.random.fold_in function is using static_argnum=(1,)": the step counter of a loop was a static argument, so `fold_in(base_key, i)` compiled again at every iteration)."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def step_noise(key, step, x):
    k = jax.random.fold_in(key, step)
    return x + 0.01 * jax.random.normal(k, x.shape)


def perturb(key, x, step):
    return step_noise(key, step, x)  # XLA: retrace


def run(key, x, n_steps):
    for i in range(n_steps):
        x = perturb(key, x, i)
    return x


# --- oracle ---
WRAP = False
COMPARE = False


def ENTRY():
    return run, (jax.random.PRNGKey(0), jnp.ones(3), 2)


def ALT_ARGS():
    return [(jax.random.PRNGKey(0), jnp.ones(3), 4)]
