"""Source: https://github.com/amirgholami/adahessian/issues/32 ("Performance issue about tf.function": `step` defined inside `cifar_training`, which a sweep calls per setting). The fix: the jit-compiled `step` is built once, with the sweep, and takes the learning rate as a tensor argument, so every setting of the sweep reuses the compiled step."""
import tensorflow as tf


class Sweep(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.reshape(tf.range(12, dtype=tf.float32), [12, 1]) / 60.0 - 0.1)
        self.step = tf.function(self._step, jit_compile=True)

    def _step(self, x, y, lr):
        with tf.GradientTape() as tape:
            logits = tf.matmul(tf.reshape(x, [-1, 12]), self.w)
            loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits))
        grad = tape.gradient(loss, self.w)
        self.w.assign_sub(lr * grad)
        return loss

    def cifar_training(self, images, labels, lr):
        lr = tf.constant(lr, tf.float32)
        self.step(images, labels, lr)
        return self.step(images, labels, lr)


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
    return [_batch() + (0.05,)]
