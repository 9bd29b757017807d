"""Source: https://github.com/google/qhbm-library/issues/246 ("Performance issue in baselines/train.py": a `tf.function` defined inside a function that is called per batch). The fix the report suggests: the variational trainer builds its jit-compiled inner step once, in `__init__`, and `train_step` only calls it, so every batch reuses one compiled program."""
import tensorflow as tf


class VariationalTrainer(tf.Module):
    def __init__(self):
        super().__init__()
        self.theta = tf.Variable(tf.constant([0.3, -0.2, 0.1, 0.05]))
        self._inner = tf.function(self._train_inner_step, jit_compile=True)

    def _train_inner_step(self, samples):
        with tf.GradientTape() as tape:
            energy = tf.reduce_sum(samples * self.theta, axis=-1)
            loss = tf.reduce_mean(energy) + 0.5 * tf.reduce_sum(tf.square(self.theta))
        grad = tape.gradient(loss, self.theta)
        self.theta.assign_sub(0.05 * grad)
        return loss

    def train_step(self, batch):
        return self._inner(batch)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = VariationalTrainer()
    _KEEP.append(t)
    return t.train_step, (tf.reshape(tf.range(6 * 4, dtype=tf.float32), [6, 4]) / 24.0 - 0.5,)


def ALT_ARGS():
    return [(tf.reshape(tf.range(6 * 4, dtype=tf.float32), [6, 4]) / 12.0 - 1.0,)]
