"""Source: https://github.com/tensorflow/tensorflow/issues/39162 ("Support for TensorList crossing the XLA/TF boundary is not implemented" for a compiled RNN forward pass differentiated outside). The fix the thread converges on: compile the whole training step (tape, gradients and update) as one XLA function, so the loop's TensorList never leaves it. The same hand-written Elman RNN."""
import tensorflow as tf

HIDDEN = 8


class ElmanRNN(tf.Module):
    def __init__(self):
        super().__init__()
        self.w_in = tf.Variable(tf.fill([4, HIDDEN], 0.1))
        self.w_rec = tf.Variable(tf.eye(HIDDEN) * 0.5)
        self.w_out = tf.Variable(tf.fill([HIDDEN, 1], 0.2))

    def forward(self, seq):
        steps = tf.shape(seq)[1]
        h0 = tf.zeros([tf.shape(seq)[0], HIDDEN])

        def body(t, h):
            return t + 1, tf.tanh(tf.matmul(seq[:, t], self.w_in) + tf.matmul(h, self.w_rec))

        _, h = tf.while_loop(lambda t, h: t < steps, body, (tf.constant(0), h0), maximum_iterations=5)
        return tf.matmul(h, self.w_out)


class Trainer:
    def __init__(self):
        self.rnn = ElmanRNN()
        self.optimizer = tf.keras.optimizers.SGD(0.05)

    @tf.function(jit_compile=True)
    def train_step(self, seq, target):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.rnn.forward(seq) - target))
        variables = [self.rnn.w_in, self.rnn.w_rec, self.rnn.w_out]
        grads = tape.gradient(loss, variables)
        self.optimizer.apply_gradients(zip(grads, variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    seq = tf.reshape(tf.range(2 * 5 * 4, dtype=tf.float32), [2, 5, 4]) / 40.0
    return t.train_step, (seq, tf.ones([2, 1]))
