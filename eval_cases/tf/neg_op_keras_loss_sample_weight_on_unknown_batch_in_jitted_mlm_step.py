"""Source: https://github.com/tensorflow/tensorflow/issues/43195 ("tf.keras SparseCategoricalCrossentropy with sample_weight on TPU: Error DenseToDenseSetOperation": the run-time broadcast check on the weights needs set operations XLA cannot compile). Here the masked-LM step traced for any batch size computes unreduced token losses and applies the weights itself with a multiply and a weighted mean, so no broadcast check is emitted inside the jit-compiled function."""
import tensorflow as tf

SEQ, VOCAB = 6, 9

proj = tf.keras.layers.Dense(VOCAB)
proj.build((None, SEQ, 4))


@tf.function(
    jit_compile=True,
    input_signature=[
        tf.TensorSpec([None, SEQ, 4], tf.float32),
        tf.TensorSpec([None, SEQ], tf.int32),
        tf.TensorSpec([None, SEQ], tf.float32),
    ],
)
def mlm_loss(hidden, labels, token_weights):
    logits = proj(hidden)
    per_token = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return tf.reduce_sum(per_token * token_weights) / tf.maximum(tf.reduce_sum(token_weights), 1e-6)


# --- oracle ---
def ENTRY():
    hidden = tf.reshape(tf.range(2 * SEQ * 4, dtype=tf.float32), [2, SEQ, 4]) / 48.0
    labels = tf.reshape(tf.range(2 * SEQ) % VOCAB, [2, SEQ])
    weights = tf.constant([[1.0, 1.0, 0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 1.0, 1.0, 1.0, 0.0]])
    return mlm_loss, (hidden, labels, weights)


WRAP = False
