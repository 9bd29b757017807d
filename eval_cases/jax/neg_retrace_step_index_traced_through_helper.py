"""Source: https://github.com/jax-ml/jax/issues/1033 (the fix for a loop counter passed as a static argument: fold the counter in as a traced integer, so one compilation serves every step)."""
import jax
import jax.numpy as jnp


@jax.jit
def step_noise(key, step, x):
    k = jax.random.fold_in(key, step)
    return x + 0.01 * jax.random.normal(k, x.shape)


def perturb(key, x, step):
    return step_noise(key, step, x)


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
