"""Source: https://github.com/tensorflow/tensorflow/issues/122057 (a near miss of the report's data-dependent sizes: the element tf.map_fn hands its function is only a start offset and a class index; every window has a static width and the one-hot depth is a config constant, so XLA lowers the slices to dynamic-slices of a static size)."""
import tensorflow as tf

WINDOW = 3
NUM_CLASSES = 4


@tf.function(jit_compile=True)
def window_scores(signal, starts, classes):
    def score(args):
        start, cls = args
        window = signal[start:start + WINDOW]
        return tf.reduce_sum(window) * tf.reduce_sum(tf.one_hot(cls, NUM_CLASSES) * tf.range(NUM_CLASSES, dtype=tf.float32))

    return tf.map_fn(score, (starts, classes), fn_output_signature=tf.float32)


# --- oracle ---
def ENTRY():
    return window_scores, (tf.range(8, dtype=tf.float32), tf.constant([0, 2, 5]), tf.constant([1, 3, 0]))
