"""Source: https://github.com/tensorflow/tensorflow/issues/26015 ("RaggedTile op results in XlaCompile error when calling gradients": gathering rows of a variable with ragged indices and differentiating the result fails in the gradient of the ragged op). Here a bag-of-words sentence encoder that gathers token embeddings with a ragged batch of ids (built from flat ids and row lengths) and trains the table in a jit-compiled step."""
import tensorflow as tf


class BagEncoder(tf.Module):
    def __init__(self):
        super().__init__()
        self.table = tf.Variable(tf.reshape(tf.range(10 * 4, dtype=tf.float32), [10, 4]) / 40.0)

    @tf.function(jit_compile=True)
    def train_step(self, flat_ids, row_lengths, targets):
        with tf.GradientTape() as tape:
            ids = tf.RaggedTensor.from_row_lengths(flat_ids, row_lengths)  # XLA: op
            vecs = tf.gather(self.table, ids)
            sentence = tf.reduce_mean(vecs, axis=1)
            loss = tf.reduce_mean(tf.square(sentence - targets))
        grad = tape.gradient(loss, self.table)
        self.table.assign_sub(0.1 * tf.convert_to_tensor(grad))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = BagEncoder()
    _KEEP.append(m)
    flat_ids = tf.constant([1, 4, 2, 7, 3, 9])
    row_lengths = tf.constant([3, 2, 1])
    return m.train_step, (flat_ids, row_lengths, tf.zeros([3, 4]))
