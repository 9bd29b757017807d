"""Source: https://github.com/tensorflow/tensorflow/issues/125396 ("Chained tf.reduce_sum on CPU disagrees between eager/autoclustering and jit_compile=True by ~2000 on a ~5e6 value": four float32 `reduce_sum`s of large constant-filled tensors, added together, come out ~4e-4 off under XLA). Here a climate-emulator energy loss sums four float32 background fields (solar, latent, sensible, radiative; uniform maps of a few million cells) separately with `tf.reduce_sum` inside a jit-compiled function."""
import tensorflow as tf


@tf.function(jit_compile=True)
def total_energy(solar, latent, sensible, radiative):
    return (tf.reduce_sum(solar) + tf.reduce_sum(latent)  # XLA: op
            + tf.reduce_sum(sensible) + tf.reduce_sum(radiative))


# --- oracle ---
def ENTRY():
    return total_energy, (tf.fill([1000, 1000], 1.3), tf.fill([1000, 1000], 1.7),
                          tf.fill([500, 500], 2.1), tf.fill([700, 700], 0.9))
