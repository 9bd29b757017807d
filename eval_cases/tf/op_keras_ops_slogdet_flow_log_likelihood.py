"""Source: https://github.com/keras-team/keras/pull/20200 (adding keras.ops.logdet: "TF logdet will work with XLA, slogdet - no"), here keras.ops.slogdet in the log-likelihood of a linear normalizing flow trained with jit_compile: LogMatrixDeterminant has no XLA_CPU_JIT kernel."""
import keras
import tensorflow as tf


class LinearFlow(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight(name="w", shape=(input_shape[-1], input_shape[-1]), initializer="identity")

    def call(self, x):
        z = tf.matmul(x, self.w)
        _, log_abs_det = keras.ops.slogdet(self.w)  # XLA: op
        log_prob = -0.5 * tf.reduce_sum(z * z, axis=-1) + log_abs_det
        return -tf.reduce_mean(log_prob)


class Trainer:
    def __init__(self):
        self.flow = LinearFlow()
        self.opt = tf.keras.optimizers.SGD(0.01)

    @tf.function(jit_compile=True)
    def step(self, x):
        with tf.GradientTape() as tape:
            loss = self.flow(x)
        grads = tape.gradient(loss, self.flow.trainable_variables)
        self.opt.apply_gradients(zip(grads, self.flow.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.step, (tf.math.cos(tf.reshape(tf.range(6 * 3, dtype=tf.float32), [6, 3])),)
