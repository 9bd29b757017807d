"""Source: https://github.com/tensorflow/tensorflow/issues/23918 ("tf.dynamic_partition may cause NaN loss when use it with multi gpus"). The static-shape rewrite of the multi-task loss: weight every per-example loss by a one-hot task mask and divide by each task's count, so no partition with a data-dependent size is built inside the jit-compiled step."""
import tensorflow as tf


class MultiTaskTrainer(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.constant([[0.2, -0.1], [0.05, 0.3], [-0.25, 0.1]]))

    @tf.function(jit_compile=True)
    def train_step(self, x, y, task_id):
        with tf.GradientTape() as tape:
            pred = tf.matmul(x, self.w)
            per_example = tf.reduce_sum(tf.square(pred - y), axis=-1)
            onehot = tf.one_hot(task_id, 2)
            sums = tf.reduce_sum(onehot * per_example[:, None], axis=0)
            counts = tf.maximum(tf.reduce_sum(onehot, axis=0), 1.0)
            loss = tf.reduce_sum(sums / counts)
        grad = tape.gradient(loss, self.w)
        self.w.assign_sub(0.1 * grad)
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = MultiTaskTrainer()
    _KEEP.append(t)
    x = tf.reshape(tf.range(5 * 3, dtype=tf.float32), [5, 3]) / 15.0
    y = tf.reshape(tf.range(5 * 2, dtype=tf.float32), [5, 2]) / 10.0
    task_id = tf.constant([0, 1, 1, 0, 1])
    return t.train_step, (x, y, task_id)
