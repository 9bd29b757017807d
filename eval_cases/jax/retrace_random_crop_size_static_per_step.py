"""Source: https://github.com/jax-ml/jax/issues/2521 ("Avoid recompilation caused by variably shaped arrays?": every new static size is a new compilation); here a random-crop augmentation draws the crop length with NumPy at every step and passes it as a static argument."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnums=1)
def crop_energy(signal, length):
    return jnp.mean(jnp.square(signal[:length]))


def augmented_energies(signals, seed):
    rng = np.random.RandomState(seed)
    return jnp.stack([crop_energy(s, rng.randint(8, 64)) for s in signals])  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    return augmented_energies, (jnp.linspace(0.0, 1.0, 3 * 64).reshape(3, 64), 0)


def ALT_ARGS():
    return [(jnp.linspace(0.0, 2.0, 3 * 64).reshape(3, 64), 1)]
