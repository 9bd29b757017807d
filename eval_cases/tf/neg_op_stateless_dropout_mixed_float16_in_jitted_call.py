"""Source: https://github.com/tensorflow/tensorflow/issues/59678 ("Stateless dropout broken on mixed_float16 with XLA": with the `mixed_float16` policy and `enable_tf_random_generator()`, a Keras Dropout layer called in training mode inside `tf.function(jit_compile=True)` failed on GPU because the stateless uniform op had no half kernel). Does not reproduce on TF 2.21 CPU: it compiles. A small mixed-precision classifier head with dropout, called in training mode."""
import tensorflow as tf

tf.keras.mixed_precision.set_global_policy("mixed_float16")
tf.keras.backend.experimental.enable_tf_random_generator()


class Head(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(8, activation="relu")
        self.dropout = tf.keras.layers.Dropout(0.5)
        self.out = tf.keras.layers.Dense(3, dtype="float32")

    def call(self, x):
        return self.out(self.dropout(self.hidden(x), training=True))


# --- oracle ---
COMPARE = False


def ENTRY():
    model = Head()
    return model, (tf.constant([[0.1, 0.2], [0.3, 0.4]], dtype=tf.float32),)
