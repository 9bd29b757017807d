"""Source: https://github.com/tensorflow/tpu/issues/236 ("Compilation failure: Detected unsupported operations ... Where": a grammar-correction model finds its masked positions with `flat_positions = tf.cast(mask, tf.int32) * tf.range(...)` followed by `tf.where` on the int32 tensor, whose result length depends on the data). Here a masked-LM head gathers the hidden states at the positions `tf.where` finds inside the jit-compiled loss. Does not reproduce on TF 2.21 CPU: XLA on CPU compiles `tf.where` with a bounded dynamic size here and matches eager, so this is a negative (TPU verdicts may differ)."""
import tensorflow as tf

SEQ, HIDDEN, VOCAB = 8, 6, 11


class MaskedLMHead(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.proj = tf.keras.layers.Dense(VOCAB)

    def call(self, sequence_output, masked_flags, labels):
        flat_mask = tf.reshape(masked_flags, [-1])
        flat_positions = flat_mask * tf.range(1, tf.shape(flat_mask)[0] + 1)
        positions = tf.where(flat_positions)[:, 0]
        flat_seq = tf.reshape(sequence_output, [-1, HIDDEN])
        logits = self.proj(tf.gather(flat_seq, positions))
        gold = tf.gather(tf.reshape(labels, [-1]), positions)
        loss = tf.keras.losses.sparse_categorical_crossentropy(gold, logits, from_logits=True)
        return tf.reduce_mean(loss)


head = MaskedLMHead()
head(tf.zeros([2, SEQ, HIDDEN]), tf.ones([2, SEQ], tf.int32), tf.zeros([2, SEQ], tf.int32))


@tf.function(jit_compile=True)
def mlm_loss(sequence_output, masked_flags, labels):
    return head(sequence_output, masked_flags, labels)


# --- oracle ---
def ENTRY():
    seq = tf.reshape(tf.range(2 * SEQ * HIDDEN, dtype=tf.float32), [2, SEQ, HIDDEN]) / 50.0
    flags = tf.constant([[0, 1, 0, 0, 1, 0, 0, 0], [1, 0, 0, 1, 0, 0, 1, 0]], tf.int32)
    labels = tf.reshape(tf.range(2 * SEQ) % VOCAB, [2, SEQ])
    return mlm_loss, (seq, flags, labels)
