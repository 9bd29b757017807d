"""Source: https://github.com/tensorflow/tpu/issues/236 ("Compilation failure: Detected unsupported operations ... Where": masked positions found with `tf.where` have a data-dependent length; BERT's TPU recipe instead feeds a fixed number `max_predictions_per_seq` of masked positions padded with weight 0). Here the masked-LM head gathers a fixed-size position tensor and averages with the padding weights inside the jit-compiled loss."""
import tensorflow as tf

SEQ, HIDDEN, VOCAB, MAX_PRED = 8, 6, 11, 3


class MaskedLMHead(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.proj = tf.keras.layers.Dense(VOCAB)

    def call(self, sequence_output, positions, label_ids, weights):
        hidden = tf.gather(sequence_output, positions, batch_dims=1)
        logits = self.proj(hidden)
        loss = tf.keras.losses.sparse_categorical_crossentropy(label_ids, logits, from_logits=True)
        return tf.reduce_sum(loss * weights) / tf.maximum(tf.reduce_sum(weights), 1e-5)


head = MaskedLMHead()
head(tf.zeros([2, SEQ, HIDDEN]), tf.zeros([2, MAX_PRED], tf.int32), tf.zeros([2, MAX_PRED], tf.int32),
     tf.ones([2, MAX_PRED]))


@tf.function(jit_compile=True)
def mlm_loss(sequence_output, positions, label_ids, weights):
    return head(sequence_output, positions, label_ids, weights)


# --- oracle ---
def ENTRY():
    seq = tf.reshape(tf.range(2 * SEQ * HIDDEN, dtype=tf.float32), [2, SEQ, HIDDEN]) / 50.0
    positions = tf.constant([[1, 4, 0], [0, 3, 6]], tf.int32)
    label_ids = tf.constant([[1, 4, 0], [8, 3, 6]], tf.int32)
    weights = tf.constant([[1.0, 1.0, 0.0], [1.0, 1.0, 1.0]])
    return mlm_loss, (seq, positions, label_ids, weights)
