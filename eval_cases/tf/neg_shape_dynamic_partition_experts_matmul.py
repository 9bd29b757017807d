"""Source: https://github.com/tensorflow/tensorflow/issues/105143 (a model that routes rows with tf.dynamic_partition / tf.unique before Dense layers failed under jit_compile with a shape error; this two-expert routing with dynamic_partition and dynamic_stitch compiles on TF 2.21 XLA:CPU)."""
import tensorflow as tf


class TwoExperts(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.experts = [tf.keras.layers.Dense(3), tf.keras.layers.Dense(3)]

    def call(self, x, route):
        parts = tf.dynamic_partition(x, route, 2)
        index_parts = tf.dynamic_partition(tf.range(tf.shape(x)[0]), route, 2)
        outs = [expert(part) for expert, part in zip(self.experts, parts)]
        return tf.dynamic_stitch(index_parts, outs)


model = TwoExperts()


def forward(x, route):
    return model(x, route)


# --- oracle ---
def ENTRY():
    x = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3]) / 12.0
    return forward, (x, tf.constant([0, 1, 1, 0]))
