"""Source: https://github.com/tensorflow/tensorflow/issues/101181 (XLA JIT compilation fails with string operations in tf.where: a compiled Keras call maps predictions to class-name strings with SelectV2 on DT_STRING)."""
import tensorflow as tf


class SpamFilter(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1, activation="sigmoid")

    @tf.function(jit_compile=True)
    def call(self, features):
        prob = tf.squeeze(self.dense(features), -1)
        return tf.where(prob > 0.5, "spam", "ham")  # XLA: op


model = SpamFilter()


def classify(features):
    return model(features)


# --- oracle ---
def ENTRY():
    return classify, (tf.constant([[3.0, -1.0], [-2.0, 0.5]]),)
