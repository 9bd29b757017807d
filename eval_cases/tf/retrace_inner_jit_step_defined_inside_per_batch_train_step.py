"""Source: https://github.com/google/qhbm-library/issues/246 ("Performance issue in baselines/train.py": `train_step` is called in a for loop over batches, but it defines and calls the `tf.function` `train_inner_step` itself, so every call traces a new graph). Here a variational model's `train_step` defines its jit-compiled inner step on every call, and the training loop calls `train_step` once per batch, so XLA compiles the inner step again for every batch."""
import tensorflow as tf


class VariationalTrainer(tf.Module):
    def __init__(self):
        super().__init__()
        self.theta = tf.Variable(tf.constant([0.3, -0.2, 0.1, 0.05]))

    def train_step(self, batch):
        @tf.function(jit_compile=True)  # XLA: retrace
        def train_inner_step(samples):
            with tf.GradientTape() as tape:
                energy = tf.reduce_sum(samples * self.theta, axis=-1)
                loss = tf.reduce_mean(energy) + 0.5 * tf.reduce_sum(tf.square(self.theta))
            grad = tape.gradient(loss, self.theta)
            self.theta.assign_sub(0.05 * grad)
            return loss

        return train_inner_step(batch)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = VariationalTrainer()
    _KEEP.append(t)
    return t.train_step, (tf.reshape(tf.range(6 * 4, dtype=tf.float32), [6, 4]) / 24.0 - 0.5,)


def ALT_ARGS():
    return [(tf.reshape(tf.range(6 * 4, dtype=tf.float32), [6, 4]) / 12.0 - 1.0,)]
