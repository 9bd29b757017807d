"""Source: https://github.com/tensorflow/tensorflow/issues/58135 (near miss, no longer reproduces: a Layer.call decorated with @tf.function inside a model trained with jit_compile raised "left_branch_shape.rank() == right_branch_shape.rank()")."""
import tensorflow as tf


class Chooser(tf.keras.layers.Layer):
    @tf.function
    def call(self, options, choice_logits):
        choices = tf.nn.softmax(choice_logits, axis=2)
        return tf.linalg.matmul(choices, options)


options_in = tf.keras.layers.Input(shape=(10, 3))
choices_in = tf.keras.layers.Input(shape=(5, 10))
net = tf.keras.layers.Flatten()(Chooser()(options_in, choices_in))
model = tf.keras.Model([options_in, choices_in], tf.keras.layers.Dense(1)(net))


@tf.function(jit_compile=True)
def predict(options, choice_logits):
    return model([options, choice_logits])


# --- oracle ---
def ENTRY():
    options = tf.reshape(tf.range(60, dtype=tf.float32) / 60.0, [2, 10, 3])
    logits = tf.reshape(tf.range(100, dtype=tf.float32) / 100.0, [2, 5, 10])
    return predict, (options, logits)
