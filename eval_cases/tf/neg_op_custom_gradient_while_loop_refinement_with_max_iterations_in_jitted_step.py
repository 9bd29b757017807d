"""Source: https://github.com/tensorflow/tensorflow/issues/25143 (differentiating a `tf.while_loop` with a `tf.custom_gradient` body inside an XLA computation). The fix the TF error message itself suggests, used here: the loop is given `maximum_iterations=5`, so its gradient accumulators have a fixed size and the training step compiles."""
import tensorflow as tf


@tf.custom_gradient
def clip_gradient(x):
    def grad(dy):
        return tf.clip_by_norm(dy, 1.0)
    return tf.identity(x), grad


class RefinementTrainer(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.fill([4], 0.5))
        self.optimizer = tf.keras.optimizers.SGD(0.1)

    @tf.function(jit_compile=True)
    def train_step(self, x, target):
        with tf.GradientTape() as tape:
            def body(i, h):
                return i + 1, tf.tanh(clip_gradient(h * self.w + x))
            _, h = tf.while_loop(lambda i, h: i < 5, body, (0, tf.zeros_like(x)), maximum_iterations=5)
            loss = tf.reduce_sum(tf.square(h - target))
        grads = tape.gradient(loss, [self.w])
        self.optimizer.apply_gradients(zip(grads, [self.w]))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = RefinementTrainer()
    _KEEP.append(t)
    return t.train_step, (tf.constant([0.1, 0.2, -0.3, 0.4]), tf.constant([0.5, 0.0, -0.5, 0.2]))
