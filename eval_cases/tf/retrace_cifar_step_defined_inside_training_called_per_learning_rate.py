"""Source: https://github.com/amirgholami/adahessian/issues/32 ("Performance issue about tf.function": `cifar_training` is called in a for loop over experiment settings, but it defines the `tf.function` `step` inside itself, so each call builds a new graph). Here a small CIFAR-style sweep defines its jit-compiled `step` inside `cifar_training`, and the sweep calls it once per learning rate, compiling the step again for every setting."""
import tensorflow as tf


class Sweep(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.reshape(tf.range(12, dtype=tf.float32), [12, 1]) / 60.0 - 0.1)

    def cifar_training(self, images, labels, lr):
        @tf.function(jit_compile=True)  # XLA: retrace
        def step(x, y):
            with tf.GradientTape() as tape:
                logits = tf.matmul(tf.reshape(x, [-1, 12]), self.w)
                loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits))
            grad = tape.gradient(loss, self.w)
            self.w.assign_sub(lr * grad)
            return loss

        step(images, labels)
        return step(images, labels)


# --- oracle ---
_KEEP = []
WRAP = False


def _batch():
    images = tf.reshape(tf.range(4 * 2 * 2 * 3, dtype=tf.float32), [4, 2, 2, 3]) / 48.0
    labels = tf.constant([[1.0], [0.0], [1.0], [0.0]])
    return images, labels


def ENTRY():
    s = Sweep()
    _KEEP.append(s)
    return s.cifar_training, _batch() + (0.1,)


def ALT_ARGS():
    return [_batch() + (0.1,)]
