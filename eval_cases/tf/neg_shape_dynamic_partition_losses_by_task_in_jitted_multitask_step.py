"""Source: https://github.com/tensorflow/tensorflow/issues/23918 ("tf.dynamic_partition may cause NaN loss when use it with multi gpus": the per-example losses are split by an API selector with `tf.dynamic_partition` (or `tf.boolean_mask`) inside an XLA-compiled tower). Here a multi-task trainer splits per-example losses by task id with `tf.dynamic_partition` and averages each task's part inside its jit-compiled train step. Does not reproduce on TF 2.21 CPU: `DynamicPartition` compiles with bounded dynamic shapes and the means agree with eager, so this is a negative."""
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
            parts = tf.dynamic_partition(per_example, task_id, num_partitions=2)
            loss = tf.reduce_mean(parts[0]) + tf.reduce_mean(parts[1])
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
