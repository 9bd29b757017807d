"""Source: https://github.com/tensorflow/tensorflow/issues/101181 (fix: return numeric class ids from the compiled call and map them to names after it; the compiled part contains no string tensor)."""
import tensorflow as tf

CLASS_NAMES = tf.constant(["ham", "spam"])


class SpamFilter(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1, activation="sigmoid")

    @tf.function(jit_compile=True)
    def call(self, features):
        prob = tf.squeeze(self.dense(features), -1)
        return tf.cast(prob > 0.5, tf.int32)


model = SpamFilter()


def classify(features):
    return model(features)


def class_names(features):
    return tf.gather(CLASS_NAMES, classify(features))


# --- oracle ---
def ENTRY():
    return classify, (tf.constant([[3.0, -1.0], [-2.0, 0.5]]),)
