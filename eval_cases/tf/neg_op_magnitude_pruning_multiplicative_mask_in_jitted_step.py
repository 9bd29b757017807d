"""Source: https://github.com/tensorflow/tensorflow/issues/24476 ("[XLA] tf.where not working with xla.compile": the one-argument `tf.where` has no XLA kernel). The shape-static form used by pruning libraries: multiply the weights by a 0/1 mask of `|w| >= threshold` instead of gathering the indices of the small ones, in the same jit-compiled pruning step."""
import tensorflow as tf


class Pruner(tf.Module):
    def __init__(self):
        super().__init__()
        self.kernel = tf.Variable(tf.reshape(tf.linspace(-1.0, 1.0, 12), [3, 4]))

    @tf.function(jit_compile=True)
    def prune(self, threshold):
        keep = tf.cast(tf.abs(self.kernel) >= threshold, self.kernel.dtype)
        self.kernel.assign(self.kernel * keep)
        return tf.reduce_mean(tf.cast(self.kernel == 0.0, tf.float32))


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    p = Pruner()
    _KEEP.append(p)
    return p.prune, (tf.constant(0.3),)
