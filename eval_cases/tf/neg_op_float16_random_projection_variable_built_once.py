"""Source: https://github.com/tensorflow/tensorflow/issues/62283 ("Different Behavior of tf.raw_ops.MatMul+tf.raw_ops.Sin with jit_compile=True": the random matrix was drawn inside the compiled function). The fix: the float16 random-feature encoder draws its Gaussian projection once, in `__init__`, and keeps it as a non-trainable variable; the jit-compiled call only multiplies by it."""
import tensorflow as tf


class RandomFeatureEncoder(tf.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        init = tf.random.stateless_normal([in_dim, out_dim], seed=[7, 11])
        self.proj = tf.Variable(tf.cast(init, tf.float16), trainable=False)

    @tf.function(jit_compile=True)
    def __call__(self, x):
        z = tf.matmul(x, self.proj)
        return tf.sin(z)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    enc = RandomFeatureEncoder(8, 10)
    _KEEP.append(enc)
    x = tf.cast(tf.reshape(tf.range(4 * 8, dtype=tf.float32), [4, 8]) / 32.0, tf.float16)
    return enc.__call__, (x,)
