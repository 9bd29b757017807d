"""Source: https://github.com/tensorflow/tensorflow/issues/43195 ("tf.keras SparseCategoricalCrossentropy with sample_weight on TPU: Error DenseToDenseSetOperation": with a per-token weight and a batch dimension unknown at trace time, the weighted-loss path checks at run time that the weights broadcast to the losses, using set operations XLA has no kernel for). Here a masked-LM step traced for any batch size (`input_signature` with `None`) weights its token losses with `tf.compat.v1.losses.sparse_softmax_cross_entropy(..., weights=...)` inside the jit-compiled function. Does not reproduce on TF 2.21 CPU: the weighted loss compiles under `jit_compile=True` and matches eager, so this is a negative."""
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
    return tf.compat.v1.losses.sparse_softmax_cross_entropy(labels, logits, weights=token_weights)


# --- oracle ---
def ENTRY():
    hidden = tf.reshape(tf.range(2 * SEQ * 4, dtype=tf.float32), [2, SEQ, 4]) / 48.0
    labels = tf.reshape(tf.range(2 * SEQ) % VOCAB, [2, SEQ])
    weights = tf.constant([[1.0, 1.0, 0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 1.0, 1.0, 1.0, 0.0]])
    return mlm_loss, (hidden, labels, weights)


WRAP = False
