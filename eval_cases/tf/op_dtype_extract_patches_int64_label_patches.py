"""Source: https://github.com/tensorflow/tensorflow/issues/59061 (tf.image.extract_patches under XLA: No registered 'ExtractImagePatches' OpKernel ... (OpKernel was found, but attributes didn't match) Requested Attributes: T=DT_INT64). Per-patch majority labels of an int64 segmentation map."""
import tensorflow as tf

PATCH = 2
NUM_CLASSES = 3


@tf.function(jit_compile=True)
def patch_labels(label_map):
    labels = tf.cast(label_map, tf.int64)
    patches = tf.image.extract_patches(  # XLA: op
        labels, sizes=[1, PATCH, PATCH, 1], strides=[1, PATCH, PATCH, 1], rates=[1, 1, 1, 1], padding="VALID")
    votes = tf.reduce_sum(tf.one_hot(patches, NUM_CLASSES), axis=-2)
    return tf.argmax(votes, axis=-1)


# --- oracle ---
def ENTRY():
    label_map = tf.reshape(tf.range(2 * 4 * 4) % NUM_CLASSES, [2, 4, 4, 1])
    return patch_labels, (label_map,)
