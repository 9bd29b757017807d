"""Source: https://github.com/tensorflow/tensorflow/issues/47139 (InaccessibleTensorError: nested Python for loops over tensors append per-pair cosine losses to a list)."""
import tensorflow as tf

cosine_loss = tf.keras.losses.CosineSimilarity(axis=0, reduction=tf.keras.losses.Reduction.NONE)


def pairwise_similarity(a_rows, b_rows):
    scores = []
    for b in b_rows:
        for a in a_rows:
            scores.append(-cosine_loss(a, b))  # XLA: cond
    return tf.stack(scores)


# --- oracle ---
def ENTRY():
    return pairwise_similarity, (tf.constant([[1.0, 1.0, 1.0], [1.0, 3.0, 1.0]]), tf.constant([[1.0, 1.0, 1.0]]))
