"""Source: https://github.com/secondmind-labs/trieste/pull/691 (the fix: read shapes with tf.shape inside a tf.function, not from the static shape that may be None); a Mask R-CNN style ROI sampler counting the positives tf.where selects with tf.shape."""
import tensorflow as tf

NEGATIVE_RATIO = 3


@tf.function(jit_compile=True)
def sample_rois(iou, scores):
    positive_indices = tf.where(iou > 0.5)[:, 0]
    negative_indices = tf.where(iou < 0.3)[:, 0]
    negative_count = tf.shape(positive_indices)[0] * NEGATIVE_RATIO
    mask = tf.cast(tf.range(tf.size(negative_indices)) < negative_count, scores.dtype)
    return tf.reduce_sum(tf.gather(scores, positive_indices)) - tf.reduce_sum(tf.gather(scores, negative_indices) * mask)


# --- oracle ---
def ENTRY():
    iou = tf.constant([0.7, 0.1, 0.2, 0.9, 0.0, 0.4, 0.25])
    return sample_rois, (iou, tf.linspace(0.0, 1.0, 7))
