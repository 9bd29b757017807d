"""Source: https://github.com/tensorflow/tensorflow/issues/62283 ("Different Behavior of tf.raw_ops.MatMul+tf.raw_ops.Sin with jit_compile=True": the jit-compiled `__call__` multiplies its input by `tf.random.normal([10, 8], dtype=tf.float16)` drawn inside the compiled function, and the result differs from eager). Here a float16 random-feature encoder draws its Gaussian projection inside the jit-compiled call instead of keeping it as a fixed weight."""
import tensorflow as tf


class RandomFeatureEncoder(tf.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.in_dim = in_dim
        self.out_dim = out_dim

    @tf.function(jit_compile=True)
    def __call__(self, x):
        proj = tf.random.normal([self.in_dim, self.out_dim], dtype=tf.float16)  # XLA: op
        z = tf.matmul(x, proj)
        return tf.sin(z)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    enc = RandomFeatureEncoder(8, 10)
    _KEEP.append(enc)
    x = tf.cast(tf.reshape(tf.range(4 * 8, dtype=tf.float32), [4, 8]) / 32.0, tf.float16)
    return enc.__call__, (x,)
