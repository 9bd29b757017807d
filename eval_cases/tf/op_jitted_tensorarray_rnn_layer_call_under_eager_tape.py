"""Source: https://github.com/tensorflow/tensorflow/issues/39060 ("XLA function crashed when called under GradientTape": a layer whose `call` is compiled with `experimental_compile=True` writes its per-step outputs to a `TensorArray`, and calling it under an eager `GradientTape` crashes; the suggested workaround is to remove the decorator from the layer's `call`). Here a custom recurrent layer with a jit-compiled `call` that collects its states in a `TensorArray`, trained with an eager tape."""
import tensorflow as tf


class SimpleRecurrence(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.cell = tf.keras.layers.Dense(units, activation="tanh")

    @tf.function(jit_compile=True)
    def call(self, sequence):
        steps = sequence.shape[1]
        state = tf.zeros([tf.shape(sequence)[0], self.units])
        outputs = tf.TensorArray(tf.float32, size=steps)
        for t in tf.range(steps):
            state = self.cell(tf.concat([sequence[:, t], state], axis=-1))
            outputs = outputs.write(t, state)
        return tf.transpose(outputs.stack(), [1, 0, 2])


class Trainer:
    def __init__(self):
        self.rnn = SimpleRecurrence(6)
        self.head = tf.keras.layers.Dense(1)
        self.rnn(tf.zeros([1, 5, 3]))
        self.head.build([None, 6])
        self.optimizer = tf.keras.optimizers.SGD(1e-2)

    def train_step(self, sequence, target):
        variables = self.rnn.trainable_variables + self.head.trainable_variables
        with tf.GradientTape() as tape:
            states = self.rnn(sequence)
            loss = tf.reduce_mean(tf.square(self.head(states[:, -1]) - target))
        grads = tape.gradient(loss, variables)  # XLA: op
        self.optimizer.apply_gradients(zip(grads, variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    sequence = tf.reshape(tf.range(2 * 5 * 3, dtype=tf.float32), [2, 5, 3]) / 30.0
    return t.train_step, (sequence, tf.constant([[0.5], [-0.5]]))
