"""Source: https://github.com/jax-ml/jax/issues/3163 (near miss: a Python float rebound to another Python float stays a weakly typed float32, so the annealed temperature hits the cache)."""
import jax
import jax.numpy as jnp


@jax.jit
def sample_step(logits, temperature):
    return jax.nn.softmax(logits / temperature)


def anneal(logits, steps):
    temperature = 1.0
    probs = []
    for _ in range(steps):
        probs.append(sample_step(logits, temperature))
        temperature *= 0.9
    return probs


# --- oracle ---
def ENTRY():
    return sample_step, (jnp.arange(4.0), 1.0)


def ALT_ARGS():
    return [(jnp.arange(4.0), 0.9)]
