"""Source: https://github.com/jax-ml/jax/issues/3163 (a Python int and a Python float passed to a jitted function are weakly typed int32 and float32: a schedule value that starts as the int literal 1 and is then annealed by a float factor changes the abstract type after the first step and recompiles)."""
import jax
import jax.numpy as jnp


@jax.jit
def sample_step(logits, temperature):
    return jax.nn.softmax(logits / temperature)


def anneal(logits, steps):
    temperature = 1  # XLA: retrace
    probs = []
    for _ in range(steps):
        probs.append(sample_step(logits, temperature))
        temperature *= 0.9
    return probs


# --- oracle ---
def ENTRY():
    return sample_step, (jnp.arange(4.0), 1)


def ALT_ARGS():
    return [(jnp.arange(4.0), 0.9)]
