"""Source: https://github.com/tensorflow/tensorflow/issues/37440 (a FOR loop over the batch dimension inside a custom `tf.keras.losses.Loss` raised "iterating over tf.Tensor is not allowed" in TF 2.1; on TF 2.21 the loss's `call` is converted and the `tf.range` loop compiles)."""
import tensorflow as tf


class PerSampleHuber(tf.keras.losses.Loss):
    def __init__(self, delta=1.0):
        super().__init__(reduction="sum_over_batch_size")
        self.delta = delta

    def call(self, y_true, y_pred):
        n = tf.shape(y_true)[0]
        out = tf.TensorArray(tf.float32, size=n)
        for i in tf.range(n):
            err = tf.abs(y_true[i] - y_pred[i])
            quad = tf.minimum(err, self.delta)
            out = out.write(i, tf.reduce_mean(0.5 * quad ** 2 + self.delta * (err - quad)))
        return out.stack()


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
        self.loss_fn = PerSampleHuber()
        self.optimizer = tf.keras.optimizers.SGD(0.05)

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = self.loss_fn(y, self.model(x))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    x = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3]) / 12.0
    return t.train_step, (x, tf.ones([4, 2]))
