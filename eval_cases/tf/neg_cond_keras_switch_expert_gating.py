"""Source: https://github.com/tensorflow/tensorflow/issues/35334 (a gating network picks one of two expert layers with `tf.keras.backend.switch` on the gate's output inside a model; switch is an elementwise select here and compiles under XLA)."""
import tensorflow as tf


class GatedExperts(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.gate = tf.keras.layers.Dense(1, activation="sigmoid")
        self.expert_a = tf.keras.layers.Dense(3)
        self.expert_b = tf.keras.layers.Dense(3)

    def call(self, x):
        use_a = self.gate(x) > 0.5
        use_a = tf.broadcast_to(use_a, [tf.shape(x)[0], 3])
        return tf.keras.backend.switch(use_a, self.expert_a(x), self.expert_b(x))


# --- oracle ---
_KEEP = []


def ENTRY():
    model = GatedExperts()
    _KEEP.append(model)
    x = tf.reshape(tf.range(20, dtype=tf.float32), [4, 5]) / 10.0 - 1.0
    return model, (x,)
