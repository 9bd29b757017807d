"""Source: https://github.com/tensorflow/tensorflow/issues/35667 ("assign() got an unexpected keyword argument 'validate_shape'": the way to let a variable change shape in TF2 is to create it with `shape=tf.TensorShape(None)` and assign values of a new shape). Here a decoder keeps its key cache in such a variable and appends each step's key with `assign(tf.concat(...))` inside the jit-compiled decode step, so the variable's shape changes from call to call."""
import tensorflow as tf

DIM = 4


class CachedAttention:
    def __init__(self):
        self.key_proj = tf.keras.layers.Dense(DIM)
        self.key_proj.build((None, DIM))
        self.cache = tf.Variable(tf.zeros([1, 0, DIM]), shape=tf.TensorShape(None), trainable=False)

    @tf.function(jit_compile=True)
    def decode_step(self, x):
        key = self.key_proj(x)[:, None, :]
        self.cache.assign(tf.concat([self.cache, key], axis=1))  # XLA: shape
        scores = tf.nn.softmax(tf.reduce_sum(self.cache * key, axis=-1), axis=-1)
        return tf.reduce_sum(scores[..., None] * self.cache, axis=1)


# --- oracle ---
_KEEP = []


def _x(k):
    return tf.reshape(tf.range(DIM, dtype=tf.float32) + k, [1, DIM]) / 8.0


def ENTRY():
    attn = CachedAttention()
    _KEEP.append(attn)
    return attn.decode_step, (_x(0.0),)


def ALT_ARGS():
    return [(_x(1.0),), (_x(2.0),)]


WRAP = False
