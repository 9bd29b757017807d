"""Source: https://github.com/tensorflow/tensorflow/issues/24476 ("[XLA] tf.where not working with xla.compile": the one-argument `tf.where(condition)` returns the coordinates of true elements, a data-dependent number of rows, and has no XLA kernel). Here a magnitude-pruning step that finds the small weights with `tf.where(|w| < threshold)` and zeroes them with `tensor_scatter_nd_update`, jit-compiled like the training step it runs after. Written as the failing case; does not reproduce on TF 2.21 CPU (the one-argument `tf.where` feeding `tensor_scatter_nd_update` compiles, with a bounded dynamic row count, and matches eager execution), so it is a negative."""
import tensorflow as tf


class Pruner(tf.Module):
    def __init__(self):
        super().__init__()
        self.kernel = tf.Variable(tf.reshape(tf.linspace(-1.0, 1.0, 12), [3, 4]))

    @tf.function(jit_compile=True)
    def prune(self, threshold):
        small = tf.where(tf.abs(self.kernel) < threshold)
        zeros = tf.zeros([tf.shape(small)[0]], self.kernel.dtype)
        self.kernel.assign(tf.tensor_scatter_nd_update(self.kernel, small, zeros))
        return tf.reduce_mean(tf.cast(self.kernel == 0.0, tf.float32))


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    p = Pruner()
    _KEEP.append(p)
    return p.prune, (tf.constant(0.3),)
