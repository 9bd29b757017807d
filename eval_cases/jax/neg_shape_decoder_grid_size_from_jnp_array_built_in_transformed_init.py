"""Source: https://github.com/EiffL/Quarks2CosmosDataChallenge/pull/6 ("fix potential TracerIntegerConversionError in Decoder": the Haiku decoder kept its layer sizes in a JAX array, and since a Haiku module's `__init__` runs inside the transformed, jitted function those sizes became traced values and the reshape to the image grid raised TracerIntegerConversionError; the fix replaces the JAX array with a NumPy array "so that it is explicitly not something to be traced"). This is that fix: the grid size is a NumPy array. Here a convolutional VAE decoder object is built inside the jitted decoding function, as `hk.transform` does."""
import jax
import jax.numpy as jnp
import numpy as np


class Decoder:
    def __init__(self, image_size=28, n_upsample=2, channels=8):
        self.base_grid = np.array([image_size, image_size]) // 2 ** n_upsample
        self.channels = channels
        self.n_upsample = n_upsample

    def __call__(self, z, params):
        h = jax.nn.elu(z @ params["dense"])
        h = h.reshape((z.shape[0], self.base_grid[0], self.base_grid[1], self.channels))
        for _ in range(self.n_upsample):
            b, hh, ww, c = h.shape
            h = jax.image.resize(h, (b, 2 * hh, 2 * ww, c), method="nearest")
            h = jax.nn.elu(h @ params["mix"])
        return jax.nn.sigmoid(jnp.mean(h, axis=-1))


@jax.jit
def decode(z, params):
    return Decoder()(z, params)


# --- oracle ---
def ENTRY():
    params = {
        "dense": jnp.linspace(-0.05, 0.05, 4 * 7 * 7 * 8).reshape(4, 7 * 7 * 8),
        "mix": jnp.eye(8) * 0.9 + 0.01,
    }
    z = jnp.linspace(-1.0, 1.0, 3 * 4).reshape(3, 4)
    return decode, (z, params)
