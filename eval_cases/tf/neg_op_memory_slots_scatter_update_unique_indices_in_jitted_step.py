"""Source: https://github.com/tensorflow/tensorflow/issues/56961 ("Wrong gradient in TensorScatterUpdate with duplicated indices"; the maintainers' conclusion: `tf.tensor_scatter_nd_update` requires unique indices). The near miss: each example of the batch owns its own memory slot (one slot per position in the batch), so the scatter indices are unique, in the same jit-compiled step."""
import tensorflow as tf

SLOTS = 5


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
    return mem.step, (features, tf.constant([0, 1, 2, 3, 4]))
