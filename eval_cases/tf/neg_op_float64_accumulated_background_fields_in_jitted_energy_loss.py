"""Source: https://github.com/tensorflow/tensorflow/issues/125396 (float32 `reduce_sum`s of large constant fields differ between eager and XLA by ~4e-4 relative). The fix used here: each field is cast to float64 before `tf.reduce_sum` and the total is cast back to float32, so both modes accumulate exactly enough to agree."""
import tensorflow as tf


def _sum64(field):
    return tf.reduce_sum(tf.cast(field, tf.float64))


@tf.function(jit_compile=True)
def total_energy(solar, latent, sensible, radiative):
    total = _sum64(solar) + _sum64(latent) + _sum64(sensible) + _sum64(radiative)
    return tf.cast(total, tf.float32)


# --- oracle ---
def ENTRY():
    return total_energy, (tf.fill([1000, 1000], 1.3), tf.fill([1000, 1000], 1.7),
                          tf.fill([500, 500], 2.1), tf.fill([700, 700], 0.9))
