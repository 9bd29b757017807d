"""Source: https://github.com/tensorflow/tensorflow/issues/29427 (per-example gradients collected in a TensorArray from a `for i in tf.range(batch)` loop with an `if` inside the GradientTape failed on TF 2.0a0; on TF 2.21 XLA:CPU the converted loop and branch compile)."""
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"), tf.keras.layers.Dense(1)])
        self.model.build([None, 3])

    @tf.function(jit_compile=True)
    def per_example_grad_norms(self, data, targets):
        batch_size = data.shape[0]
        norms = tf.TensorArray(tf.float32, size=batch_size)
        for i in tf.range(batch_size):
            with tf.GradientTape() as tape:
                pred = self.model(data[i][tf.newaxis, :])
                if targets[i] > 0.0:
                    loss = tf.reduce_sum(tf.square(pred - targets[i]))
                else:
                    loss = tf.reduce_sum(tf.abs(pred))
            grads = tape.gradient(loss, self.model.trainable_variables)
            norms = norms.write(i, tf.linalg.global_norm(grads))
        return norms.stack()


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    data = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3]) / 12.0
    return t.per_example_grad_norms, (data, tf.constant([1.0, -1.0, 0.5, 0.0]))
