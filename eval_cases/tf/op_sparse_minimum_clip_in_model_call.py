"""Source: https://github.com/tensorflow/tensorflow/issues/88042 ("[XLA] can't compile tf.sparse.from_dense - tf.sparse.minimum": a Keras model clips its input through sparse ops inside a jit-compiled call)."""
import tensorflow as tf


class SparseClip(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(2)

    @tf.function(jit_compile=True)
    def call(self, counts):
        sparse = tf.sparse.from_dense(counts)
        clipped = tf.sparse.minimum(sparse, tf.sparse.from_dense(tf.ones_like(counts)))  # XLA: op
        return self.dense(tf.sparse.to_dense(clipped))


model = SparseClip()


def forward(counts):
    return model(counts)


# --- oracle ---
def ENTRY():
    return forward, (tf.constant([[0.0, 2.0, 3.0], [1.0, 0.0, 4.0]]),)
