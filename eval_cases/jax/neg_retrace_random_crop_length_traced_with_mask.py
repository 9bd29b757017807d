"""Source: https://github.com/jax-ml/jax/issues/2521 (near miss: variably shaped arrays recompile): the randomly drawn crop length is passed traced and applied as a mask over the full, fixed-size signal, so new lengths reuse the one compilation."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def crop_energy(signal, length):
    keep = jnp.arange(signal.shape[0]) < length
    return jnp.sum(jnp.where(keep, jnp.square(signal), 0.0)) / length


def augmented_energies(signals, seed):
    rng = np.random.RandomState(seed)
    return jnp.stack([crop_energy(s, jnp.asarray(rng.randint(8, 64), jnp.float32)) for s in signals])


# --- oracle ---
WRAP = False


def ENTRY():
    return augmented_energies, (jnp.linspace(0.0, 1.0, 3 * 64).reshape(3, 64), 0)


def ALT_ARGS():
    return [(jnp.linspace(0.0, 2.0, 3 * 64).reshape(3, 64), 1)]
