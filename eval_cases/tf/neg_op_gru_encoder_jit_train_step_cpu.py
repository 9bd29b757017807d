"""Source: https://github.com/tensorflow/tensorflow/issues/99385 (tf.function(jit_compile=True) with a Keras GRU fails on XLA_GPU_JIT: no CudnnRNNV3 kernel); on CPU the cuDNN implementation is only a library function the compiled program never calls, so the same train step compiles (tensorflow/tensorflow#83063 says the same of LSTM). Labelled on XLA:CPU."""
import tensorflow as tf


class Encoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.gru = tf.keras.layers.GRU(4)
        self.out = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.out(self.gru(x))


class Trainer:
    def __init__(self):
        self.model = Encoder()
        self.opt = tf.keras.optimizers.SGD(0.1)

    @tf.function(jit_compile=True)
    def step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x) - y))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.opt.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    x = tf.math.sin(tf.reshape(tf.range(2 * 5 * 3, dtype=tf.float32), [2, 5, 3]))
    return t.step, (x, tf.constant([[0.5], [-0.5]]))
