"""Source: https://github.com/tensorflow/tensorflow/issues/118647 (near miss: the centroid update uses tf.math.divide_no_nan, so an empty cluster gets a zero centroid instead of NaN and argmin agrees with eager)."""
import tensorflow as tf

NUM_CLUSTERS = 3


@tf.function(jit_compile=True)
def kmeans_step(points, assignments):
    sums = tf.math.unsorted_segment_sum(points, assignments, NUM_CLUSTERS)
    sizes = tf.math.unsorted_segment_sum(tf.ones_like(points[:, :1]), assignments, NUM_CLUSTERS)
    centroids = tf.math.divide_no_nan(sums, sizes)
    distances = tf.reduce_sum(tf.square(points[:, None, :] - centroids[None, :, :]), axis=-1)
    return tf.argmin(distances, axis=-1, output_type=tf.int32)


# --- oracle ---
def ENTRY():
    points = tf.constant([[0.0, 0.1], [0.2, 0.0], [5.0, 5.1], [4.9, 5.2]])
    return kmeans_step, (points, tf.constant([0, 0, 1, 1]))
