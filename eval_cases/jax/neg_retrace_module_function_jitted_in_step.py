"""Source: https://github.com/jax-ml/jax/issues/7155 (near miss: `jax.jit` of the same module-level function inside a step called in a loop hits the cache keyed on that function; row seq.jit_module_function_in_function_called_in_loop of xlacheck/data/jax_cache_key.json: 3 calls, 1 compile)."""
import jax
import jax.numpy as jnp


def normalize(v):
    return v / jnp.linalg.norm(v)


def power_step(a, v):
    return jax.jit(normalize)(a @ v)


def power_iteration(a, v):
    for _ in range(3):
        v = power_step(a, v)
    return v


# --- oracle ---
WRAP = False


def ENTRY():
    return power_iteration, (jnp.eye(3) * 2.0 + 0.1, jnp.ones(3))


def ALT_ARGS():
    return [(jnp.eye(3) * 2.0 + 0.1, jnp.arange(1.0, 4.0))]
