"""Source: https://github.com/tensorflow/tensorflow/issues/79798 ("JIT compilation failed" for a lip-reading model of Bidirectional LSTMs trained with a CTC loss on GPU, where the LSTM takes the cuDNN path; on XLA:CPU the same train step compiles)."""
import tensorflow as tf


class LipReader(tf.keras.Model):
    def __init__(self, num_classes=5):
        super().__init__()
        self.rnn = tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(4, return_sequences=True))
        self.out = tf.keras.layers.Dense(num_classes + 1)

    def call(self, frames):
        return self.out(self.rnn(frames))


class Trainer:
    def __init__(self):
        self.model = LipReader()
        self.optimizer = tf.keras.optimizers.Adam(1e-3)

    @tf.function(jit_compile=True)
    def train_step(self, frames, labels, label_length):
        with tf.GradientTape() as tape:
            logits = self.model(frames)
            logit_length = tf.fill([tf.shape(frames)[0]], tf.shape(frames)[1])
            loss = tf.reduce_mean(tf.nn.ctc_loss(labels, logits, label_length, logit_length,
                                                 logits_time_major=False, blank_index=-1))
        variables = self.model.trainable_variables
        self.optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    frames = tf.reshape(tf.range(2 * 6 * 3, dtype=tf.float32), [2, 6, 3]) / 36.0
    labels = tf.constant([[1, 2, 0], [3, 0, 0]])
    return t.train_step, (frames, labels, tf.constant([2, 1]))
