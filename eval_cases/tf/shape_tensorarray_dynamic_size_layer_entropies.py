"""Source: https://github.com/tensorflow/tensorflow/issues/127528 (a TensorArray created with size=0 and dynamic_size=True inside a jit-compiled function: XLA freezes the buffer at 0 elements, so the stacked result is empty instead of one entry per iteration)."""
import tensorflow as tf


class DeepStack(tf.keras.Model):
    def __init__(self, depth=3):
        super().__init__()
        self.blocks = [tf.keras.layers.Dense(6, activation="tanh") for _ in range(depth)]

    def call(self, x):
        entropies = tf.TensorArray(tf.float32, size=0, dynamic_size=True)  # XLA: shape
        for i, block in enumerate(self.blocks):
            x = block(x)
            p = tf.nn.softmax(x, axis=-1)
            entropies = entropies.write(i, -tf.reduce_mean(tf.reduce_sum(p * tf.math.log(p + 1e-9), axis=-1)))
        return x, entropies.stack()


model = DeepStack()


def forward(x):
    _, layer_entropy = model(x)
    return layer_entropy


# --- oracle ---
def ENTRY():
    return forward, (tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]) / 8.0,)
