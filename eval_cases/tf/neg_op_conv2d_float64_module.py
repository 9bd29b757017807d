"""Source: https://github.com/keras-team/keras/issues/17045 (near miss, reported failing on TF 2.11 nightly: a float64 Conv2D in a jit-compiled tf.Module; XLA:CPU compiles it)."""
import tensorflow as tf


class MyModule(tf.Module):
    def __init__(self):
        super().__init__()
        self.conv = tf.keras.layers.Conv2D(2, 1, padding="valid", dtype=tf.float64, autocast=False)

    @tf.function(jit_compile=True)
    def __call__(self, i0):
        o0 = tf.floor(i0)
        o1 = self.conv(o0)
        return tf.add(o1, o0)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = MyModule()
    _KEEP.append(m)
    return m.__call__, (tf.constant(3.14, shape=[1, 1, 3, 2], dtype=tf.float64),)
