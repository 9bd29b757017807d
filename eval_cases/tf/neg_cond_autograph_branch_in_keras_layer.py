"""Source: https://github.com/tensorflow/models/pull/4839 (the AutoGraph guide's Keras example: a layer's call branches on a tensor condition with a plain Python `if`, which AutoGraph turns into tf.cond; the layer compiles under jit_compile)."""
import tensorflow as tf


class AdaptiveClip(tf.keras.layers.Layer):
    def call(self, x):
        norm = tf.norm(x)
        if norm > 5.0:
            x = x * (5.0 / norm)
        else:
            x = x * 1.0
        return x


model = tf.keras.Sequential([tf.keras.layers.Dense(4), AdaptiveClip(), tf.keras.layers.Dense(1)])


@tf.function(jit_compile=True)
def forward(x):
    return model(x)


# --- oracle ---
def ENTRY():
    return forward, (tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]),)


def ALT_ARGS():
    return [(tf.ones([2, 3]) * 0.01,)]
