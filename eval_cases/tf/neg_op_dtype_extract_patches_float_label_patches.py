"""Source: https://github.com/tensorflow/tensorflow/issues/59061 (ExtractImagePatches has no XLA kernel for T=DT_INT64). Per-patch majority labels with the one-hot votes extracted as float32 patches compile."""
import tensorflow as tf

PATCH = 2
NUM_CLASSES = 3


@tf.function(jit_compile=True)
def patch_labels(label_map):
    one_hot = tf.one_hot(label_map[..., 0], NUM_CLASSES)
    patches = tf.image.extract_patches(
        one_hot, sizes=[1, PATCH, PATCH, 1], strides=[1, PATCH, PATCH, 1], rates=[1, 1, 1, 1], padding="VALID")
    votes = tf.reduce_sum(tf.reshape(patches, [-1, 2, 2, PATCH * PATCH, NUM_CLASSES]), axis=-2)
    return tf.argmax(votes, axis=-1)


# --- oracle ---
def ENTRY():
    label_map = tf.reshape(tf.range(2 * 4 * 4) % NUM_CLASSES, [2, 4, 4, 1])
    return patch_labels, (label_map,)
