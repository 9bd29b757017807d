"""Source: https://github.com/tensorflow/tensorflow/issues/25143 ("Ambiguous/dynamic shape during `xla.compile` when using `tf.custom_gradient` and `tf.while_loop`": a `while_loop` whose body applies a custom-gradient op is differentiated inside the XLA computation). On TF 2.21 the gradient of the loop fails with "XLA compilation requires a fixed tensor list size": the loop has no `maximum_iterations`, so its gradient accumulators cannot be sized. Here an iterative refinement network with gradient clipping via `tf.custom_gradient`, trained in a jit-compiled step."""
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
            _, h = tf.while_loop(lambda i, h: i < 5, body, (0, tf.zeros_like(x)))  # XLA: op
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
