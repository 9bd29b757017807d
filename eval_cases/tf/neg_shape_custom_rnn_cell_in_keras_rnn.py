"""Source: https://github.com/tensorflow/tensorflow/issues/39904 (a custom RNN cell under XLA failed with "operator arguments that represent shapes or dimensions be evaluated to concrete values"; closed as fixed in later releases: a Keras RNN over a custom cell compiles)."""
import tensorflow as tf


class MinimalGRUCell(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.state_size = units

    def build(self, input_shape):
        dim = input_shape[-1]
        self.kernel = self.add_weight(name="kernel", shape=(dim, 2 * self.units), initializer="glorot_uniform")
        self.recurrent = self.add_weight(name="recurrent", shape=(self.units, 2 * self.units), initializer="orthogonal")

    def call(self, inputs, states):
        h = states[0]
        z, c = tf.split(tf.matmul(inputs, self.kernel) + tf.matmul(h, self.recurrent), 2, axis=-1)
        z = tf.sigmoid(z)
        h_new = z * h + (1.0 - z) * tf.tanh(c)
        return h_new, [h_new]


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.RNN(MinimalGRUCell(8)), tf.keras.layers.Dense(3)])
        self.optimizer = tf.keras.optimizers.SGD(0.1)

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            logits = self.model(x)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y, logits, from_logits=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    x = tf.reshape(tf.range(2 * 5 * 4, dtype=tf.float32), [2, 5, 4]) / 40.0
    return t.train_step, (x, tf.constant([0, 2]))
