"""Source: https://github.com/keras-team/keras/issues/21366 (near miss: LossScaleOptimizer crashed under jit_compile with MirroredStrategy and mixed_float16 through merge_call; on TF 2.21 XLA:CPU without a multi-replica strategy the loss-scaled step compiles)."""
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(2)])
        self.optimizer = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(0.1))

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            logits = self.model(x)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y, logits, from_logits=True))
            scaled = self.optimizer.get_scaled_loss(loss)
        grads = self.optimizer.get_unscaled_gradients(tape.gradient(scaled, self.model.trainable_variables))
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.train_step, (tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]) / 8.0, tf.constant([0, 1]))
