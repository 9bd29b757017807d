"""Source: https://github.com/secondmind-labs/trieste/pull/691 ("Accessing shape directly inside tf.function might produce None values in some contexts"); here a Mask R-CNN style ROI sampler reads the static length of the positives that tf.where selects, which is None while tracing."""
import tensorflow as tf

NEGATIVE_RATIO = 3


@tf.function(jit_compile=True)
def sample_rois(iou, scores):
    positive_indices = tf.where(iou > 0.5)[:, 0]
    negative_indices = tf.where(iou < 0.3)[:, 0]
    negative_count = positive_indices.shape[0] * NEGATIVE_RATIO  # XLA: shape
    negatives = tf.gather(negative_indices, tf.range(tf.minimum(negative_count, tf.size(negative_indices))))
    return tf.reduce_sum(tf.gather(scores, positive_indices)) - tf.reduce_sum(tf.gather(scores, negatives))


# --- oracle ---
def ENTRY():
    iou = tf.constant([0.7, 0.1, 0.2, 0.9, 0.0, 0.4, 0.25])
    return sample_rois, (iou, tf.linspace(0.0, 1.0, 7))
