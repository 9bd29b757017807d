"""Source: https://github.com/keras-team/tf-keras/issues/425 ("Conv2D with XLA `jit_compile=True` fails to run": a float64 `Conv2D` with `autocast=False` after `tf.floor`, plus a residual add, inside a `tf.function(jit_compile=True)` `__call__`). Does not reproduce on TF 2.21 CPU: XLA:CPU compiles the float64 convolution and matches eager. Here a float64 quantised-residual block of a scientific surrogate model."""
import tensorflow as tf


class QuantisedResidual(tf.Module):
    def __init__(self):
        super().__init__()
        self.conv = tf.keras.layers.Conv2D(2, 1, padding="valid", dtype=tf.float64, autocast=False)
        self.conv.build((None, None, None, 2))

    @tf.function(jit_compile=True)
    def __call__(self, field):
        levels = tf.floor(field)
        return self.conv(levels) + levels


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = QuantisedResidual()
    _KEEP.append(m)
    field = tf.reshape(tf.range(2 * 3 * 3 * 2, dtype=tf.float64), [2, 3, 3, 2]) / 5.0 + 0.14
    return m.__call__, (field,)
