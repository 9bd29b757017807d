"""Source: https://github.com/tensorflow/tensorflow/issues/56961 ("Wrong gradient in TensorScatterUpdate with duplicated indices": with repeated indices `tf.tensor_scatter_nd_update` keeps one update on the CPU while its gradient sums over all of them; the maintainers conclude that indices must be unique, since with duplicates the result is also unspecified across devices). Here an episodic-memory layer that writes each example's key into the slot chosen by a hash of its id, several examples hitting the same slot, and trains through the write in a jit-compiled step that returns the loss and the gradient of the written keys. Written as the failing case; does not reproduce on TF 2.21 CPU (with duplicate slots the compiled scatter keeps the same update as eager execution, and the gradients agree), so it is a negative."""
import tensorflow as tf

SLOTS = 4


class EpisodicMemory(tf.Module):
    def __init__(self):
        super().__init__()
        self.proj = tf.Variable(tf.reshape(tf.range(6, dtype=tf.float32), [3, 2]) / 6.0)

    @tf.function(jit_compile=True)
    def step(self, features, example_ids):
        with tf.GradientTape() as tape:
            keys = tf.matmul(features, self.proj)
            slots = tf.math.floormod(example_ids * 7, SLOTS)[:, None]
            memory = tf.tensor_scatter_nd_update(tf.zeros([SLOTS, 2]), slots, keys)
            loss = tf.reduce_sum(tf.square(memory - 1.0))
        return memory, loss, tape.gradient(loss, self.proj)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    mem = EpisodicMemory()
    _KEEP.append(mem)
    features = tf.reshape(tf.range(15, dtype=tf.float32), [5, 3]) / 15.0
    return mem.step, (features, tf.constant([0, 4, 1, 8, 2]))
