"""Source: https://github.com/tensorflow/tensorflow/issues/26015 ("RaggedTile op results in XlaCompile error when calling gradients" for a gather with ragged indices). The usual XLA form: a padded id matrix with a length mask, a dense gather and a masked mean; the same bag-of-words encoder trained in a jit-compiled step."""
import tensorflow as tf


class BagEncoder(tf.Module):
    def __init__(self):
        super().__init__()
        self.table = tf.Variable(tf.reshape(tf.range(10 * 4, dtype=tf.float32), [10, 4]) / 40.0)

    @tf.function(jit_compile=True)
    def train_step(self, padded_ids, row_lengths, targets):
        with tf.GradientTape() as tape:
            mask = tf.sequence_mask(row_lengths, maxlen=padded_ids.shape[1], dtype=tf.float32)
            vecs = tf.gather(self.table, padded_ids) * mask[..., tf.newaxis]
            sentence = tf.reduce_sum(vecs, axis=1) / tf.reduce_sum(mask, axis=1, keepdims=True)
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
    padded_ids = tf.constant([[1, 4, 2], [7, 3, 0], [9, 0, 0]])
    row_lengths = tf.constant([3, 2, 1])
    return m.train_step, (padded_ids, row_lengths, tf.zeros([3, 4]))
