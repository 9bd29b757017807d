"""Source: https://github.com/tensorflow/tensorflow/issues/11275 (the report's requirement met: the training while loop gets a static maximum_iterations, so XLA can size the per-iteration stacks of its gradient); an RNN step loop that reads the input at the time counter, differentiated in a jit-compiled train step."""
import tensorflow as tf

MAX_STEPS = 3


class Trainer:
    def __init__(self):
        self.w_in = tf.Variable([[0.5, -0.2], [0.1, 0.3]])
        self.w_h = tf.Variable([[0.2, 0.0], [0.0, 0.2]])

    @tf.function(jit_compile=True)
    def grads(self, inputs, target):
        steps = tf.shape(inputs)[1]
        with tf.GradientTape() as tape:
            def body(t, h):
                x_t = inputs[:, t]
                return t + 1, tf.tanh(tf.matmul(x_t, self.w_in) + tf.matmul(h, self.w_h))

            _, h = tf.while_loop(lambda t, h: t < steps, body, (tf.constant(0), tf.zeros([2, 2])),
                                 maximum_iterations=MAX_STEPS)
            loss = tf.reduce_mean(tf.square(h - target))
        return tape.gradient(loss, [self.w_in, self.w_h])


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    trainer = Trainer()
    _KEEP.append(trainer)
    inputs = tf.reshape(tf.range(12, dtype=tf.float32) / 12.0, [2, 3, 2])
    return trainer.grads, (inputs, tf.constant([[0.1, 0.2], [0.3, 0.4]]))
